/**
 * S3 for the deck triage: the client of a bucket (made as the S3 delivery makes its clients,
 * with extra CAs trusted when given), the deck objects directly under a prefix (ListObjectsV2,
 * a page at a time), and an object's bytes.
 */
import { GetObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { ApplicationFailure } from '@temporalio/common';
import { createS3Client, type S3Credentials } from '../../activities/delivery/s3-client.js';
import type { S3Destination } from '../../config/destinations.js';

/** The bucket and prefix a job reads decks from (its `s3:` source). */
export interface DeckS3Source {
  bucket: string;
  /** A folder in the bucket (`inbox/2026`); slashes at either end are dropped. Default: the bucket's top. */
  prefix?: string;
  /** An S3-compatible store's URL; else VIR_S3_ENDPOINT, else AWS. */
  endpoint?: string;
  /** The bucket's region (default us-east-1). */
  region?: string;
}

/**
 * The client of a bucket: {@link createS3Client}'s (checksums only where required, retries,
 * timeouts), trusting `trustedCa` besides the system's CAs (a local https S3 endpoint with its
 * own certificate, in tests and the demo).
 */
export function deckS3Client(
  dest: S3Destination,
  credentials: S3Credentials | null,
  trustedCa: readonly string[] = [],
): S3Client {
  return createS3Client(dest, credentials, { trustedCa });
}

/** A prefix as a folder: `inbox/2026/` (or '' for the bucket's top). */
export function folderPrefix(prefix: string | undefined): string {
  const p = (prefix ?? '').replace(/^\/+|\/+$/g, '');
  return p === '' ? '' : `${p}/`;
}

/** An object directly under a prefix. */
export interface ListedObject {
  key: string;
  /** The key's last part. */
  name: string;
  size: number;
}

/**
 * Every object directly under the folder `prefix` (not in its sub-folders), sorted by key:
 * ListObjectsV2 with the `/` delimiter, `pageSize` keys a page, following continuation tokens.
 * An error names the bucket and the prefix.
 */
export async function listFolderObjects(
  client: S3Client,
  bucket: string,
  prefix: string,
  pageSize = 1000,
): Promise<ListedObject[]> {
  const objects: ListedObject[] = [];
  let token: string | undefined;
  try {
    do {
      const out = await client.send(
        new ListObjectsV2Command({
          Bucket: bucket,
          Prefix: prefix,
          Delimiter: '/',
          MaxKeys: pageSize,
          ...(token ? { ContinuationToken: token } : {}),
        }),
      );
      for (const o of out.Contents ?? []) {
        if (!o.Key || o.Key.endsWith('/')) continue;
        objects.push({ key: o.Key, name: o.Key.slice(prefix.length), size: o.Size ?? 0 });
      }
      token = out.IsTruncated ? out.NextContinuationToken : undefined;
    } while (token);
  } catch (err) {
    throw s3Failure(`listing s3://${bucket}/${prefix}`, err);
  }
  return objects.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** An object's bytes; an error names the bucket and the key. */
export async function readObject(client: S3Client, bucket: string, key: string): Promise<Buffer> {
  try {
    const out = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    if (!out.Body) throw new Error('the store sent no body');
    return Buffer.from(await out.Body.transformToByteArray());
  } catch (err) {
    throw s3Failure(`reading s3://${bucket}/${key}`, err);
  }
}

/** Answers another attempt cannot change: a missing bucket or object, keys refused. */
const FINAL_S3_ERRORS = new Set([
  'NoSuchBucket',
  'NoSuchKey',
  'AccessDenied',
  'InvalidAccessKeyId',
  'SignatureDoesNotMatch',
  'InvalidBucketName',
]);

/**
 * An S3 failure naming what was being done: not retryable when the answer is final (no such
 * bucket, keys refused), else an ordinary error (the activity's retries take it).
 */
export function s3Failure(doing: string, err: unknown): Error {
  const e = err as Error;
  const message = `${doing} failed: ${e.name}: ${e.message}`;
  return FINAL_S3_ERRORS.has(e.name)
    ? ApplicationFailure.create({ message, type: `S3${e.name}`, nonRetryable: true, cause: e })
    : new Error(message, { cause: err });
}
