/**
 * Writing a 100,000-row prospect list: the CSV files of the five CRM profiles and the workbook,
 * streamed from the store's chunks as a run writes them, beside a baseline that builds the same
 * Prospects sheet in memory with exceljs (`new ExcelJS.Workbook()`, every row added, then
 * `writeFile`), in the same process, streamed path first: the process's peak RSS after each
 * (the streamed path's target: 250 MB at most) and the time each took.
 *
 * Run alone: npm run bench:prospects   (about a minute); also the last part of npm run bench.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import { LocalStore } from '../activities/store.js';
import type { RunStats } from '../shared/types.js';
import { CHUNK_ROWS, putChunk, readChunks } from '../jobs/prospect-list/chunks.js';
import { writeProspectCsvs } from '../jobs/prospect-list/csv.js';
import { CRM_PROFILES } from '../jobs/prospect-list/job.js';
import { renderProspectCharts, writeProspectWorkbook } from '../jobs/prospect-list/report/index.js';
import { ListTally } from '../jobs/prospect-list/tally.js';
import type { ProspectRow, ProspectSummary, SuppressedRow } from '../jobs/prospect-list/types.js';

/** Rows of the benchmark's list. */
export const BENCH_ROWS = 100_000;
/**
 * The streamed path's target: the resident memory it adds, at its peak, to the process's level
 * before it starts (a worker that has its chart, PDF and spreadsheet libraries loaded).
 */
export const PEAK_RSS_TARGET_MB = 250;

const SECTORS = [
  'Finance & Blockchain',
  'Software & Developer Tools',
  'Artificial Intelligence & Data',
  'Commerce & Marketing',
];
const COUNTRIES = ['Germany', 'France', 'United Kingdom', 'Sweden', 'Spain', 'Netherlands', 'Japan', '中国'];
const STAGES = ['pre-seed', 'seed', 'series-a', 'series-b', 'growth'];

/** A plausible row: names, a description, reasons, founders and investors of realistic length. */
function row(i: number): ProspectRow {
  const scored = i < 2000;
  return {
    rank: i + 1,
    key: `company-${i}`,
    name:
      i % 997 === 0
        ? `=HYPERLINK("http://x","y") ${i}`
        : `Company ${i} ${i % 7 === 0 ? 'Technologies' : 'Labs'}`,
    domain: `company-${i}.example`,
    website: `https://company-${i}.example`,
    profileUrl: `https://service.example/view/startups/company-${i}`,
    city: ['Berlin', 'Paris', 'London', 'Stockholm'][i % 4]!,
    country: COUNTRIES[i % COUNTRIES.length]!,
    sector: SECTORS[i % SECTORS.length]!,
    subsector: 'Payments & Banking Infrastructure',
    stage: STAGES[i % STAGES.length]!,
    status: 'active',
    description: `Company ${i} builds software for mid-sized lenders and insurers, starting with automated underwriting and claims.`,
    totalRaisedUsd: 1_000_000 + ((i * 7919) % 90_000_000),
    lastRoundDate: `202${4 + (i % 3)}-0${1 + (i % 9)}-1${i % 10}`,
    lastRoundStage: STAGES[i % STAGES.length]!,
    lastRoundAmountUsd: 500_000 + ((i * 104729) % 20_000_000),
    fitPct: scored ? 99 - (i % 50) : null,
    momentum: scored ? i % 100 : null,
    why: scored
      ? [
          `closed a $${(i % 30) + 1}M round: closing documents, employee equity and investor reporting follow`,
          `momentum ${i % 100}/100: 2 rounds in the last 12 months`,
          'a target sector and region',
        ]
      : [],
    sources: scored ? ['brief 1', 'search 1'] : ['search 1'],
    deliveredOn: i % 10 === 0 ? '2026-11-16' : null,
    enriched: i < 1000,
    foundedYear: 2015 + (i % 10),
    founders: i < 1000 ? ['Ada Example (CEO)', 'Linus Example (CTO)'] : [],
    investors: i < 1000 ? ['Lead Capital', 'Seed Partners', 'Angel Syndicate'] : [],
    roundsCount: 1 + (i % 4),
  };
}

/** Writes the list into the store in chunks, as a run's finishing activity does. */
async function storeList(store: LocalStore): Promise<{ refs: string[]; summary: ProspectSummary }> {
  const tally = new ListTally();
  const refs: string[] = [];
  const top: ProspectRow[] = [];
  for (let at = 0; at < BENCH_ROWS; at += CHUNK_ROWS) {
    const chunk = Array.from({ length: Math.min(CHUNK_ROWS, BENCH_ROWS - at) }, (_, j) => row(at + j));
    for (const r of chunk) tally.add(r);
    if (top.length === 0) top.push(...chunk.slice(0, 25));
    refs.push(await putChunk(store, 'bench', 'list/rows', refs.length, chunk));
  }
  const summary: ProspectSummary = {
    job: {
      id: 'bench',
      title: 'Benchmark list',
      delivered: 'mark',
      crm: [...CRM_PROFILES],
      enrich: 1000,
      outputs: ['csv', 'xlsx'],
    },
    date: '2026-11-23',
    counts: {
      merged: BENCH_ROWS,
      listed: BENCH_ROWS,
      suppressedByDomain: 0,
      suppressedByName: 0,
      suppressedDelivered: 0,
      markedDelivered: BENCH_ROWS / 10,
      netNew: tally.netNew,
      scored: tally.scored,
      enriched: tally.enriched,
      enrichAsked: 1000,
      sourceRecords: BENCH_ROWS,
    },
    briefs: [{ label: 'brief 1', text: 'benchmark brief', returned: 50, charged: 3, problem: null }],
    searches: [
      {
        label: 'search 1',
        filters: 'Europe',
        total: 120_000,
        fetched: BENCH_ROWS,
        cap: BENCH_ROWS,
        capped: true,
        problem: null,
      },
    ],
    suppression: null,
    limits: [`search 1 stopped at its cap of ${BENCH_ROWS} rows of 120000 matching startups`],
    top,
    charts: tally.charts(),
    notProvided: [],
    stats: {
      workflowId: 'bench',
      runId: 'bench',
      startedAt: '2026-11-23T06:00:00.000Z',
      callsByOperation: {},
      callsMade: 0,
      pages: 0,
      records: 0,
      creditsSpent: 3,
      creditsBudget: 10,
      accountBalance: null,
      partial: false,
      reasons: [],
    } satisfies RunStats,
  };
  return { refs, summary };
}

async function* none(): AsyncGenerator<SuppressedRow> {}

/** Peak RSS of the process so far, in MB (the kernel's count: nothing is missed between samples). */
const peakRssMb = () => process.resourceUsage().maxRSS / 1024;

/** Runs `fn` while sampling the resident memory every 5 ms; gives its result and the highest sample in MB. */
async function sampled<T>(fn: () => Promise<T>): Promise<{ value: T; peakMb: number; ms: number }> {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  const started = performance.now();
  try {
    const value = await fn();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { value, peakMb: peak / 1024 / 1024, ms: performance.now() - started };
  } finally {
    clearInterval(timer);
  }
}

/** Runs the benchmark and prints its figures; returns whether the target was met. */
export async function reportProspects(): Promise<boolean> {
  const dir = mkdtempSync(join(tmpdir(), 'vir-bench-prospects-'));
  try {
    // The list is written into the store by a child process, so this one starts at the level a
    // worker starts a render at.
    const child = spawnSync(
      process.execPath,
      [...process.execArgv, fileURLToPath(import.meta.url), '--store', dir],
      {
        stdio: 'inherit',
      },
    );
    if (child.status !== 0) throw new Error(`storing the list failed (exit ${child.status})`);
    const store = new LocalStore(join(dir, 'store'));
    const { refs, summary } = JSON.parse(readFileSync(join(dir, 'list.json'), 'utf8')) as {
      refs: string[];
      summary: ProspectSummary;
    };
    // A worker that has drawn charts before: its chart libraries are loaded (they are not the list's).
    const charts = await renderProspectCharts(summary);
    (globalThis as { gc?: () => void }).gc?.();
    const rss0 = process.memoryUsage().rss / 1024 / 1024;
    const xlsx = join(dir, 'streamed', 'list.xlsx');

    const streamed = await sampled(async () => {
      const t0 = performance.now();
      let csvBytes = 0;
      const written = await writeProspectCsvs(
        readChunks<ProspectRow>(store, refs),
        CRM_PROFILES,
        join(dir, 'streamed'),
        'list',
      );
      for (const out of Object.values(written)) for (const f of out.files) csvBytes += statSync(f).size;
      const csvMs = performance.now() - t0;
      const t1 = performance.now();
      await writeProspectWorkbook(summary, readChunks<ProspectRow>(store, refs), none(), xlsx, charts);
      return { csvMs, csvBytes, xlsxMs: performance.now() - t1 };
    });
    const streamedPeak = peakRssMb();

    const naive = await sampled(async () => {
      const wb = new ExcelJS.Workbook();
      const ws = wb.addWorksheet('Prospects');
      ws.columns = Object.keys(row(0)).map((key) => ({ header: key, key }));
      for await (const r of readChunks<ProspectRow>(store, refs)) {
        ws.addRow({
          ...r,
          why: r.why.join('; '),
          sources: r.sources.join('; '),
          founders: r.founders.join('; '),
          investors: r.investors.join('; '),
        });
      }
      await wb.xlsx.writeFile(join(dir, 'baseline.xlsx'));
    });
    const { csvMs, csvBytes, xlsxMs } = streamed.value;
    const baselineMs = naive.ms;

    const mb = (n: number) => `${n.toFixed(0)} MB`;
    console.log(
      `\n== Writing a ${BENCH_ROWS.toLocaleString('en')}-row prospect list (peak RSS of the process; time) ==`,
    );
    console.log(
      `before  ${mb(rss0)} RSS of the process before writing, its libraries loaded (the list: ${refs.length} chunks in the store)`,
    );
    console.log(
      `ours    ${mb(streamed.peakMb)} peak RSS sampled (${mb(streamedPeak)} the process's peak so far); CSV files of ${CRM_PROFILES.length} profiles ${(csvMs / 1000).toFixed(1)} s (${(csvBytes / 1e6).toFixed(0)} MB), streamed workbook ${(xlsxMs / 1000).toFixed(1)} s (${(statSync(xlsx).size / 1e6).toFixed(1)} MB)`,
    );
    console.log(
      `naive   ${mb(naive.peakMb)} peak RSS sampled; in-memory exceljs workbook of the same rows ${(baselineMs / 1000).toFixed(1)} s`,
    );
    const added = streamed.peakMb - rss0;
    const met = added <= PEAK_RSS_TARGET_MB;
    console.log(
      `ratio   peak RSS ours/naive ${(streamed.peakMb / naive.peakMb).toFixed(2)}x (added to the process: ${mb(added)} against ${mb(naive.peakMb - rss0)}), workbook time ours/naive ${(xlsxMs / baselineMs).toFixed(2)}x; target: the streamed path adds <= ${PEAK_RSS_TARGET_MB} MB: ${met ? 'met' : 'NOT met'}`,
    );
    return met;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The child's part: the list into the store's chunks, their references and the summary beside. */
async function storeOnly(dir: string): Promise<void> {
  const listed = await storeList(new LocalStore(join(dir, 'store')));
  writeFileSync(join(dir, 'list.json'), JSON.stringify(listed));
}

const storeAt = process.argv.indexOf('--store');
if (storeAt > 0) {
  storeOnly(process.argv[storeAt + 1]!).catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
} else if (process.argv[1]?.endsWith('prospects.ts')) {
  reportProspects().then(
    (met) => {
      process.exitCode = met ? 0 : 1;
    },
    (err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
}
