/**
 * The claim-check store in an S3 bucket, against a real S3-compatible server (versitygw, posix
 * backend): documents and files round-trip, a second write of the same document or file leaves
 * the same object (the server's own ETag and bytes), a missing object is an error naming the
 * reference, the bucket and the key, and references that leave the store are refused.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3CredentialsFromEnv, withEnvEndpoint } from '../../activities/delivery/s3-client.js';
import { S3Store } from '../../activities/s3-store.js';
import { StoreObjectMissingError, StoreRefError } from '../../activities/store.js';
import { startS3Server, type S3Server } from '../helpers/s3-server.js';

let s3: S3Server;
let admin: S3Client;
let store: S3Store;
let dir: string;
const bucket = 'vir-store';

beforeAll(async () => {
  s3 = await startS3Server();
  admin = new S3Client({
    endpoint: s3.endpoint,
    region: s3.region,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  });
  await admin.send(new CreateBucketCommand({ Bucket: bucket }));
  // The worker's environment: the S3 delivery's variables (keys, endpoint), nothing else.
  store = S3Store.fromEnv(
    { bucket, prefix: 'prod/vir' },
    {
      VIR_S3_ENDPOINT: s3.endpoint,
      VIR_S3_ACCESS_KEY_ID: s3.accessKeyId,
      VIR_S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    },
  );
  dir = await mkdtemp(join(tmpdir(), 'vir-s3-store-'));
});

afterAll(async () => {
  store?.close();
  admin?.destroy();
  await s3?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const head = (key: string) => admin.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
/** The object's bytes as the server keeps them (its posix backend: a file per object). */
const onServer = (key: string) => readFile(join(s3.dir, bucket, key));

describe('S3Store', () => {
  it('writes a run document under <prefix>/runs/<run>/ and reads it back', async () => {
    const page = { operation: 'search_startups', result: { data: { startups: [{ key: 'acme' }] } } };
    const ref = await store.putJson('market-weekly/2026', 'pages/startups-germany-0000', page);
    expect(ref).toBe('runs/market-weekly-2026/pages/startups-germany-0000.json');
    expect(store.urlOf(ref)).toBe(`s3://${bucket}/prod/vir/${ref}`);
    expect(store.refOf(store.urlOf(ref))).toBe(ref);
    expect(store.refOf(`s3://other-bucket/prod/vir/${ref}`)).toBeNull();
    expect(await store.getJson(ref)).toEqual(page);
    expect(JSON.parse((await onServer(`prod/vir/${ref}`)).toString('utf8'))).toEqual(page);
  });

  it('a document written again with the same value is the same object (ETag and bytes)', async () => {
    const value = { key: 'snap', figures: [1, 2, 3], at: '2026-11-23T07:00:00Z' };
    const ref = await store.putJsonAt('snapshots/weekly/latest.json', value);
    const first = await head(`prod/vir/${ref}`);
    const bytes = await onServer(`prod/vir/${ref}`);
    await store.putJsonAt(ref, value);
    const second = await head(`prod/vir/${ref}`);
    expect(second.ETag).toBe(first.ETag);
    expect(second.ContentLength).toBe(first.ContentLength);
    expect((await onServer(`prod/vir/${ref}`)).equals(bytes)).toBe(true);
    // The ETag of a single PUT is the MD5 of the bytes: the server holds exactly what was sent.
    expect(first.ETag).toBe(`"${createHash('md5').update(JSON.stringify(value)).digest('hex')}"`);
  });

  it('a file written twice is one object with the same bytes; the second write sends nothing', async () => {
    const body = randomBytes(200_000);
    const path = join(dir, 'report.pdf');
    await writeFile(path, body);
    const ref = 'reports/run-1/report.pdf';
    await store.putFile(ref, path, 'application/pdf');
    const first = await head(`prod/vir/${ref}`);
    await store.putFile(ref, path, 'application/pdf');
    const second = await head(`prod/vir/${ref}`);
    expect(second.ETag).toBe(first.ETag);
    expect(second.LastModified).toEqual(first.LastModified);
    expect(first.ContentType).toBe('application/pdf');
    expect(first.Metadata?.sha256).toBe(createHash('sha256').update(body).digest('hex'));
    expect((await onServer(`prod/vir/${ref}`)).equals(body)).toBe(true);

    const copy = join(dir, 'copies', 'report.pdf');
    await store.getFile(ref, copy);
    expect((await readFile(copy)).equals(body)).toBe(true);
  });

  it('reading a missing document or file is a non-retryable error naming the reference, the bucket and the key', async () => {
    const ref = 'runs/nobody/pages/none.json';
    const err = await store.getJson(ref).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreObjectMissingError);
    const missing = err as StoreObjectMissingError;
    expect(missing.message).toBe(`the store holds no ${ref} (bucket ${bucket}, key prod/vir/${ref})`);
    expect(missing.code).toBe('store_object_missing');
    expect(missing.type).toBe('StoreObjectMissing');
    expect(missing.nonRetryable).toBe(true);
    await expect(store.getFile('reports/nobody/x.pdf', join(dir, 'x.pdf'))).rejects.toThrow(
      /the store holds no reports\/nobody\/x\.pdf \(bucket vir-store, key prod\/vir\/reports\/nobody\/x\.pdf\)/,
    );
  });

  it('refuses references that leave the store', async () => {
    for (const ref of [
      '../outside.json',
      '/etc/passwd',
      'runs/../../outside.json',
      'runs//x.json',
      '',
      'a\\b',
    ]) {
      await expect(store.getJson(ref), ref).rejects.toBeInstanceOf(StoreRefError);
      await expect(store.putJsonAt(ref, {}), ref).rejects.toThrow(/store reference escapes the store/);
    }
    expect(store.refOf(`s3://${bucket}/prod/vir/../x.json`)).toBeNull();
    expect(store.refOf(`s3://${bucket}/prod/other/x.json`)).toBeNull();
  });
});

describe("the store's own settings (VIR_STORE_S3_*)", () => {
  it("win over the S3 delivery's, and S3 destinations never read them", async () => {
    // The delivery's variables point nowhere (a closed port, keys the server does not know):
    // the store reads and writes through its own.
    const env = {
      VIR_STORE_S3_ENDPOINT: s3.endpoint,
      VIR_STORE_S3_ACCESS_KEY_ID: s3.accessKeyId,
      VIR_STORE_S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      VIR_S3_ENDPOINT: 'http://127.0.0.1:9',
      VIR_S3_ACCESS_KEY_ID: 'destination-key',
      VIR_S3_SECRET_ACCESS_KEY: 'destination-secret',
    };
    const own = S3Store.fromEnv({ bucket, prefix: 'own-settings' }, env);
    try {
      const ref = await own.putJson('run-own', 'doc', { on: 'the store' });
      await expect(own.getJson(ref)).resolves.toEqual({ on: 'the store' });
      expect((await head(`own-settings/${ref}`)).ContentLength).toBeGreaterThan(0);
    } finally {
      own.close();
    }
    // A destination without an endpoint: the delivery's endpoint and keys, not the store's.
    const dest = { bucket: 'reports', prefix: '', region: 'us-east-1', forcePathStyle: false };
    expect(withEnvEndpoint(dest, env).endpoint).toBe('http://127.0.0.1:9');
    expect(s3CredentialsFromEnv(env)?.accessKeyId).toBe('destination-key');
    // With only the store's settings, a destination goes to AWS with the default chain.
    const storeOnly = {
      VIR_STORE_S3_ENDPOINT: s3.endpoint,
      VIR_STORE_S3_ACCESS_KEY_ID: s3.accessKeyId,
      VIR_STORE_S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    };
    expect(withEnvEndpoint(dest, storeOnly).endpoint).toBeUndefined();
    expect(s3CredentialsFromEnv(storeOnly)).toBeNull();
  });

  it('a bad VIR_STORE_S3_ENDPOINT or half a key pair is refused, naming the variable and no value', () => {
    expect(() =>
      S3Store.fromEnv({ bucket, prefix: '' }, { VIR_STORE_S3_ENDPOINT: 'ftp://user:pw@host' }),
    ).toThrow(/^VIR_STORE_S3_ENDPOINT must be an http:\/\/ or https:\/\/ URL/);
    expect(() =>
      S3Store.fromEnv({ bucket, prefix: '' }, { VIR_STORE_S3_ENDPOINT: 'http://user:pw@host' }),
    ).toThrow(/VIR_STORE_S3_ACCESS_KEY_ID and VIR_STORE_S3_SECRET_ACCESS_KEY$/);
    expect(() =>
      S3Store.fromEnv({ bucket, prefix: '' }, { VIR_STORE_S3_SECRET_ACCESS_KEY: 'not-shown' }),
    ).toThrow(/^VIR_STORE_S3_SECRET_ACCESS_KEY is set but VIR_STORE_S3_ACCESS_KEY_ID is not/);
    try {
      S3Store.fromEnv({ bucket, prefix: '' }, { VIR_STORE_S3_ENDPOINT: 'http://user:pw@host' });
    } catch (err) {
      expect(String(err)).not.toContain('pw');
    }
  });
});
