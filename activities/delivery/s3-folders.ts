/**
 * Where a run's objects go in the bucket: their keys (`<prefix>/<jobId>/<folder>/<name>`), the
 * run's own folder, decided in the bucket and claimed with a marker object, and whose an object
 * is (the run its metadata names).
 */
import { createHash } from 'node:crypto';
import {
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import { safeFileName } from '../../lib/names.js';
import type { S3Destination } from '../../config/destinations.js';

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
export function runMeta(runId: string): string {
  return encodeURIComponent(runId);
}

/** The run an object's metadata names, null when none. */
export function ownerOf(metadata: Record<string, string> | undefined): string | null {
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
