/**
 * Native Excel charts (reports/excel/native-charts.ts) on a small workbook with every chart
 * type, opened back: the package's parts, exceljs, openpyxl (charts, images, references, and
 * the same after openpyxl saved the file) and LibreOffice (saved back as .xlsx, every chart of
 * its type).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ReportWorkbook,
  axisFormat,
  columnLetters,
  finishPackage,
  fixOneCellAnchors,
  rangeRef,
  sheetRef,
  tableChartOf,
} from '../../reports/excel/index.js';
import type { NativeChartType, TableChart } from '../../reports/excel/index.js';
import { openpyxlView } from '../helpers/openpyxl.js';
import type { OpenpyxlView } from '../helpers/openpyxl.js';
import { sofficeConvert, sofficePath } from '../helpers/reports.js';

const dir = mkdtempSync(join(tmpdir(), 'native-charts-'));
const file = join(dir, 'charts.xlsx');
const SHEET = "Bob's data & <more>";
const PLAIN = 'Plain sheet';
const ROWS = [
  { year: 2021, deals: 10, capital: 100e6, lead: 4 },
  { year: 2022, deals: 14, capital: 250e6, lead: 6 },
  { year: 2023, deals: 9, capital: 120e6, lead: 3 },
  { year: 2024, deals: 17, capital: 300e6, lead: 8 },
  { year: 2025, deals: 6, capital: 80e6, lead: 2 },
];
/** A 20 × 12 px PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAABQAAAAMCAIAAADtbgqsAAAAFklEQVR4nGOQ96skGzGMah7VPHg1AwAHSNehHQXLuQAAAABJRU5ErkJggg==',
  'base64',
);

/** The charts of the first sheet, then of the second (pie and doughnut, on a sheet without images). */
const FIRST: [NativeChartType, TableChart['series']][] = [
  ['bar', [{ key: 'deals' }, { key: 'lead' }]],
  ['horizontal_bar', [{ key: 'deals' }]],
  ['line', [{ key: 'deals' }, { key: 'lead' }]],
  [
    'combo',
    [
      { key: 'deals', draw: 'bar' },
      { key: 'capital', draw: 'line', secondary: true },
    ],
  ],
  ['stacked_bar', [{ key: 'lead' }, { key: 'deals' }]],
  ['stacked_horizontal_bar', [{ key: 'lead' }, { key: 'deals' }]],
];
const SECOND: NativeChartType[] = ['pie', 'doughnut'];

let zip: JSZip;
let view: OpenpyxlView;

async function part(path: string): Promise<string> {
  const f = zip.file(path);
  if (!f) throw new Error(`no ${path} in the package`);
  return f.async('string');
}

beforeAll(async () => {
  const book = new ReportWorkbook({ title: 'Charts', created: new Date('2025-07-01T00:00:00Z') });
  const columns = [
    { header: 'Year', key: 'year', kind: 'id' as const },
    { header: 'Deals', key: 'deals', kind: 'int' as const },
    { header: 'Capital', key: 'capital', kind: 'usd-millions' as const },
    { header: 'As lead', key: 'lead', kind: 'int' as const },
  ];
  const ws = book.addSheet(SHEET);
  const t = book.addDataTable(ws, { name: 'Years', columns, rows: ROWS });
  book.addImage(ws, PNG, { row: 1, col: 7 }, { width: 120, height: 90 });
  FIRST.forEach(([type, series], i) =>
    expect(
      book.addTableChart(
        ws,
        t.cells,
        { type, title: `${type} chart`, category: 'year', series },
        { row: 8 + 16 * Math.floor(i / 2), col: 1 + 8 * (i % 2) },
        { width: 420, height: 260 },
      ),
    ).toBe(true),
  );
  // A table not at A1, on a sheet with no image: the drawing part is new.
  const plain = book.addSheet(PLAIN);
  const p = book.addDataTable(plain, { name: 'Plain', columns, rows: ROWS, origin: { row: 3, col: 2 } });
  SECOND.forEach((type, i) =>
    book.addTableChart(
      plain,
      p.cells,
      {
        type,
        title: `${type} chart`,
        category: 'year',
        series: [{ key: 'deals' }],
        rows: 4,
        // The doughnut stays on screen only.
        ...(type === 'doughnut' ? { print: false } : {}),
      },
      { row: 10, col: 2 + 7 * i },
      { width: 360, height: 240 },
    ),
  );
  // A chart naming a column the table lacks is not added.
  expect(
    book.addTableChart(
      plain,
      p.cells,
      { type: 'bar', title: 'x', category: 'year', series: [{ key: 'missing' }] },
      { row: 1, col: 1 },
      { width: 10, height: 10 },
    ),
  ).toBe(false);
  await book.writeTo(file);
  zip = await JSZip.loadAsync(readFileSync(file));
  view = openpyxlView(dir, [file])[file]!;
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('references', () => {
  it('quotes every sheet name, doubling its quotes', () => {
    expect(sheetRef("Bob's")).toBe("'Bob''s'");
    expect(sheetRef('Plain')).toBe("'Plain'");
    expect(rangeRef("It's 'q'", { col: 28, firstRow: 2, lastRow: 9 })).toBe("'It''s ''q'''!$AB$2:$AB$9");
    expect(rangeRef('S', { col: 1, firstRow: 4, lastRow: 4 })).toBe("'S'!$A$4");
    expect([1, 26, 27, 52, 703].map(columnLetters)).toEqual(['A', 'Z', 'AA', 'AZ', 'AAA']);
  });

  it('labels a dollar value axis in B, M and $ (a cell format in millions is too long for ticks)', () => {
    const axis = '[>=1000000000]$#,##0.0,,,"B";[>=1000000]$#,##0,,"M";$#,##0';
    expect(axisFormat('$#,##0.0,,"M"')).toBe(axis);
    expect(axisFormat('$#,##0')).toBe(axis);
    expect(axisFormat('#,##0')).toBe('#,##0');
    expect(axisFormat('0.0%')).toBe('0.0%');
  });

  it('drops editAs from one-cell anchors only', () => {
    expect(
      fixOneCellAnchors(
        '<xdr:oneCellAnchor editAs="oneCell"><x/></xdr:oneCellAnchor><xdr:twoCellAnchor editAs="oneCell">',
      ),
    ).toBe('<xdr:oneCellAnchor><x/></xdr:oneCellAnchor><xdr:twoCellAnchor editAs="oneCell">');
  });

  it('anchors a chart by the column widths and row heights the sheet has when it is written', () => {
    const book = new ReportWorkbook();
    const ws = book.addSheet('S');
    const t = book.addDataTable(ws, {
      name: 'T',
      columns: [
        { header: 'Year', key: 'year', kind: 'id', width: 10 },
        { header: 'Deals', key: 'deals', kind: 'int', width: 10 },
      ],
      rows: ROWS,
    });
    const chart: TableChart = { type: 'bar', title: 'T', category: 'year', series: [{ key: 'deals' }] };
    // Column D on: 64 px columns (none set), 20 px rows.
    expect(book.addTableChart(ws, t.cells, chart, { row: 8, col: 4 }, { width: 160, height: 50 })).toBe(true);
    expect(book.nativeCharts[0]!.anchor).toEqual({
      from: { col: 3, row: 7 },
      to: { col: 5, row: 9, colOff: 32 * 9525, rowOff: 10 * 9525 },
    });
    // Widths and heights set afterwards (a print layout) still give the chart its size.
    ws.getColumn(4).width = 20; // 140 px
    ws.getRow(8).height = 30; // 40 px
    expect(book.nativeCharts[0]!.anchor).toEqual({
      from: { col: 3, row: 7 },
      to: { col: 4, row: 8, colOff: 20 * 9525, rowOff: 10 * 9525 },
    });
  });

  it('refuses a chart whose caches do not match its cells, or whose sheet is not there', async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('S').addRow(['a', 1]);
    const saved = await wb.xlsx.writeBuffer();
    const chart = {
      sheet: 'S',
      type: 'bar' as const,
      title: 'T',
      categories: { col: 1, firstRow: 1, lastRow: 1, cache: ['a'] },
      series: [{ name: 'n', values: { col: 2, firstRow: 1, lastRow: 1 }, cache: [1, 2] }],
      anchor: { from: { col: 3, row: 0 }, to: { col: 8, row: 10 } },
    };
    await expect(finishPackage(saved, [chart])).rejects.toThrow(/series "n" has 2 values in 1 cells/);
    await expect(finishPackage(saved, [{ ...chart, sheet: 'T' }])).rejects.toThrow(
      'chart "T" on sheet "T": the workbook has no such sheet',
    );
  });

  it('reads a report chart spec into a table chart of the same kind', () => {
    const data = ROWS.map((r) => ({ period: String(r.year), deals: r.deals, capital_usd: r.capital }));
    expect(
      tableChartOf(
        {
          type: 'combo',
          title: 'T',
          xKey: 'period',
          series: [
            { key: 'deals', type: 'bar' },
            { key: 'capital_usd', type: 'line', unit: 'USD' },
          ],
          data,
        },
        { period: 'year', capital_usd: 'capital' },
      ),
    ).toMatchObject({
      type: 'combo',
      category: 'year',
      rows: 5,
      series: [
        { key: 'deals', draw: 'bar' },
        { key: 'capital', draw: 'line', secondary: true },
      ],
    });
    expect(tableChartOf({ type: 'donut', title: 'T', xKey: 'period', series: ['deals'], data })?.type).toBe(
      'doughnut',
    );
    expect(
      tableChartOf({ type: 'horizontal_bar', title: 'T', xKey: 'period', series: ['deals'], data })?.type,
    ).toBe('horizontal_bar');
  });
});

describe('the package', () => {
  it('has a chart part for each chart, declared, and related from the drawings', async () => {
    const charts = Object.keys(zip.files).filter((p) => /^xl\/charts\/chart\d+\.xml$/.test(p));
    expect(charts).toHaveLength(FIRST.length + SECOND.length);
    const types = await part('[Content_Types].xml');
    for (const c of charts)
      expect(types).toContain(
        `<Override PartName="/${c}" ContentType="application/vnd.openxmlformats-officedocument.drawingml.chart+xml"/>`,
      );
    const rels =
      (await part('xl/drawings/_rels/drawing1.xml.rels')) +
      (await part('xl/drawings/_rels/drawing2.xml.rels'));
    expect(rels.match(/relationships\/chart"/g)).toHaveLength(charts.length);
    expect(rels.match(/relationships\/image"/g)).toHaveLength(1);
  });

  it('anchors the image on one cell without editAs, the charts on two cells', async () => {
    const d1 = await part('xl/drawings/drawing1.xml');
    expect(d1).toMatch(/<xdr:oneCellAnchor>/);
    expect(d1).not.toMatch(/oneCellAnchor[^>]*editAs/);
    expect(d1.match(/<xdr:twoCellAnchor editAs="oneCell">/g)).toHaveLength(FIRST.length);
    expect(d1.match(/<c:chart r:id="rId\d+"\/>/g)).toHaveLength(FIRST.length);
    // Unique drawing object ids.
    const ids = Array.from(d1.matchAll(/cNvPr id="(\d+)"/g), (m) => m[1]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('puts <drawing> where the schema wants it on the sheet that had none', async () => {
    const sheet = await part('xl/worksheets/sheet2.xml');
    expect(sheet).toMatch(/<drawing r:id="rId\d+"\/><tableParts/);
    expect(await part('xl/worksheets/_rels/sheet2.xml.rels')).toContain('Target="../drawings/drawing2.xml"');
    // The pie prints, the doughnut (print: false) does not.
    expect(
      (await part('xl/drawings/drawing2.xml')).match(
        /<xdr:clientData\/>|<xdr:clientData fPrintsWithSheet="0"\/>/g,
      ),
    ).toEqual(['<xdr:clientData/>', '<xdr:clientData fPrintsWithSheet="0"/>']);
  });

  it('references the table cells with the values cached, each chart of its type', async () => {
    const xml = await Promise.all(
      [...FIRST.map((_, i) => i + 1), 7, 8].map((n) => part(`xl/charts/chart${n}.xml`)),
    );
    const [bar, hbar, line, combo, stacked, hstacked, pie, doughnut] = xml as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    const q = "'Bob''s data &amp; &lt;more&gt;'";
    expect(bar).toContain(`<c:f>${q}!$A$2:$A$6</c:f>`);
    expect(bar).toContain(`<c:f>${q}!$B$2:$B$6</c:f>`);
    expect(bar).toContain(`<c:f>${q}!$D$1</c:f>`);
    expect(bar).toContain('<c:barDir val="col"/><c:grouping val="clustered"/>');
    expect(bar).toContain('<c:pt idx="0"><c:v>2021</c:v></c:pt>');
    expect(bar).toContain('<c:pt idx="3"><c:v>17</c:v></c:pt>');
    expect(bar).toContain('<c:v>As lead</c:v>');
    expect(hbar).toContain('<c:barDir val="bar"/>');
    expect(hbar).toContain('<c:orientation val="maxMin"/>');
    expect(line).toMatch(/<c:lineChart>.*<c:marker val="1"\/>/);
    expect(combo).toMatch(/<c:barChart>.*<\/c:barChart><c:lineChart>.*<\/c:lineChart>/);
    expect(combo).toContain('<c:axPos val="r"/>');
    expect(combo).toContain(`<c:f>${q}!$C$2:$C$6</c:f>`);
    expect(combo).toContain('<c:formatCode>$#,##0.0,,"M"</c:formatCode>');
    expect(combo).toContain('<c:numFmt formatCode="[&gt;=1000000000]$#,##0.0,,,&quot;B&quot;;');
    expect(combo).toContain('<c:pt idx="1"><c:v>250000000</c:v></c:pt>');
    expect(stacked).toContain('<c:barDir val="col"/><c:grouping val="stacked"/>');
    expect(hstacked).toContain('<c:barDir val="bar"/><c:grouping val="stacked"/>');
    expect(pie).toContain('<c:pieChart>');
    expect(pie).toContain("<c:f>'Plain sheet'!$C$4:$C$7</c:f>");
    expect(pie).toContain('<c:ptCount val="4"/>');
    expect(doughnut).toContain('<c:doughnutChart>');
    expect(doughnut).toContain("<c:f>'Plain sheet'!$B$4:$B$7</c:f>");
  });
});

describe('readers', () => {
  it('exceljs opens it with its sheets, tables and image', async () => {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(file);
    expect(wb.worksheets.map((w) => w.name)).toEqual([SHEET, PLAIN]);
    const ws = wb.getWorksheet(SHEET)!;
    expect(ws.getCell('B5').value).toBe(17);
    expect(ws.getImages()).toHaveLength(1);
    expect(wb.getWorksheet(PLAIN)!.getCell('C4').value).toBe(10);
  });

  it('openpyxl sees every chart with its type and references, and the image, with no warning', () => {
    expect(view.warnings).toEqual([]);
    const first = view.sheets[SHEET]!;
    expect(first.images).toBe(1);
    expect(first.charts.map((c) => c.parts.join('+'))).toEqual([
      'BarChart',
      'BarChart',
      'LineChart',
      'BarChart+LineChart',
      'BarChart',
      'BarChart',
    ]);
    expect(first.charts[3]!.series).toEqual([
      `'Bob''s data & <more>'!$B$2:$B$6`,
      `'Bob''s data & <more>'!$C$2:$C$6`,
    ]);
    expect(view.sheets[PLAIN]!.charts.map((c) => c.type)).toEqual(['PieChart', 'DoughnutChart']);
  });

  it('LibreOffice keeps every chart, of its type, and the image when it saves the file as .xlsx', () => {
    const out = join(dir, 'lo');
    mkdirSync(out);
    const saved = sofficeConvert(sofficePath(), file, 'xlsx', out);
    const again = openpyxlView(out, [saved])[saved]!;
    expect(again.warnings).toEqual([]);
    const first = again.sheets[SHEET]!;
    expect(first.images).toBe(1);
    expect(first.charts.map((c) => c.parts.join('+'))).toEqual(
      view.sheets[SHEET]!.charts.map((c) => c.parts.join('+')),
    );
    expect(again.sheets[PLAIN]!.charts.map((c) => c.type)).toEqual(['PieChart', 'DoughnutChart']);
  }, 60_000);

  it('openpyxl keeps the charts and the image when it saves the file', () => {
    expect(view.resaved).toEqual({
      [SHEET]: { charts: FIRST.length, images: 1 },
      [PLAIN]: { charts: SECOND.length, images: 0 },
    });
  });
});
