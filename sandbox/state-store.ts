/**
 * The sandbox's persisted state: a SQLite file of its own holding everything calls change
 * (accounts and their balances, keys, free-plan runs, find_customers repeat records, match
 * lists, data rooms, stored results, rate-limit windows), one table per kind.
 *
 * The generated data stays out of it: that file is a cache shared by every sandbox of the same
 * seed and date (each loads a private in-memory copy), rebuilt when the generator changes.
 *
 * Writes go through at once: every set or delete on the state's maps is its own small
 * transaction, committed before the call that made it returns, so the change is in the file
 * before the answer is sent. The file is in WAL mode with synchronous NORMAL: a commit survives
 * the process being killed (not a power cut) without an fsync per call. While a sandbox has the
 * file open, it holds an exclusive lock on it: a second sandbox on the same file fails to start.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { z } from 'zod';
import { OPERATION_NAMES } from '../api/index.js';
import { AccountSchema, ApiKeyRecordSchema } from './accounts.js';
import { roomRecord, type DataRoom } from './decks/rooms.js';
import type { RateLimitWindows } from './rate-limit.js';
import type { SandboxState } from './types.js';

/** Version of the tables; a file of another version is refused (start it with state 'reset'). */
export const STATE_FILE_VERSION = 1;

/** How long opening waits for another process' lock before giving up (ms). */
const LOCK_WAIT_MS = 2000;

/** How a map's values are written to and read from their table. */
interface Codec<V> {
  encode(value: V): string;
  /** Throws an Error naming what is wrong; the store adds the file, table and key. */
  decode(text: string): V;
}

/** A codec of JSON text checked by a zod schema. */
function jsonCodec<V>(schema: z.ZodType<V>): Codec<V> {
  return {
    encode: (value) => JSON.stringify(value),
    decode: (text) => {
      const parsed = schema.safeParse(JSON.parse(text));
      if (parsed.success) return parsed.data;
      const issue = parsed.error.issues[0];
      throw new Error(`${issue?.path.map(String).join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`);
    },
  };
}

const count = z.number().int().min(0);
const epochMs = z.number().finite();

const ResultSchema = z.object({
  operation: z.enum(OPERATION_NAMES),
  account_id: z.string(),
  summary: z.string(),
  data: z.unknown(),
  created_at: z.string(),
});

const WindowsSchema = z.object({ minuteEnd: epochMs, minuteCount: count, dayEnd: epochMs, dayCount: count });

/**
 * A Map whose set, delete and clear also write to a table of the state file, each as one
 * committed statement. Values changed in place are saved by setting them again.
 */
export class StoredMap<V> extends Map<string, V> {
  readonly #put: StatementSync;
  readonly #remove: StatementSync;
  readonly #removeAll: StatementSync;
  readonly #codec: Codec<V>;
  readonly #isOpen: () => boolean;

  constructor(db: DatabaseSync, table: string, codec: Codec<V>, isOpen: () => boolean) {
    super();
    // An update keeps the row (and so the order the entries are read back in).
    this.#put = db.prepare(
      `INSERT INTO ${table} (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    );
    this.#remove = db.prepare(`DELETE FROM ${table} WHERE key = ?`);
    this.#removeAll = db.prepare(`DELETE FROM ${table}`);
    this.#codec = codec;
    this.#isOpen = isOpen;
  }

  /** Puts an entry read from the file, without writing it back. */
  restore(key: string, value: V): void {
    super.set(key, value);
  }

  override set(key: string, value: V): this {
    super.set(key, value);
    // After close (a deck analysis finishing late), the map still answers; the file keeps what it had.
    if (this.#isOpen()) this.#put.run(key, this.#codec.encode(value));
    return this;
  }

  override delete(key: string): boolean {
    const had = super.delete(key);
    if (had && this.#isOpen()) this.#remove.run(key);
    return had;
  }

  override clear(): void {
    super.clear();
    if (this.#isOpen()) this.#removeAll.run();
  }
}

/** The tables of the state file and the codecs of their values, by map. */
function tables(reviveRoom: (record: unknown) => DataRoom) {
  return {
    accounts: { table: 'accounts', codec: jsonCodec(AccountSchema) },
    keys: { table: 'api_keys', codec: jsonCodec(ApiKeyRecordSchema) },
    freeFinderRunsUsed: { table: 'free_finder_runs', codec: jsonCodec(count) },
    matchLists: { table: 'match_lists', codec: jsonCodec(z.array(z.unknown())) },
    customerCalls: { table: 'customer_calls', codec: jsonCodec(epochMs) },
    rooms: {
      table: 'data_rooms',
      codec: {
        encode: (room: unknown) => JSON.stringify(isLiveRoom(room) ? roomRecord(room) : room),
        decode: (text: string): unknown => reviveRoom(JSON.parse(text)),
      } satisfies Codec<unknown>,
    },
    results: { table: 'results', codec: jsonCodec(ResultSchema) },
    rateLimits: { table: 'rate_limits', codec: jsonCodec(WindowsSchema) },
  } as const;
}

function isLiveRoom(value: unknown): value is DataRoom {
  return typeof value === 'object' && value !== null && 'settled' in value;
}

export interface OpenStateStoreOptions {
  /** The state file (created with its folder when missing). */
  path: string;
  /** Empty every table first: the sandbox starts fresh and persists from there. */
  reset?: boolean;
  /** Makes a live data room of a record read back (a running analysis goes on). */
  reviveRoom: (state: SandboxState, record: unknown) => DataRoom;
}

/** An open state file. */
export interface StateStore {
  path: string;
  /** The state read from the file; its maps write every change through. */
  state: SandboxState;
  /** Rate-limit windows by API key, written through the same way (for the RateLimiter). */
  rateLimits: Map<string, RateLimitWindows>;
  /** Closes the file (and releases its lock); later changes stay in memory only. Idempotent. */
  close(): void;
}

/** Opens the file, takes its lock and checks or creates its tables. */
function openFile(path: string, names: string[]): DatabaseSync {
  mkdirSync(dirname(path), { recursive: true });
  const db = new DatabaseSync(path, { timeout: LOCK_WAIT_MS });
  try {
    db.exec('PRAGMA locking_mode = EXCLUSIVE');
    db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = NORMAL');
    db.exec('BEGIN IMMEDIATE');
    try {
      db.exec('CREATE TABLE IF NOT EXISTS state_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
      const row = db.prepare("SELECT value FROM state_meta WHERE key = 'version'").get() as
        { value: string } | undefined;
      if (row && row.value !== String(STATE_FILE_VERSION)) {
        throw new Error(
          `it has version ${row.value} of the state tables, this sandbox writes version ${STATE_FILE_VERSION}; start it with state 'reset' (--state reset) or another state file`,
        );
      }
      for (const name of names)
        db.exec(`CREATE TABLE IF NOT EXISTS ${name} (key TEXT PRIMARY KEY, value TEXT NOT NULL)`);
      // Always a write, so the exclusive lock is taken now and held until close.
      db.prepare(
        "INSERT OR REPLACE INTO state_meta (key, value) VALUES ('version', ?), ('opened_at', ?)",
      ).run(String(STATE_FILE_VERSION), new Date().toISOString());
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * Opens (or creates) a state file and reads its state.
 *
 * @example
 * const store = openStateStore({ path: '.data/sandbox/state.sqlite', reviveRoom: (state, r) => reviveRoom(state, r, db) });
 * store.state.accounts.get('acct_vc')?.credits; // the balance the last sandbox left
 * store.close();
 */
export function openStateStore(options: OpenStateStoreOptions): StateStore {
  const { path } = options;
  // Rooms are revived into the state being read (a running analysis saves itself there).
  let state: SandboxState | undefined;
  const defs = tables((record) => {
    if (!state) throw new Error('rooms are read after the rest of the state');
    return options.reviveRoom(state, record);
  });
  const names = Object.values(defs).map((d) => d.table);
  let db: DatabaseSync;
  try {
    db = openFile(path, names);
  } catch (error) {
    const message = (error as Error).message;
    const why = /locked|busy/i.test(message) ? 'it is in use by another sandbox' : message;
    throw new Error(`sandbox state file ${path}: ${why}`, { cause: error });
  }
  let open = true;
  const isOpen = () => open;
  const map = <V>(def: { table: string; codec: Codec<V> }) => new StoredMap(db, def.table, def.codec, isOpen);
  const load = <V>(target: StoredMap<V>, def: { table: string; codec: Codec<V> }): StoredMap<V> => {
    const rows = db.prepare(`SELECT key, value FROM ${def.table} ORDER BY rowid`).all() as {
      key: string;
      value: string;
    }[];
    for (const row of rows) {
      try {
        target.restore(row.key, def.codec.decode(row.value));
      } catch (error) {
        throw new Error(
          `sandbox state file ${path}: ${def.table} '${row.key}': ${(error as Error).message}`,
          {
            cause: error,
          },
        );
      }
    }
    return target;
  };
  try {
    if (options.reset) {
      db.exec('BEGIN IMMEDIATE');
      for (const name of names) db.exec(`DELETE FROM ${name}`);
      db.exec('COMMIT');
    }
    const rooms = map(defs.rooms);
    state = {
      accounts: load(map(defs.accounts), defs.accounts),
      keys: load(map(defs.keys), defs.keys),
      freeFinderRunsUsed: load(map(defs.freeFinderRunsUsed), defs.freeFinderRunsUsed),
      matchLists: load(map(defs.matchLists), defs.matchLists),
      customerCalls: load(map(defs.customerCalls), defs.customerCalls),
      rooms,
      results: load(map(defs.results), defs.results),
    };
    load(rooms, defs.rooms);
    const rateLimits = load(map(defs.rateLimits), defs.rateLimits);
    return {
      path,
      state,
      rateLimits,
      close: () => {
        if (!open) return;
        open = false;
        db.close();
      },
    };
  } catch (error) {
    open = false;
    db.close();
    throw error;
  }
}
