/**
 * The shortlist's workbook opened back with exceljs: Summary, a sheet per company (a safe,
 * unique name; its investors as a table with NEW marks, a partner, fit as a percentage, checks
 * in the PDF's unit named in the header, every reason whole and joined by "; ", links only a
 * reader can open; native charts, pictures only with chartImages; printed to the thesis; or why
 * no list), Shared investors and Run (credits); formula-like names stored as text; no loopback
 * link or raw stage key anywhere; LibreOffice opens it. Every data row names its source, what the
 * runner computed says so, and a report stored before sources still writes.
 */
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  renderShortlistCharts,
  writeShortlistWorkbook,
} from '../../../../jobs/investor-shortlist/report/index.js';
import type { ShortlistWorkbookResult } from '../../../../jobs/investor-shortlist/report/index.js';
import { privateUrls, rawStageKey } from '../../../helpers/editorial-rules.js';
import {
  allCells,
  formulaLikeCells,
  openWorkbook,
  sofficeConvert,
  sofficePath,
} from '../../../helpers/reports.js';
import {
  dataSheetRows,
  expectSourceCells,
  sourcesSheetNote,
  sourcesSheetRows,
  withoutSources,
} from '../../../helpers/report-sources.js';
import { noSourcesNote, SOURCE_COLUMN } from '../../../../reports/sources.js';
import {
  CREDITS_BASIS,
  NEW_BASIS,
  SHARED_BASIS,
} from '../../../../jobs/investor-shortlist/report/sources.js';
import { CJK_NAME, FORMULA_NAME, PARTNERS, PROBLEM, shortlistReport } from './fixture.js';

const SERVICE = 'http://127.0.0.1:8787';

const dir = mkdtempSync(join(tmpdir(), 'shortlist-workbook-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A sheet's rows as header → value records (the table from row 1). */
function records(ws: ExcelJS.Worksheet): Record<string, ExcelJS.CellValue>[] {
  const header = (ws.getRow(1).values as ExcelJS.CellValue[]).slice(1).map(String);
  const out: Record<string, ExcelJS.CellValue>[] = [];
  for (let r = 2; r <= ws.rowCount; r++) {
    const row = ws.getRow(r);
    if (row.getCell(1).value === null) break;
    out.push(Object.fromEntries(header.map((h, i) => [h, row.getCell(i + 1).value])));
  }
  return out;
}

const text = (v: ExcelJS.CellValue): string =>
  v && typeof v === 'object' && 'text' in v
    ? String(v.text)
    : typeof v === 'string' || typeof v === 'number'
      ? String(v)
      : '';

describe('writeShortlistWorkbook', () => {
  let result: ShortlistWorkbookResult;
  let wb: ExcelJS.Workbook;
  let images: ShortlistWorkbookResult;
  beforeAll(async () => {
    // As a run against a loopback service writes it: every service link under 127.0.0.1.
    const report = JSON.parse(
      JSON.stringify(shortlistReport()).replace(/https:\/\/vis\.example(?=\/)/g, SERVICE),
    ) as ReturnType<typeof shortlistReport>;
    const charts = await renderShortlistCharts(report);
    const links = { baseUrl: SERVICE, publicUrl: null };
    result = await writeShortlistWorkbook(report, join(dir, 'shortlist.xlsx'), charts, { links });
    wb = await openWorkbook(result.path);
    images = await writeShortlistWorkbook(report, join(dir, 'images.xlsx'), charts, {
      links,
      chartImages: true,
    });
  });

  it('has Summary, a sheet per company with a safe name, Shared investors, Run, Sources and Chart data', () => {
    expect(result.sheets).toEqual([
      'Summary',
      'Ledgerline',
      'Quantora Health Diagnostics',
      'Kitebase',
      'Shared investors',
      'Run',
      'Sources',
      'Chart data',
    ]);
    expect(wb.worksheets.map((w) => w.name)).toEqual(result.sheets);
  });

  it('draws the charts as native charts only, pictures too when the job asks chartImages', () => {
    expect(result.images).toBe(0);
    expect(wb.getWorksheet('Ledgerline')!.getImages()).toHaveLength(0);
    expect(images.images).toBe(5);
  });

  it("writes a company's investors as a table: a partner, fit as a percentage, checks in $M, every reason", () => {
    const ws = wb.getWorksheet('Ledgerline')!;
    const rows = records(ws);
    expect(rows).toHaveLength(12);
    expect(rows.filter((r) => r['New since last run'] === 'NEW')).toHaveLength(3);
    const first = rows[0]!;
    expect(text(first['Investor'])).toBe('Northwind Ventures');
    expect(first['Partner']).toBe(`${PARTNERS[0]} (General Partner)`);
    expect(first['Fit']).toBe(0.945);
    expect(ws.getCell('E2').numFmt).toBe('0.0%');
    expect(first['Check min ($M)']).toBe(0.25);
    expect(first['Check max ($M)']).toBe(2);
    expect(ws.getCell('F2').numFmt).toBe('#,##0.00');
    expect(first['Why']).toBe(
      'led 3 seed rounds of $1.5M–$4M in the sector since 2022, joined 5 more; ' +
        'backed 5 look-alikes: Claimly, Parcelwise, Helio Grid and others; ' +
        '12 deals in the sector since 2020 (4 since 2024), 3 in payments infrastructure for regulated industries across Europe; ' +
        'HQ in Germany, in the region of the startup; 2 deals in startups there',
    );
    expect(first['Thesis']).toMatch(/from Pre-seed to series A\.$/);
    expect(first['Recent portfolio']).toBe('Claimly; Parcelwise; Helio Grid');
    expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    // The name links to the investor's website; the loopback profile is left out.
    expect(ws.getCell('B2').value).toMatchObject({
      hyperlink: expect.stringMatching(/^https:\/\/www\.northwind_ventures\.example\.com\/?$/),
    });
    expect(first['Service profile']).toBeNull();
    expect(rows.some((r) => text(r['Investor']) === CJK_NAME)).toBe(true);
    // Printed: the columns a person reads, to the thesis.
    expect(ws.pageSetup.printArea).toMatch(/^A1:I\d+$/);
  });

  it('has no loopback link, no raw stage key and no cut reason in any cell', () => {
    const bad = allCells(wb).flatMap(({ sheet, address, cell }) => {
      const v = cell.value;
      const shown = text(v);
      const link = v && typeof v === 'object' && 'hyperlink' in v ? String(v.hyperlink) : '';
      const problems = [
        ...privateUrls(`${shown} ${link}`),
        ...(link.includes('127.0.0.1') ? [link] : []),
        ...(/key$/i.test(text(wb.getWorksheet(sheet)!.getCell(1, cell.fullAddress.col).value))
          ? []
          : [rawStageKey(shown)].filter((k): k is string => k !== null)),
        ...(/(…|\.\.\.)\s*$/.test(shown) ? [shown] : []),
      ];
      return problems.map((p) => `${sheet}!${address}: ${p}`);
    });
    expect(bad).toEqual([]);
  });

  it('stores formula-like names as text, never as formulas', () => {
    expect(formulaLikeCells(wb)).toEqual([]);
    const cells = wb
      .getWorksheet('Shared investors')!
      .getColumn(1)
      .values.map((v) => text(v ?? null));
    expect(cells).toContain(`'${FORMULA_NAME}`);
  });

  it('says why a company has no list, on its sheet and the Summary', () => {
    const kite = wb.getWorksheet('Kitebase')!;
    expect(text(kite.getCell('A1').value)).toBe('Kitebase');
    const all = (ws: ExcelJS.Worksheet): string[] => {
      const out: string[] = [];
      ws.eachRow((row) => row.eachCell((c) => out.push(text(c.value))));
      return out;
    };
    expect(all(kite)).toContain('Not asked: the free plan allows one run.');
    expect(all(wb.getWorksheet('Summary')!).join('\n')).toContain(PROBLEM.replace(/^n/, 'N'));
  });

  it('lists the shared investors with their companies', () => {
    const rows = records(wb.getWorksheet('Shared investors')!);
    expect(rows).toHaveLength(6);
    expect(text(rows[0]!['Investor'])).toBe('Harbor Seed Partners');
    expect(rows[0]).toMatchObject({
      Companies: 2,
      'Which companies': `Ledgerline; Quantora Health / Diagnostics`,
      'Best fit': 0.922,
    });
  });

  it('puts what the run spent on the Run sheet, not the Summary', () => {
    const cells = (name: string): string[] => {
      const out: string[] = [];
      wb.getWorksheet(name)!.eachRow((row) => row.eachCell((c) => out.push(text(c.value))));
      return out;
    };
    expect(cells('Summary').join('\n')).not.toMatch(/Credits spent|Credits charged/);
    const run = cells('Run');
    expect(run).toContain('Credits spent: 2 of a budget of 10.');
    expect(run.join('|')).toContain(
      `Ledgerline|1|${CREDITS_BASIS}|S1|Quantora Health / Diagnostics|1|${CREDITS_BASIS}|S2|Kitebase|0|${CREDITS_BASIS}`,
    );
  });

  it('lists every source, and names on every data row the one it came from; what the runner computed says so', () => {
    const report = shortlistReport();
    const listed = sourcesSheetRows(wb);
    expect(listed.map((r) => [r['Source'], r['Operation'], r['Parameters'], r['Store reference']])).toEqual(
      report.sources!.map((s) => [
        s.id,
        s.operation,
        s.operation === 'get_investor' ? `key=${s.params.key as string}` : 'limit=12',
        s.ref,
      ]),
    );
    const cells = expectSourceCells(
      wb,
      ['Ledgerline', 'Quantora Health Diagnostics', 'Shared investors'],
      new Set(listed.map((r) => r['Source']!)),
    );
    // An enriched row: its list and its profile; the others their list alone.
    const ledgerline = cells.get('Ledgerline')!.filter((c) => c.row['Service key'] !== '');
    expect(ledgerline.map((c) => c.row[SOURCE_COLUMN])).toEqual(
      report.companies[0]!.investors.map((r) => (r.enriched ? `S1, ${r.sources![1]}` : 'S1')),
    );
    for (const { row, ids } of ledgerline) {
      expect(row['Basis']).toBe(NEW_BASIS);
      const profile = ids.find((id) => id !== 'S1');
      if (profile)
        expect(listed.find((r) => r['Source'] === profile)!['Parameters']).toBe(`key=${row['Service key']}`);
    }
    for (const { row } of cells.get('Shared investors')!) {
      expect(row[SOURCE_COLUMN]).toBe('S1–S2');
      expect(row['Basis']).toBe(SHARED_BASIS);
    }
    // The Summary's companies name their list's answer; it says where its figures come from.
    const summary = wb.getWorksheet('Summary')!;
    const overview: string[] = [];
    summary.eachRow((row) => overview.push(text(row.getCell(8).value)));
    expect(overview.filter((x) => x !== '')).toEqual([SOURCE_COLUMN, 'S1', 'S2']);
    const all: string[] = [];
    summary.eachRow((row) => row.eachCell((c) => all.push(text(c.value))));
    expect(all).toContain(
      "New since the last run: Computed by the runner, each company's list against the job's last run.",
    );
  });

  it('writes a report stored before sources were kept: the Sources sheet says why, Source cells empty', async () => {
    const old = withoutSources(shortlistReport());
    const path = join(dir, 'before-sources.xlsx');
    await writeShortlistWorkbook(old, path, await renderShortlistCharts(old));
    const book = await openWorkbook(path);
    expect(sourcesSheetRows(book)).toEqual([]);
    expect(sourcesSheetNote(book)).toBe(noSourcesNote());
    for (const sheet of ['Ledgerline', 'Shared investors']) {
      const rows = dataSheetRows(book, sheet).filter((r) => r['Service key'] !== '');
      expect(rows.length, sheet).toBeGreaterThan(0);
      expect(
        rows.every((r) => r[SOURCE_COLUMN] === ''),
        sheet,
      ).toBe(true);
    }
    expect(formulaLikeCells(book)).toEqual([]);
  });

  it('opens in LibreOffice', () => {
    const pdf = sofficeConvert(sofficePath(), result.path, 'pdf', dir);
    expect(existsSync(pdf)).toBe(true);
    expect(statSync(pdf).size).toBeGreaterThan(1000);
  }, 120_000);
});
