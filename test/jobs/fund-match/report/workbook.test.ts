/**
 * The fund-match workbook, opened back with exceljs and converted by LibreOffice: its sheets and
 * tables (frozen headers, filters), number formats (fit as 0.0, signed changes), fit and rank per
 * run under the run dates, formula-like names stored as text, the charts as images; the Sources
 * sheet and every data row's Source, what the runner computed marked, a digest stored before sources.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FundDigest } from '../../../../jobs/fund-match/digest.js';
import {
  BATCH_COLUMNS,
  DROPPED_COLUMNS,
  renderFundCharts,
  WATCHLIST_COLUMNS,
  writeFundWorkbook,
} from '../../../../jobs/fund-match/report/index.js';
import type { FundWorkbookResult } from '../../../../jobs/fund-match/report/index.js';
import { formulaLikeCells, openWorkbook, sofficeConvert, sofficePath } from '../../../helpers/reports.js';
import {
  dataSheetRows,
  expectSourceCells,
  sourcesSheetNote,
  sourcesSheetRows,
  withoutSources,
} from '../../../helpers/report-sources.js';
import { COMPUTED_BY_RUNNER, noSourcesNote, SOURCE_COLUMN } from '../../../../reports/sources.js';
import { EARLIER_RUN } from '../../../../jobs/fund-match/report/sources.js';
import { CJK_NAME, FORMULA_NAME, fundDigests } from './fixture.js';

const dir = mkdtempSync(join(tmpdir(), 'fund-workbook-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const headers = (ws: ExcelJS.Worksheet): string[] =>
  (ws.getRow(1).values as unknown[]).slice(1).map((v) => String(v));

/** The data rows of a sheet as objects keyed by header. */
function rows(ws: ExcelJS.Worksheet): Record<string, ExcelJS.CellValue>[] {
  const hs = headers(ws);
  const out: Record<string, ExcelJS.CellValue>[] = [];
  ws.eachRow((row, n) => {
    if (n === 1) return;
    out.push(Object.fromEntries(hs.map((h, i) => [h, row.getCell(i + 1).value])));
  });
  return out;
}

/** A cell's text: a string, a link's text, a number or a date as written. */
function text(v: ExcelJS.CellValue): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v instanceof Date) return v.toISOString();
  if (v && typeof v === 'object' && 'text' in v) return String(v.text);
  return '';
}

async function write(
  digest: FundDigest,
  name: string,
): Promise<{ result: FundWorkbookResult; wb: ExcelJS.Workbook }> {
  const path = join(dir, `${name}.xlsx`);
  const result = await writeFundWorkbook(digest, path, await renderFundCharts(digest), {
    created: new Date('2026-11-23T06:00:00Z'),
  });
  return { result, wb: await openWorkbook(path) };
}

describe('writeFundWorkbook', () => {
  const digests = fundDigests();
  let second: { result: FundWorkbookResult; wb: ExcelJS.Workbook };
  beforeAll(async () => {
    second = await write(digests.second, 'second');
  });

  it('writes Summary, Batch, Match history, Watchlist, Dropped, Sources and Chart data; data sheets as tables with frozen headers', async () => {
    const { wb, result } = second;
    expect(wb.worksheets.map((w) => w.name)).toEqual([
      'Summary',
      'Batch',
      'Match history',
      'Watchlist',
      'Dropped',
      'Sources',
      'Chart data',
    ]);
    expect(result.sheets).toEqual(wb.worksheets.map((w) => w.name));
    for (const [sheet, table] of [
      ['Batch', 'Batch'],
      ['Match history', 'MatchHistory'],
      ['Watchlist', 'Watchlist'],
      ['Dropped', 'Dropped'],
    ] as const) {
      const ws = wb.getWorksheet(sheet)!;
      expect(Object.keys((ws as unknown as { tables: Record<string, unknown> }).tables)).toContain(table);
      expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    }
    const zip = await JSZip.loadAsync(readFileSync(result.path));
    const tables = Object.keys(zip.files).filter((f) => /^xl\/tables\/table\d+\.xml$/.test(f));
    // The four data sheets' tables, the Sources table and one a chart on the Chart data sheet.
    expect(tables).toHaveLength(4 + 1 + 4);
    for (const f of tables) expect(await zip.file(f)!.async('string')).toContain('<autoFilter');
    expect(headers(wb.getWorksheet('Batch')!)).toEqual(BATCH_COLUMNS.map((c) => c.header));
    expect(headers(wb.getWorksheet('Watchlist')!)).toEqual(WATCHLIST_COLUMNS.map((c) => c.header));
    expect(headers(wb.getWorksheet('Dropped')!)).toEqual(DROPPED_COLUMNS.map((c) => c.header));
  });

  it('lists the batch with fit as a percentage, new or still, signed changes, conflicts and reasons, most telling first, joined by "; "', () => {
    const ws = second.wb.getWorksheet('Batch')!;
    const batch = rows(ws);
    expect(batch).toHaveLength(30);
    const col = (h: string) => BATCH_COLUMNS.findIndex((c) => c.header === h) + 1;
    expect(ws.getCell(2, col('Fit')).numFmt).toBe('0.0%');
    expect(ws.getCell(2, col('Fit change (points)')).numFmt).toBe('+0.0;-0.0;0.0');
    expect(ws.getCell(2, col('Rank change')).numFmt).toBe('+0;-0;0');
    const neuronest = batch.find((r) => text(r['Startup'] ?? null) === 'Neuronest')!;
    expect(neuronest).toMatchObject({
      Rank: 9,
      Fit: 0.878,
      'New or still': 'still',
      'Fit change (points)': 9,
      'Rank change': 11,
    });
    const crediflow = batch.find((r) => text(r['Startup'] ?? null) === 'Crediflow')!;
    expect(crediflow).toMatchObject({
      'New or still': 'new',
      'Fit change (points)': null,
      'Portfolio conflict': 'Portfolio company Lendwise: direct competitor',
    });
    // The most telling reasons first: the one with figures before those that restate the thesis.
    const why = digests.second.batch.find((b) => b.name === 'Crediflow')!.why;
    // The service's stage keys in words inside its own sentences (series-a -> Series A).
    expect(why[1]).toBe('series-a round within the thesis stages');
    expect(crediflow['Why']).toBe([why[2], why[0], 'Series A round within the thesis stages'].join('; '));
    // The service's view (public here) in its own column; the name links to a website when given.
    expect(crediflow['Service profile']).toMatchObject({ hyperlink: 'https://startup103.example.com/' });
    expect(batch.map((r) => text(r['Startup'] ?? null))).toContain(CJK_NAME);
  });

  it('stores formula-like names as text, never as formulas', () => {
    expect(formulaLikeCells(second.wb)).toEqual([]);
    const names = rows(second.wb.getWorksheet('Match history')!).map((r) => text(r['Startup'] ?? null));
    expect(names).toContain(`'${FORMULA_NAME}`);
  });

  it('has a fit and a rank column per run, headed by the run dates, for every startup ever matched', () => {
    const ws = second.wb.getWorksheet('Match history')!;
    expect(headers(ws)).toEqual([
      'Startup',
      'First seen',
      'Last seen',
      'Fit 9 Nov 2026',
      'Fit 16 Nov 2026',
      'Rank 9 Nov 2026',
      'Rank 16 Nov 2026',
      'In the batch',
      'Stage',
      'Status',
      'Service key',
      'Source',
    ]);
    expect(ws.getCell(2, 4).numFmt).toBe('0.0%');
    expect(ws.getCell(2, 2).numFmt).toBe('yyyy-mm-dd');
    const history = rows(ws);
    expect(history).toHaveLength(34);
    expect(history.find((r) => r['Startup'] === 'Carbonsense')).toMatchObject({
      'Fit 9 Nov 2026': 0.892,
      'Fit 16 Nov 2026': null,
      'Rank 9 Nov 2026': 7,
      'In the batch': 'No',
      Status: 'acquired',
    });
    expect(history.find((r) => r['Startup'] === 'Gridmind')).toMatchObject({
      'Fit 9 Nov 2026': null,
      'Fit 16 Nov 2026': 0.716,
      'In the batch': 'Yes',
    });
  });

  it('lists every watchlist event and every dropped startup with its reason in words', () => {
    const events = rows(second.wb.getWorksheet('Watchlist')!);
    expect(events).toHaveLength(digests.second.counts.events);
    expect(events[0]).toMatchObject({
      Startup: 'Carbonsense',
      Event: 'Status change',
      From: 'active',
      To: 'acquired',
      'In the batch': 'No',
    });
    const dropped = rows(second.wb.getWorksheet('Dropped')!);
    expect(dropped.map((r) => [r['Startup'], r['Reason']])).toEqual([
      ['Carbonsense', 'Status changed'],
      ['Tidepool Analytics', 'Moved past the thesis stages'],
      ['Northstar Logistics Automation', 'Raised a new round'],
      ['Mosaic Bio', 'Outranked'],
    ]);
  });

  it('puts the key figures, the conflicts and the four charts on the Summary', () => {
    const ws = second.wb.getWorksheet('Summary')!;
    // Native charts only by default: no picture on the sheet (chartImages adds them).
    expect(second.result.charts).toBe(4);
    expect(second.result.images).toBe(0);
    expect(ws.getImages()).toHaveLength(0);
    const cells: string[] = [];
    ws.eachRow((row) => row.eachCell((c) => cells.push(text(c.value))));
    expect(cells).toEqual(
      expect.arrayContaining([
        'Weekly startup matches',
        'New matches',
        'Portfolio conflicts (2)',
        'Crediflow: Portfolio company Lendwise: direct competitor',
      ]),
    );
    const figure = (label: string) => {
      let value: ExcelJS.CellValue = null;
      ws.eachRow((row) => {
        if (row.getCell(1).value === label) value = row.getCell(2).value;
      });
      return value;
    };
    const c = digests.second.counts;
    expect([figure('New matches'), figure('Changed'), figure('Dropped'), figure('Watchlist events')]).toEqual(
      [c.new, c.changed, c.dropped, c.events],
    );
  });

  it('lists every source, and names on every data row the one it came from; what the runner computed says so', () => {
    const d = digests.second;
    const { wb } = second;
    const listed = sourcesSheetRows(wb);
    expect(listed.map((r) => [r['Source'], r['Operation'], r['Store reference']])).toEqual(
      d.sources!.map((s) => [s.id, s.operation, s.ref]),
    );
    // A profile's key is the record asked for, not a secret: it is listed.
    expect(listed[1]!['Parameters']).toBe(`key=${d.sources![1]!.params.key as string}`);
    const cells = expectSourceCells(
      wb,
      ['Batch', 'Match history', 'Watchlist', 'Dropped'],
      new Set(listed.map((r) => r['Source']!)),
      [EARLIER_RUN],
    );
    // The batch read from its one answer (S1); the profile a dropped startup's reason was read from.
    expect(cells.get('Batch')!.every((c) => c.row[SOURCE_COLUMN] === 'S1')).toBe(true);
    const profileOf = new Map(d.sources!.map((s) => [s.params.key, s.id]));
    for (const { row } of cells.get('Dropped')!) {
      expect(row[SOURCE_COLUMN]).toBe(`${EARLIER_RUN}; ${profileOf.get(row['Service key'])}`);
      expect(row['Basis']).toBe(`${COMPUTED_BY_RUNNER}: matched by the run of 9 Nov 2026, not by this batch`);
    }
    for (const { row } of cells.get('Watchlist')!) {
      expect(row[SOURCE_COLUMN]).toBe(`${EARLIER_RUN}; ${profileOf.get(row['Service key'])}`);
      expect(row['Basis']).toMatch(new RegExp(`^${COMPUTED_BY_RUNNER}`));
    }
    // A new match this run: the batch and its profile; one matched before: the earlier runs too.
    const history = new Map(cells.get('Match history')!.map((c) => [c.row['Startup'], c.row[SOURCE_COLUMN]]));
    expect(history.get('Gridmind')).toBe(`S1, ${profileOf.get('st_new_4')}`);
    expect(history.get('Ledgerline')).toBe(`${EARLIER_RUN}; S1, ${profileOf.get('st_1')}`);
    // New or still and the changes are the runner's comparison.
    const batch = new Map(dataSheetRows(wb, 'Batch').map((r) => [r['Startup'], r]));
    expect(batch.get('Neuronest')!['Change basis']).toBe(
      `${COMPUTED_BY_RUNNER}: against the run of 9 Nov 2026`,
    );
    expect(batch.get('Crediflow')!['Change basis']).toBe(
      `${COMPUTED_BY_RUNNER}: not matched by any earlier run`,
    );
    const summary: string[] = [];
    wb.getWorksheet('Summary')!.eachRow((row) => row.eachCell((c) => summary.push(text(c.value))));
    expect(summary).toContain('Where the figures come from');
    expect(summary).toContain(
      "New matches, changed and still matched: Computed by the runner from S1 and earlier runs (the job's history).",
    );
  });

  it('makes a digest stored before sources were kept: the Sources sheet says why, Source cells empty', async () => {
    const { wb } = await write(withoutSources(digests.second), 'before-sources');
    expect(wb.worksheets.map((w) => w.name)).toContain('Sources');
    expect(sourcesSheetRows(wb)).toEqual([]);
    expect(sourcesSheetNote(wb)).toBe(noSourcesNote());
    for (const sheet of ['Batch', 'Match history', 'Watchlist', 'Dropped']) {
      const rows = dataSheetRows(wb, sheet);
      expect(rows.length, sheet).toBeGreaterThan(0);
      expect(
        rows.every((r) => r[SOURCE_COLUMN] === ''),
        sheet,
      ).toBe(true);
    }
    expect(formulaLikeCells(wb)).toEqual([]);
  });

  it('says Baseline on the first run, and shows why the trend is not drawn', async () => {
    const { wb, result } = await write(digests.baseline, 'baseline');
    expect(result.charts).toBe(3);
    const cells: string[] = [];
    wb.getWorksheet('Summary')!.eachRow((row) => row.eachCell((c) => cells.push(text(c.value))));
    expect(cells).toContain('Baseline: the first run of this job; the next runs will say what changed.');
    expect(
      cells.some((c) => c.startsWith('Baseline: this is the first run of the job, so there is no trend yet')),
    ).toBe(true);
    expect(rows(wb.getWorksheet('Batch')!).every((r) => r['New or still'] === 'baseline')).toBe(true);
    expect(formulaLikeCells(wb)).toEqual([]);
  });

  it('opens in LibreOffice (converted to PDF: the sheets and the names are there)', () => {
    const pdf = sofficeConvert(sofficePath(), second.result.path, 'pdf', dir);
    const out = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
    for (const s of [
      'Weekly startup matches',
      'Arcwell Diagnostics',
      CJK_NAME,
      `'${FORMULA_NAME}`,
      'Outranked',
    ])
      expect(out, s).toContain(s);
  });
});
