/**
 * What the S3 delivery tests share: a real S3-compatible server (versitygw, posix backend) for the
 * tests of one file, an admin client, a run's place, the run's files in a scratch folder (a PDF,
 * a workbook, two CSV files, the last over 9 MiB: a multipart upload), a new bucket per test, and
 * readers of what the bucket holds.
 *
 * @example
 * const bed = useS3Bed();
 * it('...', async () => {
 *   const dest = bed.destination(await bed.newBucket());
 *   const outcome = await uploadRunFiles(dest, bed.files, where, { client: createS3Client(dest, bed.credentials()) });
 * });
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import {
  CreateBucketCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll } from 'vitest';
import {
  createS3Client,
  parseS3Destination,
  type DeliveryFile,
  type S3Destination,
} from '../../activities/delivery/index.js';
import { startS3Server, type S3Server } from './s3-server.js';

export const MiB = 1024 * 1024;

/** The run the tests write for, on its date. */
export const where = {
  jobId: 'weekly-dach',
  date: '2026-11-23',
  runId: 'market-report-weekly-dach-20261123-060000-000-a1b2c3',
};

export interface S3Bed {
  readonly s3: S3Server;
  /** A client with the server's root keys, for setting up and reading back. */
  readonly admin: S3Client;
  /** The run's files: a PDF, a workbook, a small CSV and a CSV over 9 MiB. */
  readonly files: DeliveryFile[];
  /** Writes a file into the scratch folder and describes it as a delivery does. */
  file(name: string, contentType: string, body: Buffer): Promise<DeliveryFile>;
  /** A new bucket for one test (S3 naming rules: lowercase, digits, hyphens). */
  newBucket(): Promise<string>;
  /** A destination on the server: the bucket, the server's endpoint and region, and `extra`. */
  destination(bucket: string, extra?: Record<string, unknown>): S3Destination;
  /** The server's keys. */
  credentials(): { accessKeyId: string; secretAccessKey: string };
  getBytes(bucket: string, key: string): Promise<Buffer>;
  /** An object's user metadata (`sha256`, `run`). */
  metadataOf(bucket: string, key: string): Promise<Record<string, string>>;
  /** Every key in the bucket, sorted. */
  listKeys(bucket: string): Promise<string[]>;
}

/** Starts the server and writes the files before the file's tests; stops and removes them after. */
export function useS3Bed(): S3Bed {
  let s3: S3Server;
  let admin: S3Client;
  let dir: string;
  let files: DeliveryFile[];
  let bucketCount = 0;

  const bed: S3Bed = {
    get s3() {
      return s3;
    },
    get admin() {
      return admin;
    },
    get files() {
      return files;
    },
    async file(name, contentType, body) {
      const path = join(dir, name);
      await writeFile(path, body);
      return { path, name, contentType, bytes: body.length };
    },
    async newBucket() {
      const bucket = `reports-${++bucketCount}-${randomBytes(3).toString('hex')}`;
      await admin.send(new CreateBucketCommand({ Bucket: bucket }));
      return bucket;
    },
    destination: (bucket, extra = {}) =>
      parseS3Destination({ s3: { bucket, endpoint: s3.endpoint, region: s3.region, ...extra } }),
    credentials: () => ({ accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey }),
    async getBytes(bucket, key) {
      const out = await admin.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      return Buffer.from(await out.Body!.transformToByteArray());
    },
    async metadataOf(bucket, key) {
      return (await admin.send(new HeadObjectCommand({ Bucket: bucket, Key: key }))).Metadata ?? {};
    },
    async listKeys(bucket) {
      const out = await admin.send(new ListObjectsV2Command({ Bucket: bucket }));
      return (out.Contents ?? []).map((c) => c.Key!).sort();
    },
  };

  beforeAll(async () => {
    s3 = await startS3Server();
    admin = createS3Client(
      parseS3Destination({ s3: { bucket: 'admin', endpoint: s3.endpoint, region: s3.region } }),
      bed.credentials(),
    );
    dir = await mkdtemp(join(tmpdir(), 'vir-s3-files-'));
    files = [
      await bed.file(
        'weekly-dach-2026-11-23.pdf',
        'application/pdf',
        Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(40_000), Buffer.from('\n%%EOF\n')]),
      ),
      await bed.file(
        'weekly-dach-2026-11-23.xlsx',
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        Buffer.concat([Buffer.from('PK\u0003\u0004'), randomBytes(120_000)]),
      ),
      await bed.file(
        'prospects.csv',
        'text/csv',
        Buffer.from('name,country\nAcme GmbH,DE\n"Zürich, AG",CH\n'),
      ),
      await bed.file('prospects-full.csv', 'text/csv', randomBytes(9 * MiB + 12_345)),
    ];
  });

  afterAll(async () => {
    admin?.destroy();
    await s3?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  return bed;
}
