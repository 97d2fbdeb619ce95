/**
 * The data agent's patterns as a whole, over the real generated database: every pattern is
 * asked by a file on the ask bed (ask-rounds.test.ts, ask-startups-investors.test.ts),
 * questions it cannot map are refused, and question text never reaches the SQL text.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { DatabaseSync } from 'node:sqlite';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { answerQuestion, PATTERNS } from '../../sandbox/agent/index.js';
import { AS_OF, askBed } from './ask-bed.js';

let db: DatabaseSync;
const { one } = askBed((d) => (db = d));

/**
 * The patterns the files on the ask bed (ask-bed.ts) ask: the pattern id quoted in each
 * `ask(question, pattern)` call in them (each such call checks that its question maps to that
 * pattern).
 */
const ASK_CALL = /\bask\(\s*(?:'[^']*'|`[^`]*`|\w+)\s*,\s*'([a-z_]+)',?\s*\)/g;
function patternsAsked(): string[] {
  const dir = dirname(fileURLToPath(import.meta.url));
  const ids = new Set<string>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.test.ts'))) {
    const text = readFileSync(join(dir, file), 'utf8');
    if (!text.includes("from './ask-bed.js'")) continue;
    for (const m of text.matchAll(ASK_CALL)) ids.add(m[1]!);
  }
  return [...ids];
}

describe('ask: coverage, refusals and safety', () => {
  it('covers at least 30 patterns, each asked in a file on the ask bed', () => {
    expect(PATTERNS.length).toBeGreaterThanOrEqual(30);
    const asked = patternsAsked();
    const missing = PATTERNS.map((p) => p.id).filter((id) => !asked.includes(id));
    expect(missing).toEqual([]);
  });

  it('refuses questions it cannot map, with no numbers and the list of what it can answer', () => {
    for (const q of ['What is the weather in Paris tomorrow?', 'write me a poem about unicorns', 'abc']) {
      const a = answerQuestion(db, q, { asOf: AS_OF });
      expect(a.mapped).toBe(false);
      expect(a.rows).toEqual([]);
      expect(a.sql).toBeNull();
      expect(a.answer).toMatch(/^I cannot answer/);
      expect(a.answer).toContain('median and average round sizes');
    }
  });

  it('binds question text as parameters: a quote or SQL in the question never reaches the SQL text', () => {
    const a = answerQuestion(db, "Who invested in x'; DROP TABLE rounds; --", { asOf: AS_OF });
    expect(a.sql ?? '').not.toContain('DROP');
    expect(one('SELECT COUNT(*) n FROM rounds').n).toBeGreaterThan(0);
  });
});
