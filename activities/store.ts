/**
 * The claim-check store: JSON documents in a local folder, addressed by relative references.
 * Workflows pass references; activities read and write the documents.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, normalize, resolve, sep } from 'node:path';
import type { StoreRef } from './types.js';

export interface Store {
  /** Writes a JSON document and returns its reference. Overwrites (idempotent for retries). */
  putJson(runKey: string, name: string, value: unknown): Promise<StoreRef>;
  getJson<T = unknown>(ref: StoreRef): Promise<T>;
  /** Absolute path of a reference (for files handed to renderers). */
  pathOf(ref: StoreRef): string;
}

const SAFE = /[^A-Za-z0-9._-]+/g;

/** Makes a string safe as one path segment. */
export function safeSegment(s: string): string {
  const cleaned = s.replace(SAFE, '_').replace(/^\.+/, '_').slice(0, 120);
  return cleaned || '_';
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

  async putJson(runKey: string, name: string, value: unknown): Promise<StoreRef> {
    const ref = ['runs', safeSegment(runKey), ...name.split('/').map(safeSegment)].join('/') + '.json';
    const path = this.pathOf(ref);
    await mkdir(dirname(path), { recursive: true });
    const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(tmp, JSON.stringify(value));
    await rename(tmp, path);
    return ref;
  }

  async getJson<T = unknown>(ref: StoreRef): Promise<T> {
    return JSON.parse(await readFile(this.pathOf(ref), 'utf8')) as T;
  }
}
