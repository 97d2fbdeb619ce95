/**
 * Prepared statements cached per database connection: the read operations run thousands of
 * times in benchmarks, so each distinct SQL text is prepared once.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';

const CACHE = new WeakMap<DatabaseSync, Map<string, StatementSync>>();

/** The prepared statement of `sql` on `db`, prepared on first use. */
export function prepared(db: DatabaseSync, sql: string): StatementSync {
  let byText = CACHE.get(db);
  if (!byText) {
    byText = new Map();
    CACHE.set(db, byText);
  }
  let statement = byText.get(sql);
  if (!statement) {
    statement = db.prepare(sql);
    byText.set(sql, statement);
  }
  return statement;
}

/** Parses a JSON text column, giving `fallback` for null or malformed text. */
export function parseJson<T>(text: unknown, fallback: T): T {
  if (typeof text !== 'string' || text === '') return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}
