/**
 * `npm run demo:funds` end to end: the function behind `vir demo --runs 2` on the fund-match demo
 * job starts its own embedded Temporal, in-process sandbox and workers, runs the job (a
 * baseline), moves the sandbox's market on by a simulated week, runs it again; the second
 * digest (PDF and workbook) names what the week did: a new startup, the acquired one dropped
 * with its reason, the one past the thesis stages dropped with its new stage, the fit change of
 * the one that raised again at its stage.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { runDemo } from '../../cli/commands/run.js';
import type { FundMatchResult } from '../../jobs/fund-match/index.js';
import { openWorkbook, pdfText, sheetRows } from '../helpers/reports.js';
import { captureContext } from './helpers.js';

test('vir demo --runs 2 on the fund-match demo job: a baseline, then the week of market news in the second digest', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vir-demo-funds-'));
  const env: NodeJS.ProcessEnv = { ...process.env, VIR_DATA_DIR: dataDir, VIR_DEBUG: '' };
  delete env.VIS_API_KEY;
  delete env.VIS_BASE_URL;
  delete env.VIR_STORE_DIR;
  delete env.VIR_REPORTS_DIR;
  const { ctx, out } = captureContext(env);
  let results: Awaited<ReturnType<typeof runDemo>>;
  try {
    results = await runDemo(ctx, {
      file: 'jobs/fund-match/examples/demo.yaml',
      job: 'demo-fund-matches',
      runs: 2,
    });
  } finally {
    await ctx.close();
  }
  expect(ctx.exitCode).toBe(0);
  const [first, second] = results as [FundMatchResult, FundMatchResult];

  // Run 1: the baseline, said in its digest.
  expect(first.baseline).toBe(true);
  expect(first.partial, first.reasons.join('; ')).toBe(false);
  expect(pdfText(first.files.pdf!)).toMatch(/Baseline/);

  // The week, said in one line between the runs.
  const weekLine = out.find((l) => l.startsWith('sandbox: a week of market news before run 2: '));
  expect(weekLine, out.join('\n')).toBeDefined();
  const m =
    /: 3 new startups that fit the thesis \((.+?)\); (.+?) raised a \$[\d.]+M Series B \(was (seed|series A)\); (.+?) was acquired; (.+?) raised another (seed|pre-seed|Series A) round/.exec(
      weekLine!,
    );
  expect(m, weekLine).not.toBeNull();
  const [, newNames, pastStage, , acquired, sameStage] = m as unknown as string[];
  const inserted = newNames!.split(', ');

  // Run 2: new, changed, dropped with their reasons, watchlist events.
  expect(second.baseline).toBe(false);
  expect(second.partial, second.reasons.join('; ')).toBe(false);
  expect(second.counts.new).toBeGreaterThanOrEqual(1);
  expect(second.counts.dropped).toBeGreaterThanOrEqual(2);
  expect(second.counts.changed).toBeGreaterThanOrEqual(1);
  expect(second.counts.events).toBeGreaterThanOrEqual(3);
  const text = pdfText(second.files.pdf!).replace(/\s+/g, ' ');
  expect(inserted.some((n) => text.includes(n))).toBe(true);
  expect(text).toContain(acquired);
  expect(text).toMatch(new RegExp(`${acquired} .{0,80}acquired \\(was active\\)`));
  expect(text).toContain(pastStage);
  // Stages in words (issue 27), never the service's keys.
  expect(text).toMatch(/a new round moved it to Series B, past the thesis stages \(Seed, Series A\)/);
  expect(text).not.toMatch(/\bseries-[a-z]\b|\bpre-seed\b/);
  expect(text).toContain(sameStage);

  // The workbook says the same.
  const batch = sheetRows(await openWorkbook(second.files.xlsx!), 'Batch');
  const row = (name: string) => batch.find((r) => r.Startup === name);
  for (const n of inserted) expect(row(n)?.['New or still'], n).toBe('new');
  expect(row(acquired!)).toBeUndefined();
  expect(row(pastStage!)).toBeUndefined();
  const same = row(sameStage!);
  expect(same?.['New or still']).toBe('still');
  expect(Number(same?.['Fit change (points)'])).toBeGreaterThanOrEqual(2);
  const dropped = sheetRows(await openWorkbook(second.files.xlsx!), 'Dropped');
  expect(dropped.find((r) => r.Startup === acquired)).toMatchObject({
    Reason: 'Status changed',
    Detail: 'acquired (was active)',
  });
  expect(dropped.find((r) => r.Startup === pastStage)).toMatchObject({
    Reason: 'Moved past the thesis stages',
  });
  expect(dropped.find((r) => r.Startup === pastStage)?.Detail).toMatch(/Series B/);
  const events = sheetRows(await openWorkbook(second.files.xlsx!), 'Watchlist');
  expect(events.some((e) => e.Startup === sameStage && /new round/.test(e.Detail ?? ''))).toBe(true);

  // The last lines: the second run's files and its counts.
  const tail = out.slice(out.lastIndexOf('Run 2 of 2:'));
  expect(tail.some((l) => /PDF:\s+\S+demo-fund-matches-\d{4}-\d{2}-\d{2}\.pdf$/.test(l))).toBe(true);
  expect(tail.at(-1)).toBe(
    `  ${second.counts.new} new, ${second.counts.changed} changed, ${second.counts.dropped} dropped, ${second.counts.events} watchlist events`,
  );
}, 150_000);
