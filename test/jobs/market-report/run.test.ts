/**
 * The weekly market report on the real embedded Temporal server, with real workers, against
 * the sandbox over HTTP; the outputs are opened back.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { WorkflowHandle } from '@temporalio/client';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseMarketReportJob, type MarketReportJob } from '../../../jobs/market-report/index.js';
import { followRun, startJobRun } from '../../../cli/run-job.js';
import type { RunningSandbox } from '../../../sandbox/index.js';
import { pageSearchWorkflow, progressQuery, type RunProgress } from '../../../workflows/index.js';
import type { MarketReportResult } from '../../../jobs/market-report/index.js';
import { LocalStore } from '../../../activities/store.js';
import { VisClient } from '../../../api/client.js';
import { readPage } from '../../../api/read-page.js';
import { startTestSandbox } from '../../helpers/sandbox.js';
import { capturedLogs, QUIET, startRunner, type RunnerHarness } from '../../helpers/runner.js';
import { runHistories } from '../../helpers/histories.js';
import { attemptsSeen } from '../../helpers/attempts.js';
import { formulaLikeCells, openWorkbook, pdfPages, pdfText } from '../../helpers/reports.js';
import { formatDuration } from '../../../reports/format.js';

const KEY = 'vis_live_sandbox_vc';
const EVIL = '=HYPERLINK("http://x","y")';
const json = (v: unknown) =>
  JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x));

let sandbox: RunningSandbox;
let h: RunnerHarness;

/**
 * A run under random faults: it waits out, on the real clock, each retry's backoff (1 s,
 * doubling) and each 429's reset (1 s), more of them in a row when the draws say so.
 */
const FAULTED_RUN_MS = 120_000;

function job(over: Record<string, unknown> = {}): MarketReportJob {
  return parseMarketReportJob({
    id: 'weekly-test',
    title: 'Weekly test report',
    countries: ['Germany', 'France', 'Israel'],
    top: { investors: 5, startups: 5 },
    paging: { maxInvestorsPerCountry: 250, maxStartupsPerCountry: 150 },
    enrich: { investors: 2, startups: 2 },
    questions: ['largest rounds of the last 7 days in {country}', 'which countries raised the most in 2025'],
    budget: { credits: 10 },
    destination: `${h.dir}/reports`,
    ...over,
  });
}

/** Replaces payload bytes by their text, so searches see what was stored. */
function decodePayloads(value: unknown): unknown {
  if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8');
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return value.map(decodePayloads);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, decodePayloads(v)]));
  }
  return value;
}

/** History events (payloads decoded) of a run and of every run of its paging children. */
async function allHistories(handle: WorkflowHandle) {
  return (await runHistories(h.client, handle.workflowId)).map((r) => ({
    workflowId: r.workflowId,
    events: (r.history.events ?? []).map(decodePayloads),
  }));
}

let first: { result: MarketReportResult; handle: WorkflowHandle; progress: RunProgress[] };

beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimitPerMinute: 10_000 });
  h = await startRunner({ baseUrl: sandbox.url, apiKey: KEY, name: 'market' });
  // A startup whose name is a formula, with the largest round in Germany this week.
  sandbox.insertStartup(
    { name: EVIL, hq_country: 'Germany', sector: 'Finance & Blockchain', description: EVIL },
    [{ amount_usd: 9_000_000_000, stage: 'growth' }],
  );
  const handle = await startJobRun(h.client, h.settings, job());
  const progress: RunProgress[] = [];
  const poll = setInterval(() => {
    handle.query(progressQuery).then(
      (p) => progress.push(p),
      () => undefined,
    );
  }, 150);
  try {
    const result = await followRun(handle, QUIET);
    first = { result, handle, progress };
  } finally {
    clearInterval(poll);
  }
});

afterAll(async () => {
  await h?.close();
  await sandbox?.close();
});

describe('a complete run', () => {
  test('writes the workbook, the PDF and a manifest into <destination>/<job>/<date>/', () => {
    const { result } = first;
    const manifest = JSON.parse(readFileSync(result.manifestPath, 'utf8'));
    // The folder is named for the day the run started (UTC).
    const date = String(manifest.startedAt).slice(0, 10);
    expect(result.outDir).toBe(`${h.dir}/reports/weekly-test/${date}`);
    expect(existsSync(result.files.pdf!)).toBe(true);
    expect(existsSync(result.files.xlsx!)).toBe(true);
    expect(manifest.workflowId).toBe(result.workflowId);
    expect(manifest.runId).toMatch(/^[0-9a-f-]{36}$/);
    expect(manifest.job.id).toBe('weekly-test');
    expect(manifest.parameters.countries).toEqual(['Germany', 'France', 'Israel']);
    expect(manifest.status).toBe('complete');
    expect(manifest.calls.byOperation).toMatchObject({
      my_account: 1,
      country_overview: 3,
      get_investor: 6,
      get_startup: 6,
      ask: 4,
    });
    // 250 investors a sort at 100 a page: 3 pages; 150 startups: 2 pages (or fewer where the country has fewer).
    expect(manifest.calls.byOperation.search_investors).toBeGreaterThanOrEqual(6);
    expect(manifest.calls.byOperation.search_investors).toBeLessThanOrEqual(18);
    expect(manifest.calls.byOperation.search_startups).toBeLessThanOrEqual(6);
    expect(manifest.calls.total).toBe(
      Object.values(manifest.calls.byOperation as Record<string, number>).reduce((a, b) => a + b, 0),
    );
    expect(manifest.credits).toEqual({ charged: 4, budget: 10 });
    expect(manifest.durationMs).toBeGreaterThan(0);
    expect(manifest.files.sort()).toEqual(
      ['weekly-test-' + date + '.pdf', 'weekly-test-' + date + '.xlsx'].sort(),
    );
  });

  test('the run statistics state the run time of the manifest: one value, not two clocks', async () => {
    const manifest = JSON.parse(readFileSync(first.result.manifestPath, 'utf8')) as {
      startedAt: string;
      finishedAt: string;
      durationMs: number;
    };
    expect(manifest.durationMs).toBe(Date.parse(manifest.finishedAt) - Date.parse(manifest.startedAt));
    const wb = await openWorkbook(first.result.files.xlsx!);
    // Run statistics are the operator's figures: their own sheet, not the partner's pages.
    const m = wb.getWorksheet('Run statistics')!;
    let seconds: unknown = null;
    m.eachRow((row) => {
      if (row.getCell(1).value === 'Run time (seconds)') seconds = row.getCell(2).value;
    });
    expect(seconds).toBe(Math.round(manifest.durationMs / 100) / 10);
    // The PDF's appendix of run statistics: RUN TIME over the same duration.
    const text = pdfText(first.result.files.pdf!);
    expect(text).toMatch(/run time/i);
    expect(text).toContain(formatDuration(manifest.durationMs));
  });

  test('progress was queryable during the run and adds up at the end', () => {
    const { progress, result } = first;
    expect(progress.length).toBeGreaterThan(0);
    const last = progress.at(-1)!;
    expect(last.callsPlanned).toBeGreaterThanOrEqual(last.callsMade);
    expect(
      progress.some((p) => p.phase === 'paging' || p.phase === 'enriching' || p.phase === 'asking'),
    ).toBe(true);
    for (const p of progress) expect(p.creditsSpent).toBeLessThanOrEqual(p.creditsBudget);
    expect(result.callsMade).toBeGreaterThan(20);
  });

  test('the PDF has every section, the countries and the agent answers', () => {
    const text = pdfText(first.result.files.pdf!);
    expect(pdfPages(first.result.files.pdf!)).toBeGreaterThan(5);
    for (const s of [
      'Weekly test report',
      'Contents',
      'Executive summary',
      'Germany',
      'France',
      'Israel',
      'Methodology',
    ]) {
      expect(text).toContain(s);
    }
    expect(text).toContain('largest rounds of the last 7 days in Germany');
    expect(text).toContain('which countries raised the most in 2025');
    // The formula-like name is printed as inert text.
    expect(text).toContain(EVIL);
    // The methodology gives the account's balance after the run (from the service's credits).
    expect(text).toMatch(/The account had [\d,]+ credits left\s+after the run\./);
  });

  test('the workbook has summary, country and data sheets, tables, native charts, and no formula cells', async () => {
    const wb = await openWorkbook(first.result.files.xlsx!);
    const names = wb.worksheets.map((w) => w.name);
    expect(names[0]).toMatch(/summary/i);
    for (const c of ['Germany', 'France', 'Israel']) expect(names.some((n) => n.includes(c))).toBe(true);
    const tables = wb.worksheets.flatMap((ws) =>
      Object.keys((ws as unknown as { tables: Record<string, unknown> }).tables ?? {}),
    );
    expect(tables.length).toBeGreaterThan(0);
    // Native charts only by default (pictures only with chartImages: true).
    expect(wb.worksheets.flatMap((ws) => ws.getImages())).toHaveLength(0);
    const zip = await JSZip.loadAsync(readFileSync(first.result.files.xlsx!));
    expect(
      Object.keys(zip.files).filter((p) => /^xl\/charts\/chart\d+\.xml$/.test(p)).length,
    ).toBeGreaterThan(0);
    expect(formulaLikeCells(wb)).toEqual([]);
    // The evil name is there, as text (neutralised), never as a formula.
    const cells = wb.worksheets.flatMap((ws) => {
      const found: ExcelJS.Cell[] = [];
      ws.eachRow((row) =>
        row.eachCell((cell) => {
          const v = cell.value;
          const t =
            typeof v === 'string' ? v : v && typeof v === 'object' && 'text' in v ? String(v.text) : '';
          if (t.includes('HYPERLINK("http://x"')) found.push(cell);
        }),
      );
      return found;
    });
    expect(cells.length).toBeGreaterThan(0);
    for (const c of cells) {
      expect(c.type).not.toBe(ExcelJS.ValueType.Formula);
      expect(c.formula).toBeUndefined();
    }
  });

  test('the API key is in no workflow history and no log line', async () => {
    const histories = await allHistories(first.handle);
    // The run's, and no child's: its streams are short enough to be paged in the run itself.
    expect(histories.length).toBeGreaterThanOrEqual(1);
    const text = json(histories);
    expect(text).toContain('country_overview');
    expect(text).toContain('search_investors');
    expect(text).not.toContain(KEY);
    expect(text).not.toContain('Bearer');
    expect(capturedLogs.length).toBeGreaterThan(0);
    expect(json(capturedLogs)).not.toContain(KEY);
    const manifest = readFileSync(first.result.manifestPath, 'utf8');
    expect(manifest).not.toContain(KEY);
  });

  test('long paging fetches pages in parallel, continues as new, and skips or repeats no record', async () => {
    // Eight pages, four at a time: past the test server's history limit of 20 events
    // (test/global-setup.ts), so the child continues as new at least once.
    const PAGED = 800;
    const workflowId = `paging-test-${Date.now()}`;
    const result = await h.client.workflow.execute(pageSearchWorkflow, {
      taskQueue: h.settings.taskQueue,
      workflowId,
      args: [
        {
          runKey: workflowId,
          operation: 'search_startups',
          params: { countries: ['United States'] },
          cap: PAGED,
          pageSize: 100,
          label: 'startups-us',
          apiTaskQueue: h.settings.apiTaskQueue,
          parallelPages: 4,
        },
      ],
    });
    const { refs, records, pages, total, capped } = result;
    expect(pages).toBe(PAGED / 100);
    expect(records).toBe(PAGED);
    expect(total).toBeGreaterThan(PAGED);
    expect(capped).toBe(true);
    // The history stayed small: the workflow continued as new at least once.
    const runs: string[] = [];
    for await (const wf of h.client.workflow.list({ query: `WorkflowId = '${workflowId}'` }))
      runs.push(wf.status.name);
    expect(runs.filter((s) => s === 'CONTINUED_AS_NEW').length).toBeGreaterThan(0);
    // Every record once, in the service's order: the same keys as one sequential read.
    const store = new LocalStore(h.settings.storeDir);
    const keys: string[] = [];
    for (const ref of refs) {
      const page = await store.getJson<{ result: { data: { startups: { key: string }[] } } }>(ref);
      keys.push(...page.result.data.startups.map((x) => x.key));
    }
    expect(keys.length).toBe(PAGED);
    expect(new Set(keys).size).toBe(PAGED);
    const client = new VisClient({ baseUrl: sandbox.url, apiKey: KEY });
    try {
      const expected: string[] = [];
      for (let offset = 0; offset < PAGED; offset += 100) {
        const r = await client.call('search_startups', { countries: ['United States'], limit: 100, offset });
        expected.push(...readPage('search_startups', r.data).items.map((x) => String(x.key)));
      }
      expect(keys).toEqual(expected);
    } finally {
      await client.close();
    }
  });
});

describe('the second run compares with the first', () => {
  test('reports what is new since the previous run', async () => {
    // A new startup with a big round this week enters Germany's notable list.
    sandbox.insertStartup(
      { name: 'Brand New Robotics GmbH', hq_country: 'Germany', sector: 'Industry & Hardware' },
      [{ amount_usd: 8_000_000_000, stage: 'growth' }],
    );
    const handle = await startJobRun(
      h.client,
      h.settings,
      job(),
      `market-report-weekly-test-second-${Date.now()}`,
    );
    const result = await followRun(handle, QUIET);
    expect(result.outDir).not.toBe(first.result.outDir);
    const text = pdfText(result.files.pdf!);
    expect(text).toContain('Brand New Robotics GmbH');
    expect(text).toMatch(/previous run/i);
  });
});

describe('budget, limits and faults', () => {
  test('a budget too small for every question gives a partial report that says which were skipped', async () => {
    // One country: two questions (the country's and the global one), a budget for one.
    const small = job({
      id: 'budget-test',
      countries: ['Israel'],
      budget: { credits: 1 },
      enrich: { investors: 0, startups: 0 },
      paging: { maxInvestorsPerCountry: 100, maxStartupsPerCountry: 100 },
    });
    const handle = await startJobRun(h.client, h.settings, small);
    const result = await followRun(handle, QUIET);
    expect(result.partial).toBe(true);
    expect(result.creditsSpent).toBeLessThanOrEqual(1);
    const manifest = JSON.parse(readFileSync(result.manifestPath, 'utf8'));
    expect(manifest.status).toBe('partial');
    expect(manifest.credits.charged).toBeLessThanOrEqual(manifest.credits.budget);
    expect(manifest.calls.byOperation.ask).toBe(1);
    expect(manifest.reasons.join(' ')).toMatch(/1 of 2 data-agent questions skipped/);
    const text = pdfText(result.files.pdf!);
    expect(text).toMatch(/skipped/i);
    expect(text).toContain('which countries raised the most in 2025');
  });

  test('an answer lost after the charge is asked again and paid again, and a question the agent cannot map is charged as the service says: the credits table counts every charge', async () => {
    // One run, two questions that do not interfere: the first answer is dropped after the charge
    // (asked again, paid again); the second, which the agent cannot map, is charged 1 credit.
    const client = new VisClient({ baseUrl: sandbox.url, apiKey: KEY });
    const balance = async () => (await client.call('my_account', {})).credits?.remaining ?? NaN;
    const weather = 'What is the weather in Lisbon tomorrow?';
    let result: MarketReportResult;
    let before: number;
    const from = sandbox.requestLog().length;
    try {
      before = await balance();
      sandbox.setFaults({ afterCharge: { dropRate: 1, operations: ['ask'], times: 1 }, seed: 5 });
      result = await followRun(
        await startJobRun(
          h.client,
          h.settings,
          job({
            id: 'lost-answer-test',
            countries: ['Israel'],
            enrich: { investors: 0, startups: 0 },
            paging: { maxInvestorsPerCountry: 100, maxStartupsPerCountry: 100 },
            questions: ['largest rounds of the last 7 days in {country}', weather],
            budget: { credits: 5 },
          }),
        ),
        QUIET,
      );
    } finally {
      sandbox.setFaults({});
    }
    try {
      expect(result.partial, result.reasons.join('; ')).toBe(false);
      // The outside witnesses: the log shows the charged ask whose answer was dropped, the one
      // asked again and the unmapped question; the account paid for all three.
      const asks = sandbox
        .requestLog()
        .slice(from)
        .filter((r) => r.operation === 'ask');
      expect(asks.map((r) => r.fault ?? r.status)).toEqual(['after-charge drop', 200, 200]);
      const paid = before - (await balance());
      expect(paid).toBe(3);
      expect(JSON.parse(readFileSync(result.manifestPath, 'utf8')).credits.charged).toBe(paid);
      // The methodology's table of operations: the ask row and the total say what was paid.
      const text = pdfText(result.files.pdf!);
      expect(/^\s*ask\s+2\s+(\d+)\s*$/m.exec(text)?.[1], text).toBe(String(paid));
      expect(/^\s*Total\s+\d+\s+(\d+)\s*$/m.exec(text)?.[1]).toBe(String(paid));
      const flat = text.replace(/\s+/g, ' ');
      expect(flat).toContain(weather);
      expect(flat).toContain('the data agent could not answer this question (charged 1 credit)');
    } finally {
      await client.close();
    }
  });

  test(
    'every request the service saw, retries and failures included, is counted in the manifest and the progress',
    async () => {
      // Failures before the service answers (500/503, dropped connections) and a 429 burst: each
      // is retried, and the paid questions are reconciled with the balance after an unknown outcome.
      sandbox.setFaults({
        errorRate: 0.12,
        dropRate: 0.04,
        burst429: 3,
        afterCharge: { errorRate: 0.5 },
        // A fixed seed: the same faults each run, as far as the order of parallel calls allows.
        seed: 20_251,
      });
      const from = sandbox.requestLog().length;
      try {
        const handle = await startJobRun(
          h.client,
          h.settings,
          job({
            id: 'attempts-test',
            countries: ['Germany', 'France'],
            enrich: { investors: 2, startups: 1 },
            paging: { maxInvestorsPerCountry: 100, maxStartupsPerCountry: 100 },
          }),
        );
        const result = await followRun(handle, QUIET);
        const manifest = JSON.parse(readFileSync(result.manifestPath, 'utf8'));
        const log = sandbox.requestLog().slice(from);
        // The outside witness: the service's request log, per operation.
        const seen = attemptsSeen(log);
        expect(log.some((r) => r.fault !== undefined)).toBe(true);
        console.log(
          `attempts-test: ${log.length} requests, manifest ${JSON.stringify(manifest.calls.attempts)}`,
        );
        expect(manifest.calls.attempts.byOperation).toEqual(seen);
        expect(manifest.calls.attempts.attempted).toBe(log.length);
        expect(manifest.calls.attempts.failed).toBe(log.filter((r) => r.status !== 200 || r.fault).length);
        // Succeeded requests are the calls the run made.
        for (const [op, n] of Object.entries(manifest.calls.byOperation as Record<string, number>))
          expect(seen[op]?.succeeded, op).toBe(n);
        const progress = await handle.query(progressQuery);
        expect(progress.attempts).toEqual(seen);
      } finally {
        sandbox.setFaults({});
      }
    },
    FAULTED_RUN_MS,
  );

  test('a 429 burst delays the run and it still completes with the right output', async () => {
    sandbox.setFaults({ burst429: 6 });
    try {
      const handle = await startJobRun(
        h.client,
        h.settings,
        job({
          id: 'burst-test',
          countries: ['Israel'],
          questions: [],
          enrich: { investors: 1, startups: 0 },
          paging: { maxInvestorsPerCountry: 100, maxStartupsPerCountry: 100 },
        }),
      );
      const result = await followRun(handle, QUIET);
      expect(result.partial).toBe(false);
      const manifest = JSON.parse(readFileSync(result.manifestPath, 'utf8'));
      expect(manifest.calls.byOperation.country_overview).toBe(1);
      const histories = await allHistories(handle);
      const retried = json(histories).match(/rate limit exceeded \(injected burst\)/g) ?? [];
      expect(retried.length).toBeGreaterThan(0);
      expect(pdfText(result.files.pdf!)).toContain('Israel');
    } finally {
      sandbox.setFaults({});
    }
  });
});
