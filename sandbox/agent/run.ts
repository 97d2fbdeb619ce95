/**
 * Runs the agent's SQL read-only and under a time limit: a separate read-only connection to the
 * database file (or, for an in-memory database, the same connection with PRAGMA query_only),
 * an authorizer that allows reading only, a deadline function the queries call per scanned row,
 * and a cap on the rows read.
 */
import { DatabaseSync, constants, type SQLInputValue } from 'node:sqlite';
import { SandboxError } from '../types.js';

/** Limits of one agent query. */
export interface QueryLimits {
  /** Time limit, ms (default 5 000). */
  timeoutMs?: number;
  /** Rows read at most (default 500). */
  maxRows?: number;
}

export const QUERY_DEFAULTS = { timeoutMs: 5_000, maxRows: 500 } as const;

/** The SQL function every agent query calls in its WHERE clause; it stops a query past its deadline. */
export const DEADLINE_FN = 'agent_deadline';

export interface QueryResult {
  rows: Record<string, unknown>[];
  /** True when more rows existed than the cap. */
  truncated: boolean;
  elapsedMs: number;
}

interface Reader {
  db: DatabaseSync;
  deadline: { at: number };
  /** Whether this is the sandbox's own connection (in-memory database). */
  shared: boolean;
}

const readers = new WeakMap<DatabaseSync, Reader>();

/** Authorizer actions a read-only query needs. */
const ALLOWED = new Set<number>([
  constants.SQLITE_SELECT,
  constants.SQLITE_READ,
  constants.SQLITE_FUNCTION,
  constants.SQLITE_RECURSIVE,
]);

function denyWrites(action: number): number {
  return ALLOWED.has(action) ? constants.SQLITE_OK : constants.SQLITE_DENY;
}

function readerFor(db: DatabaseSync): Reader {
  const cached = readers.get(db);
  if (cached?.db.isOpen) return cached;
  const location = db.location();
  const deadline = { at: Infinity };
  const reader: Reader = location
    ? { db: new DatabaseSync(location, { readOnly: true, timeout: 2_000 }), deadline, shared: false }
    : { db, deadline, shared: true };
  reader.db.function(DEADLINE_FN, { deterministic: false, varargs: false }, () => {
    if (Date.now() > deadline.at) throw new Error('agent query deadline exceeded');
    return 1;
  });
  readers.set(db, reader);
  return reader;
}

/**
 * Runs one parameterised SELECT read-only with a time limit and a row cap.
 * Throws SandboxError 503 service_unavailable when the query runs past its time limit, and 500
 * internal_error when SQLite refuses it (a write is refused by the authorizer).
 *
 * @example
 * const { rows } = runReadOnly(db, 'SELECT COUNT(*) AS n FROM rounds r WHERE agent_deadline() AND r.year = ?', [2024]);
 */
export function runReadOnly(
  db: DatabaseSync,
  sql: string,
  params: SQLInputValue[],
  limits: QueryLimits = {},
): QueryResult {
  const timeoutMs = limits.timeoutMs ?? QUERY_DEFAULTS.timeoutMs;
  const maxRows = limits.maxRows ?? QUERY_DEFAULTS.maxRows;
  const reader = readerFor(db);
  const started = Date.now();
  reader.deadline.at = started + timeoutMs;
  if (reader.shared) reader.db.exec('PRAGMA query_only = ON');
  reader.db.setAuthorizer(denyWrites);
  try {
    const stmt = reader.db.prepare(sql);
    const rows: Record<string, unknown>[] = [];
    let truncated = false;
    for (const row of stmt.iterate(...params)) {
      if (rows.length >= maxRows) {
        truncated = true;
        break;
      }
      rows.push({ ...(row as Record<string, unknown>) });
    }
    return { rows, truncated, elapsedMs: Date.now() - started };
  } catch (err) {
    const message = (err as Error).message;
    if (message.includes('deadline exceeded')) {
      throw new SandboxError(
        503,
        'service_unavailable',
        `ask: the query took longer than ${timeoutMs} ms and was stopped; ask a narrower question`,
      );
    }
    throw new SandboxError(500, 'internal_error', `ask: the query failed (${message})`);
  } finally {
    reader.deadline.at = Infinity;
    reader.db.setAuthorizer(null);
    if (reader.shared) reader.db.exec('PRAGMA query_only = OFF');
  }
}
