/**
 * Every figure of the market report traceable to the answer it came from: two real runs of one
 * job (Temporal, workers, the sandbox over HTTP), their workbooks read back with exceljs and
 * checked against the run's store folder: the Sources sheet lists each stored answer as stored,
 * every table row names answers listed there and the answer named holds the row's record; what
 * the runner computed says so; the PDF lists the sources by operation and captions each chart
 * with its own. A model stored before sources were kept still renders, and says why it has none.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { followRun, startJobRun } from '../../../cli/run-job.js';
import { parseMarketReportJob, type MarketReportResult } from '../../../jobs/market-report/index.js';
import { renderMarketReport, type MarketReportModel } from '../../../jobs/market-report/report/index.js';
import { COMPUTED_BY_RUNNER, SOURCE_COLUMN } from '../../../reports/sources.js';
import type { RunningSandbox } from '../../../sandbox/index.js';
import type { StoredCall } from '../../../shared/types.js';
import { openWorkbook, pdfText } from '../../helpers/reports.js';
import { QUIET, startRunner, type RunnerHarness } from '../../helpers/runner.js';
import { startTestSandbox } from '../../helpers/sandbox.js';
import {
  cellText,
  expectSourcesMatchStore,
  idsIn,
  recordsHeld,
  sourcedTables,
  storedAnswers,
  tablesOf,
  type SourceRead,
} from './provenance-checks.js';

const COUNTRIES = ['Germany', 'Israel'];
let sandbox: RunningSandbox;
let h: RunnerHarness;
let first: MarketReportResult;
let second: MarketReportResult;
let wb: ExcelJS.Workbook;
let byId: Map<string, SourceRead & { call: StoredCall }>;
const out = mkdtempSync(join(tmpdir(), 'market-provenance-'));

async function run(): Promise<MarketReportResult> {
  const job = parseMarketReportJob({
    id: 'provenance-test',
    title: 'Provenance test report',
    countries: COUNTRIES,
    top: { investors: 5, startups: 5 },
    // Two pages of investors a sort: rows of one list come from different answers.
    paging: { maxInvestorsPerCountry: 150, maxStartupsPerCountry: 100 },
    enrich: { investors: 1, startups: 1 },
    questions: ['largest rounds of the last 7 days in {country}', 'which countries raised the most in 2025'],
    // Two of the three questions asked: the third is a row without a source.
    budget: { credits: 2 },
    destination: `${h.dir}/reports`,
  });
  return followRun(await startJobRun(h.client, h.settings, job), QUIET);
}

const modelOf = (r: MarketReportResult): MarketReportModel =>
  JSON.parse(
    readFileSync(join(h.settings.storeDir, 'runs', r.workflowId, 'report', 'model.json'), 'utf8'),
  ) as MarketReportModel;

beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimitPerMinute: 10_000 });
  h = await startRunner({ baseUrl: sandbox.url, apiKey: 'vis_live_sandbox_vc', name: 'provenance' });
  first = await run();
  // A startup new to Germany's notable list for the second run.
  sandbox.insertStartup(
    { name: 'Provenance Robotics GmbH', hq_country: 'Germany', sector: 'Industry & Hardware' },
    [{ amount_usd: 8_000_000_000, stage: 'growth' }],
  );
  second = await run();
  wb = await openWorkbook(first.files.xlsx!);
  byId = expectSourcesMatchStore(wb, storedAnswers(h.settings.storeDir, first.workflowId));
}, 240_000);

afterAll(async () => {
  await h?.close();
  await sandbox?.close();
  rmSync(out, { recursive: true, force: true });
});

/** The stored answer a Source cell names (its one id). */
function answerOf(cell: string): StoredCall {
  const ids = idsIn(cell);
  expect(ids, cell).toHaveLength(1);
  const s = byId.get(ids[0]!);
  expect(s, cell).toBeDefined();
  return s!.call;
}

describe('the Sources sheet', () => {
  test('lists every answer the run stored (but the balance), with its operation, parameters, time, credits and status', () => {
    // expectSourcesMatchStore (beforeAll) compared each row with its stored file.
    const ops = [...byId.values()].map((s) => s.operation);
    for (const op of ['country_overview', 'search_investors', 'search_startups', 'get_investor', 'ask'])
      expect(ops, op).toContain(op);
    // Two pages a sort where the country has more than a page of investors.
    expect(ops.filter((o) => o === 'search_investors').length).toBeGreaterThan(2 * COUNTRIES.length);
    expect(ops.filter((o) => o === 'ask')).toHaveLength(2);
    expect(wb.worksheets.at(-1)?.name).toBe('Sources');
    expect(wb.worksheets[0]?.name).toBe('Summary');
  });

  test('names no secret', () => {
    const text = [...byId.values()].map((s) => s.params).join('\n');
    expect(text).not.toMatch(/vis_live|bearer|api_key|token/i);
  });
});

describe('every data row names its source', () => {
  test('each table has a Source column whose ids are rows of the Sources sheet', () => {
    const tables = sourcedTables(wb);
    const names = tables.map((t) => t.name);
    for (const n of ['Investors', 'ActiveInvestors', 'Startups', 'RoundsByYear', 'InvestorProfiles'])
      expect(names).toContain(n);
    for (const n of ['AgentAnswers', 'Answer1', 'CountryComparison', 'Germany_ByYear', 'Israel_Stages'])
      expect(names).toContain(n);
    // Every table of a data sheet names its sources.
    const unsourced = tablesOf(wb).filter((t) => t.sheet !== 'Sources' && !t.headers.includes(SOURCE_COLUMN));
    expect(unsourced.map((t) => `${t.sheet}/${t.name}`)).toEqual(['Run statistics/Operations']);
    let named = 0;
    for (const t of tables)
      for (const r of t.rows) {
        const cell = r[SOURCE_COLUMN] ?? '';
        if (t.name === 'AgentAnswers' && r['Skipped because']) {
          expect(cell, 'a question not asked has no answer').toBe('');
          continue;
        }
        expect(cell, `${t.sheet}/${t.name}`).not.toBe('');
        for (const id of idsIn(cell)) expect(byId.has(id), `${t.name}: ${id}`).toBe(true);
        named++;
      }
    expect(named).toBeGreaterThan(100);
  });

  test('the answer a row names holds its record: the investor, the startup, the overview, the question', () => {
    const table = (name: string) => tablesOf(wb).find((t) => t.name === name)!;
    for (const r of table('Investors').rows) {
      const call = answerOf(r[SOURCE_COLUMN]!);
      expect(call.operation).toBe('search_investors');
      expect(call.params).toMatchObject({ country: r.Country });
      expect(call.params).toMatchObject(r.List === 'By score' ? {} : { sort: 'investments' });
      expect(recordsHeld(call).has(r.Key!), `${r.Key} in ${r[SOURCE_COLUMN]}`).toBe(true);
    }
    // The top of each list (country, sort) is on its first page: one answer a list.
    expect(new Set(table('Investors').rows.map((r) => r[SOURCE_COLUMN])).size).toBe(2 * COUNTRIES.length);
    for (const r of table('Startups').rows) {
      const call = answerOf(r[SOURCE_COLUMN]!);
      expect(call.operation).toBe('search_startups');
      expect(recordsHeld(call).has(r.Key!)).toBe(true);
    }
    for (const r of table('ActiveInvestors').rows) {
      const call = answerOf(r[SOURCE_COLUMN]!);
      expect([call.operation, call.params]).toEqual(['country_overview', { country: r.Country }]);
      expect(recordsHeld(call).has(r.Investor!)).toBe(true);
    }
    for (const r of table('InvestorProfiles').rows) {
      const call = answerOf(r[SOURCE_COLUMN]!);
      expect(call.operation).toBe('get_investor');
      expect(recordsHeld(call).has(r.Investor!)).toBe(true);
    }
    for (const r of table('RoundsByYear').rows) {
      const call = answerOf(r[SOURCE_COLUMN]!);
      expect(call.params).toEqual({ country: r.Country });
      const year = (call.result.data as { by_year: { year: number; deals: number }[] }).by_year.find(
        (y) => String(y.year) === r.Year!.replace(' YTD', ''),
      );
      expect(String(year?.deals)).toBe(r.Deals);
    }
    const answers = table('AgentAnswers').rows.filter((r) => r[SOURCE_COLUMN]);
    expect(answers).toHaveLength(2);
    for (const r of answers) {
      expect(answerOf(r[SOURCE_COLUMN]!).params).toEqual({ query: r.Question });
      // The rows of its sheet name the same answer.
      const rows = tablesOf(wb).find((t) => t.sheet === r['Rows sheet']);
      for (const row of rows?.rows ?? []) expect(row[SOURCE_COLUMN]).toBe(r[SOURCE_COLUMN]);
    }
    for (const c of COUNTRIES)
      for (const t of tablesOf(wb).filter((x) => x.sheet === c))
        for (const r of t.rows) expect(answerOf(r[SOURCE_COLUMN]!).params).toEqual({ country: c });
  });
});

describe('what the runner computed says so', () => {
  test('the key figures name their answer, or say the runner computed them from which', () => {
    const notes = (sheet: string) => {
      const m = new Map<string, string>();
      wb.getWorksheet(sheet)!.eachRow((row) => {
        const label = cellText(row.getCell(1).value);
        if (row.getCell(3).value) m.set(label, cellText(row.getCell(3).value));
      });
      return m;
    };
    const de = notes('Germany');
    const id = tablesOf(wb).find((t) => t.name === 'Germany_ByYear')!.rows[0]![SOURCE_COLUMN];
    expect([...de.entries()].find(([k]) => /^Deals \d{4} YTD$/.test(k))?.[1]).toBe(
      `Source: country_overview (${id})`,
    );
    expect(de.get('Seed and earlier, share of deals')).toMatch(
      new RegExp(`^${COMPUTED_BY_RUNNER} from ${id}:`),
    );
    expect(de.get('Leading sector')).toMatch(new RegExp(`^${COMPUTED_BY_RUNNER} from ${id}:`));
    const sum = notes('Summary');
    const yoy = [...sum.entries()].filter(([k]) => /^(Deals|Capital) \d{4} YoY$/.test(k));
    expect(yoy).toHaveLength(2);
    for (const [, n] of yoy) expect(n).toMatch(/^Computed by the runner from S\d+, S\d+: /);
    // The lines under the tables a runner's figure is in.
    const lines: string[] = [];
    wb.getWorksheet('Israel')!.eachRow((row) => lines.push(cellText(row.getCell(1).value)));
    expect(lines.filter((l) => l.startsWith(COMPUTED_BY_RUNNER))).toHaveLength(2);
    for (const r of tablesOf(wb).find((t) => t.name === 'RoundsByYear')!.rows)
      expect(r.Basis).toMatch(new RegExp(`^(As the service gave it|${COMPUTED_BY_RUNNER}: )`));
  });

  test('the second run: the week and what is new since the first are the runner’s, from this run’s answers', async () => {
    const again = await openWorkbook(second.files.xlsx!);
    const ids = expectSourcesMatchStore(again, storedAnswers(h.settings.storeDir, second.workflowId));
    const fresh = tablesOf(again).find((t) => t.name === 'NewSinceLastRun')!;
    const robot = fresh.rows.find((r) => r.Name === 'Provenance Robotics GmbH');
    expect(robot).toBeDefined();
    for (const r of fresh.rows) {
      expect(r.Basis).toMatch(new RegExp(`^${COMPUTED_BY_RUNNER}: not on the list of the previous run`));
      const s = ids.get(r[SOURCE_COLUMN]!);
      expect(s?.operation).toBe(r.Kind === 'Startup' ? 'search_startups' : 'search_investors');
      expect(recordsHeld(s!.call).has(r.Name!)).toBe(true);
    }
    let week = '';
    again.getWorksheet('Summary')!.eachRow((row) => {
      if (cellText(row.getCell(1).value) === 'Deals this week') week = cellText(row.getCell(3).value);
    });
    expect(week).toMatch(/Computed by the runner from S\d+, S\d+ and the previous run's snapshot/);
    const cmp = tablesOf(again).find((t) => t.name === 'CountryComparison')!;
    for (const r of cmp.rows) expect(r.Basis).toContain('changes vs last run');
  });
});

describe('the PDF', () => {
  test('lists the sources by operation in its appendix and captions each chart with its own', () => {
    const text = pdfText(first.files.pdf!);
    const appendix = text.slice(text.lastIndexOf('Sources: the stored answers'));
    expect(appendix).toContain(`${byId.size} stored answers of the service, by operation`);
    for (const op of ['country_overview', 'search_investors', 'search_startups', 'get_investor', 'ask'])
      expect(appendix).toMatch(new RegExp(`^\\s*${op}\\s+\\d+\\s+[\\d,]+\\s+\\d+\\s+S\\d+`, 'm'));
    const overviews = [...byId.values()].filter((s) => s.operation === 'country_overview').map((s) => s.id);
    for (const id of overviews) expect(text).toContain(`Source: country_overview (${id})`);
    expect(text).toContain(`Source: country_overview (${overviews.join(', ')})`);
    expect(text).toMatch(/Source: ask \(S\d+\)/);
    expect(text).not.toContain('Report chart from');
  });
});

describe('a model stored before sources were kept', () => {
  test('renders: the Sources sheet and the appendix say why, the Source cells are empty', async () => {
    const model = modelOf(second);
    expect(model.sources?.length).toBeGreaterThan(0);
    // As the code before this change stored it: no list of sources, no row's source.
    const { sources: _sources, ...rest } = model;
    const old = JSON.parse(JSON.stringify(rest), (k, v: unknown) =>
      k === 'source' ? undefined : v,
    ) as MarketReportModel;
    const res = await renderMarketReport(old, {
      outDir: out,
      formats: ['pdf', 'xlsx'],
      fileBase: 'old',
      runKey: second.workflowId,
    });
    const book = await openWorkbook(res.files.xlsx!);
    expect(cellText(book.getWorksheet('Sources')!.getCell('A1').value)).toContain(
      `made before its report recorded its sources: the stored answers are kept (runs/${second.workflowId}/`,
    );
    expect(tablesOf(book).some((t) => t.sheet === 'Sources')).toBe(false);
    const cells = sourcedTables(book).flatMap((t) => t.rows.map((r) => r[SOURCE_COLUMN]));
    expect(cells.length).toBeGreaterThan(50);
    expect(cells.filter(Boolean)).toEqual([]);
    const text = pdfText(res.files.pdf!);
    expect(text.replace(/\s+/g, ' ')).toContain('This run was made before its report recorded its sources');
    expect(text).not.toMatch(/Source: country_overview \(S/);
    expect(text).toContain('Report chart from country_overview by_year');
  });
});
