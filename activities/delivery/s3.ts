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
 * @example
 * const dest = parseS3Destination(job.delivery[0]);
 * const client = s3ClientFromEnv(dest, process.env); // keys, and VIR_S3_ENDPOINT when dest has no endpoint
 * const outcome = await uploadRunFiles(dest, files, { jobId: job.id, date: '2026-11-23', runId }, { client });
 * outcome.folder; // 'reports/weekly/2026-11-23_2' when another run holds 2026-11-23
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import {
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { fieldOf } from '../../lib/fields.js';
import { safeFileName } from '../../lib/names.js';
import {
  bucketNameProblem,
  S3DestinationFieldsSchema,
  S3DestinationSchema,
} from '../../config/destinations.js';
import type { S3Destination } from '../../config/destinations.js';
import { SettingsError } from '../../config/settings.js';
import type { DeliveryFile, DeliveryOutcome } from '../../shared/delivery.js';

export { bucketNameProblem, S3DestinationFieldsSchema, S3DestinationSchema };
export type { S3Destination };

// ---------------------------------------------------------------------------------------------
// Destination (job file)

/** A destination that breaks the schema; `field` is the path of the first bad field (`s3.bucket`). */
export class S3DestinationError extends Error {
  readonly code = 'invalid_s3_destination';
  constructor(
    readonly field: string | null,
    readonly detail: string,
  ) {
    super(field ? `S3 destination: ${field}: ${detail}` : `S3 destination: ${detail}`);
    this.name = 'S3DestinationError';
  }
}

/**
 * Validates a job's destination (`{ s3: {...} }`) and returns its `s3` part with defaults.
 * A bad value is an S3DestinationError naming the field (`s3.bucket: "My_Bucket" is not a
 * valid S3 bucket name: ...`); several bad values are listed in one message.
 *
 * @param base the path of the destination in the job (`delivery[2]`), put before the field.
 */
export function parseS3Destination(input: unknown, base = ''): S3Destination {
  const parsed = S3DestinationSchema.safeParse(input);
  if (parsed.success) return parsed.data.s3;
  const at = (path: readonly PropertyKey[]) => [base, fieldOf(path)].filter(Boolean).join('.');
  const issues = parsed.error.issues.map((i) => ({ field: at(i.path), text: i.message }));
  const first = issues[0]!;
  if (issues.length === 1) return fail(first.field || null, first.text);
  return fail(first.field || null, issues.map((i) => `${i.field}: ${i.text}`).join('; '));
}

function fail(field: string | null, detail: string): never {
  throw new S3DestinationError(field, detail);
}

// ---------------------------------------------------------------------------------------------
// Credentials (environment only)

/** Keys for the store; never part of a job, a result or a log line. */
export interface S3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/**
 * S3 keys from the environment: `VIR_S3_ACCESS_KEY_ID` + `VIR_S3_SECRET_ACCESS_KEY` (+
 * `VIR_S3_SESSION_TOKEN`), else `AWS_ACCESS_KEY_ID` + `AWS_SECRET_ACCESS_KEY` (+
 * `AWS_SESSION_TOKEN`); `prefixes` names the groups looked at, in order (the claim-check store
 * looks at `VIR_STORE_S3` first). Null when no pair is set: the client then uses the AWS SDK's
 * default chain (profile files, SSO, instance or container roles). Half a pair is an error
 * naming the missing variable (never a value).
 */
export function s3CredentialsFromEnv(
  env: NodeJS.ProcessEnv | Record<string, string | undefined>,
  prefixes: readonly string[] = ['VIR_S3', 'AWS'],
): S3Credentials | null {
  for (const p of prefixes) {
    const [id, secret, token] = [`${p}_ACCESS_KEY_ID`, `${p}_SECRET_ACCESS_KEY`, `${p}_SESSION_TOKEN`];
    const accessKeyId = env[id]?.trim();
    const secretAccessKey = env[secret]?.trim();
    if (!accessKeyId && !secretAccessKey) continue;
    if (!accessKeyId) throw new Error(`${secret} is set but ${id} is not: set both or neither`);
    if (!secretAccessKey) throw new Error(`${id} is set but ${secret} is not: set both or neither`);
    const sessionToken = env[token]?.trim();
    return sessionToken ? { accessKeyId, secretAccessKey, sessionToken } : { accessKeyId, secretAccessKey };
  }
  return null;
}

/**
 * The endpoint of destinations that name none: `VIR_S3_ENDPOINT` when set (an http or https
 * URL; `vir dev` sets it to its local S3 server), else undefined (AWS). `name` reads another
 * variable (the claim-check store's `VIR_STORE_S3_ENDPOINT`). A bad value is a SettingsError
 * naming the variable; the value is not echoed.
 */
export function s3EndpointFromEnv(
  env: NodeJS.ProcessEnv | Record<string, string | undefined>,
  name = 'VIR_S3_ENDPOINT',
): string | undefined {
  const value = env[name]?.trim();
  if (!value) return undefined;
  let url: URL | null = null;
  try {
    url = new URL(value);
  } catch {
    // reported below
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new SettingsError(name, `${name} must be an http:// or https:// URL (like http://127.0.0.1:7070)`);
  if (url.username || url.password) {
    const keys = name.replace(/_ENDPOINT$/, '');
    throw new SettingsError(
      name,
      `${name} must not hold a user or password: the keys come from ${keys}_ACCESS_KEY_ID and ${keys}_SECRET_ACCESS_KEY`,
    );
  }
  return value;
}

/**
 * The destination as the client sees it: one without an `endpoint` of its own gets
 * {@link s3EndpointFromEnv}'s, addressed path-style (`<endpoint>/<bucket>/<key>`).
 */
export function withEnvEndpoint(
  dest: S3Destination,
  env: NodeJS.ProcessEnv | Record<string, string | undefined>,
): S3Destination {
  if (dest.endpoint !== undefined) return dest;
  const endpoint = s3EndpointFromEnv(env);
  return endpoint === undefined ? dest : { ...dest, endpoint, forcePathStyle: true };
}

// ---------------------------------------------------------------------------------------------
// Client

/** Client settings that are ours to choose (not the job's). */
export interface S3ClientOptions {
  /** Attempts per request, the first included (retries dropped connections, timeouts, 5xx, throttling). */
  maxAttempts: number;
  /** Time to open a connection (ms). */
  connectionTimeoutMs: number;
  /** Time a request may stay without a response or socket activity (ms). */
  requestTimeoutMs: number;
}

export const S3_CLIENT_DEFAULTS: S3ClientOptions = {
  maxAttempts: 5,
  connectionTimeoutMs: 5_000,
  requestTimeoutMs: 60_000,
};

/**
 * An S3Client for a destination. Checksums are sent and checked only where an operation
 * requires them (`WHEN_REQUIRED`): the SDK's default since early 2025 adds CRC32 checksums to
 * every upload (as an aws-chunked trailer on streamed bodies), which several S3-compatible
 * stores reject; integrity comes instead from Content-MD5 on single uploads, which every store
 * checks, and a size check after each upload.
 *
 * @param credentials keys from {@link s3CredentialsFromEnv}; null uses the AWS SDK's default chain.
 */
export function createS3Client(
  dest: S3Destination,
  credentials: S3Credentials | null,
  options: Partial<S3ClientOptions> = {},
): S3Client {
  const o = { ...S3_CLIENT_DEFAULTS, ...options };
  return new S3Client({
    region: dest.region,
    ...(dest.endpoint ? { endpoint: dest.endpoint } : {}),
    forcePathStyle: dest.forcePathStyle,
    ...(credentials ? { credentials } : {}),
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: o.maxAttempts,
    retryMode: 'standard',
    requestHandler: { connectionTimeout: o.connectionTimeoutMs, requestTimeout: o.requestTimeoutMs },
  });
}

/**
 * The client of a delivery: {@link createS3Client} with the keys ({@link s3CredentialsFromEnv})
 * and, for a destination without an endpoint, the endpoint ({@link s3EndpointFromEnv}) from the
 * environment.
 */
export function s3ClientFromEnv(
  dest: S3Destination,
  env: NodeJS.ProcessEnv | Record<string, string | undefined> = process.env,
  options: Partial<S3ClientOptions> = {},
): S3Client {
  return createS3Client(withEnvEndpoint(dest, env), s3CredentialsFromEnv(env), options);
}

// ---------------------------------------------------------------------------------------------
// Upload

/** Where a run's files go in the bucket. */
export interface RunPlace {
  jobId: string;
  /** The run's date (YYYY-MM-DD): its folder is `<date>` or `<date>_<n>`. */
  date: string;
  /** The run's workflow id: named by the folder's marker and each object's `run` metadata. */
  runId: string;
}

/** The key, under a run folder, of the marker that names the run the folder belongs to. */
export const RUN_MARKER_NAME = '.run.json';

/** The body of a run folder's marker object. */
export interface RunMarker {
  workflowId: string;
  jobId: string;
  /** When the run claimed the folder (ISO time). */
  claimedAt: string;
}

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

/**
 * The object key of a run's file: `<prefix>/<jobId>/<folder>/<name>` (`folder` is the run's
 * date, or the date and a number: `2026-11-23_2`), without a leading slash or doubled slashes
 * whatever the prefix looks like.
 */
export function objectKey(prefix: string, where: { jobId: string; date: string }, name: string): string {
  for (const [field, value] of [
    ['jobId', where.jobId],
    ['date', where.date],
    ['file name', name],
  ] as const) {
    if (!value || value.includes('/') || value === '.' || value === '..') {
      throw new Error(`S3 object key: ${field} "${value}" must be non-empty and hold no "/"`);
    }
  }
  return [...prefix.split('/').filter(Boolean), where.jobId, where.date, name].join('/');
}

/** An object of another run (or of no known run) at a key a run was about to write: never replaced. */
export class ForeignObjectError extends Error {
  readonly code = 'foreign_object';
  constructor(
    readonly key: string,
    /** The run the object's metadata names (null: none). */
    readonly owner: string | null,
  ) {
    super(
      `s3 object ${key} belongs to ${owner === null ? 'no known run' : `run ${owner}`}: it is not replaced`,
    );
    this.name = 'ForeignObjectError';
  }
}

/** The run id as object metadata holds it (HTTP header text: ASCII, escaped as a URI component). */
function runMeta(runId: string): string {
  return encodeURIComponent(runId);
}

/** The run an object's metadata names, null when none. */
function ownerOf(metadata: Record<string, string> | undefined): string | null {
  const raw = metadata?.run;
  if (raw === undefined) return null;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

const statusOf = (err: unknown) =>
  err instanceof S3ServiceException ? err.$metadata.httpStatusCode : undefined;

/** The run a folder's marker names; null when there is no marker, `'forbidden'` when the keys may not read it. */
async function readMarker(client: S3Client, bucket: string, key: string) {
  try {
    const out = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    const text = (await out.Body?.transformToString('utf8')) ?? '';
    let body: Partial<RunMarker> = {};
    try {
      body = JSON.parse(text) as Partial<RunMarker>;
    } catch {
      // a marker we cannot read names no run
    }
    return { owner: typeof body.workflowId === 'string' ? body.workflowId : ownerOf(out.Metadata) };
  } catch (err) {
    const status = statusOf(err);
    if (status === 404 || (err instanceof Error && err.name === 'NoSuchKey')) return null;
    if (status === 403) return 'forbidden' as const;
    throw err;
  }
}

/** Whether any object is stored under `folderKey/` (a run's folder from before markers); false when listing is not allowed. */
async function folderHoldsObjects(client: S3Client, bucket: string, folderKey: string): Promise<boolean> {
  try {
    const out = await client.send(
      new ListObjectsV2Command({ Bucket: bucket, Prefix: `${folderKey}/`, MaxKeys: 1 }),
    );
    return (out.KeyCount ?? out.Contents?.length ?? 0) > 0;
  } catch (err) {
    if (statusOf(err) === 403) return false;
    throw err;
  }
}

/**
 * Writes a folder's marker only where none is (`If-None-Match: *`): nothing is written when
 * another writer got there first (412, or 409 for a write in flight). A store that does not
 * implement conditional writes (501) gets a plain write. Either way the caller reads the marker
 * back to learn whose the folder is.
 */
async function putMarker(client: S3Client, bucket: string, key: string, marker: RunMarker): Promise<void> {
  const body = Buffer.from(`${JSON.stringify(marker, null, 2)}\n`);
  const put = (conditional: boolean) =>
    client.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: key,
        Body: body,
        ContentLength: body.length,
        ContentType: 'application/json',
        ContentMD5: createHash('md5').update(body).digest('base64'),
        Metadata: { run: runMeta(marker.workflowId) },
        ...(conditional ? { IfNoneMatch: '*' } : {}),
      }),
    );
  try {
    await put(true);
  } catch (err) {
    const status = statusOf(err);
    if (status === 412 || status === 409) return;
    if (status !== 501) throw err;
    await put(false);
  }
}

/**
 * The run's folder in the bucket, decided there and the same for every attempt of the run: the
 * first of `<date>`, `<date>_2`, `<date>_3`… whose marker names the run, or that is free (no
 * marker and no object) and that the run claims by writing its marker. Folders in `skip` are
 * passed over (one found holding another run's object). Keys that may write but not read the
 * bucket cannot see markers: the folder is then the run's own by name,
 * `<date>_<run id>`.
 *
 * @returns the folder's name under `<prefix>/<jobId>/`.
 */
export async function claimRunFolder(
  client: S3Client,
  dest: Pick<S3Destination, 'bucket' | 'prefix'>,
  where: RunPlace,
  skip: ReadonlySet<string> = new Set(),
): Promise<string> {
  if (!where.runId) throw new Error('S3 run folder: the run id must be non-empty');
  for (let i = 1; i < 1000; i++) {
    const folder = i === 1 ? where.date : `${where.date}_${i}`;
    if (skip.has(folder)) continue;
    const markerKey = objectKey(dest.prefix, { jobId: where.jobId, date: folder }, RUN_MARKER_NAME);
    // Two reads at most per folder: before the claim, and after it (to see who won).
    for (let round = 0; round < 2; round++) {
      const marker = await readMarker(client, dest.bucket, markerKey);
      if (marker === 'forbidden') {
        const own = `${where.date}_${safeFileName(where.runId, 160, 'run')}`;
        objectKey(dest.prefix, { jobId: where.jobId, date: own }, RUN_MARKER_NAME);
        return own;
      }
      if (marker !== null) {
        if (marker.owner === where.runId) return folder;
        break;
      }
      if (round > 0) break;
      if (await folderHoldsObjects(client, dest.bucket, markerKey.slice(0, -RUN_MARKER_NAME.length - 1)))
        break;
      await putMarker(client, dest.bucket, markerKey, {
        workflowId: where.runId,
        jobId: where.jobId,
        claimedAt: new Date().toISOString(),
      });
    }
  }
  throw new Error(`no free run folder under ${objectKey(dest.prefix, where, 'x').slice(0, -2)}_*`);
}

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
  const folderKey = () => objectKey(dest.prefix, { jobId: where.jobId, date: folder }, 'x').slice(0, -2);
  const outcome = (ok: boolean, detail: string): S3DeliveryOutcome => ({
    destination: o.destination,
    kind: 's3',
    ok,
    detail,
    attempts,
    ...(ok ? { deliveredAt: new Date().toISOString() } : {}),
    bucket: dest.bucket,
    folder: folder ? folderKey() : '',
    objects,
  });
  for (const f of files) objectKey(dest.prefix, where, f.name); // a bad name throws before anything is sent
  const taken = new Set<string>();
  for (;;) {
    try {
      folder = await claimRunFolder(deps.client, dest, where, taken);
    } catch (err) {
      const why = describeError(err);
      log('s3 run folder not claimed', { bucket: dest.bucket, error: why });
      return outcome(false, `s3://${dest.bucket}: no run folder for ${where.runId}: ${why}`);
    }
    objects = [];
    const keys = files.map((f) => objectKey(dest.prefix, { jobId: where.jobId, date: folder }, f.name));
    // Every key looked at before anything is written, so a folder given up holds nothing of this run.
    let foreign: ForeignObjectError | null;
    try {
      foreign = await foreignObject(deps.client, dest.bucket, keys, where.runId);
    } catch (err) {
      const why = describeError(err);
      log('s3 upload failed', { bucket: dest.bucket, key: keys[0], error: why });
      return outcome(false, `s3://${dest.bucket}/${folderKey()}/: ${why} (0 of ${files.length} written)`);
    }
    for (const [i, file] of files.entries()) {
      if (foreign) break;
      const key = keys[i]!;
      try {
        const object = await uploadOne(dest.bucket, file, key, deps.client, o, where.runId, (n) => {
          attempts = Math.max(attempts, n);
        });
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
        return outcome(
          false,
          `s3://${dest.bucket}/${key}: ${why} (${objects.length} of ${files.length} written)`,
        );
      }
    }
    if (!foreign) break;
    log('s3 object of another run kept; next folder', { bucket: dest.bucket, key: foreign.key });
    taken.add(folder);
  }
  const reused = objects.filter((x) => x.reused).length;
  const bytes = objects.reduce((n, x) => n + x.bytes, 0);
  return outcome(
    true,
    `${objects.length} file(s), ${bytes} bytes in s3://${dest.bucket}/${folderKey()}/` +
      (reused ? ` (${reused} already there)` : ''),
  );
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

// ---------------------------------------------------------------------------------------------
// Pre-signed links

/** A link to one object that anyone holding it can GET until it expires. */
export interface PresignedLink {
  key: string;
  /** The file name (the key's last part). */
  name: string;
  url: string;
  expiresAt: string;
}

/**
 * Pre-signed GET links (SigV4 in the query string) to objects, for email messages and chat
 * posts. Made with the client's own signer (the one it signs requests with) and the request
 * its serializer builds, so the endpoint, path style and region are the client's; no request is
 * sent. A link holds the access key id and a signature, never the secret.
 *
 * @param expiresInSeconds 1 second to 7 days (SigV4's limit); links signed with temporary
 *   credentials expire with them anyway.
 */
export async function presignedUrls(
  client: S3Client,
  dest: S3Destination,
  keys: string[],
  expiresInSeconds: number,
): Promise<PresignedLink[]> {
  if (!Number.isInteger(expiresInSeconds) || expiresInSeconds < 1 || expiresInSeconds > 604_800) {
    throw new Error(
      `expiresInSeconds: must be a whole number from 1 to 604800 (7 days), got ${expiresInSeconds}`,
    );
  }
  const signer = await (client.config as unknown as { signer: () => Promise<PresignSigner> }).signer();
  const links: PresignedLink[] = [];
  for (const key of keys) {
    const request = await serializedRequest(client, new GetObjectCommand({ Bucket: dest.bucket, Key: key }));
    // Only the host is signed: whoever follows the link sends no other header we could predict.
    // The payload is not signed (a link's GET has none): as S3's own presigner does, the
    // x-amz-content-sha256 header says so and goes into the query string with the signature.
    request.headers = {
      host: `${request.hostname}${request.port ? `:${request.port}` : ''}`,
      'x-amz-content-sha256': 'UNSIGNED-PAYLOAD',
    };
    const signedAt = new Date();
    const signed = await signer.presign(request, {
      expiresIn: expiresInSeconds,
      signingDate: signedAt,
      signingRegion: dest.region,
      signingService: 's3',
    });
    const query = Object.entries(signed.query ?? {})
      .flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => [k, x]) : [[k, v]]))
      .map(([k, v]) =>
        v == null ? encodeURIComponent(k!) : `${encodeURIComponent(k!)}=${encodeURIComponent(v)}`,
      )
      .join('&');
    const port = signed.port ? `:${signed.port}` : '';
    links.push({
      key,
      name: key.slice(key.lastIndexOf('/') + 1),
      url: `${signed.protocol}//${signed.hostname}${port}${signed.path}${query ? `?${query}` : ''}`,
      expiresAt: new Date(signedAt.getTime() + expiresInSeconds * 1000).toISOString(),
    });
  }
  return links;
}

interface SerializedRequest {
  protocol: string;
  hostname: string;
  port?: number;
  path: string;
  query?: Record<string, string | string[] | null>;
  headers: Record<string, string>;
}

interface PresignSigner {
  presign(request: SerializedRequest, options: Record<string, unknown>): Promise<SerializedRequest>;
}

/** The HTTP request the client would send for a command (endpoint resolved), without sending it. */
async function serializedRequest(client: S3Client, command: GetObjectCommand): Promise<SerializedRequest> {
  let captured: SerializedRequest | undefined;
  command.middlewareStack.add(
    () => async (args) => {
      captured = args.request as SerializedRequest;
      return { output: { $metadata: {} }, response: {} };
    },
    { step: 'build', priority: 'high', name: 'virCaptureRequest' },
  );
  await client.send(command);
  if (!captured) throw new Error('presign: the client built no request');
  return captured;
}
