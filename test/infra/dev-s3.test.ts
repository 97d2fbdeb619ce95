/**
 * vir dev's S3 server (runtime/dev-s3.ts): versitygw on a free port with its data in
 * <data dir>/s3, the bucket vir-reports created, an object written through the delivery's own
 * client (keys and endpoint from the settings vir dev writes) still there after a restart.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, HeadBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterEach, describe, expect, it } from 'vitest';
import { s3ClientFromEnv } from '../../activities/delivery/s3-client.js';
import { parseS3Destination } from '../../activities/delivery/s3-destination.js';
import { applyDevDeliveryEnv } from '../../runtime/dev-delivery.js';
import {
  DEV_S3_ACCESS_KEY_ID,
  DEV_S3_BUCKET,
  DEV_S3_SECRET_ACCESS_KEY,
  startDevS3,
  VersitygwMissingError,
  type DevS3,
} from '../../runtime/dev-s3.js';
import { portOpen } from '../cli/helpers.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function start(dataDir: string): Promise<DevS3> {
  const s3 = await startDevS3({ dataDir, port: 0 });
  cleanups.push(() => s3.close());
  return s3;
}

describe("vir dev's S3 server", () => {
  it('creates vir-reports in <data dir>/s3 and keeps its objects across a restart', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'vir-dev-s3-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const first = await start(dataDir);
    expect(first).toMatchObject({
      endpoint: `http://127.0.0.1:${first.port}`,
      bucket: DEV_S3_BUCKET,
      accessKeyId: DEV_S3_ACCESS_KEY_ID,
      secretAccessKey: DEV_S3_SECRET_ACCESS_KEY,
      dir: join(dataDir, 's3'),
    });
    expect(existsSync(join(dataDir, 's3', DEV_S3_BUCKET))).toBe(true);

    // The delivery's client, with the settings vir dev writes: a destination naming no endpoint
    // goes to VIR_S3_ENDPOINT with the dev keys.
    const env: NodeJS.ProcessEnv = {};
    applyDevDeliveryEnv(env, { mail: null, s3: first });
    const dest = parseS3Destination({ s3: { bucket: DEV_S3_BUCKET } });
    const client = s3ClientFromEnv(dest, env, { maxAttempts: 2 });
    cleanups.push(async () => client.destroy());
    await client.send(new HeadBucketCommand({ Bucket: DEV_S3_BUCKET }));
    const body = Buffer.from('%PDF-1.7\nthe weekly report\n%%EOF\n');
    const key = 'weekly-dach/2026-11-23/weekly-dach-2026-11-23.pdf';
    await client.send(new PutObjectCommand({ Bucket: DEV_S3_BUCKET, Key: key, Body: body }));
    expect((await readFile(join(dataDir, 's3', DEV_S3_BUCKET, key))).equals(body)).toBe(true);

    await first.close();
    expect(await portOpen(first.port)).toBe(false);

    const second = await start(dataDir); // the bucket exists: created again means "already yours"
    const again = s3ClientFromEnv(dest, { ...env, VIR_S3_ENDPOINT: second.endpoint }, { maxAttempts: 2 });
    cleanups.push(async () => again.destroy());
    const got = await again.send(new GetObjectCommand({ Bucket: DEV_S3_BUCKET, Key: key }));
    expect(Buffer.from(await got.Body!.transformToByteArray()).equals(body)).toBe(true);
  });

  it('says how to build versitygw when it is missing', async () => {
    const previous = process.env.VERSITYGW_PATH;
    process.env.VERSITYGW_PATH = join(tmpdir(), 'no-such-versitygw');
    try {
      const err = await startDevS3({ dataDir: join(tmpdir(), 'unused'), port: 0 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(VersitygwMissingError);
      expect((err as Error).message).toContain('bash scripts/build-versitygw.sh');
    } finally {
      if (previous === undefined) delete process.env.VERSITYGW_PATH;
      else process.env.VERSITYGW_PATH = previous;
    }
  });
});
