/**
 * The fund-match refresh on the real embedded Temporal server, with real workers, against the
 * sandbox over HTTP, run twice with the data changed between (a match acquired, another raising a
 * series B past the thesis): the first run is the baseline, the second says what changed in its
 * PDF and workbook; each run costs the account exactly one batch (3 credits).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { followRun, startJobRun } from '../../../cli/run-job.js';
import { parseFundMatchJob, type FundMatchResult } from '../../../jobs/fund-match/index.js';
import type { RunningSandbox } from '../../../sandbox/index.js';
import { formulaLikeCells, openWorkbook, pdfText } from '../../helpers/reports.js';
import { callSandbox, KEYS, startTestSandbox } from '../../helpers/sandbox.js';
import { QUIET, startRunner, type RunnerHarness } from '../../helpers/runner.js';

let sandbox: RunningSandbox;
let h: RunnerHarness;

beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimitPerMinute: 10_000 });
  h = await startRunner({ baseUrl: sandbox.url, apiKey: KEYS.vc, name: 'fund-match' });
});

afterAll(async () => {
  await h?.close();
  await sandbox?.close();
});

async function balance(): Promise<number> {
  return (await callSandbox(sandbox, 'my_account', { key: KEYS.vc })).body.credits?.remaining as number;
}

const job = () =>
  parseFundMatchJob({
    id: 'fund-e2e',
    kind: 'fund-match',
    title: 'Fund match end to end',
    limit: 10,
    watchlist: 50,
    budget: { credits: 3 },
    destination: `${h.dir}/reports`,
  });

test('a baseline, then new, changed and dropped with their reasons, in the digest and the workbook', async () => {
  const before = await balance();
  const first = await followRun<FundMatchResult>(await startJobRun(h.client, h.settings, job()), QUIET);
  expect(first.partial, first.reasons.join('; ')).toBe(false);
  expect(before - (await balance())).toBe(3);
  expect(first.baseline).toBe(true);
  expect(pdfText(first.files.pdf!)).toMatch(/Baseline/);

  const wb1 = await openWorkbook(first.files.xlsx!);
  const batchSheet = wb1.getWorksheet('Batch')!;
  const names: string[] = [];
  batchSheet.eachRow((row, n) => {
    if (n > 1) names.push(row.getCell(2).text);
  });
  expect(names).toHaveLength(10);
  const batch = (
    await callSandbox(sandbox, 'find_startups_for_fund', { key: KEYS.vc, params: { limit: 10 } })
  ).body.data as { startups: { key: string; name: string }[] };
  const [acquired, raised] = batch.startups;
  sandbox.db.prepare("UPDATE startups SET status = 'acquired' WHERE key = ?").run(acquired!.key);
  const today = new Date().toISOString().slice(0, 10);
  sandbox.db
    .prepare(
      'INSERT INTO rounds (startup_key, date, year, stage, amount_usd, lead_investor_key) VALUES (?, ?, ?, ?, ?, NULL)',
    )
    .run(raised!.key, today, Number(today.slice(0, 4)), 'series-b', 25_000_000);
  sandbox.db.prepare("UPDATE startups SET stage = 'series-b' WHERE key = ?").run(raised!.key);

  const mid = await balance();
  const second = await followRun<FundMatchResult>(await startJobRun(h.client, h.settings, job()), QUIET);
  expect(second.partial, second.reasons.join('; ')).toBe(false);
  expect(mid - (await balance())).toBe(3);
  expect(second.baseline).toBe(false);
  expect(second.counts.dropped).toBeGreaterThanOrEqual(2);
  expect(second.counts.new).toBeGreaterThanOrEqual(2);
  const text = pdfText(second.files.pdf!).replace(/\s+/g, ' ');
  expect(text).toContain(acquired!.name);
  expect(text).toContain(raised!.name);
  expect(text).toMatch(/acquired/);
  expect(text).toMatch(/series-b/i);
  const wb2 = await openWorkbook(second.files.xlsx!);
  expect(wb2.worksheets.map((w) => w.name)).toEqual(
    expect.arrayContaining(['Batch', 'Match history', 'Watchlist', 'Dropped']),
  );
  expect(wb2.getWorksheet('Dropped')!.actualRowCount - 1).toBe(second.counts.dropped);
  expect(formulaLikeCells(wb2)).toEqual([]);
  const manifest = JSON.parse(readFileSync(second.manifestPath, 'utf8')) as { credits: { charged: number } };
  expect(manifest.credits.charged).toBe(3);
}, 240_000);
