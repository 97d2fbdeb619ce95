/**
 * The claim-check store: JSON documents in a local folder, addressed by relative references.
 * Workflows pass references; activities read and write the documents.
 */
import { readFile } from 'node:fs/promises';
import { isAbsolute, join, normalize, resolve, sep } from 'node:path';
import { writeJsonAtomic } from '../lib/files.js';
import { safeFileName } from '../lib/names.js';
import type { StoreRef } from './types.js';

export interface Store {
  /** Writes a run's document `name` and returns its reference. Overwrites (idempotent for retries). */
  putJson(runKey: string, name: string, value: unknown): Promise<StoreRef>;
  /** Writes a document at a reference of its own (snapshots). Overwrites. */
  putJsonAt(ref: StoreRef, value: unknown): Promise<StoreRef>;
  getJson<T = unknown>(ref: StoreRef): Promise<T>;
  /** Absolute path of a reference (for files handed to renderers). */
  pathOf(ref: StoreRef): string;
}

/** The reference of a run's document: `runs/<run>/<name>.json`, each segment made safe. */
export function runDocumentRef(runKey: string, name: string): StoreRef {
  const segment = (s: string) => safeFileName(s, 120, '_');
  return ['runs', segment(runKey), ...name.split('/').map(segment)].join('/') + '.json';
}

/** A store in a local folder (the default). */
export class LocalStore implements Store {
  readonly root: string;
  constructor(root: string) {
    this.root = resolve(root);
  }

  pathOf(ref: StoreRef): string {
    const path = normalize(join(this.root, ref));
    if (isAbsolute(ref) || !path.startsWith(this.root + sep)) {
      throw new Error(`store reference escapes the store: ${ref}`);
    }
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
    return JSON.parse(await readFile(this.pathOf(ref), 'utf8')) as T;
  }
}
