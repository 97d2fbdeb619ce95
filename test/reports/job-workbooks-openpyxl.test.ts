/**
 * The workbooks of the fund-match, investor-shortlist and prospect-list jobs (written from their
 * report fixtures, no Temporal) opened with openpyxl, as a Python user would: every chart image
 * is there (exceljs's one-cell anchors without the `editAs` openpyxl refuses; the streamed
 * prospect list's own drawing), with a native chart beside each image, and all of them still
 * there after openpyxl saved the file. The three workbooks carry native
 * charts alone by default, and pictures beside them only with their `chartImages` option. The market report's
 * workbook has its own test (test/jobs/market-report/workbook-readers.test.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderFundCharts, writeFundWorkbook } from '../../jobs/fund-match/report/index.js';
import { renderShortlistCharts, writeShortlistWorkbook } from '../../jobs/investor-shortlist/report/index.js';
import { writeProspectWorkbook } from '../../jobs/prospect-list/report/index.js';
import { fundDigests } from '../jobs/fund-match/report/fixture.js';
import { shortlistReport } from '../jobs/investor-shortlist/report/fixture.js';
import { prospectRows, prospectSummary, suppressedRows } from '../jobs/prospect-list/report/fixture.js';
import { openpyxlView } from '../helpers/openpyxl.js';
import type { OpenpyxlView } from '../helpers/openpyxl.js';

const dir = mkdtempSync(join(tmpdir(), 'job-workbooks-'));
const files = {
  fund: join(dir, 'fund.xlsx'),
  fundImages: join(dir, 'fund-images.xlsx'),
  shortlist: join(dir, 'shortlist.xlsx'),
  prospects: join(dir, 'prospects.xlsx'),
};
const images = { fund: 0, fundImages: 0, shortlist: 0, prospects: 0 };
let views: Record<string, OpenpyxlView>;

/** Images and charts per sheet that has any. */
function drawn(v: OpenpyxlView): Record<string, { images: number; charts: number }> {
  return Object.fromEntries(
    Object.entries(v.sheets)
      .filter(([, s]) => s.images + s.charts.length > 0)
      .map(([k, s]) => [k, { images: s.images, charts: s.charts.length }]),
  );
}

beforeAll(async () => {
  const digest = fundDigests().third;
  const fundCharts = await renderFundCharts(digest);
  images.fund = (await writeFundWorkbook(digest, files.fund, fundCharts)).images;
  images.fundImages = (
    await writeFundWorkbook(digest, files.fundImages, fundCharts, { chartImages: true })
  ).images;
  const report = shortlistReport();
  images.shortlist = (
    await writeShortlistWorkbook(report, files.shortlist, await renderShortlistCharts(report))
  ).images;
  images.prospects = (
    await writeProspectWorkbook(
      prospectSummary({ listed: 40 }),
      prospectRows(40),
      suppressedRows(10),
      files.prospects,
    )
  ).images;
  views = openpyxlView(dir, Object.values(files));
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('job workbooks in openpyxl', () => {
  it('fund match: the four Summary charts as native charts of the Chart data tables, no picture', () => {
    const v = views[files.fund]!;
    expect(v.warnings).toEqual([]);
    expect(images.fund).toBe(0);
    expect(drawn(v)).toEqual({ Summary: { images: 0, charts: 4 } });
    for (const c of v.sheets['Summary']!.charts)
      for (const f of c.series) expect(f).toMatch(/^'Chart data'!\$[A-Z]+\$\d+:\$[A-Z]+\$\d+$/);
    expect(v.sheets['Summary']!.charts.map((c) => c.type)).toEqual([
      'BarChart',
      'BarChart',
      'BarChart',
      'LineChart',
    ]);
  });

  it('fund match with chartImages: a picture beside each native chart', () => {
    const v = views[files.fundImages]!;
    expect(v.warnings).toEqual([]);
    expect(images.fundImages).toBe(4);
    expect(drawn(v)).toEqual({ Summary: { images: 4, charts: 4 } });
  });

  it("investor shortlist: each company's service charts native alone (pictures only with chartImages)", () => {
    const v = views[files.shortlist]!;
    expect(v.warnings).toEqual([]);
    expect(images.shortlist).toBe(0);
    expect(drawn(v)).toEqual({
      Ledgerline: { images: 0, charts: 3 },
      'Quantora Health Diagnostics': { images: 0, charts: 2 },
    });
  });

  it('prospect list (streamed): the five Summary charts native alone, of the Chart data tables', () => {
    const v = views[files.prospects]!;
    expect(v.warnings).toEqual([]);
    // Native charts only by default (pictures only when the job asks for them: chartImages).
    expect(images.prospects).toBe(0);
    expect(drawn(v)).toEqual({ Summary: { images: 0, charts: 5 } });
    expect(Object.keys(v.sheets)).toEqual(['Summary', 'Chart data', 'Prospects', 'Suppressed', 'Sources']);
    for (const c of v.sheets['Summary']!.charts)
      for (const f of c.series) expect(f).toMatch(/^'Chart data'!\$B\$\d+:\$B\$\d+$/);
  });

  it('keeps every image and chart when openpyxl saves the files', () => {
    for (const v of Object.values(views)) {
      const before = Object.fromEntries(
        Object.entries(v.sheets).map(([k, s]) => [k, { charts: s.charts.length, images: s.images }]),
      );
      expect(v.resaved).toEqual(before);
    }
  });
});
