/**
 * The fund-match refresh on the real embedded Temporal server, with real workers, against the
 * sandbox over HTTP, run three times with the market changed between runs, as a week would:
 * - run 1 is the baseline and says so;
 * - then two startups that fit the thesis are founded and raise, a match is acquired, another
 *   raises a series B past the thesis stages, a third raises again at its stage (its fit moves);
 *   run 2 shows each as new, dropped with its reason, and changed, in the PDF and the workbook;
 * - then the startup that left the batch raises a series C with a lead investor: run 3 reports
 *   it on the watchlist although it is no longer matched, with the round's stage in words, amount,
 *   date and lead investor as get_startup itself answers them.
 * Stages print in words (Series B), never as the service's keys (series-b).
 * What the service itself answered each run (the batch it saved in its books for the run's call)
 * is the witness of fits and membership, and each run costs the account exactly one batch (3
 * credits) by the sandbox's books.
 * Every figure is traceable: the workbook's Sources sheet lists the answers the run stored, and
 * every data row names the one it came from ("earlier run" for the job's history).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { followRun, startJobRun } from '../../../cli/run-job.js';
import { parseFundMatchJob, type FundMatchResult } from '../../../jobs/fund-match/index.js';
import type { RunningSandbox } from '../../../sandbox/index.js';
import { savedBatches } from '../../../sandbox/finders/fund-result.js';
import type { StartupRow } from '../../../sandbox/types.js';
import { formulaLikeCells, openWorkbook, pdfText, sheetRows } from '../../helpers/reports.js';
import { maskClock, reportDigest } from '../../helpers/report-digest.js';
import { startRerender } from '../../../cli/commands/runs-rerender.js';
import { callSandbox, KEYS, startTestSandbox } from '../../helpers/sandbox.js';
import { QUIET, startRunner, type RunnerHarness } from '../../helpers/runner.js';
import { answerHolds, expectSourceCells, expectSourcesFromStore } from '../../helpers/report-sources.js';
import { COMPUTED_BY_RUNNER, SOURCE_COLUMN } from '../../../reports/sources.js';
import { EARLIER_RUN } from '../../../jobs/fund-match/report/sources.js';

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

interface ServiceMatch {
  key: string;
  name: string;
  fit_pct: number;
}

/**
 * The batch the service answered run `n`'s find_startups_for_fund with, from the service's own
 * books (the account's match list, one batch saved a call): exactly what it scored for that
 * run, read without scoring again (seconds a call).
 */
function servedBatch(n: number): ServiceMatch[] {
  const batches = savedBatches(sandbox.state, sandbox.state.keys.get(KEYS.vc)!.account_id);
  // One call a run, each saved: the last batch is run n's.
  expect(batches).toHaveLength(n);
  return batches.at(-1)!.entries;
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

/** Runs the job once; checks it completed and cost the account exactly 3 credits. */
async function runOnce(): Promise<FundMatchResult> {
  const before = await balance();
  const result = await followRun<FundMatchResult>(await startJobRun(h.client, h.settings, job()), QUIET);
  expect(result.partial, result.reasons.join('; ')).toBe(false);
  expect(before - (await balance())).toBe(3);
  const manifest = JSON.parse(readFileSync(result.manifestPath, 'utf8')) as { credits: { charged: number } };
  expect(manifest.credits.charged).toBe(3);
  return result;
}

const flat = (pdf: string) => pdfText(pdf).replace(/\s+/g, ' ');
/** The PDF's text in reading order with no white space at all (wrapped lines joined). */
const squeezed = (pdf: string) =>
  execFileSync('pdftotext', ['-raw', pdf, '-'], { encoding: 'utf8' }).replace(/\s+/g, '');
const today = () => new Date().toISOString().slice(0, 10);

function addRound(key: string, stage: string, amount: number, leadKey: string | null = null): void {
  sandbox.db
    .prepare(
      'INSERT INTO rounds (startup_key, date, year, stage, amount_usd, lead_investor_key) VALUES (?, ?, ?, ?, ?, ?)',
    )
    .run(key, today(), Number(today().slice(0, 4)), stage, amount, leadKey);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

interface ServiceRound {
  date: string;
  stage: string;
  amount_usd: number;
  lead_investors: { key: string; name: string }[];
}

/** The startup's latest round as get_startup answers it (the test's own call). */
async function serviceLastRound(key: string): Promise<ServiceRound> {
  const res = await callSandbox(sandbox, 'get_startup', { key: KEYS.vc, params: { key } });
  const rounds = (res.body.data as { startup: { rounds: ServiceRound[] } }).startup.rounds;
  return [...rounds].sort((a, b) => a.date.localeCompare(b.date)).at(-1)!;
}

test('a baseline, then new, changed, dropped with their reasons and a watchlist event, in the digest and the workbook', async () => {
  // Run 1: the baseline.
  const first = await runOnce();
  expect(first.baseline).toBe(true);
  expect(flat(first.files.pdf!)).toMatch(/Baseline/);
  const wb1 = await openWorkbook(first.files.xlsx!);
  const batch1 = sheetRows(wb1, 'Batch');
  const b1 = servedBatch(1);
  expect(batch1.map((r) => r['Startup'])).toEqual(b1.map((m) => m.name));

  // A week of market news.
  const [acquired, raised, model] = b1;
  const changed = b1[5]!;
  sandbox.db.prepare("UPDATE startups SET status = 'acquired' WHERE key = ?").run(acquired!.key);
  addRound(raised!.key, 'series-b', 25_000_000);
  sandbox.db.prepare("UPDATE startups SET stage = 'series-b' WHERE key = ?").run(raised!.key);
  addRound(
    changed.key,
    (sandbox.db.prepare('SELECT stage FROM startups WHERE key = ?').get(changed.key) as { stage: string })
      .stage,
    12_000_000,
  );
  const row = sandbox.db
    .prepare('SELECT * FROM startups WHERE key = ?')
    .get(model!.key) as unknown as StartupRow;
  const founded = ['Quillstone Analytics', 'Brightloom Ledger'].map((name) =>
    sandbox.insertStartup(
      {
        name,
        hq_country: row.hq_country,
        hq_city: row.hq_city,
        sector: row.sector,
        subsector: row.subsector,
        tags: row.tags,
        stage: row.stage,
        description: `${name} builds ${row.subsector.toLowerCase()} software for mid-sized companies.`,
      },
      [{ stage: row.stage, amount_usd: 9_000_000 }],
    ),
  );

  // Run 2: what changed, said with reasons.
  const second = await runOnce();
  const b2 = servedBatch(2);
  const inB2 = new Set(b2.map((m) => m.key));
  for (const key of founded) expect(inB2.has(key), key).toBe(true);
  expect(inB2.has(acquired!.key)).toBe(false);
  expect(inB2.has(raised!.key)).toBe(false);
  const changedNow = b2.find((m) => m.key === changed.key);
  expect(changedNow, 'the startup that raised at its stage is still matched').toBeDefined();
  expect(Math.abs(changedNow!.fit_pct - changed.fit_pct)).toBeGreaterThanOrEqual(2);
  const droppedKeys = b1.filter((m) => !inB2.has(m.key));
  expect(second.baseline).toBe(false);
  expect(second.counts.new).toBe(b2.filter((m) => !b1.some((x) => x.key === m.key)).length);
  expect(second.counts.dropped).toBe(droppedKeys.length);
  expect(second.counts.changed).toBeGreaterThanOrEqual(1);

  const text2 = flat(second.files.pdf!);
  expect(text2).not.toMatch(/Baseline/);
  for (const name of [
    'Quillstone Analytics',
    'Brightloom Ledger',
    acquired!.name,
    raised!.name,
    changed.name,
  ])
    expect(text2).toContain(name);
  expect(text2).toMatch(/acquired \(was active\)/);
  expect(text2).toMatch(/moved it to Series B, past the thesis stages/);
  expect(text2).not.toMatch(/series-[a-z]/);

  const wb2 = await openWorkbook(second.files.xlsx!);
  const batch2 = sheetRows(wb2, 'Batch');
  expect(batch2.map((r) => r['Startup'])).toEqual(b2.map((m) => m.name));
  for (const name of ['Quillstone Analytics', 'Brightloom Ledger'])
    expect(batch2.find((r) => r['Startup'] === name)?.['New or still']).toMatch(/new/i);
  const changedRow = batch2.find((r) => r['Startup'] === changed.name)!;
  // Fit is a percentage cell (0.0%, as in the PDF): the cell holds the fraction.
  expect(Number(changedRow['Fit']) * 100).toBeCloseTo(changedNow!.fit_pct, 1);
  expect(Number(changedRow['Fit change (points)']!.replace('−', '-'))).toBeCloseTo(
    changedNow!.fit_pct - changed.fit_pct,
    1,
  );
  const dropped = sheetRows(wb2, 'Dropped');
  expect(dropped).toHaveLength(droppedKeys.length);
  const reasonOf = (name: string) => JSON.stringify(dropped.find((r) => r['Startup'] === name) ?? null);
  expect(reasonOf(acquired!.name)).toMatch(/acquired/);
  expect(reasonOf(raised!.name)).toMatch(/Series B/);
  const history = sheetRows(wb2, 'Match history');
  expect(history.find((r) => r['Startup'] === acquired!.name)?.['In the batch']).toMatch(/no/i);
  expect(formulaLikeCells(wb2)).toEqual([]);

  // Where each figure came from: the Sources sheet is what the run stored, each row names its answer.
  const answers = expectSourcesFromStore(wb2, {
    storeDir: join(h.dir, 'store'),
    runKey: second.workflowId,
    operations: ['find_startups_for_fund', 'get_startup'],
  });
  const cells = expectSourceCells(
    wb2,
    ['Batch', 'Match history', 'Watchlist', 'Dropped'],
    new Set(answers.keys()),
    [EARLIER_RUN],
  );
  const batchAnswer = answers.get('S1')!;
  expect(batchAnswer.operation).toBe('find_startups_for_fund');
  for (const { row } of cells.get('Batch')!) {
    expect(row[SOURCE_COLUMN]).toBe('S1');
    expect(answerHolds(batchAnswer, row['Service key']!), row['Startup']).toBe(true);
  }
  /** A row naming the profile read this run: that answer is the startup's own. */
  const fromProfile = (row: Record<string, string>, ids: string[]) => {
    expect(row[SOURCE_COLUMN]!.startsWith(`${EARLIER_RUN}; `), row[SOURCE_COLUMN]).toBe(true);
    expect(ids).toHaveLength(1);
    const answer = answers.get(ids[0]!)!;
    expect(answer.operation).toBe('get_startup');
    expect(answer.params).toEqual({ key: row['Service key'] });
    expect(answerHolds(answer, row['Startup']!)).toBe(true);
    expect(row['Basis']!.startsWith(COMPUTED_BY_RUNNER), row['Basis']).toBe(true);
  };
  expect(cells.get('Dropped')!.length).toBe(droppedKeys.length);
  for (const { row, ids } of cells.get('Dropped')!) {
    // No answer of this run matched it: the batch does not hold it.
    expect(answerHolds(batchAnswer, row['Service key']!)).toBe(false);
    fromProfile(row, ids);
  }
  for (const { row, ids } of cells.get('Watchlist')!) fromProfile(row, ids);
  const historyOf = new Map(cells.get('Match history')!.map((c) => [c.row['Startup'], c.row[SOURCE_COLUMN]]));
  expect(historyOf.get(acquired!.name)).toMatch(new RegExp(`^${EARLIER_RUN}; S\\d+$`));
  expect(historyOf.get('Quillstone Analytics')).toMatch(/^S1, S\d+$/);
  // The PDF: each chart's caption, the appendix with the sources by operation.
  expect(text2).toContain('Source: find_startups_for_fund (S1)');
  expect(text2).toContain('Appendix: where the figures come from');
  expect(text2).toContain(`${answers.size} stored answers of the service, by operation.`);

  // The startup that left the batch raises again, led by an investor: run 3 follows it on the
  // watchlist.
  const lead = (
    sandbox.db.prepare('SELECT key, name FROM investors ORDER BY key LIMIT 200').all() as {
      key: string;
      name: string;
    }[]
  ).find((i) => /^[A-Za-z][\x20-\x7e]*$/.test(i.name))!;
  addRound(raised!.key, 'series-c', 60_000_000, lead.key);
  sandbox.db.prepare("UPDATE startups SET stage = 'series-c' WHERE key = ?").run(raised!.key);
  const third = await runOnce();
  expect(servedBatch(3).some((m) => m.key === raised!.key)).toBe(false);
  expect(third.counts.events).toBeGreaterThanOrEqual(1);
  const text3 = flat(third.files.pdf!);
  expect(text3).toContain(raised!.name);
  expect(text3).not.toMatch(/series-[a-z]/);

  // The round as the service answers it: stage, amount, date and lead investor.
  const svc = await serviceLastRound(raised!.key);
  expect(svc.stage).toBe('series-c');
  expect(svc.lead_investors.map((i) => i.name)).toEqual([lead.name]);
  const d = new Date(`${svc.date.slice(0, 10)}T00:00:00Z`);
  const dateWords = `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
  const amountWords = `$${(svc.amount_usd / 1e6).toFixed(1)}M`;
  // In the digest: the event in words, as a partner reads it.
  expect(squeezed(third.files.pdf!)).toContain(
    `${raised!.name}:newround:SeriesCof${amountWords}on${dateWords},ledby${svc.lead_investors[0]!.name}`.replace(
      /\s+/g,
      '',
    ),
  );
  // In the workbook: the round's facts in their own columns.
  const watch = sheetRows(await openWorkbook(third.files.xlsx!), 'Watchlist').filter(
    (r) => r['Startup'] === raised!.name,
  );
  const round = watch.find((r) => r['Event'] === 'New round')!;
  expect(round['Round stage']).toBe('Series C');
  expect(Number(round['Amount ($M)'])).toBeCloseTo(svc.amount_usd / 1e6, 6);
  expect(round['Lead investors']).toBe(lead.name);
  expect(new Date(round['Round date']!).toISOString().slice(0, 10)).toBe(svc.date.slice(0, 10));
  expect(round['Detail']).toBe(`new round: Series C of ${amountWords} on ${dateWords}, led by ${lead.name}`);
  expect(watch.map((r) => JSON.stringify(r)).join('\n')).not.toMatch(/series-[a-z]/);

  // Run 2 made again after run 3 (its comparison with run 1 is in what it kept, not in the
  // job's snapshot, which run 3 moved on): the same new, changed and dropped, the same cells,
  // at no cost.
  const spent = await balance();
  const again = await startRerender(h.client, h.settings.taskQueue, {
    runWorkflowId: second.workflowId,
    runManifestPath: second.manifestPath,
  });
  expect(await balance()).toBe(spent);
  const runDate = today();
  const digestOf = async (files: Record<string, string>) =>
    JSON.parse(
      maskClock(
        JSON.stringify(await reportDigest(files, { workflowId: second.workflowId, runDate })).replaceAll(
          again.workflowId,
          '<workflow>',
        ),
      ),
    ) as object;
  expect(await digestOf(again.files)).toEqual(await digestOf(second.files));
  const text2again = flat(again.files.pdf!);
  for (const name of [acquired!.name, raised!.name]) expect(text2again).toContain(name);
  expect(text2again).toMatch(/acquired \(was active\)/);
  // Nothing of what came after: run 3's watchlist event is not in run 2's story.
  expect(text2again).not.toContain(`Series C of ${amountWords}`);
}, 300_000);
