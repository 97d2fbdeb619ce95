/**
 * Delivery to object storage against a real S3-compatible server (versitygw, posix backend):
 * what reaches the bucket is read back and compared with the files on disk, byte for byte, also
 * through dropped and cut connections.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ListMultipartUploadsCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import {
  createS3Client,
  objectKey,
  parseS3Destination,
  uploadRunFiles,
} from '../../activities/delivery/index.js';
import { MiB, useS3Bed, where } from '../helpers/s3-delivery.js';
import { startTcpFaultProxy } from '../helpers/tcp-proxy.js';

const bed = useS3Bed();

describe('uploadRunFiles against versitygw', () => {
  it('writes every file under <prefix>/<job>/<date>/<name>, the large one as a multipart upload, byte for byte', async () => {
    const bucket = await bed.newBucket();
    const dest = bed.destination(bucket, { prefix: 'reports/weekly/' });
    const client = createS3Client(dest, bed.credentials());
    const outcome = await uploadRunFiles(dest, bed.files, where, { client });
    client.destroy();

    expect(outcome.ok, outcome.detail).toBe(true);
    expect(outcome.kind).toBe('s3');
    expect(outcome.objects.map((o) => o.key)).toEqual(
      bed.files.map((f) => `reports/weekly/weekly-dach/2026-11-23/${f.name}`),
    );
    expect(outcome.objects.map((o) => o.multipart)).toEqual([false, false, false, true]);
    expect(outcome.folder).toBe('reports/weekly/weekly-dach/2026-11-23');
    // Beside the bed.files, the folder's marker naming the run; each object names it in its metadata.
    const marker = 'reports/weekly/weekly-dach/2026-11-23/.run.json';
    expect(await bed.listKeys(bucket)).toEqual([...outcome.objects.map((o) => o.key), marker].sort());
    expect(JSON.parse((await bed.getBytes(bucket, marker)).toString('utf8'))).toMatchObject({
      workflowId: where.runId,
      jobId: 'weekly-dach',
    });
    for (const object of outcome.objects)
      expect((await bed.metadataOf(bucket, object.key)).run).toBe(where.runId);
    for (const [i, f] of bed.files.entries()) {
      const object = outcome.objects[i]!;
      const stored = await bed.getBytes(bucket, object.key);
      expect(stored.length).toBe(f.bytes);
      expect(object.bytes).toBe(f.bytes);
      expect(stored.equals(await readFile(f.path))).toBe(true);
      expect(object.etag).toMatch(/^[0-9a-f]{32}(-\d+)?$/);
      // The posix backend's own file: the outside witness of what the store holds.
      expect((await readFile(join(bed.s3.dir, bucket, object.key))).equals(stored)).toBe(true);
    }
    expect(outcome.objects[3]!.etag).toMatch(/-2$/); // 9 MiB in 8 MiB parts
  });

  it('makes clients that add checksums only where S3 requires them, with retries and timeouts', async () => {
    const client = createS3Client(bed.destination('any-bucket'), bed.credentials());
    expect(await client.config.requestChecksumCalculation()).toBe('WHEN_REQUIRED');
    expect(await client.config.responseChecksumValidation()).toBe('WHEN_REQUIRED');
    expect(await client.config.maxAttempts()).toBe(5);
    expect(client.config.forcePathStyle).toBe(true);
    client.destroy();
  });

  it('relies on a store that refuses a body whose Content-MD5 does not match (versitygw does)', async () => {
    const bucket = await bed.newBucket();
    const body = Buffer.from('the bytes that arrive');
    const md5OfOther = createHash('md5').update('the bytes that were sent').digest('base64');
    await expect(
      bed.admin.send(
        new PutObjectCommand({ Bucket: bucket, Key: 'x.csv', Body: body, ContentMD5: md5OfOther }),
      ),
    ).rejects.toMatchObject({ name: 'BadDigest' });
    expect(await bed.listKeys(bucket)).toEqual([]);
  });

  it('keeps no doubled slashes whatever the prefix looks like', () => {
    expect(objectKey('', where, 'a.pdf')).toBe('weekly-dach/2026-11-23/a.pdf');
    expect(parseS3Destination({ s3: { bucket: 'abc', prefix: '/x/y/' } }).prefix).toBe('x/y');
    expect(objectKey('x/y', where, 'a.pdf')).toBe('x/y/weekly-dach/2026-11-23/a.pdf');
    expect(() => objectKey('', where, '../a.pdf')).toThrow(/file name/);
    expect(() => objectKey('', { ...where, jobId: 'a/b' }, 'a.pdf')).toThrow(/jobId/);
  });

  it('is idempotent: the same upload twice leaves one object per key with the same bytes', async () => {
    const bucket = await bed.newBucket();
    const dest = bed.destination(bucket);
    const client = createS3Client(dest, bed.credentials());
    const first = await uploadRunFiles(dest, bed.files, where, { client });
    const second = await uploadRunFiles(dest, bed.files, where, { client });
    // And once more with the check for unchanged objects off: every file sent again, overwritten.
    const third = await uploadRunFiles(dest, bed.files, where, { client }, { skipUnchanged: false });
    client.destroy();

    for (const o of [first, second, third]) expect(o.ok, o.detail).toBe(true);
    expect(first.objects.every((o) => !o.reused)).toBe(true);
    expect(second.objects.every((o) => o.reused)).toBe(true);
    expect(second.detail).toMatch(/4 already there/);
    expect(third.objects.every((o) => !o.reused)).toBe(true);
    expect(second.objects.map((o) => o.key)).toEqual(first.objects.map((o) => o.key));
    expect(third.objects.map((o) => o.etag)).toEqual(first.objects.map((o) => o.etag));
    for (const o of [second, third]) expect(o.folder).toBe(first.folder);
    const keys = await bed.listKeys(bucket);
    expect(keys).toEqual([...first.objects.map((o) => o.key), `${first.folder}/.run.json`].sort());
    expect(new Set(keys).size).toBe(bed.files.length + 1);
    for (const [i, f] of bed.files.entries()) {
      expect((await bed.getBytes(bucket, first.objects[i]!.key)).equals(await readFile(f.path))).toBe(true);
    }
  });
});

describe('uploadRunFiles through broken connections', () => {
  it('completes when the first connection is dropped and a later one is cut in the middle of a body', async () => {
    const bucket = await bed.newBucket();
    const proxy = await startTcpFaultProxy(new URL(bed.s3.endpoint).port);
    proxy.fault(1, { drop: true });
    proxy.fault(2, { cutAfterBytes: 20_000 }); // inside the PDF's PutObject body
    const dest = bed.destination(bucket, { endpoint: proxy.endpoint });
    const client = createS3Client(dest, bed.credentials());
    try {
      const outcome = await uploadRunFiles(dest, bed.files.slice(0, 3), where, { client });
      expect(outcome.ok, outcome.detail).toBe(true);
      expect(proxy.broken.map((b) => b.how)).toEqual(['drop', 'cut']);
      expect(outcome.attempts).toBeGreaterThanOrEqual(2);
      expect(await bed.listKeys(bucket)).toEqual(
        [...outcome.objects.map((o) => o.key), `${outcome.folder}/.run.json`].sort(),
      );
      for (const [i, f] of bed.files.slice(0, 3).entries()) {
        expect((await bed.getBytes(bucket, outcome.objects[i]!.key)).equals(await readFile(f.path))).toBe(
          true,
        );
      }
    } finally {
      client.destroy();
      await proxy.close();
    }
  });

  it('completes a multipart upload whose part connections are cut mid-part, leaving one object and no open upload', async () => {
    const bucket = await bed.newBucket();
    const proxy = await startTcpFaultProxy(new URL(bed.s3.endpoint).port);
    proxy.fault(1, { drop: true });
    for (let n = 2; n <= 4; n++) proxy.fault(n, { cutAfterBytes: 3 * MiB });
    const dest = bed.destination(bucket, { endpoint: proxy.endpoint });
    const client = createS3Client(dest, bed.credentials());
    const big = bed.files[3]!;
    try {
      const outcome = await uploadRunFiles(dest, [big], where, { client });
      expect(outcome.ok, outcome.detail).toBe(true);
      expect(outcome.objects[0]!.multipart).toBe(true);
      expect(proxy.broken.filter((b) => b.how === 'cut').length).toBeGreaterThanOrEqual(1);
      expect(await bed.listKeys(bucket)).toEqual([
        'weekly-dach/2026-11-23/.run.json',
        `weekly-dach/2026-11-23/${big.name}`,
      ]);
      const stored = await bed.getBytes(bucket, outcome.objects[0]!.key);
      expect(stored.length).toBe(big.bytes);
      expect(stored.equals(await readFile(big.path))).toBe(true);
      const open = await bed.admin.send(new ListMultipartUploadsCommand({ Bucket: bucket }));
      expect(open.Uploads ?? []).toEqual([]);
    } finally {
      client.destroy();
      await proxy.close();
    }
  });

  it('says ok: false (and why) when the store stays unreachable, without throwing', async () => {
    const bucket = await bed.newBucket();
    const proxy = await startTcpFaultProxy(new URL(bed.s3.endpoint).port);
    for (let n = 1; n <= 20; n++) proxy.fault(n, { drop: true });
    const dest = bed.destination(bucket, { endpoint: proxy.endpoint });
    const client = createS3Client(dest, bed.credentials(), { maxAttempts: 2 });
    try {
      const outcome = await uploadRunFiles(dest, bed.files.slice(2, 3), where, { client });
      expect(outcome.ok).toBe(false);
      expect(outcome.detail).toMatch(
        /^s3:\/\/reports-\S+: no run folder for market-report-weekly-dach-\S+: /,
      );
      expect(outcome.objects).toEqual([]);
      expect(outcome.deliveredAt).toBeUndefined();
      expect(await bed.listKeys(bucket)).toEqual([]);
    } finally {
      client.destroy();
      await proxy.close();
    }
  });
});
