/**
 * Opening the sandbox database: built once per (seed, as-of date, scale, generator version)
 * into a cached file, then loaded into a private in-memory copy for each caller.
 *
 * - The cache file is written to a temp file in the same folder and renamed into place, so
 *   processes that open it at the same time never see a half-written file.
 * - Every open deserializes the cached bytes into an in-memory database: callers may insert
 *   rows (tests do) without touching the cache or each other, and no temp file is left behind.
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { parseAsOf, todayUtc } from './calendar.js';
import { datasetSize, GENERATOR_VERSION, populateDatabase } from './generate.js';

/** Seed used when none is given. */
export const DEFAULT_SEED = 42;

/** The as-of date the test suite uses (fixed, so results do not move with the clock). */
export const SANDBOX_TEST_AS_OF = '2026-11-20';

/** Default folder of the cached database files: <repo>/.data/sandbox. */
export const DEFAULT_DATA_DIR = resolve(fileURLToPath(new URL('../../.data/sandbox', import.meta.url)));

export interface OpenSandboxOptions {
  /** PRNG seed (default 42); the same seed and as-of date give identical data. */
  seed?: number;
  /** Folder of the cached files (default <repo>/.data/sandbox). */
  dataDir?: string;
  /** YYYY-MM-DD; the data covers 2020-01-01 to this date. Default: today in UTC. */
  asOf?: string;
  /** Times the records of DATASET_SIZE, 1 to MAX_DATASET_SCALE (default 1); its own cached file. */
  scale?: number;
  /** Build again even when a cached file exists (and replace it). */
  rebuild?: boolean;
}

export interface SandboxDatabase {
  /** A private in-memory copy: writes never reach the cache file. */
  db: DatabaseSync;
  /** datasetHash of the data as built. */
  hash: string;
  /** Milliseconds this call took (generation when built, load when cached). */
  buildMs: number;
  /** True when the data came from the cached file. */
  fromCache: boolean;
  /** Path of the cached file. */
  path: string;
  asOf: string;
  seed: number;
  scale: number;
}

interface Resolved {
  seed: number;
  asOf: string;
  scale: number;
  dataDir: string;
  path: string;
  rebuild: boolean;
}

function resolveOptions(opts: OpenSandboxOptions): Resolved {
  const seed = opts.seed ?? DEFAULT_SEED;
  if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be an integer, got ${String(seed)}`);
  const asOf = parseAsOf(opts.asOf ?? todayUtc());
  const scale = opts.scale ?? 1;
  datasetSize(scale); // throws a RangeError naming the scale when it is out of bounds
  const dataDir = resolve(opts.dataDir ?? DEFAULT_DATA_DIR);
  return {
    seed,
    asOf,
    scale,
    dataDir,
    path: sandboxDatabasePath({ seed, asOf, scale, dataDir }),
    rebuild: opts.rebuild ?? false,
  };
}

/**
 * Path of the cached file for a seed, as-of date and scale (the file may not exist yet). Scale 1
 * has no scale in the name (`vis-seed42-2026-11-20-g3.sqlite`), others do
 * (`vis-seed42-2026-11-20-scale5-g3.sqlite`).
 */
export function sandboxDatabasePath(
  opts: { seed?: number; asOf?: string; scale?: number; dataDir?: string } = {},
): string {
  const seed = opts.seed ?? DEFAULT_SEED;
  const asOf = opts.asOf ?? todayUtc();
  const scale = opts.scale ?? 1;
  const scalePart = scale === 1 ? '' : `-scale${scale}`;
  return join(
    resolve(opts.dataDir ?? DEFAULT_DATA_DIR),
    `vis-seed${seed}-${asOf}${scalePart}-g${GENERATOR_VERSION}.sqlite`,
  );
}

const FILE_RE = /^vis-seed-?\d+-\d{4}-\d{2}-\d{2}(?:-scale\d+)?-g(.+)\.sqlite$/;
const MAX_AGE_MS = 30 * 86_400_000;

/** Removes cache files of other generator versions, files unused for 30 days and stale temp files. */
function prune(dataDir: string, keep: string): void {
  const now = Date.now();
  for (const name of readdirSync(dataDir)) {
    const path = join(dataDir, name);
    if (path === keep) continue;
    try {
      const m = FILE_RE.exec(name);
      const age = now - statSync(path).mtimeMs;
      const stale = m
        ? m[1] !== GENERATOR_VERSION || age > MAX_AGE_MS
        : name.endsWith('.tmp') && age > 3_600_000;
      if (stale) unlinkSync(path);
    } catch {
      // Another process removed or replaced it: nothing to do.
    }
  }
}

/** Writes bytes to a temp file beside `path`, flushes it and renames it into place. */
function writeAtomically(path: string, bytes: Uint8Array): void {
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const fd = openSync(tmp, 'w');
  try {
    let offset = 0;
    while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(tmp, path);
  } catch (err) {
    try {
      unlinkSync(tmp);
    } catch {
      // already gone
    }
    throw err;
  }
}

function build(r: Resolved): { db: DatabaseSync; hash: string } {
  const db = new DatabaseSync(':memory:');
  try {
    const hash = populateDatabase(db, { seed: r.seed, asOf: r.asOf, scale: r.scale });
    mkdirSync(r.dataDir, { recursive: true });
    writeAtomically(r.path, db.serialize());
    prune(r.dataDir, r.path);
    return { db, hash };
  } catch (err) {
    db.close();
    throw err;
  }
}

/** Loads the cached file into memory; null when it is missing or not a complete build of these inputs. */
function load(r: Resolved): { db: DatabaseSync; hash: string } | null {
  let bytes: Buffer;
  try {
    bytes = readFileSync(r.path);
  } catch {
    return null;
  }
  const db = new DatabaseSync(':memory:');
  try {
    db.deserialize(bytes);
    const rows = db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[];
    const meta = new Map(rows.map((row) => [row.key, row.value]));
    if (
      meta.get('seed') !== String(r.seed) ||
      meta.get('as_of') !== r.asOf ||
      (meta.get('scale') ?? '1') !== String(r.scale) ||
      meta.get('generator_version') !== GENERATOR_VERSION ||
      !meta.get('dataset_hash')
    ) {
      db.close();
      return null;
    }
    try {
      const now = new Date();
      utimesSync(r.path, now, now);
    } catch {
      // read-only folder: the file still serves
    }
    return { db, hash: meta.get('dataset_hash') ?? '' };
  } catch {
    db.close();
    return null;
  }
}

/**
 * Opens the sandbox database for a seed, as-of date and scale: from the cached file when there
 * is one (well under a second), otherwise generated (a few seconds at scale 1, 15 to 20 s at
 * scale 5) and cached for next time.
 * The returned `db` is a private in-memory copy; close it when done.
 * @example const { db, hash } = openSandboxDatabase({ asOf: '2026-11-20' });
 */
export function openSandboxDatabase(opts: OpenSandboxOptions = {}): SandboxDatabase {
  const started = performance.now();
  const r = resolveOptions(opts);
  const cached = r.rebuild ? null : load(r);
  const { db, hash } = cached ?? build(r);
  return {
    db,
    hash,
    buildMs: Math.round(performance.now() - started),
    fromCache: cached !== null,
    path: r.path,
    asOf: r.asOf,
    seed: r.seed,
    scale: r.scale,
  };
}

/**
 * Makes sure the cached file exists (builds it if not) without keeping a database open.
 * Used by the test suite's global setup so test files never race to build it.
 */
export function ensureSandboxDatabase(opts: Omit<OpenSandboxOptions, 'rebuild'> = {}): {
  path: string;
  built: boolean;
  buildMs: number;
  hash: string;
} {
  const started = performance.now();
  const r = resolveOptions(opts);
  const cached = load(r);
  const { db, hash } = cached ?? build(r);
  db.close();
  return { path: r.path, built: cached === null, buildMs: Math.round(performance.now() - started), hash };
}
