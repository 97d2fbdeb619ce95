/**
 * The claim-check store: JSON documents addressed by relative references, in a local folder
 * (the default) or in an S3 bucket (activities/s3-store.ts, `VIR_STORE_URL=s3://bucket/prefix`).
 * Workflows pass references; activities read and write the documents.
 */
import { readdir, readFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, normalize, relative, resolve, sep } from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import { writeJsonAtomic } from '../lib/files.js';
import { safeFileName } from '../lib/names.js';
import type { StoreRef } from '../shared/types.js';

export interface Store {
  /** Writes a run's document `name` and returns its reference. Overwrites (idempotent for retries). */
  putJson(runKey: string, name: string, value: unknown): Promise<StoreRef>;
  /** Writes a document at a reference of its own (snapshots). Overwrites. */
  putJsonAt(ref: StoreRef, value: unknown): Promise<StoreRef>;
  /** Reads a document; a missing one is a {@link StoreObjectMissingError} naming the reference. */
  getJson<T = unknown>(ref: StoreRef): Promise<T>;
  /**
   * The references of every document and file under the folder `prefix` (`runs/<run>`), its
   * sub-folders included, sorted; none when the folder does not exist.
   */
  list(prefix: StoreRef): Promise<StoreRef[]>;
  /**
   * Files kept in the store beside the documents (the rendered reports and their manifest), for
   * workers that share no file system. Null for the local store: a run's files stay in its
   * output folder, where every worker on the shared folder reads them.
   */
  readonly files: StoreFiles | null;
}

/** Files in a store that workers on other hosts read (the S3 store). */
export interface StoreFiles {
  /** Where a reference is, for people and manifests: `s3://bucket/key`. */
  urlOf(ref: StoreRef): string;
  /** The reference of one of this store's URLs; null when the URL is not in this store. */
  refOf(url: string): StoreRef | null;
  /** Writes a local file at `ref`; the same bytes written again leave the same object. */
  putFile(ref: StoreRef, path: string, contentType: string): Promise<void>;
  /** Writes bytes at `ref` (overwrites). */
  putBytes(ref: StoreRef, body: string | Uint8Array, contentType: string): Promise<void>;
  /** Copies the object at `ref` into a local file (its folder created); a missing one is a StoreObjectMissingError. */
  getFile(ref: StoreRef, path: string): Promise<void>;
}

/**
 * A read of a document or file the store does not hold. Not retryable for Temporal (another
 * attempt finds nothing more); `ref` is the reference asked for, `where` the full place
 * (a path, or `s3://bucket/key`).
 */
export class StoreObjectMissingError extends ApplicationFailure {
  readonly code = 'store_object_missing';
  constructor(
    readonly ref: StoreRef,
    readonly where: string,
    cause?: Error,
  ) {
    super(`the store holds no ${ref} (${where})`, 'StoreObjectMissing', true, undefined, cause);
  }
}

/** A reference that is absolute or leaves the store with `..`. Not retryable. */
export class StoreRefError extends ApplicationFailure {
  readonly code = 'store_ref_escapes';
  constructor(readonly ref: string) {
    super(`store reference escapes the store: ${ref}`, 'StoreRefEscapes', true);
  }
}

/** The reference of a run's document: `runs/<run>/<name>.json`, each segment made safe. */
export function runDocumentRef(runKey: string, name: string): StoreRef {
  return [runFolderRef(runKey), ...name.split('/').map(refSegment)].join('/') + '.json';
}

/** The folder of a run's documents: `runs/<run>`, the run's key made safe. */
export function runFolderRef(runKey: string): StoreRef {
  return `runs/${refSegment(runKey)}`;
}

function refSegment(s: string): string {
  return safeFileName(s, 120, '_');
}

/** A store in a local folder (the default). */
export class LocalStore implements Store {
  readonly root: string;
  readonly files = null;
  constructor(root: string) {
    this.root = resolve(root);
  }

  /** Absolute path of a reference. */
  pathOf(ref: StoreRef): string {
    const path = normalize(join(this.root, ref));
    if (isAbsolute(ref) || !path.startsWith(this.root + sep)) throw new StoreRefError(ref);
    return path;
  }

  putJson(runKey: string, name: string, value: unknown): Promise<StoreRef> {
    return this.putJsonAt(runDocumentRef(runKey, name), value);
  }

  async putJsonAt(ref: StoreRef, value: unknown): Promise<StoreRef> {
    await writeJsonAtomic(this.pathOf(ref), value);
    return ref;
  }

  async getJson<T = unknown>(ref: StoreRef): Promise<T> {
    const path = this.pathOf(ref);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
        throw new StoreObjectMissingError(ref, path, err as Error);
      }
      throw err;
    }
    return JSON.parse(text) as T;
  }

  async list(prefix: StoreRef): Promise<StoreRef[]> {
    const folder = this.pathOf(prefix);
    let entries;
    try {
      entries = await readdir(folder, { recursive: true, withFileTypes: true });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return [];
      throw err;
    }
    return entries
      .filter((e) => e.isFile())
      .map((e) => relative(this.root, join(e.parentPath, e.name)).split(sep).join('/'))
      .sort();
  }
}

/** A manifest where it is kept: a local file, or an object of the store (its URL). */
interface ManifestPlace {
  /** The folder the manifest is in: a path, or the store reference of the folder. */
  folder: string;
  inStore: boolean;
  read: <T = Record<string, unknown>>() => Promise<T>;
  write: (value: unknown) => Promise<void>;
}

/** The place of the manifest at `path` (a local path, or a URL of the store's files). */
export function manifestPlace(store: Store, path: string): ManifestPlace {
  const ref = store.files?.refOf(path) ?? null;
  if (store.files && ref !== null) {
    const files = store.files;
    return {
      folder: ref.slice(0, ref.lastIndexOf('/')),
      inStore: true,
      read: <T>() => store.getJson<T>(ref),
      write: (value) => files.putBytes(ref, `${JSON.stringify(value, null, 2)}\n`, 'application/json'),
    };
  }
  return {
    folder: dirname(path),
    inStore: false,
    read: async <T>() => JSON.parse(await readFile(path, 'utf8')) as T,
    write: (value) => writeJsonAtomic(path, value, true),
  };
}
