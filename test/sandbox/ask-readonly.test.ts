/**
 * The agent's query runner: read-only (writes refused), a time limit that stops a long query,
 * and a row cap.
 */
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { runReadOnly } from '../../sandbox/agent/index.js';
import { SandboxError } from '../../sandbox/types.js';

function smallDb(): DatabaseSync {
  const db = new DatabaseSync(':memory:');
  db.exec(
    'CREATE TABLE t (x INTEGER); WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000) INSERT INTO t SELECT x FROM c;',
  );
  return db;
}

describe('agent query runner', () => {
  it('reads with bound parameters and caps the rows', () => {
    const db = smallDb();
    const r = runReadOnly(db, 'SELECT x FROM t WHERE agent_deadline() AND x > ? ORDER BY x', [10], {
      maxRows: 5,
    });
    expect(r.rows.map((row) => row.x)).toEqual([11, 12, 13, 14, 15]);
    expect(r.truncated).toBe(true);
  });

  it('refuses writes, and the connection can write again afterwards', () => {
    const db = smallDb();
    expect(() => runReadOnly(db, 'DELETE FROM t', [])).toThrow(SandboxError);
    expect(() => runReadOnly(db, 'INSERT INTO t VALUES (1)', [])).toThrow(/query failed/);
    expect((db.prepare('SELECT COUNT(*) n FROM t').get() as { n: number }).n).toBe(1000);
    db.exec('INSERT INTO t VALUES (1001)');
    expect((db.prepare('SELECT COUNT(*) n FROM t').get() as { n: number }).n).toBe(1001);
  });

  it('stops a query past its time limit with 503', () => {
    const db = smallDb();
    const started = Date.now();
    let error: unknown;
    try {
      runReadOnly(
        db,
        'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE agent_deadline() AND x < 1000000000) SELECT COUNT(*) FROM c',
        [],
        { timeoutMs: 100 },
      );
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SandboxError);
    expect((error as SandboxError).status).toBe(503);
    expect((error as SandboxError).message).toContain('100 ms');
    expect(Date.now() - started).toBeLessThan(3000);
  });
});
