/**
 * An S3 destination in a job (defaults, errors naming the field) and the S3 keys: read from the
 * environment only, and in no outcome or log line (against a real versitygw server).
 */
import { describe, expect, it } from 'vitest';
import {
  createS3Client,
  parseS3Destination,
  s3CredentialsFromEnv,
  S3DestinationError,
  uploadRunFiles,
} from '../../activities/delivery/index.js';
import { useS3Bed, where } from '../helpers/s3-delivery.js';

const bed = useS3Bed();

describe('S3 destination in a job', () => {
  const job = (s3Fields: Record<string, unknown>) => ({ id: 'weekly', delivery: [{ s3: s3Fields }] });
  const parseJobDest = (j: ReturnType<typeof job>) => parseS3Destination(j.delivery[0], 'delivery[0]');

  it('applies the defaults: empty prefix, us-east-1, path style only with an endpoint', () => {
    expect(parseS3Destination({ s3: { bucket: 'vir-reports' } })).toEqual({
      bucket: 'vir-reports',
      prefix: '',
      region: 'us-east-1',
      forcePathStyle: false,
    });
    expect(
      parseS3Destination({ s3: { bucket: 'vir-reports', endpoint: 'http://127.0.0.1:9000' } }),
    ).toMatchObject({
      forcePathStyle: true,
    });
    expect(
      parseS3Destination({
        s3: { bucket: 'vir-reports', endpoint: 'https://s3.example.com', forcePathStyle: false },
      }),
    ).toMatchObject({ forcePathStyle: false });
  });

  it.each([
    [
      { bucket: 'My_Reports' },
      'delivery[0].s3.bucket',
      /"My_Reports" is not a valid S3 bucket name: it may hold only lowercase/,
    ],
    [{ bucket: 'ab' }, 'delivery[0].s3.bucket', /3 to 63 characters/],
    [{ bucket: '192.168.1.10' }, 'delivery[0].s3.bucket', /IP address/],
    [{ bucket: 'reports..x' }, 'delivery[0].s3.bucket', /two adjacent dots/],
    [{}, 'delivery[0].s3.bucket', /is required/],
    [
      { bucket: 'ok-bucket', endpoint: 'ftp://files.example.com' },
      'delivery[0].s3.endpoint',
      /http:\/\/ or https:\/\//,
    ],
    [{ bucket: 'ok-bucket', endpoint: 'not a url' }, 'delivery[0].s3.endpoint', /is not a URL/],
    [{ bucket: 'ok-bucket', prefix: 'a//b' }, 'delivery[0].s3.prefix', /empty/],
    [{ bucket: 'ok-bucket', secretAccessKey: 'x' }, 'delivery[0].s3', /secretAccessKey/],
  ])('rejects %j naming %s', (fields, field, text) => {
    let error: unknown;
    try {
      parseJobDest(job(fields));
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(S3DestinationError);
    expect((error as S3DestinationError).field).toBe(field);
    expect((error as Error).message).toContain(`${field}: `);
    expect((error as Error).message).toMatch(text);
  });
});

describe('S3 secrets', () => {
  it('reads keys from the environment only, VIR_S3_* before AWS_*', () => {
    expect(s3CredentialsFromEnv({})).toBeNull();
    expect(s3CredentialsFromEnv({ AWS_ACCESS_KEY_ID: 'a', AWS_SECRET_ACCESS_KEY: 'b' })).toEqual({
      accessKeyId: 'a',
      secretAccessKey: 'b',
    });
    expect(
      s3CredentialsFromEnv({
        VIR_S3_ACCESS_KEY_ID: 'v',
        VIR_S3_SECRET_ACCESS_KEY: 'w',
        AWS_ACCESS_KEY_ID: 'a',
        AWS_SECRET_ACCESS_KEY: 'b',
      }),
    ).toEqual({ accessKeyId: 'v', secretAccessKey: 'w' });
    expect(() => s3CredentialsFromEnv({ VIR_S3_ACCESS_KEY_ID: 'v' })).toThrow(
      'VIR_S3_ACCESS_KEY_ID is set but VIR_S3_SECRET_ACCESS_KEY is not',
    );
    expect(() => s3CredentialsFromEnv({ VIR_S3_SECRET_ACCESS_KEY: 'hush-hush' })).toThrow(/^(?!.*hush-hush)/);
  });

  it('puts no secret in outcomes or log lines, whether the upload works or the keys are wrong', async () => {
    const bucket = await bed.newBucket();
    const dest = bed.destination(bucket);
    const env = {
      VIR_S3_ACCESS_KEY_ID: bed.s3.accessKeyId,
      VIR_S3_SECRET_ACCESS_KEY: bed.s3.secretAccessKey,
    };
    const lines: string[] = [];
    const log = (message: string, fields: Record<string, unknown>) =>
      lines.push(JSON.stringify({ message, ...fields }));
    const client = createS3Client(dest, s3CredentialsFromEnv(env));
    const good = await uploadRunFiles(dest, bed.files.slice(0, 2), where, { client, log });
    client.destroy();
    const wrongSecret = `${bed.s3.secretAccessKey}-wrong`;
    const badClient = createS3Client(dest, { accessKeyId: bed.s3.accessKeyId, secretAccessKey: wrongSecret });
    const bad = await uploadRunFiles(dest, bed.files.slice(0, 1), where, { client: badClient, log });
    badClient.destroy();

    expect(good.ok, good.detail).toBe(true);
    expect(bad.ok).toBe(false);
    expect(bad.detail).toMatch(/SignatureDoesNotMatch|AccessDenied|InvalidAccessKeyId/);
    expect(lines.length).toBeGreaterThanOrEqual(3);
    const everything = JSON.stringify({ good, bad, lines });
    expect(everything).not.toContain(bed.s3.secretAccessKey);
    expect(everything).not.toContain(wrongSecret);
  });
});
