/**
 * Precomputed per-connection statistics the read operations sort and page on: the number of
 * rounds of each investor and the last round of each startup. They live in TEMP tables with
 * indexes, built once per connection and rebuilt only when the database changed since
 * (SQLite's total_changes() counts every write made through the connection).
 */
import type { DatabaseSync } from 'node:sqlite';
import { prepared } from './statements.js';

const BUILT_AT = new WeakMap<DatabaseSync, number>();

const BUILD_SQL = `
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
