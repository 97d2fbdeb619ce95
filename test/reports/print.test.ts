/**
 * How report sheets print: widths measured from the longest value (capped, wrapped beyond),
 * the page setup every sheet gets, and page breaks that keep chart images whole.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ReportWorkbook } from '../../reports/excel/index.js';
import {
  WIDTH_CAP,
  fitColumnWidth,
  fitScale,
  imagePageBreaks,
  measuredWidth,
  orientationFor,
  printableArea,
  wrappedLines,
} from '../../reports/excel/print.js';
import { openWorkbook } from '../helpers/reports.js';

const dir = mkdtempSync(join(tmpdir(), 'print-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('measured widths', () => {
  it('a longer text needs a wider column; bold wider than regular; CJK a full em a character', () => {
    const sector = measuredWidth('Artificial Intelligence & Data');
    const investor = measuredWidth('Foster Bennett Partners');
    expect(sector).toBeGreaterThan(investor);
    // Wider than the old fixed 14- and 16-character value columns that cut them.
    expect(sector).toBeGreaterThan(28);
    expect(investor).toBeGreaterThan(20);
    expect(measuredWidth('Deals 2025', { bold: true })).toBeGreaterThan(measuredWidth('Deals 2025'));
    expect(measuredWidth('北京智能科技')).toBeGreaterThan(measuredWidth('Beijing'));
    expect(measuredWidth('short\na much longer second line')).toBe(
      measuredWidth('a much longer second line'),
    );
  });

  it('fits the longest value, at least the minimum, at most the cap (then wraps)', () => {
    expect(fitColumnWidth(['a', 'b'], { min: 10 })).toMatchObject({ width: 10, wrap: false });
    const fit = fitColumnWidth(['x', 'Foster Bennett Partners'], { min: 10 });
    expect(fit.width).toBe(measuredWidth('Foster Bennett Partners'));
    expect(fit.wrap).toBe(false);
    const long = fitColumnWidth(['word '.repeat(40)]);
    expect(long).toMatchObject({ width: WIDTH_CAP, wrap: true });
  });

  it('counts the lines of a wrapped text', () => {
    expect(wrappedLines('short', 20)).toBe(1);
    expect(wrappedLines('word '.repeat(40).trim(), 20)).toBeGreaterThan(5);
    expect(wrappedLines('a\nb', 20)).toBe(2);
  });
});

describe('page setup', () => {
  it('turns landscape when wider than a portrait page and scales to fit one page wide', () => {
    expect(orientationFor(600)).toBe('portrait');
    expect(orientationFor(1200)).toBe('landscape');
    expect(fitScale(500, 'portrait')).toBe(1);
    const wide = fitScale(2000, 'landscape');
    expect(wide).toBeCloseTo(printableArea('landscape').width / 1500, 5);
  });

  it('breaks before an image that would run past the bottom of its page, not before one at a page top', () => {
    const rows = () => 15;
    const page = { pageHeightPt: 300 / 0.95, scale: 1 };
    // A 200 px (150 pt) image at row 15 (210 pt down): it would end at 360 pt > 300.
    // The break goes above the row before the image, so no page ends on the image's top edge.
    expect(imagePageBreaks(rows, [{ row: 15, heightPx: 200 }], page)).toEqual([13]);
    // One that fits stays.
    expect(imagePageBreaks(rows, [{ row: 3, heightPx: 200 }], page)).toEqual([]);
    // At the top of the second page (row 21 starts it): no break before the gap row, only the
    // page's own break above row 21, set (a reader fitting more rows a page keeps it).
    expect(imagePageBreaks(rows, [{ row: 21, heightPx: 200 }], page)).toEqual([20]);
    // Two images one under the other: the second moves to the next page; at half scale a page
    // holds twice as much, so neither does.
    const two = [
      { row: 1, heightPx: 200 },
      { row: 12, heightPx: 200 },
    ];
    expect(imagePageBreaks(rows, two, page)).toEqual([10]);
    expect(imagePageBreaks(rows, two, { ...page, scale: 0.5 })).toEqual([]);
    // A repeated header row takes room on every page after the first.
    // (the first page ends after row 20, the second holds the header row and 19 more).
    expect(imagePageBreaks(rows, [{ row: 33, heightPx: 200 }], { ...page, titleRows: 1 })).toEqual([20, 31]);
  });
});

describe('ReportWorkbook print settings', () => {
  it('writes A4, fit to one page wide, header and footer, repeated header row, fitted widths and breaks', async () => {
    const book = new ReportWorkbook({ title: 'Weekly & co', created: new Date('2026-11-23T00:00:00Z') });
    const ws = book.addSheet('Data');
    book.addDataTable(ws, {
      name: 'Data',
      columns: [
        { header: 'Investor', key: 'name' },
        { header: 'Thesis', key: 'thesis' },
        { header: 'Deals', key: 'deals', kind: 'int' },
      ],
      rows: [
        { name: 'Foster Bennett Partners', thesis: 'seed '.repeat(40).trim(), deals: 12 },
        { name: 'A', thesis: 'short', deals: 1_234_567 },
      ],
    });
    const figures = book.addSheet('Figures');
    book.addKeyFigures(
      figures,
      [
        { label: 'New top investors since the previous run', value: 3, kind: 'int' },
        { label: 'Leading sector', value: 'Artificial Intelligence & Data' },
      ],
      1,
    );
    const path = join(dir, 'print.xlsx');
    await book.writeTo(path);
    const wb = await openWorkbook(path);
    const data = wb.getWorksheet('Data')!;
    expect(data.pageSetup).toMatchObject({ paperSize: 9, fitToPage: true, fitToWidth: 1, fitToHeight: 0 });
    expect(data.pageSetup.printTitlesRow).toBe('1:1');
    expect(data.headerFooter.oddHeader).toBe('&LWeekly && co&R&A');
    expect(data.headerFooter.oddFooter).toBe('&CPage &P of &N');
    expect(data.getColumn(1).width).toBeGreaterThanOrEqual(measuredWidth('Foster Bennett Partners'));
    expect(data.getColumn(2).width).toBe(WIDTH_CAP);
    expect(data.getCell('B2').alignment?.wrapText).toBe(true);
    expect(data.getRow(2).height).toBeGreaterThan(15);
    const f = wb.getWorksheet('Figures')!;
    expect(f.getColumn(1).width).toBeGreaterThanOrEqual(
      measuredWidth('New top investors since the previous run'),
    );
    expect(f.getColumn(2).width).toBeGreaterThanOrEqual(measuredWidth('Artificial Intelligence & Data'));
    // The longest label and value fit on one line: their rows keep the default height.
    expect(f.getRow(2).height ?? 15).toBeLessThanOrEqual(15);
    expect(f.getRow(3).height ?? 15).toBeLessThanOrEqual(15);
  });
});
