/**
 * The market report workbook (rendered from the fixture model, no Temporal) opened as its
 * readers open it: exceljs, openpyxl (every chart image and native chart on its sheet, kept when
 * openpyxl saves the file) and LibreOffice headless (saved back as .xlsx with every native
 * chart and image; converted to PDF, the native charts drawn: their titles and axis labels are
 * text on the pages, where the images' are pixels).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planCharts, renderMarketReport } from '../../../jobs/market-report/report/index.js';
import type { MarketReportModel, PlannedChart } from '../../../jobs/market-report/report/index.js';
import { marketModelFixture } from '../../../jobs/market-report/fixtures/market-model.js';
import { normalizeChart } from '../../../reports/charts/index.js';
import { openpyxlView } from '../../helpers/openpyxl.js';
import type { OpenpyxlView } from '../../helpers/openpyxl.js';
import { sofficeConvertMany } from '../../helpers/soffice-many.js';

const dir = mkdtempSync(join(tmpdir(), 'market-readers-'));
let model: MarketReportModel;
let planned: PlannedChart[];
let xlsx: string;
let view: OpenpyxlView;
/** The workbook as LibreOffice saved it (.xlsx) and printed it (.pdf), and openpyxl's view of the saved one. */
let loSaved: string;
let loPdf: string;
let loSavedView: OpenpyxlView;

/** The sheet each planned chart is drawn on. */
function sheetOf(p: PlannedChart): string {
  if (p.place.kind === 'compare') return 'Summary';
  if (p.place.kind === 'answer') return `Answer ${p.place.answer + 1}`;
  return model.countries[p.place.country]?.country ?? '?';
}

/** Native charts per sheet (in this fixture every chart's data is a table on its sheet). */
function expected(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const p of planned) out[sheetOf(p)] = (out[sheetOf(p)] ?? 0) + 1;
  return out;
}

beforeAll(async () => {
  model = marketModelFixture();
  planned = planCharts(model);
  const result = await renderMarketReport(model, {
    outDir: dir,
    formats: ['xlsx'],
    fileBase: 'market',
    creationDate: new Date('2025-07-01T06:00:00Z'),
  });
  xlsx = result.files.xlsx!;
  // LibreOffice saves it back and prints it: two processes at once (each start costs seconds).
  const out = join(dir, 'lo');
  mkdirSync(out);
  [[loSaved], [loPdf]] = (await Promise.all([
    sofficeConvertMany([xlsx], 'xlsx', out),
    sofficeConvertMany([xlsx], 'pdf', dir),
  ])) as [[string], [string]];
  // One openpyxl process reads the workbook and LibreOffice's copy.
  const views = openpyxlView(dir, [xlsx, loSaved]);
  view = views[xlsx]!;
  loSavedView = views[loSaved]!;
  // The render, two LibreOffice conversions and openpyxl, on a busy machine.
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('market report workbook, opened back', () => {
  it('exceljs opens it with every sheet, and no picture (native charts only by default)', async () => {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(xlsx);
    expect(wb.worksheets.map((w) => w.name)).toEqual(Object.keys(view.sheets));
    const images = Object.fromEntries(
      wb.worksheets.filter((w) => w.getImages().length > 0).map((w) => [w.name, w.getImages().length]),
    );
    expect(images).toEqual({});
    expect(wb.getWorksheet('Germany')?.getCell('A1').value).toBe('Germany');
  });

  it('openpyxl sees a native chart for every chart and no image, without warnings', () => {
    expect(view.warnings).toEqual([]);
    const seen = Object.fromEntries(
      Object.entries(view.sheets)
        .filter(([, s]) => s.images > 0 || s.charts.length > 0)
        .map(([name, s]) => [name, { images: s.images, charts: s.charts.length }]),
    );
    const want = Object.fromEntries(
      Object.entries(expected()).map(([k, n]) => [k, { images: 0, charts: n }]),
    );
    expect(seen).toEqual(want);
    // Each series plots its own sheet's cells, the name quoted.
    for (const [name, s] of Object.entries(view.sheets))
      for (const c of s.charts)
        for (const f of c.series) expect(f?.startsWith(`'${name.replace(/'/g, "''")}'!$`)).toBe(true);
    // The by-year combo: deals as bars, capital as a line (on the second axis).
    expect(view.sheets['Germany']!.charts[0]!.parts).toEqual(['BarChart', 'LineChart']);
    // The stage mix: the report's own donut (the service's pie of the same data is not drawn).
    expect(view.sheets['Germany']!.charts[1]!.type).toBe('DoughnutChart');
  });

  it('openpyxl keeps them when it saves the file', () => {
    expect(view.resaved).toEqual(
      Object.fromEntries(
        Object.entries(view.sheets).map(([k, s]) => [k, { charts: s.charts.length, images: s.images }]),
      ),
    );
  });

  it('LibreOffice keeps every native chart when it saves the workbook as .xlsx', async () => {
    const zip = await JSZip.loadAsync(readFileSync(loSaved));
    const n = planned.length;
    expect(Object.keys(zip.files).filter((p) => /^xl\/charts\/chart\d+\.xml$/.test(p))).toHaveLength(n);
    expect(Object.keys(zip.files).filter((p) => /^xl\/media\//.test(p))).toEqual([]);
    const again = loSavedView;
    const count = (v: OpenpyxlView) =>
      Object.values(v.sheets).reduce(
        (t, s) => ({ charts: t.charts + s.charts.length, images: t.images + s.images }),
        { charts: 0, images: 0 },
      );
    expect(count(again)).toEqual({ charts: n, images: 0 });
  });

  it('LibreOffice draws the native charts in its PDF: their titles are text on the pages', () => {
    const text = execFileSync('pdftotext', [loPdf, '-'], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    }).replace(/\s+/g, ' ');
    const missing = planned.map((p) => normalizeChart(p.spec).title).filter((t) => !text.includes(t));
    expect(missing).toEqual([]);
  });
});
