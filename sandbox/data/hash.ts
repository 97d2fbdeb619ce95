/**
 * A content hash of the sandbox database: sha256 over a canonical dump of every table, rows
 * ordered by primary key. Equal data gives an equal hash whatever the file layout.
 */
import { createHash } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';

/** meta keys left out of the hash (the hash itself). */
export const UNHASHED_META_KEYS = ['dataset_hash'] as const;

const quote = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/**
 * sha256 (hex) over every user table of the database, in table-name order, each table's rows
 * ordered by its primary key and written as JSON arrays of the column values.
 * @example datasetHash(openSandboxDatabase({ seed: 42, asOf: '2026-11-20' }).db)
 */
export function datasetHash(db: DatabaseSync): string {
  const hash = createHash('sha256');
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .all() as { name: string }[];
  for (const { name } of tables) {
    const info = db.prepare(`PRAGMA table_info(${quote(name)})`).all() as { name: string; pk: number }[];
    const columns = info.map((c) => c.name);
    const pk = info
      .filter((c) => c.pk > 0)
      .sort((a, b) => a.pk - b.pk)
      .map((c) => c.name);
    const orderBy = (pk.length ? pk : columns).map(quote).join(', ');
    const where =
      name === 'meta' ? `WHERE key NOT IN (${UNHASHED_META_KEYS.map((k) => `'${k}'`).join(', ')})` : '';
    const stmt = db.prepare(
      `SELECT ${columns.map(quote).join(', ')} FROM ${quote(name)} ${where} ORDER BY ${orderBy}`,
    );
    stmt.setReturnArrays(true);
    hash.update(`\u0001${name}\u0002${columns.join(',')}\n`);
    const rows = stmt.all() as unknown as unknown[][];
    const chunk = 2000;
    for (let i = 0; i < rows.length; i += chunk) {
      let text = '';
      for (const row of rows.slice(i, i + chunk)) text += `${JSON.stringify(row)}\n`;
      hash.update(text);
    }
  }
  return hash.digest('hex');
}
