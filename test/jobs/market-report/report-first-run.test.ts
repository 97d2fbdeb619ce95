/**
 * The market report on a first run (no previous run to compare with) with the data agent's
 * answers as the service returns them: a table of years, a chart mixing capital and deals, and
 * rows carrying a key column next to the name.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  answerCellText,
  answerColumnsForPdf,
  answerColumnsForSheet,
  redundantKeyColumns,
} from '../../../jobs/market-report/report/answers.js';
import { planCharts, renderMarketReport } from '../../../jobs/market-report/report/index.js';
import type {
  AgentAnswer,
  MarketReportModel,
  RenderMarketReportResult,
} from '../../../jobs/market-report/report/index.js';
import { marketModelFixture } from '../../../jobs/market-report/fixtures/market-model.js';

const YEARS: AgentAnswer = {
  question: 'how did AI funding change from 2021 to 2023',
  country: null,
  answer:
    'Funding in Artificial Intelligence & Data fell from $54.1B (1,083 deals) in 2021 to $31.5B (1,018 deals) in 2023.',
  columns: ['year', 'deals', 'capital_usd'],
  rows: [
    { year: 2021, deals: 1083, capital_usd: 54_130_200_000 },
    { year: 2023, deals: 1018, capital_usd: 31_541_560_000 },
  ],
  charts: [
    {
      type: 'bar',
      title: 'Funding 2021 vs 2023',
      xKey: 'year',
      series: [
        { key: 'capital_usd', name: 'Capital raised (USD)' },
        { key: 'deals', name: 'Deals', type: 'line' },
      ],
      data: [
        { year: 2021, capital_usd: 54_130_200_000, deals: 1083 },
        { year: 2023, capital_usd: 31_541_560_000, deals: 1018 },
      ],
      unit: 'USD',
    },
  ],
  url: 'https://app.venture-intel.example/results/r1',
};

const ROUNDS: AgentAnswer = {
  question: 'largest rounds of the last 7 days in Germany',
  country: 'Germany',
  answer:
    'The 3 largest rounds in Germany in the last 7 days: Quizeon $201M series-d-plus; KeelYonder $72M series-c; Quanta Studio $25M series-b.',
  columns: ['date', 'startup', 'startup_key', 'country', 'sector', 'stage', 'amount_usd', 'lead_investor'],
  rows: [
    {
      date: '2026-11-18',
      startup: 'Quizeon',
      startup_key: 'quizeon',
      country: 'Germany',
      sector: 'Software & Developer Tools',
      stage: 'series-d-plus',
      amount_usd: 201_000_000,
      lead_investor: 'BirchTempo Partners',
    },
    {
      date: '2026-11-18',
      startup: 'KeelYonder',
      startup_key: 'keelyonder',
      country: 'Germany',
      sector: 'Consumer, Lifestyle & Services',
      stage: 'series-c',
      amount_usd: 72_000_000,
      lead_investor: 'DriftPeak Partners',
    },
    {
      date: '2026-11-16',
      startup: 'Quanta Studio',
      startup_key: 'quanta-studio',
      country: 'Germany',
      sector: 'Consumer, Lifestyle & Services',
      stage: 'series-b',
      amount_usd: 25_000_000,
      lead_investor: 'Taylor Morgan Venture Partners',
    },
  ],
  charts: [],
};

/** The fixture as a first run, with the two answers above. */
function firstRunModel(): MarketReportModel {
  const m = marketModelFixture();
  m.comparison = {
    previousRunAt: null,
    newStartups: [],
    newTopInvestors: [],
    changes: m.comparison.changes.map((c) => ({
      ...c,
      deals_vs_last_run_pct: null,
      capital_vs_last_run_pct: null,
    })),
  };
  // A first run has no previous run to count the week against; the rounds the answers date
  // in the week are all it has of the week.
  if (m.week)
    m.week = {
      ...m.week,
      since: null,
      countries: m.week.countries.map((c) => ({ ...c, week: null, previous: null, average: null })),
    };
  m.answers = [YEARS, ROUNDS];
  return m;
}

const dir = mkdtempSync(join(tmpdir(), 'market-first-run-'));
let model: MarketReportModel;
let result: RenderMarketReportResult;
let text: string;
const wb = new ExcelJS.Workbook();

beforeAll(async () => {
  model = firstRunModel();
  result = await renderMarketReport(model, {
    outDir: dir,
    formats: ['pdf', 'xlsx'],
    fileBase: 'first-run',
    creationDate: new Date('2025-07-01T06:00:00Z'),
  });
  text = execFileSync('pdftotext', ['-layout', result.files.pdf!, '-'], { encoding: 'utf8' }).replace(
    /\s+/g,
    ' ',
  );
  await wb.xlsx.readFile(result.files.xlsx!);
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('answer tables', () => {
  it('prints years and ids without thousands separators, counts and amounts with them', () => {
    expect(answerCellText(2021, 'year')).toBe('2021');
    expect(answerCellText(20241, 'quarter_id')).toBe('20241');
    expect(answerCellText(1083, 'deals')).toBe('1,083');
    expect(answerCellText(54_130_200_000, 'capital_usd')).toBe('$54.1B');
    expect(answerCellText('2026-11-18', 'date', true)).toBe('18 Nov 2026');
  });

  it('leaves out a key column that repeats a name, and a column that repeats the question’s country', () => {
    expect(redundantKeyColumns(ROUNDS.columns!)).toEqual(['startup_key']);
    expect(answerColumnsForPdf(ROUNDS)).toEqual({
      shown: ['date', 'startup', 'sector', 'stage', 'amount_usd', 'lead_investor'],
      left: [],
    });
    // Without a name column the key is what identifies the row: it stays.
    expect(redundantKeyColumns(['startup_key', 'amount_usd'])).toEqual([]);
    // The workbook keeps every column, the repeated key last.
    expect(answerColumnsForSheet(ROUNDS)).toEqual([
      'date',
      'startup',
      'country',
      'sector',
      'stage',
      'amount_usd',
      'lead_investor',
      'startup_key',
    ]);
  });
});

describe('market report PDF on a first run', () => {
  it('prints years as 2021 and 2023, never 2,021', () => {
    // The table sits beside its chart: the text of both interleaves line by line.
    expect(text).toMatch(/Year Deals Capital USD .{0,60}2021 1,083 \$54\.1B/);
    expect(text).toMatch(/2023 1,018 \$31\.5B/);
    expect(text).not.toContain('2,021');
    expect(text).not.toContain('2,023');
  });

  it('prints the rounds without the key column, with the amounts and lead investors', () => {
    expect(text).not.toContain('Startup Key');
    expect(text).not.toContain('quanta-studio');
    for (const s of ['Amount', 'Lead Investor', '$201M', 'BirchTempo Partners', '18 Nov 2026'])
      expect(text).toContain(s);
  });

  it('draws the capital and deals chart with the deals on their own axis', () => {
    const chart = planCharts(model).find((p) => p.place.kind === 'answer' && p.place.answer === 0);
    expect(chart?.fromService).toBe(true);
    expect(text).toContain('Funding 2021 vs 2023');
  });

  it('says clearly that this is the first run instead of empty change columns', () => {
    expect(text).toMatch(
      /This is the first run of this report for [^:]+, so there is no previous run to compare with: the week's deals and capital .* are counted from the next run on\./,
    );
    expect(text).toMatch(/DEALS THIS WEEK CAPITAL THIS WEEK .*First run First run/);
    // What it can show of the week: the largest rounds dated in it, with their lead investors.
    expect(text).toContain('What this run shows of the week: the 3 largest rounds dated 24–30 Jun 2025');
    expect(text).toMatch(/Helio Grid United Kingdom Series C 120\.0 26 Jun 2025 Index Ventures/);
    expect(text).not.toContain('The week by country');
    expect(text).toMatch(/NEW STARTUPS NEW TOP INVESTORS .*First run First run/);
    expect(text).toContain('The year to date: 2025 YTD against the same period of 2024');
    expect(text).toContain(
      'No previous run to compare the lists with: changes since the previous run appear from the next run on.',
    );
    expect(text).not.toContain('Deals vs last run');
    expect(text).not.toContain('Since the previous run on');
  });
});

describe('market report workbook on a first run', () => {
  it('writes years as numbers formatted without a thousands separator', () => {
    const ws = wb.getWorksheet('Answer 1')!;
    // The answer's columns, then the stored answer the rows came from (the Sources sheet's id).
    expect(ws.getRow(1).values).toEqual([undefined, 'Year', 'Deals', 'Capital USD', 'Source']);
    const year = ws.getRow(2).getCell(1);
    expect(year.value).toBe(2021);
    expect(year.numFmt).toBe('0');
    expect(ws.getRow(2).getCell(2).numFmt).toBe('#,##0');
    expect(ws.getRow(2).getCell(3).numFmt).toBe('$#,##0');
    // The by-year tables label their years as the PDF does: never "2,020", the year in progress
    // as "2025 YTD".
    const rounds = wb.getWorksheet('Rounds by year')!;
    expect(rounds.getRow(2).getCell(2).value).toBe('2020');
    const germany = wb.getWorksheet('Germany')!;
    const yearCells: string[] = [];
    germany.eachRow((r) => {
      const v = r.getCell(1).value;
      if (typeof v === 'string' && /^20\d\d( YTD)?$/.test(v)) yearCells.push(v);
    });
    expect(yearCells).toEqual(['2020', '2021', '2022', '2023', '2024', '2025 YTD']);
  });

  it('moves the key column to the end of the answer sheet and types dates and amounts', () => {
    const ws = wb.getWorksheet('Answer 2')!;
    expect(ws.getRow(1).values).toEqual([
      undefined,
      'Date',
      'Startup',
      'Country',
      'Sector',
      'Stage',
      'Amount USD',
      'Lead Investor',
      'Startup Key',
      // Last, the stored answer the rows came from.
      'Source',
    ]);
    expect(ws.getRow(2).getCell(1).value).toBeInstanceOf(Date);
    expect(ws.getRow(2).getCell(6).value).toBe(201_000_000);
    expect(ws.getRow(2).getCell(8).value).toBe('quizeon');
  });

  it('has no empty "vs last run" columns and says first run on the summary', () => {
    const summary = wb.getWorksheet('Summary')!;
    const values: string[] = [];
    summary.eachRow((r) => r.eachCell((c) => values.push(typeof c.value === 'string' ? c.value : '')));
    expect(values).not.toContain('Deals vs last run');
    expect(values).toContain('First run');
    expect(values.some((v) => v.startsWith('This is the first run of this report'))).toBe(true);
  });

  it('links the country view from the country sheet', () => {
    const link = wb.getWorksheet('Germany')!.getCell('A3').value as { text: string; hyperlink: string };
    expect(link).toMatchObject({
      text: 'Interactive country view',
      hyperlink: 'https://app.venture-intel.example/countries/germany',
    });
  });
});

describe('a long contents', () => {
  it('gets exactly the pages it needs: no blank page after it, page numbers right', async () => {
    const m = firstRunModel();
    m.answers = Array.from({ length: 45 }, (_, i) => ({
      question: `Question number ${i + 1} about the market`,
      skipped: 'credit budget reached',
    }));
    const long = await renderMarketReport(m, {
      outDir: join(dir, 'long'),
      formats: ['pdf'],
      fileBase: 'long',
      creationDate: new Date('2025-07-01T06:00:00Z'),
    });
    const page = (n: number): string =>
      execFileSync('pdftotext', ['-layout', '-f', String(n), '-l', String(n), long.files.pdf!, '-'], {
        encoding: 'utf8',
      });
    expect(page(2)).toMatch(/^\s*Contents\b/);
    expect(page(3)).toMatch(/^\s*Contents \(continued\)/);
    expect(page(3)).toContain('Question number 45 about the market');
    expect(page(4)).toMatch(/^\s*Executive summary/);
    expect(page(2)).toMatch(/Executive summary[ .]*4\n/);
  }, 60_000);
});
