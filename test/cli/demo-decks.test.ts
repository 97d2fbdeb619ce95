/**
 * `npm run demo:decks` end to end: the function behind `vir demo --runs 2` on the deck-triage
 * demo job makes the decks at run time, serves them over https at localhost:8443 with a
 * certificate its sandbox and workers trust, and runs the job twice. Checked from the outside:
 * the sandbox's own request log says run 1 sent analyze_deck five times (the sixth link answered
 * 404, named in the report) and run 2 once (the deck that arrived in between); run 2's workbook
 * ranks all six.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect, test, vi } from 'vitest';
import { snapshotRefOf } from '../../activities/run.js';
import { runDemo } from '../../cli/commands/run.js';
import { demoDeck } from '../../jobs/deck-triage/demo.js';
import { buildExampleDeck } from '../../jobs/deck-triage/examples/decks.js';
import { EXAMPLE_DECKS } from '../../jobs/deck-triage/examples/deck-slides.js';
import { CliContext } from '../../cli/context.js';
import type { DeckTriageResult } from '../../jobs/deck-triage/index.js';
import type * as LocalStackModule from '../../runtime/local-stack.js';
import type { LocalStack } from '../../runtime/local-stack.js';
import type { SandboxRequest } from '../../sandbox/index.js';
import { openWorkbook, pdfText, sheetRows } from '../helpers/reports.js';

// The stack runDemo starts, kept to read its sandbox's request log.
const started = vi.hoisted(() => ({ stacks: [] as LocalStack[] }));
vi.mock('../../runtime/local-stack.js', async (importOriginal) => {
  const mod = await importOriginal<typeof LocalStackModule>();
  return {
    ...mod,
    startLocalStack: async (...args: Parameters<typeof mod.startLocalStack>) => {
      const stack = await mod.startLocalStack(...args);
      started.stacks.push(stack);
      return stack;
    },
  };
});

const calls = (log: SandboxRequest[], operation: string) => log.filter((r) => r.operation === operation);

test('vir demo --runs 2 on the deck-triage demo job: five decks, the sixth a 404; then only the new one analysed, six ranked', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vir-demo-decks-'));
  // An earlier demo's history in the default store says every deck was analysed: a demo of
  // several runs keeps a store of its own, so its first run analyses them all the same.
  const earlier: Record<string, { label: string; analysedOn: string; ref: string }> = {};
  for (const deck of EXAMPLE_DECKS) {
    const sha = createHash('sha256')
      .update(await buildExampleDeck(demoDeck(deck)))
      .digest('hex');
    earlier[sha] = { label: deck.file, analysedOn: '2026-11-20', ref: 'runs/earlier/decks/deck-001.json' };
  }
  const snapshot = join(dataDir, 'store', snapshotRefOf('demo-decks'));
  mkdirSync(dirname(snapshot), { recursive: true });
  writeFileSync(snapshot, JSON.stringify({ decks: earlier }));
  const env: NodeJS.ProcessEnv = { ...process.env, VIR_DATA_DIR: dataDir, VIR_DEBUG: '' };
  for (const name of ['VIS_API_KEY', 'VIS_BASE_URL', 'VIR_STORE_DIR', 'VIR_REPORTS_DIR', 'VIR_DECK_CA_FILE'])
    delete env[name];
  const out: string[] = [];
  const err: string[] = [];
  // The sandbox's log as it stood when run 1 had finished and run 2 had not started.
  let afterRun1: SandboxRequest[] | null = null;
  const ctx = new CliContext(env, {
    out: (l) => {
      if (l === 'Run 2 of 2:') afterRun1 = started.stacks[0]!.sandbox!.requestLog();
      out.push(...l.split('\n'));
    },
    err: (l) => err.push(...l.split('\n')),
  });
  let results: Awaited<ReturnType<typeof runDemo>>;
  let log: SandboxRequest[];
  try {
    results = await runDemo(ctx, {
      file: 'jobs/deck-triage/examples/demo.yaml',
      job: 'demo-decks',
      runs: 2,
    });
    log = started.stacks[0]!.sandbox!.requestLog();
  } finally {
    await ctx.close();
  }
  const said = [...out, ...err].join('\n');
  expect(ctx.exitCode, said).toBe(0);
  const [first, second] = results as [DeckTriageResult, DeckTriageResult];

  // What the sandbox was asked, run by run.
  expect(afterRun1, said).not.toBeNull();
  const run1 = afterRun1!;
  const run2 = log.slice(run1.length);
  expect(calls(run1, 'analyze_deck').map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
  expect(calls(run2, 'analyze_deck').map((r) => r.status)).toEqual([200]);
  // The slow deck (its long appendix) outlasts the demo's short wait: run 1 polls it.
  expect(calls(run1, 'get_deck_analysis').length).toBeGreaterThanOrEqual(1);

  // The lines between the runs.
  expect(out).toContain('demo: a new deck arrived: partsbarn-series-a.pptx (Partsbarn)');
  expect(out.indexOf('demo: a new deck arrived: partsbarn-series-a.pptx (Partsbarn)')).toBeLessThan(
    out.indexOf('Run 2 of 2:'),
  );

  // Run 1: five analysed, the sixth link's 404 named in the report.
  expect(first.counts).toMatchObject({ analysed: 5, carried: 0 });
  const text1 = pdfText(first.files.pdf!).replace(/\s+/g, ' ');
  const missing = /Decks without an analysis \(1\)(.*?)Page 1 of/.exec(text1)?.[1] ?? '';
  expect(missing, text1.slice(0, 3000)).toContain('https://localhost:8443/decks/partsbarn');
  expect(missing).toContain('The link answered 404 Not Found');

  // Run 2: the new deck analysed, the five carried, all six ranked.
  expect(second.counts).toMatchObject({ analysed: 1, carried: 5, failed: 0 });
  expect(second.creditsSpent).toBe(3);
  const ranking = sheetRows(await openWorkbook(second.files.xlsx!), 'Ranking');
  expect(ranking.map((r) => r.Startup).sort()).toEqual(
    ['Auscura Health', 'Kelvinforge', 'Ledgerly', 'Partsbarn', 'Shiftnook', 'Snackr'].sort(),
  );
  expect(
    ranking.every((r) => /^\d+$/.test(r.Rank ?? '')),
    JSON.stringify(ranking),
  ).toBe(true);
}, 120_000);
