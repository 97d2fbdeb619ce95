/**
 * Delivery to object storage: a run's files written to an S3 bucket (AWS or any S3-compatible
 * store) under `<prefix>/<jobId>/<folder>/<file name>`, where the folder is the run's own:
 * `<date>`, or `<date>_2`, `<date>_3`… when another run of the job holds the day's first.
 *
 * The folder is decided in the bucket, not on a worker's disk: each run folder holds a marker
 * object `.run.json` naming the run (its workflow id), and a run takes the first folder whose
 * marker names it or that is free (no marker, no object), claiming it with a conditional write
 * (`If-None-Match: *`) read back before use. A retry or a redelivery of the same run finds its
 * marker and lands on the same keys. Every object carries the run in its metadata (`run`, beside
 * `sha256`), and an object of another run (or of no known run) found at a key is never replaced:
 * the run moves on to the next folder.
 *
 * The destination comes from the job file (bucket, prefix, region, endpoint); the keys come
 * from the environment only (`VIR_S3_ACCESS_KEY_ID` / `VIR_S3_SECRET_ACCESS_KEY`, else the AWS
 * SDK's default chain) and never enter results, logs or errors.
 *
 * Writing is idempotent: a file already stored under its key by the same run with the same
 * SHA-256 (kept in the object's metadata) is not sent again, and sending it again anyway
 * overwrites the run's one object with the same bytes. Small files are one PutObject (with Content-MD5, so the store rejects a
 * corrupted body); large ones a multipart upload (lib-storage's `Upload`), each part retried on
 * its own.
 *
 * This file writes the files; the destination is parsed in s3-destination.ts, the client made in
 * s3-client.ts, the run's folder claimed in s3-folders.ts, links made in s3-presign.ts.
 *
 * @example
 * const dest = parseS3Destination(job.delivery[0]);
 * const client = s3ClientFromEnv(dest, process.env); // keys, and VIR_S3_ENDPOINT when dest has no endpoint
 * const outcome = await uploadRunFiles(dest, files, { jobId: job.id, date: '2026-11-23', runId }, { client });
 * outcome.folder; // 'reports/weekly/2026-11-23_2' when another run holds 2026-11-23
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { HeadObjectCommand, PutObjectCommand, S3ServiceException } from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { S3Destination } from '../../config/destinations.js';
import { claimRunFolder, ForeignObjectError, objectKey, ownerOf, runMeta } from './s3-folders.js';
import type { RunPlace } from './s3-folders.js';
import type { DeliveryFile, DeliveryOutcome } from '../../shared/delivery.js';

/** One object written (or found already written). */
export interface S3Object {
  key: string;
  bytes: number;
  etag?: string;
  /** The file's SHA-256 (hex), kept in the object's metadata as `sha256`. */
  sha256: string;
  /** True when the object was already there with the same bytes and nothing was sent. */
  reused: boolean;
  /** Multipart upload (true) or one PutObject (false); false when reused. */
  multipart: boolean;
}

/** What an S3 delivery did: a DeliveryOutcome with its objects. */
export interface S3DeliveryOutcome extends DeliveryOutcome {
  kind: 's3';
  bucket: string;
  /** The run's folder in the bucket (`<prefix>/<jobId>/<date>[_n]`); empty when none was claimed. */
  folder: string;
  objects: S3Object[];
}

export interface UploadOptions {
  /** Files above this size go as multipart uploads (bytes; default 8 MiB). */
  multipartThresholdBytes: number;
  /** Part size of multipart uploads (bytes; at least 5 MiB, S3's minimum; default 8 MiB). */
  partSizeBytes: number;
  /** Parts in flight at once (default 4). */
  queueSize: number;
  /** Look for an object already stored with the same SHA-256 and skip it (default true). */
  skipUnchanged: boolean;
  /** The destination's id in the outcome (default `s3`). */
  destination: string;
}

export const UPLOAD_DEFAULTS: UploadOptions = {
  multipartThresholdBytes: 8 * 1024 * 1024,
  partSizeBytes: 8 * 1024 * 1024,
  queueSize: 4,
  skipUnchanged: true,
  destination: 's3',
};

/** A line of what the upload did (no secrets: keys and sizes only). */
export type S3Log = (message: string, fields: Record<string, unknown>) => void;

/** The first object at one of `keys` that another run (or no known run) wrote; null when there is none. */
async function foreignObject(
  client: S3Client,
  bucket: string,
  keys: readonly string[],
  run: string,
): Promise<ForeignObjectError | null> {
  for (const key of keys) {
    const head = await headObject(client, bucket, key);
    if (head && head !== 'forbidden' && ownerOf(head.Metadata) !== run) {
      return new ForeignObjectError(key, ownerOf(head.Metadata));
    }
  }
  return null;
}

/**
 * Writes a run's files to the destination's bucket under `<prefix>/<jobId>/<folder>/<name>`,
 * in the run's own folder ({@link claimRunFolder}), and reports the folder and each object's
 * key, size and ETag. An object of another run found in the folder is never replaced: the run
 * claims the next folder and writes every file there. Never throws for a failed upload (the
 * outcome says `ok: false` and why, with the objects written before it); a bad file name throws.
 *
 * `attempts` is the most attempts any one request needed (1 when none was retried).
 */
export async function uploadRunFiles(
  dest: S3Destination,
  files: DeliveryFile[],
  where: RunPlace,
  deps: { client: S3Client; log?: S3Log },
  options: Partial<UploadOptions> = {},
): Promise<S3DeliveryOutcome> {
  const o = { ...UPLOAD_DEFAULTS, ...options };
  if (o.partSizeBytes < 5 * 1024 * 1024)
    throw new Error('partSizeBytes: must be at least 5 MiB (S3 minimum)');
  const log: S3Log = deps.log ?? (() => {});
  let objects: S3Object[] = [];
  let attempts = 1;
  let folder = '';
  const outcome = (ok: boolean, detail: string): S3DeliveryOutcome => ({
    destination: o.destination,
    kind: 's3',
    ok,
    detail,
    attempts,
    ...(ok ? { deliveredAt: new Date().toISOString() } : {}),
    bucket: dest.bucket,
    folder: folder ? folderKeyOf(dest, where, folder) : '',
    objects,
  });
  for (const f of files) objectKey(dest.prefix, where, f.name); // a bad name throws before anything is sent
  const run: RunUpload = {
    dest,
    files,
    where,
    client: deps.client,
    log,
    o,
    sawAttempts: (n) => {
      attempts = Math.max(attempts, n);
    },
  };
  const taken = new Set<string>();
  for (;;) {
    try {
      folder = await claimRunFolder(deps.client, dest, where, taken);
    } catch (err) {
      const why = describeError(err);
      log('s3 run folder not claimed', { bucket: dest.bucket, error: why });
      return outcome(false, `s3://${dest.bucket}: no run folder for ${where.runId}: ${why}`);
    }
    const written = await writeToFolder(run, folder);
    objects = written.objects;
    if (written.failure !== null) return outcome(false, written.failure);
    if (!written.foreign) break;
    log('s3 object of another run kept; next folder', { bucket: dest.bucket, key: written.foreign.key });
    taken.add(folder);
  }
  const reused = objects.filter((x) => x.reused).length;
  const bytes = objects.reduce((n, x) => n + x.bytes, 0);
  return outcome(
    true,
    `${objects.length} file(s), ${bytes} bytes in s3://${dest.bucket}/${folderKeyOf(dest, where, folder)}/` +
      (reused ? ` (${reused} already there)` : ''),
  );
}

/** A run's files on their way to the bucket, and what {@link writeToFolder} needs to write them. */
interface RunUpload {
  dest: S3Destination;
  files: DeliveryFile[];
  where: RunPlace;
  client: S3Client;
  log: S3Log;
  o: UploadOptions;
  /** Told the attempts each request needed. */
  sawAttempts: (n: number) => void;
}

/** What writing into one folder did: the objects written, the object of another run that stopped it, or why it failed. */
interface FolderWrite {
  objects: S3Object[];
  foreign: ForeignObjectError | null;
  /** The outcome's detail when a request failed; null otherwise. */
  failure: string | null;
}

/** The key of a run folder: `<prefix>/<jobId>/<folder>`. */
function folderKeyOf(dest: S3Destination, where: RunPlace, folder: string): string {
  return objectKey(dest.prefix, { jobId: where.jobId, date: folder }, 'x').slice(0, -2);
}

/**
 * Writes the run's files into one folder, in order. Stops at the first object of another run
 * found at one of the keys (`foreign`: the caller moves on to the next folder) or the first
 * request that fails (`failure`).
 */
async function writeToFolder(run: RunUpload, folder: string): Promise<FolderWrite> {
  const { dest, files, where, client, log } = run;
  const objects: S3Object[] = [];
  const keys = files.map((f) => objectKey(dest.prefix, { jobId: where.jobId, date: folder }, f.name));
  // Every key looked at before anything is written, so a folder given up holds nothing of this run.
  let foreign: ForeignObjectError | null;
  try {
    foreign = await foreignObject(client, dest.bucket, keys, where.runId);
  } catch (err) {
    const why = describeError(err);
    log('s3 upload failed', { bucket: dest.bucket, key: keys[0], error: why });
    const at = `s3://${dest.bucket}/${folderKeyOf(dest, where, folder)}/`;
    return { objects, foreign: null, failure: `${at}: ${why} (0 of ${files.length} written)` };
  }
  for (const [i, file] of files.entries()) {
    if (foreign) break;
    const key = keys[i]!;
    try {
      const object = await uploadOne(dest.bucket, file, key, client, run.o, where.runId, run.sawAttempts);
      objects.push(object);
      log(object.reused ? 's3 object already there' : 's3 object written', {
        bucket: dest.bucket,
        key,
        bytes: object.bytes,
        multipart: object.multipart,
      });
    } catch (err) {
      if (err instanceof ForeignObjectError) {
        foreign = err;
        break;
      }
      const why = describeError(err);
      log('s3 upload failed', { bucket: dest.bucket, key, error: why });
      const failure = `s3://${dest.bucket}/${key}: ${why} (${objects.length} of ${files.length} written)`;
      return { objects, foreign: null, failure };
    }
  }
  return { objects, foreign, failure: null };
}

/**
 * Writes one local file at `key` of `bucket` as a delivery writes each of its files: nothing is
 * sent when the object there already has the file's size and SHA-256, else one PutObject (with
 * Content-MD5) or a multipart upload, and the stored size checked after. The claim-check store's
 * files (activities/s3-store.ts) go this way too.
 */
export function uploadFileObject(
  client: S3Client,
  bucket: string,
  key: string,
  file: Pick<DeliveryFile, 'path' | 'contentType'>,
  options: Partial<UploadOptions> = {},
): Promise<S3Object> {
  return uploadOne(bucket, file, key, client, { ...UPLOAD_DEFAULTS, ...options }, null, () => undefined);
}

/**
 * @param run the run writing (a delivery): an object found at the key that another run (or no
 *   run) wrote is a ForeignObjectError, never replaced; null (the claim-check store) checks no owner.
 */
async function uploadOne(
  bucket: string,
  file: Pick<DeliveryFile, 'path' | 'contentType'>,
  key: string,
  client: S3Client,
  o: UploadOptions,
  run: string | null,
  sawAttempts: (n: number) => void,
): Promise<S3Object> {
  const { size } = await stat(file.path);
  const sha256 = await fileSha256(file.path);
  if (o.skipUnchanged || run !== null) {
    const head = await headObject(client, bucket, key);
    if (head && head !== 'forbidden') {
      sawAttempts(head.$metadata.attempts ?? 1);
      if (run !== null && ownerOf(head.Metadata) !== run)
        throw new ForeignObjectError(key, ownerOf(head.Metadata));
      if (o.skipUnchanged && head.ContentLength === size && head.Metadata?.sha256 === sha256) {
        return { key, bytes: size, ...etagOf(head.ETag), sha256, reused: true, multipart: false };
      }
    }
  }
  const metadata: Record<string, string> = run === null ? { sha256 } : { sha256, run: runMeta(run) };
  const common = { Bucket: bucket, Key: key, ContentType: file.contentType, Metadata: metadata };
  let etag: string | undefined;
  const multipart = size > o.multipartThresholdBytes;
  if (!multipart) {
    // A buffer, not a stream: a retried request sends the body again.
    const body = await readFile(file.path);
    const out = await client.send(
      new PutObjectCommand({
        ...common,
        Body: body,
        ContentLength: body.length,
        ContentMD5: createHash('md5').update(body).digest('base64'),
      }),
    );
    sawAttempts(out.$metadata.attempts ?? 1);
    etag = out.ETag;
  } else {
    const upload = new Upload({
      client,
      params: { ...common, Body: createReadStream(file.path) },
      partSize: o.partSizeBytes,
      queueSize: o.queueSize,
      leavePartsOnError: false,
    });
    const out = await upload.done();
    sawAttempts(out.$metadata.attempts ?? 1);
    etag = out.ETag;
  }
  // The store's view of what it holds: the size it reports must be the file's.
  const head = await headObject(client, bucket, key);
  if (!head) throw new Error('the object is missing right after its upload');
  if (head !== 'forbidden' && head.ContentLength !== size) {
    throw new Error(`the store holds ${head.ContentLength} bytes, the file has ${size}`);
  }
  return {
    key,
    bytes: size,
    ...etagOf(etag ?? (head === 'forbidden' ? undefined : head.ETag)),
    sha256,
    reused: false,
    multipart,
  };
}

/**
 * The object's size, ETag and metadata; `null` when there is none, `'forbidden'` when the keys
 * may write but not read (write-only delivery keys are common): nothing is checked then.
 */
async function headObject(client: S3Client, bucket: string, key: string) {
  try {
    return await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
  } catch (err) {
    if (err instanceof S3ServiceException) {
      const status = err.$metadata.httpStatusCode;
      if (status === 404 || err.name === 'NotFound') return null;
      if (status === 403) return 'forbidden' as const;
    }
    throw err;
  }
}

function etagOf(etag: string | undefined): { etag?: string } {
  return etag ? { etag: etag.replace(/^"|"$/g, '') } : {};
}

async function fileSha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** An SDK or file error in words: the S3 error code and status, never a request's headers. */
function describeError(err: unknown): string {
  if (err instanceof S3ServiceException) {
    const status = err.$metadata.httpStatusCode;
    return `${err.name}${status ? ` (HTTP ${status})` : ''}: ${err.message}`;
  }
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    return `${err.name}${typeof code === 'string' ? ` ${code}` : ''}: ${err.message}`;
  }
  return String(err);
}
