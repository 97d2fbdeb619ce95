/**
 * The shortlist's workbook opened back with exceljs: Summary, a sheet per company (a safe,
 * unique name; its investors as a table with NEW marks, fit as 0.0, checks in USD, reasons
 * joined by "; ", links only for http(s); the charts as images; or why no list) and Shared
 * investors; formula-like names stored as text; LibreOffice opens it.
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
import { formulaLikeCells, openWorkbook, sofficeConvert, sofficePath } from '../../../helpers/reports.js';
import { CJK_NAME, FORMULA_NAME, PROBLEM, shortlistReport } from './fixture.js';

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
  beforeAll(async () => {
    const report = shortlistReport();
    result = await writeShortlistWorkbook(
      report,
      join(dir, 'shortlist.xlsx'),
      await renderShortlistCharts(report),
    );
    wb = await openWorkbook(result.path);
  });

  it('has Summary, a sheet per company with a safe name, Shared investors and Chart data', () => {
    expect(result.sheets).toEqual([
      'Summary',
      'Ledgerline',
      'Quantora Health Diagnostics',
      'Kitebase',
      'Shared investors',
      'Chart data',
    ]);
    expect(wb.worksheets.map((w) => w.name)).toEqual(result.sheets);
    expect(result.images).toBe(5);
  });

  it("writes a company's investors as a table: NEW marks, fit 0.0, checks in USD, reasons joined, frozen header", () => {
    const ws = wb.getWorksheet('Ledgerline')!;
    const rows = records(ws);
    expect(rows).toHaveLength(12);
    expect(rows.filter((r) => r['New since last run'] === 'NEW')).toHaveLength(3);
    const first = rows[0]!;
    expect(text(first['Investor'])).toBe('Northwind Ventures');
    expect(first['Fit']).toBe(94.5);
    expect(first['Check min (USD)']).toBe(250_000);
    expect(first['Why']).toMatch(/^Led 3 seed rounds in the sector since 2022; Invests in Germany/);
    expect(first['Recent portfolio']).toBe('Claimly; Parcelwise; Helio Grid');
    expect(ws.getCell('D2').numFmt).toBe('0.0');
    expect(ws.getCell('H2').numFmt).toBe('$#,##0');
    expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(ws.getCell('B2').value).toMatchObject({
      hyperlink: 'https://vis.example/investors/inv_northwind_ventures',
    });
    expect(rows.some((r) => text(r['Investor']) === CJK_NAME)).toBe(true);
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
    expect(rows[0]).toMatchObject({
      Investor: 'Harbor Seed Partners',
      Companies: 2,
      'Which companies': `Ledgerline; Quantora Health / Diagnostics`,
      'Best fit': 92.2,
    });
  });

  it('opens in LibreOffice', () => {
    const pdf = sofficeConvert(sofficePath(), result.path, 'pdf', dir);
    expect(existsSync(pdf)).toBe(true);
    expect(statSync(pdf).size).toBeGreaterThan(1000);
  }, 120_000);
});
