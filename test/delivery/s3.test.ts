/**
 * Delivery to object storage against a real S3-compatible server (versitygw, posix backend):
 * what reaches the bucket is read back and compared with the files on disk, byte for byte.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import {
  CreateBucketCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createS3Client,
  claimRunFolder,
  objectKey,
  parseS3Destination,
  presignedUrls,
  s3CredentialsFromEnv,
  S3DestinationError,
  uploadRunFiles,
  type DeliveryFile,
  type S3Destination,
} from '../../activities/delivery/index.js';
import { startS3Server, type S3Server } from '../helpers/s3-server.js';
import { startTcpFaultProxy } from '../helpers/tcp-proxy.js';

const MiB = 1024 * 1024;
const where = {
  jobId: 'weekly-dach',
  date: '2026-11-23',
  runId: 'market-report-weekly-dach-20261123-060000-000-a1b2c3',
};

let s3: S3Server;
let admin: S3Client;
let dir: string;
let files: DeliveryFile[];
let bucketCount = 0;

async function file(name: string, contentType: string, body: Buffer): Promise<DeliveryFile> {
  const path = join(dir, name);
  await writeFile(path, body);
  return { path, name, contentType, bytes: body.length };
}

/** A new bucket for one test (S3 naming rules: lowercase, digits, hyphens). */
async function newBucket(): Promise<string> {
  const bucket = `reports-${++bucketCount}-${randomBytes(3).toString('hex')}`;
  await admin.send(new CreateBucketCommand({ Bucket: bucket }));
  return bucket;
}

function destination(bucket: string, extra: Record<string, unknown> = {}): S3Destination {
  return parseS3Destination({ s3: { bucket, endpoint: s3.endpoint, region: s3.region, ...extra } });
}

const credentials = () => ({ accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey });

async function getBytes(bucket: string, key: string): Promise<Buffer> {
  const out = await admin.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return Buffer.from(await out.Body!.transformToByteArray());
}

/** An object's user metadata (`sha256`, `run`). */
async function metadataOf(bucket: string, key: string): Promise<Record<string, string>> {
  return (await admin.send(new HeadObjectCommand({ Bucket: bucket, Key: key }))).Metadata ?? {};
}

async function listKeys(bucket: string): Promise<string[]> {
  const out = await admin.send(new ListObjectsV2Command({ Bucket: bucket }));
  return (out.Contents ?? []).map((c) => c.Key!).sort();
}

beforeAll(async () => {
  s3 = await startS3Server();
  admin = createS3Client(
    parseS3Destination({ s3: { bucket: 'admin', endpoint: s3.endpoint, region: s3.region } }),
    credentials(),
  );
  dir = await mkdtemp(join(tmpdir(), 'vir-s3-files-'));
  files = [
    await file(
      'weekly-dach-2026-11-23.pdf',
      'application/pdf',
      Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(40_000), Buffer.from('\n%%EOF\n')]),
    ),
    await file(
      'weekly-dach-2026-11-23.xlsx',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      Buffer.concat([Buffer.from('PK\u0003\u0004'), randomBytes(120_000)]),
    ),
    await file('prospects.csv', 'text/csv', Buffer.from('name,country\nAcme GmbH,DE\n"Zürich, AG",CH\n')),
    await file('prospects-full.csv', 'text/csv', randomBytes(9 * MiB + 12_345)),
  ];
});

afterAll(async () => {
  admin?.destroy();
  await s3?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('uploadRunFiles against versitygw', () => {
  it('writes every file under <prefix>/<job>/<date>/<name>, the large one as a multipart upload, byte for byte', async () => {
    const bucket = await newBucket();
    const dest = destination(bucket, { prefix: 'reports/weekly/' });
    const client = createS3Client(dest, credentials());
    const outcome = await uploadRunFiles(dest, files, where, { client });
    client.destroy();

    expect(outcome.ok, outcome.detail).toBe(true);
    expect(outcome.kind).toBe('s3');
    expect(outcome.objects.map((o) => o.key)).toEqual(
      files.map((f) => `reports/weekly/weekly-dach/2026-11-23/${f.name}`),
    );
    expect(outcome.objects.map((o) => o.multipart)).toEqual([false, false, false, true]);
    expect(outcome.folder).toBe('reports/weekly/weekly-dach/2026-11-23');
    // Beside the files, the folder's marker naming the run; each object names it in its metadata.
    const marker = 'reports/weekly/weekly-dach/2026-11-23/.run.json';
    expect(await listKeys(bucket)).toEqual([...outcome.objects.map((o) => o.key), marker].sort());
    expect(JSON.parse((await getBytes(bucket, marker)).toString('utf8'))).toMatchObject({
      workflowId: where.runId,
      jobId: 'weekly-dach',
    });
    for (const object of outcome.objects)
      expect((await metadataOf(bucket, object.key)).run).toBe(where.runId);
    for (const [i, f] of files.entries()) {
      const object = outcome.objects[i]!;
      const stored = await getBytes(bucket, object.key);
      expect(stored.length).toBe(f.bytes);
      expect(object.bytes).toBe(f.bytes);
      expect(stored.equals(await readFile(f.path))).toBe(true);
      expect(object.etag).toMatch(/^[0-9a-f]{32}(-\d+)?$/);
      // The posix backend's own file: the outside witness of what the store holds.
      expect((await readFile(join(s3.dir, bucket, object.key))).equals(stored)).toBe(true);
    }
    expect(outcome.objects[3]!.etag).toMatch(/-2$/); // 9 MiB in 8 MiB parts
  });

  it('makes clients that add checksums only where S3 requires them, with retries and timeouts', async () => {
    const client = createS3Client(destination('any-bucket'), credentials());
    expect(await client.config.requestChecksumCalculation()).toBe('WHEN_REQUIRED');
    expect(await client.config.responseChecksumValidation()).toBe('WHEN_REQUIRED');
    expect(await client.config.maxAttempts()).toBe(5);
    expect(client.config.forcePathStyle).toBe(true);
    client.destroy();
  });

  it('relies on a store that refuses a body whose Content-MD5 does not match (versitygw does)', async () => {
    const bucket = await newBucket();
    const body = Buffer.from('the bytes that arrive');
    const md5OfOther = createHash('md5').update('the bytes that were sent').digest('base64');
    await expect(
      admin.send(new PutObjectCommand({ Bucket: bucket, Key: 'x.csv', Body: body, ContentMD5: md5OfOther })),
    ).rejects.toMatchObject({ name: 'BadDigest' });
    expect(await listKeys(bucket)).toEqual([]);
  });

  it('keeps no doubled slashes whatever the prefix looks like', () => {
    expect(objectKey('', where, 'a.pdf')).toBe('weekly-dach/2026-11-23/a.pdf');
    expect(parseS3Destination({ s3: { bucket: 'abc', prefix: '/x/y/' } }).prefix).toBe('x/y');
    expect(objectKey('x/y', where, 'a.pdf')).toBe('x/y/weekly-dach/2026-11-23/a.pdf');
    expect(() => objectKey('', where, '../a.pdf')).toThrow(/file name/);
    expect(() => objectKey('', { ...where, jobId: 'a/b' }, 'a.pdf')).toThrow(/jobId/);
  });

  it('is idempotent: the same upload twice leaves one object per key with the same bytes', async () => {
    const bucket = await newBucket();
    const dest = destination(bucket);
    const client = createS3Client(dest, credentials());
    const first = await uploadRunFiles(dest, files, where, { client });
    const second = await uploadRunFiles(dest, files, where, { client });
    // And once more with the check for unchanged objects off: every file sent again, overwritten.
    const third = await uploadRunFiles(dest, files, where, { client }, { skipUnchanged: false });
    client.destroy();

    for (const o of [first, second, third]) expect(o.ok, o.detail).toBe(true);
    expect(first.objects.every((o) => !o.reused)).toBe(true);
    expect(second.objects.every((o) => o.reused)).toBe(true);
    expect(second.detail).toMatch(/4 already there/);
    expect(third.objects.every((o) => !o.reused)).toBe(true);
    expect(second.objects.map((o) => o.key)).toEqual(first.objects.map((o) => o.key));
    expect(third.objects.map((o) => o.etag)).toEqual(first.objects.map((o) => o.etag));
    for (const o of [second, third]) expect(o.folder).toBe(first.folder);
    const keys = await listKeys(bucket);
    expect(keys).toEqual([...first.objects.map((o) => o.key), `${first.folder}/.run.json`].sort());
    expect(new Set(keys).size).toBe(files.length + 1);
    for (const [i, f] of files.entries()) {
      expect((await getBytes(bucket, first.objects[i]!.key)).equals(await readFile(f.path))).toBe(true);
    }
  });
});

describe("run folders: no run replaces another run's objects", () => {
  const runA = { ...where, runId: 'smoke-weekly-dach-20261123-060000-000-aaaaaa' };
  const runB = { ...where, runId: 'smoke-weekly-dach-20261123-060000-000-bbbbbb' };
  const sha = async (b: Buffer | Promise<Buffer>) =>
    createHash('sha256')
      .update(await b)
      .digest('hex');

  it('gives two runs of one day their own folders, each marked with its run, and a retry its own again', async () => {
    const bucket = await newBucket();
    const dest = destination(bucket, { prefix: 'out' });
    const client = createS3Client(dest, credentials());
    // Run B's files differ from run A's (other bytes under the same names).
    const other = await Promise.all(
      files.slice(0, 3).map((f) => file(`b-${f.name}`, f.contentType, randomBytes(5_000))),
    );
    const bFiles = other.map((f, i) => ({ ...f, name: files[i]!.name }));
    try {
      const a = await uploadRunFiles(dest, files.slice(0, 3), runA, { client });
      const b = await uploadRunFiles(dest, bFiles, runB, { client });
      const aAgain = await uploadRunFiles(dest, files.slice(0, 3), runA, { client });
      const bAgain = await uploadRunFiles(dest, bFiles, runB, { client });
      for (const o of [a, b, aAgain, bAgain]) expect(o.ok, o.detail).toBe(true);
      expect(a.folder).toBe('out/weekly-dach/2026-11-23');
      expect(b.folder).toBe('out/weekly-dach/2026-11-23_2');
      expect(aAgain.folder).toBe(a.folder);
      expect(bAgain.folder).toBe(b.folder);
      expect(aAgain.objects.every((o) => o.reused) && bAgain.objects.every((o) => o.reused)).toBe(true);
      for (const [run, outcome, sent] of [
        [runA, a, files.slice(0, 3)],
        [runB, b, bFiles],
      ] as const) {
        const marker = JSON.parse((await getBytes(bucket, `${outcome.folder}/.run.json`)).toString('utf8'));
        expect(marker.workflowId).toBe(run.runId);
        for (const [i, f] of sent.entries()) {
          const key = `${outcome.folder}/${f.name}`;
          expect(outcome.objects[i]!.key).toBe(key);
          expect(await sha(getBytes(bucket, key))).toBe(await sha(readFile(f.path)));
        }
      }
    } finally {
      client.destroy();
    }
  });

  it('never replaces an object of another run (or of no run) found at its key: the run takes the next folder', async () => {
    const bucket = await newBucket();
    const dest = destination(bucket);
    const client = createS3Client(dest, credentials());
    const [pdf, xlsx] = files;
    const foreign = Buffer.from('run B wrote this, not run A');
    const legacy = Buffer.from('written before runs were named');
    // The day's folder says it is run A's (a marker written by a store that ignored a
    // conditional write, say), yet run B's object and one of no run are at two of A's keys.
    await admin.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: 'weekly-dach/2026-11-23/.run.json',
        Body: JSON.stringify({ workflowId: runA.runId }),
      }),
    );
    await admin.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: `weekly-dach/2026-11-23/${xlsx!.name}`,
        Body: foreign,
        Metadata: { run: runB.runId, sha256: await sha(Promise.resolve(foreign)) },
      }),
    );
    await admin.send(
      new PutObjectCommand({ Bucket: bucket, Key: `weekly-dach/2026-11-24/${pdf!.name}`, Body: legacy }),
    );
    try {
      const a = await uploadRunFiles(dest, [pdf!, xlsx!], runA, { client });
      expect(a.ok, a.detail).toBe(true);
      expect(a.folder).toBe('weekly-dach/2026-11-23_2');
      expect(await getBytes(bucket, `weekly-dach/2026-11-23/${xlsx!.name}`)).toEqual(foreign);
      expect((await metadataOf(bucket, `weekly-dach/2026-11-23/${xlsx!.name}`)).run).toBe(runB.runId);
      for (const f of [pdf!, xlsx!]) {
        expect((await getBytes(bucket, `${a.folder}/${f.name}`)).equals(await readFile(f.path))).toBe(true);
      }

      // A folder with objects and no marker (a run from before markers) is not taken either.
      const next = await uploadRunFiles(dest, [pdf!], { ...runA, date: '2026-11-24' }, { client });
      expect(next.folder).toBe('weekly-dach/2026-11-24_2');
      expect(await getBytes(bucket, `weekly-dach/2026-11-24/${pdf!.name}`)).toEqual(legacy);
      expect(await listKeys(bucket)).toEqual(
        [
          'weekly-dach/2026-11-23/.run.json',
          `weekly-dach/2026-11-23/${xlsx!.name}`,
          'weekly-dach/2026-11-23_2/.run.json',
          `weekly-dach/2026-11-23_2/${pdf!.name}`,
          `weekly-dach/2026-11-23_2/${xlsx!.name}`,
          `weekly-dach/2026-11-24/${pdf!.name}`,
          'weekly-dach/2026-11-24_2/.run.json',
          `weekly-dach/2026-11-24_2/${pdf!.name}`,
        ].sort(),
      );
    } finally {
      client.destroy();
    }
  });

  it('gives runs claiming the same day at once a folder each', async () => {
    const bucket = await newBucket();
    const dest = destination(bucket);
    const clients = [0, 1, 2, 3].map(() => createS3Client(dest, credentials()));
    try {
      const runs = clients.map((_, i) => ({ ...where, runId: `smoke-weekly-dach-race-${i}` }));
      const folders = await Promise.all(runs.map((run, i) => claimRunFolder(clients[i]!, dest, run)));
      expect(new Set(folders).size).toBe(4);
      expect([...folders].sort()).toEqual(['2026-11-23', '2026-11-23_2', '2026-11-23_3', '2026-11-23_4']);
      for (const [i, folder] of folders.entries()) {
        const marker = JSON.parse(
          (await getBytes(bucket, `weekly-dach/${folder}/.run.json`)).toString('utf8'),
        );
        expect(marker.workflowId).toBe(runs[i]!.runId);
        expect(await claimRunFolder(clients[i]!, dest, runs[i]!)).toBe(folder);
      }
    } finally {
      for (const c of clients) c.destroy();
    }
  });
});

describe('presignedUrls', () => {
  it('gives links that fetch the objects without keys until they expire, and only as signed', async () => {
    const bucket = await newBucket();
    const dest = destination(bucket, { prefix: 'links' });
    const client = createS3Client(dest, credentials());
    try {
      const outcome = await uploadRunFiles(dest, files.slice(0, 3), where, { client });
      expect(outcome.ok, outcome.detail).toBe(true);
      const keys = outcome.objects.map((o) => o.key);
      const links = await presignedUrls(client, dest, keys, 3600);
      expect(links.map((l) => l.name)).toEqual(files.slice(0, 3).map((f) => f.name));
      for (const [i, link] of links.entries()) {
        expect(link.url.startsWith(`${s3.endpoint}/${bucket}/links/weekly-dach/2026-11-23/`)).toBe(true);
        expect(link.url).toMatch(/X-Amz-Signature=[0-9a-f]{64}/);
        expect(link.url).not.toContain(s3.secretAccessKey);
        const res = await fetch(link.url);
        expect(res.status, await res.clone().text()).toBe(200);
        expect(Buffer.from(await res.arrayBuffer()).equals(await readFile(files[i]!.path))).toBe(true);
      }
      const tampered = links[0]!.url.replace(/X-Amz-Expires=\d+/, 'X-Amz-Expires=7200');
      expect((await fetch(tampered)).status).toBe(403);
      // Links signed a minute ago (the signing clock set back, not waited for): one valid for
      // a second has expired, one valid for an hour still fetches.
      vi.useFakeTimers({ toFake: ['Date'] });
      let expiring: Awaited<ReturnType<typeof presignedUrls>>;
      let valid: Awaited<ReturnType<typeof presignedUrls>>;
      try {
        vi.setSystemTime(Date.now() - 60_000);
        expiring = await presignedUrls(client, dest, keys.slice(0, 1), 1);
        valid = await presignedUrls(client, dest, keys.slice(0, 1), 3600);
      } finally {
        vi.useRealTimers();
      }
      expect((await fetch(expiring[0]!.url)).status).toBe(403);
      expect((await fetch(valid[0]!.url)).status).toBe(200);
      await expect(presignedUrls(client, dest, keys, 8 * 24 * 3600)).rejects.toThrow(/expiresInSeconds/);

      // A name with a space and a non-ASCII letter: escaped once in the path, signed as sent.
      const odd = await file('Zürich list 2026.csv', 'text/csv', Buffer.from('a,b\n1,2\n'));
      const oddOutcome = await uploadRunFiles(dest, [odd], where, { client });
      const [oddLink] = await presignedUrls(client, dest, [oddOutcome.objects[0]!.key], 60);
      expect(oddLink!.url).toContain('/Z%C3%BCrich%20list%202026.csv?');
      const res = await fetch(oddLink!.url);
      expect(res.status, await res.clone().text()).toBe(200);
      expect(await res.text()).toBe('a,b\n1,2\n');
    } finally {
      client.destroy();
    }
  });

  it('addresses AWS buckets by virtual host when no endpoint is set (no request is sent)', async () => {
    const dest = parseS3Destination({ s3: { bucket: 'vir-reports', region: 'eu-central-1' } });
    const client = createS3Client(dest, { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'not-a-real-secret' });
    try {
      const [link] = await presignedUrls(client, dest, ['weekly/2026-11-23/a.pdf'], 900);
      expect(link!.url).toMatch(
        /^https:\/\/vir-reports\.s3\.eu-central-1\.amazonaws\.com\/weekly\/2026-11-23\/a\.pdf\?.*X-Amz-Credential=AKIDEXAMPLE%2F\d{8}%2Feu-central-1%2Fs3%2Faws4_request/,
      );
      expect(link!.url).toContain('X-Amz-Expires=900');
      expect(link!.url).not.toContain('not-a-real-secret');
    } finally {
      client.destroy();
    }
  });
});

describe('uploadRunFiles through broken connections', () => {
  it('completes when the first connection is dropped and a later one is cut in the middle of a body', async () => {
    const bucket = await newBucket();
    const proxy = await startTcpFaultProxy(new URL(s3.endpoint).port);
    proxy.fault(1, { drop: true });
    proxy.fault(2, { cutAfterBytes: 20_000 }); // inside the PDF's PutObject body
    const dest = destination(bucket, { endpoint: proxy.endpoint });
    const client = createS3Client(dest, credentials());
    try {
      const outcome = await uploadRunFiles(dest, files.slice(0, 3), where, { client });
      expect(outcome.ok, outcome.detail).toBe(true);
      expect(proxy.broken.map((b) => b.how)).toEqual(['drop', 'cut']);
      expect(outcome.attempts).toBeGreaterThanOrEqual(2);
      expect(await listKeys(bucket)).toEqual(
        [...outcome.objects.map((o) => o.key), `${outcome.folder}/.run.json`].sort(),
      );
      for (const [i, f] of files.slice(0, 3).entries()) {
        expect((await getBytes(bucket, outcome.objects[i]!.key)).equals(await readFile(f.path))).toBe(true);
      }
    } finally {
      client.destroy();
      await proxy.close();
    }
  });

  it('completes a multipart upload whose part connections are cut mid-part, leaving one object and no open upload', async () => {
    const bucket = await newBucket();
    const proxy = await startTcpFaultProxy(new URL(s3.endpoint).port);
    proxy.fault(1, { drop: true });
    for (let n = 2; n <= 4; n++) proxy.fault(n, { cutAfterBytes: 3 * MiB });
    const dest = destination(bucket, { endpoint: proxy.endpoint });
    const client = createS3Client(dest, credentials());
    const big = files[3]!;
    try {
      const outcome = await uploadRunFiles(dest, [big], where, { client });
      expect(outcome.ok, outcome.detail).toBe(true);
      expect(outcome.objects[0]!.multipart).toBe(true);
      expect(proxy.broken.filter((b) => b.how === 'cut').length).toBeGreaterThanOrEqual(1);
      expect(await listKeys(bucket)).toEqual([
        'weekly-dach/2026-11-23/.run.json',
        `weekly-dach/2026-11-23/${big.name}`,
      ]);
      const stored = await getBytes(bucket, outcome.objects[0]!.key);
      expect(stored.length).toBe(big.bytes);
      expect(stored.equals(await readFile(big.path))).toBe(true);
      const open = await admin.send(new ListMultipartUploadsCommand({ Bucket: bucket }));
      expect(open.Uploads ?? []).toEqual([]);
    } finally {
      client.destroy();
      await proxy.close();
    }
  });

  it('says ok: false (and why) when the store stays unreachable, without throwing', async () => {
    const bucket = await newBucket();
    const proxy = await startTcpFaultProxy(new URL(s3.endpoint).port);
    for (let n = 1; n <= 20; n++) proxy.fault(n, { drop: true });
    const dest = destination(bucket, { endpoint: proxy.endpoint });
    const client = createS3Client(dest, credentials(), { maxAttempts: 2 });
    try {
      const outcome = await uploadRunFiles(dest, files.slice(2, 3), where, { client });
      expect(outcome.ok).toBe(false);
      expect(outcome.detail).toMatch(
        /^s3:\/\/reports-\S+: no run folder for market-report-weekly-dach-\S+: /,
      );
      expect(outcome.objects).toEqual([]);
      expect(outcome.deliveredAt).toBeUndefined();
      expect(await listKeys(bucket)).toEqual([]);
    } finally {
      client.destroy();
      await proxy.close();
    }
  });
});

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
    const bucket = await newBucket();
    const dest = destination(bucket);
    const env = { VIR_S3_ACCESS_KEY_ID: s3.accessKeyId, VIR_S3_SECRET_ACCESS_KEY: s3.secretAccessKey };
    const lines: string[] = [];
    const log = (message: string, fields: Record<string, unknown>) =>
      lines.push(JSON.stringify({ message, ...fields }));
    const client = createS3Client(dest, s3CredentialsFromEnv(env));
    const good = await uploadRunFiles(dest, files.slice(0, 2), where, { client, log });
    client.destroy();
    const wrongSecret = `${s3.secretAccessKey}-wrong`;
    const badClient = createS3Client(dest, { accessKeyId: s3.accessKeyId, secretAccessKey: wrongSecret });
    const bad = await uploadRunFiles(dest, files.slice(0, 1), where, { client: badClient, log });
    badClient.destroy();

    expect(good.ok, good.detail).toBe(true);
    expect(bad.ok).toBe(false);
    expect(bad.detail).toMatch(/SignatureDoesNotMatch|AccessDenied|InvalidAccessKeyId/);
    expect(lines.length).toBeGreaterThanOrEqual(3);
    const everything = JSON.stringify({ good, bad, lines });
    expect(everything).not.toContain(s3.secretAccessKey);
    expect(everything).not.toContain(wrongSecret);
  });
});
