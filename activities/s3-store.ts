/**
 * The claim-check store in an S3 bucket (`VIR_STORE_URL=s3://bucket/prefix`): the same
 * documents under the same relative references as the local store, each the object
 * `<prefix>/<ref>`, and the rendered reports beside them, so workers on several hosts share
 * nothing but the bucket.
 *
 * The store has settings of its own, so that S3 delivery destinations never go to it by
 * mistake: the endpoint from `VIR_STORE_S3_ENDPOINT`, else `VIR_S3_ENDPOINT`, else AWS; the
 * keys from `VIR_STORE_S3_ACCESS_KEY_ID` / `VIR_STORE_S3_SECRET_ACCESS_KEY`, else
 * `VIR_S3_ACCESS_KEY_ID` / `VIR_S3_SECRET_ACCESS_KEY`, else `AWS_ACCESS_KEY_ID` /
 * `AWS_SECRET_ACCESS_KEY`, else the AWS SDK's default chain. Destinations never read the
 * `VIR_STORE_S3_*` settings. No key enters a reference, a URL, a message or a manifest.
 *
 * Writes are idempotent: a document is its JSON text, so a retried activity writing the same
 * value writes the same bytes (the same ETag); a file whose bytes are already stored under its
 * key is not sent again. A read of a missing object is a {@link StoreObjectMissingError}
 * naming the reference, the bucket and the key.
 *
 * @example
 * const store = S3Store.fromEnv({ bucket: 'vir-store', prefix: 'prod' }, process.env);
 * const ref = await store.putJson('run-1', 'pages/p-0000', page); // s3://vir-store/prod/runs/run-1/pages/p-0000.json
 * const page = await store.getJson(ref);
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3ServiceException,
  type S3Client,
} from '@aws-sdk/client-s3';
import { createS3Client, s3CredentialsFromEnv, s3EndpointFromEnv } from './delivery/s3-client.js';
import { uploadFileObject } from './delivery/s3-upload.js';
import {
  runDocumentRef,
  StoreObjectMissingError,
  StoreRefError,
  type Store,
  type StoreFiles,
} from './store.js';
import type { StoreRef } from '../shared/types.js';

/** Where the S3 store is: a bucket and a key prefix (no leading or trailing slash; may be empty). */
export interface S3StorePlace {
  bucket: string;
  prefix: string;
  /** The bucket's region (default us-east-1). */
  region?: string;
}

/** Where the store's keys come from, in order (destinations look at the last two only). */
export const STORE_KEY_PREFIXES = ['VIR_STORE_S3', 'VIR_S3', 'AWS'] as const;

let seq = 0;

/** The claim-check store in an S3 bucket. */
export class S3Store implements Store, StoreFiles {
  readonly bucket: string;
  readonly prefix: string;
  readonly files: StoreFiles = this;
  readonly #client: S3Client;

  constructor(place: S3StorePlace, client: S3Client) {
    this.bucket = place.bucket;
    this.prefix = place.prefix.replace(/^\/+|\/+$/g, '');
    this.#client = client;
  }

  /**
   * A store on the endpoint and keys of `env` (the `VIR_STORE_S3_*` settings, else the
   * `VIR_S3_*` ones, else AWS's; see the module's comment). An endpoint is addressed path-style.
   */
  static fromEnv(place: S3StorePlace, env: NodeJS.ProcessEnv | Record<string, string | undefined>): S3Store {
    const endpoint = s3EndpointFromEnv(env, 'VIR_STORE_S3_ENDPOINT') ?? s3EndpointFromEnv(env);
    const client = createS3Client(
      {
        bucket: place.bucket,
        prefix: place.prefix,
        region: place.region ?? 'us-east-1',
        ...(endpoint === undefined ? { forcePathStyle: false } : { endpoint, forcePathStyle: true }),
      },
      s3CredentialsFromEnv(env, STORE_KEY_PREFIXES),
    );
    return new S3Store(place, client);
  }

  /** The object key of a reference; an absolute reference or one with `..` is refused. */
  keyOf(ref: StoreRef): string {
    if (ref === '' || ref.includes('\\') || ref.split('/').some((s) => s === '' || s === '.' || s === '..')) {
      throw new StoreRefError(ref);
    }
    return this.prefix ? `${this.prefix}/${ref}` : ref;
  }

  urlOf(ref: StoreRef): string {
    return `s3://${this.bucket}/${this.keyOf(ref)}`;
  }

  refOf(url: string): StoreRef | null {
    const base = `s3://${this.bucket}/${this.prefix ? `${this.prefix}/` : ''}`;
    if (!url.startsWith(base)) return null;
    const ref = url.slice(base.length);
    try {
      this.keyOf(ref);
    } catch {
      return null;
    }
    return ref;
  }

  putJson(runKey: string, name: string, value: unknown): Promise<StoreRef> {
    return this.putJsonAt(runDocumentRef(runKey, name), value);
  }

  async putJsonAt(ref: StoreRef, value: unknown): Promise<StoreRef> {
    await this.putBytes(ref, JSON.stringify(value), 'application/json');
    return ref;
  }

  async getJson<T = unknown>(ref: StoreRef): Promise<T> {
    const body = await this.#get(ref);
    return JSON.parse(await body.transformToString('utf8')) as T;
  }

  /**
   * Every object under the folder `prefix`, as references, sorted: ListObjectsV2 a page of
   * `pageSize` keys at a time (the service's 1000 at most), following its continuation token.
   */
  async list(prefix: StoreRef, pageSize = 1000): Promise<StoreRef[]> {
    const folder = `${this.keyOf(prefix.replace(/\/+$/, ''))}/`;
    const base = this.prefix ? `${this.prefix}/` : '';
    const refs: StoreRef[] = [];
    let token: string | undefined;
    do {
      const out = await this.#client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: folder,
          MaxKeys: pageSize,
          ...(token ? { ContinuationToken: token } : {}),
        }),
      );
      for (const o of out.Contents ?? []) if (o.Key?.startsWith(base)) refs.push(o.Key.slice(base.length));
      token = out.IsTruncated ? out.NextContinuationToken : undefined;
    } while (token);
    return refs.sort();
  }

  async putBytes(ref: StoreRef, body: string | Uint8Array, contentType: string): Promise<void> {
    const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    await this.#client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: this.keyOf(ref),
        Body: bytes,
        ContentLength: bytes.length,
        ContentType: contentType,
        ContentMD5: createHash('md5').update(bytes).digest('base64'),
      }),
    );
  }

  async putFile(ref: StoreRef, path: string, contentType: string): Promise<void> {
    await uploadFileObject(this.#client, this.bucket, this.keyOf(ref), { path, contentType });
  }

  async getFile(ref: StoreRef, path: string): Promise<void> {
    const body = await this.#get(ref);
    await mkdir(dirname(path), { recursive: true });
    const tmp = `${path}.${process.pid}.${++seq}.tmp`;
    try {
      await pipeline(body as unknown as Readable, createWriteStream(tmp));
      await rename(tmp, path);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }

  /** Closes the client's connections. */
  close(): void {
    this.#client.destroy();
  }

  async #get(ref: StoreRef) {
    const key = this.keyOf(ref);
    try {
      const out = await this.#client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if (!out.Body) throw new Error(`s3://${this.bucket}/${key}: the store sent no body`);
      return out.Body;
    } catch (err) {
      if (
        err instanceof S3ServiceException &&
        (err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata.httpStatusCode === 404)
      ) {
        throw new StoreObjectMissingError(ref, `bucket ${this.bucket}, key ${key}`, err);
      }
      throw err;
    }
  }
}
