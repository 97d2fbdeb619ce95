/**
 * Precomputed per-connection statistics the read operations sort and page on: the number of
 * rounds of each investor and the last round of each startup. They live in TEMP tables with
 * indexes, built once per connection and rebuilt only when the database changed since
 * (SQLite's total_changes() counts every write made through the connection). The index behind
 * search_startups' order (total raised, key) is added to the connection's database, which
 * openSandboxDatabase gives as a private in-memory copy.
 */
import type { DatabaseSync } from 'node:sqlite';
import { prepared } from './statements.js';

const BUILT_AT = new WeakMap<DatabaseSync, number>();

const BUILD_SQL = `
CREATE INDEX IF NOT EXISTS main.idx_vis_startups_raised ON startups(total_raised_usd DESC, key);

DROP TABLE IF EXISTS temp.vis_investor_stats;
CREATE TEMP TABLE vis_investor_stats (
  investor_key TEXT PRIMARY KEY,
  investments INTEGER NOT NULL,
  lead_investments INTEGER NOT NULL
);
INSERT INTO temp.vis_investor_stats
  SELECT i.key, COUNT(ri.round_id), COALESCE(SUM(ri.is_lead), 0)
  FROM investors i LEFT JOIN round_investors ri ON ri.investor_key = i.key
  GROUP BY i.key;
CREATE INDEX temp.idx_vis_investor_stats_investments ON vis_investor_stats(investments DESC, investor_key);

DROP TABLE IF EXISTS temp.vis_startup_last_round;
CREATE TEMP TABLE vis_startup_last_round (
  startup_key TEXT PRIMARY KEY,
  date TEXT NOT NULL,
  stage TEXT NOT NULL,
  amount_usd INTEGER NOT NULL,
  rounds INTEGER NOT NULL
);
INSERT INTO temp.vis_startup_last_round
  SELECT startup_key, date, stage, amount_usd, n FROM (
    SELECT startup_key, date, stage, amount_usd,
      ROW_NUMBER() OVER (PARTITION BY startup_key ORDER BY date DESC, id DESC) AS rn,
      COUNT(*) OVER (PARTITION BY startup_key) AS n
    FROM rounds
  ) WHERE rn = 1;
`;

function totalChanges(db: DatabaseSync): number {
  const row = prepared(db, 'SELECT total_changes() AS n').get() as { n: number };
  return row.n;
}

/**
 * Makes sure the TEMP tables `vis_investor_stats(investor_key, investments, lead_investments)`
 * and `vis_startup_last_round(startup_key, date, stage, amount_usd, rounds)` are current for
 * `db`. Cheap when nothing changed (one `SELECT total_changes()`).
 */
export function ensureStats(db: DatabaseSync): void {
  const changes = totalChanges(db);
  if (BUILT_AT.get(db) === changes) return;
  db.exec(BUILD_SQL);
  BUILT_AT.set(db, totalChanges(db));
}

const MEMO = new WeakMap<DatabaseSync, { at: number; values: Map<string, unknown> }>();
/** Most results kept per connection (the oldest are dropped first). */
const MEMO_LIMIT = 2000;

/**
 * The value of `compute()` for `key` on `db`, computed once while the database is unchanged
 * (any write through the connection drops every memoized value). Callers must not mutate it.
 */
export function memoized<T>(db: DatabaseSync, key: string, compute: () => T): T {
  ensureStats(db);
  const at = totalChanges(db);
  let memo = MEMO.get(db);
  if (!memo || memo.at !== at) {
    memo = { at, values: new Map() };
    MEMO.set(db, memo);
  }
  if (memo.values.has(key)) return memo.values.get(key) as T;
  const value = compute();
  if (memo.values.size >= MEMO_LIMIT) {
    const oldest = memo.values.keys().next();
    if (!oldest.done) memo.values.delete(oldest.value);
  }
  memo.values.set(key, value);
  return value;
}
