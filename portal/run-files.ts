/**
 * A run's files as the portal serves them: the list its manifest gives (`files`, names within
 * the manifest's folder), each addressed by its index in that list, never by a path from the
 * request. A file is read where the run kept it: the output folder beside the manifest, or the
 * store (S3) that keeps the run's files.
 */
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { contentTypeOf } from '../activities/delivery/deliver.js';
import { manifestPlace, type Store } from '../activities/store.js';
import type { Settings } from '../config/settings.js';
import { storeOf } from '../runtime/workers.js';

/** What the manifest of a run says (the fields the portal reads). */
export interface PortalManifest {
  files: string[];
  status?: string;
  calls?: {
    total?: number;
    pages?: number;
    records?: number;
    attempts?: { attempted: number; succeeded: number; failed: number };
  };
  credits?: { charged?: number; budget?: number };
}

/** One of a run's files. */
export interface RunFile {
  /** Its place in the manifest's list: the only way a request names it. */
  index: number;
  /** Its name, as the run wrote it (what a download is called). */
  name: string;
  contentType: string;
  /** PDFs open in the browser; the other files download. */
  disposition: 'inline' | 'attachment';
}

/** A run's manifest and files, read from where the run kept them. */
export interface RunFiles {
  manifest: PortalManifest;
  files: RunFile[];
  /** Opens file `index` for reading: its bytes and size; null when there is no such file. */
  open(index: number): Promise<{ stream: Readable; size: number; file: RunFile } | null>;
}

/** Whether a name from a manifest stays inside its folder (no `..`, not absolute, no empty segment). */
function plainName(name: string): boolean {
  return (
    name !== '' &&
    !isAbsolute(name) &&
    !name.includes('\\') &&
    name.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..')
  );
}

/** The portal's store: opened once, as the workers open it (VIR_STORE_URL), closed with the portal. */
export class PortalStore {
  #store: Store | null = null;
  constructor(
    private readonly settings: () => Settings,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  get store(): Store {
    this.#store ??= storeOf(this.settings(), this.env);
    return this.#store;
  }

  close(): void {
    const s = this.#store;
    // The S3 store holds a client to close; the local store holds nothing.
    if (s !== null && 'close' in s && typeof s.close === 'function') (s.close as () => void).call(s);
    this.#store = null;
  }

  /**
   * The files of the run whose manifest is at `manifestPath` (a local path, or a URL of the
   * store's files). Names that would leave the manifest's folder are left out.
   */
  async runFiles(manifestPath: string): Promise<RunFiles> {
    const store = this.store;
    const place = manifestPlace(store, manifestPath);
    const manifest = await place.read<PortalManifest>();
    const names = Array.isArray(manifest.files) ? manifest.files.filter((n) => typeof n === 'string') : [];
    const files: RunFile[] = names.filter(plainName).map((name, index) => ({
      index,
      name: name.split('/').at(-1) ?? name,
      contentType: contentTypeOf(name),
      disposition: /\.pdf$/i.test(name) ? 'inline' : 'attachment',
    }));
    const kept = names.filter(plainName);
    return {
      manifest,
      files,
      open: async (index) => {
        const file = files[index];
        const name = kept[index];
        if (!file || name === undefined) return null;
        if (!place.inStore) {
          const folder = resolve(place.folder);
          const path = resolve(folder, name);
          const rel = relative(folder, path);
          if (rel.startsWith('..') || isAbsolute(rel)) return null;
          const size = (await stat(path)).size;
          return { stream: createReadStream(path), size, file };
        }
        return openFromStore(store, `${place.folder}/${name}`, file);
      },
    };
  }
}

/** Copies a file of the store to a scratch folder and streams it from there (the folder goes when the stream ends). */
async function openFromStore(store: Store, ref: string, file: RunFile) {
  if (!store.files) return null;
  const dir = await mkdtemp(join(tmpdir(), 'vir-portal-'));
  const path = join(dir, 'file');
  try {
    await store.files.getFile(ref, path);
    const size = (await stat(path)).size;
    const stream = createReadStream(path);
    stream.once('close', () => void rm(dir, { recursive: true, force: true }));
    return { stream, size, file };
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}
