/**
 * The bed of the data agent's pattern tests (ask-*.test.ts): the generated database on the fixed
 * test date, opened before a file's tests and closed after them; `ask`, which checks that a
 * question maps to its pattern; SQL helpers for the figures written independently in the tests;
 * and the answers' number formats.
 */
import type { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, expect } from 'vitest';
import { answerQuestion, type AgentAnswer } from '../../sandbox/agent/index.js';
import { openSandboxDatabase, SANDBOX_TEST_AS_OF } from '../../sandbox/data/index.js';

export const AS_OF = SANDBOX_TEST_AS_OF; // 2026-11-20

export type Row = Record<string, any>;

/** Rounds joined with their startups, as the tests' own SQL reads them. */
export const RJ = 'FROM rounds r JOIN startups s ON s.key = r.startup_key';

/** An amount as the answers write it ($1.2M, $350K, $2B). */
export const usdText = (n: number) => {
  const f = (x: number, u: string) => `$${Number(x.toFixed(x >= 100 ? 0 : 1))}${u}`;
  return n >= 1e9 ? f(n / 1e9, 'B') : n >= 1e6 ? f(n / 1e6, 'M') : n >= 1e3 ? f(n / 1e3, 'K') : `$${n}`;
};
/** A count as the answers write it (1,234). */
export const intText = (n: number) => Math.round(n).toLocaleString('en-US');

/**
 * Opens the database before the file's tests and closes it after them; `set` hands it to the
 * file once it is open. Returns `ask` and the SQL helpers `one` and `all` over that database.
 *
 * @example
 * const { ask, one, all } = askBed();
 * const a = ask('how many seed rounds in Germany in 2023', 'round_count');
 */
export function askBed(set: (db: DatabaseSync) => void = () => undefined) {
  let db: DatabaseSync | undefined;
  beforeAll(() => {
    db = openSandboxDatabase({ asOf: AS_OF }).db;
    set(db);
  });
  afterAll(() => db?.close());
  const one = (sql: string, ...p: (string | number)[]): Row => db!.prepare(sql).get(...p) as Row;
  const all = (sql: string, ...p: (string | number)[]): Row[] => db!.prepare(sql).all(...p);
  /** Asks a question and checks it maps to `pattern` with SQL, columns and an answer. */
  const ask = (question: string, pattern: string): AgentAnswer => {
    const a = answerQuestion(db!, question, { asOf: AS_OF });
    expect(a.mapped, question).toBe(true);
    expect(a.pattern, question).toBe(pattern);
    expect(a.answer.length).toBeGreaterThan(10);
    expect(a.sql).toContain('?');
    expect(a.columns.length).toBeGreaterThan(0);
    return a;
  };
  return { ask, one, all };
}
