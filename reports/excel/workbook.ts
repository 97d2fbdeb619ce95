/**
 * The in-memory report workbook on exceljs: data sheets as Excel tables (frozen header, filter
 * buttons, number formats, column widths, http(s) hyperlinks), PNG chart images and native,
 * editable charts over the tables, on top of the shared sheet blocks (titles, paragraphs, key
 * figures). exceljs writes no charts: `writeTo` adds them to the saved package
 * (`finishPackage`), which also makes the image anchors ones every reader keeps.
 */
import { writeFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import { WorkbookBlocks } from './blocks.js';
import type { SheetImage, WorkbookMeta } from './blocks.js';
import { LINK_FONT, NUMBER_FORMATS, cellValue } from './cells.js';
import type { ColumnKind } from './cells.js';
import { finishPackage } from './native-charts.js';
import type { NativeChart } from './chart-model.js';
import { WIDTH_CAP, fitColumnWidth, wrappedLines } from './print.js';
import { safeText, safeUrl, sanitizeHeaders, sanitizeTableName } from './safe.js';
import { nativeChartOver, specChartData, valueKind } from './table-charts.js';
import type { TableCells, TableChart } from './table-charts.js';
import type { ChartSpec } from '../../api/envelope.js';
import { humanizeKey } from '../charts/index.js';
import { webUrl } from '../web-url.js';

export interface DataColumn {
  header: string;
  /** Key of the value in each row. */
  key: string;
  kind?: ColumnKind;
  /** Key of a url in the row: the cell becomes a hyperlink when that url is http(s). */
  linkKey?: string;
  /** Number format overriding the kind's (`0.0`, `+0;-0;0`). */
  numFmt?: string;
  /**
   * Width in characters; default from the content: the longest value measured (rows sampled),
   * at least 10, at most 60, text beyond that wrapped.
   */
  width?: number;
  /** Wrap long text in the cell (rows grow with it). */
  wrap?: boolean;
}

/** Rows measured for a column's width and heights (a longer table is sampled). */
const MEASURED_ROWS = 500;

/** The text a cell shows, about: numbers as their format prints them, for measuring. */
export function shownText(v: ExcelJS.CellValue, kind: ColumnKind): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') {
    if (kind === 'usd-millions')
      return `$${(v / 1e6).toLocaleString('en-US', { maximumFractionDigits: 1 })}M`;
    if (kind === 'pct') return `${(v * 100).toFixed(1)}%`;
    if (kind === 'id') return String(v);
    if (kind === 'usd') return `$${Math.round(v).toLocaleString('en-US')}`;
    return v.toLocaleString('en-US', { maximumFractionDigits: 2 });
  }
  if (v instanceof Date) return '0000-00-00';
  if (typeof v === 'object' && 'text' in v) return String(v.text);
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** The text a category cell shows, for a chart's cache. */
function cellText(v: ExcelJS.CellValue): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  if (typeof v === 'object') {
    if ('richText' in v) return v.richText.map((t) => t.text).join('');
    if ('text' in v) return plainText(v.text);
    return 'result' in v ? plainText(v.result) : '';
  }
  return String(v);
}

/** A string, number or boolean as text; anything else as ''. */
function plainText(v: unknown): string {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : '';
}

/** A workbook held in memory: Excel tables and images on any sheet, written at the end. */
export class ReportWorkbook extends WorkbookBlocks {
  private readonly tableNames = new Set<string>();
  /**
   * Native charts and where they go; anchored to cells when the file is written, so that
   * column widths and row heights set after a chart was added still give it its size.
   */
  private readonly charts: {
    chart: Omit<NativeChart, 'anchor'>;
    ws: ExcelJS.Worksheet;
    at: { row: number; col: number };
    size: { width: number; height: number };
  }[] = [];
  /** The sheet with the data of the charts whose data is not a table of the report (see `addSpecChart`). */
  private chartData: { ws: ExcelJS.Worksheet; row: number } | null = null;

  constructor(options: WorkbookMeta = {}) {
    super(new ExcelJS.Workbook(), options);
  }

  /**
   * Writes `rows` as an Excel table at `origin` (default A1): header row with filter buttons,
   * formats per column kind, hyperlinks from `linkKey` (http/https only, text formula-safe),
   * column widths from the content. On a sheet of its own (origin A1) the header is frozen.
   * Returns the table name, the last row written and where its cells are (for `addTableChart`).
   */
  addDataTable(
    ws: ExcelJS.Worksheet,
    input: {
      name: string;
      columns: DataColumn[];
      rows: Record<string, unknown>[];
      origin?: { row: number; col: number };
      freeze?: boolean;
    },
  ): { tableName: string; lastRow: number; cells: TableCells } {
    const origin = input.origin ?? { row: 1, col: 1 };
    const tableName = sanitizeTableName(input.name, this.tableNames);
    const headers = sanitizeHeaders(input.columns.map((c) => c.header));
    const kinds = input.columns.map((c) => c.kind ?? 'text');
    const values = input.rows.map((r) =>
      input.columns.map((c, i) =>
        kinds[i] === 'url' ? this.urls.cell(r[c.key]) : cellValue(r[c.key], kinds[i]),
      ),
    );
    // Excel tables need at least one data row.
    const tableRows = values.length > 0 ? values : [input.columns.map(() => null)];
    ws.addTable({
      name: tableName,
      displayName: tableName,
      ref: ws.getCell(origin.row, origin.col).address,
      headerRow: true,
      totalsRow: false,
      style: { theme: 'TableStyleMedium2', showRowStripes: true },
      columns: headers.map((name) => ({ name, filterButton: true })),
      rows: tableRows,
    });
    const shown = values
      .slice(0, MEASURED_ROWS)
      .map((v) => v.map((x, i) => shownText(x, kinds[i] ?? 'text')));
    const wrapped: boolean[] = [];
    input.columns.forEach((c, i) => {
      const col = ws.getColumn(origin.col + i);
      const fmt = c.numFmt ?? NUMBER_FORMATS[kinds[i] ?? 'text'];
      // The header needs room for its filter button (about 3 characters).
      const header = fitColumnWidth([headers[i] ?? ''], { bold: true }).width + 3;
      const fit = fitColumnWidth(
        shown.map((v) => v[i] ?? ''),
        { min: Math.max(10, Math.min(WIDTH_CAP, header)) },
      );
      // A set width is kept, text beyond it wraps; numbers and dates cannot wrap: their column
      // widens. A table below other blocks keeps the width they needed.
      const text = kinds[i] === 'text' || kinds[i] === 'url';
      // Wrapping breaks lines between words only: a set width still widens (up to the cap) to
      // the longest word, a key or a url that cannot wrap.
      const word = text
        ? fitColumnWidth(
            shown.flatMap((v) => (v[i] ?? '').split(/\s+/)),
            { cap: WIDTH_CAP },
          ).width
        : 0;
      const own =
        c.width === undefined ? fit.width : text ? Math.max(c.width, word) : Math.max(c.width, fit.width);
      col.width = Math.max(col.width ?? 0, own);
      const wrap = text && (c.wrap === true || fit.widest > col.width);
      wrapped.push(wrap);
      if (fmt)
        for (let r = 0; r < tableRows.length; r++)
          ws.getCell(origin.row + 1 + r, origin.col + i).numFmt = fmt;
      if (wrap)
        for (let r = 0; r < tableRows.length; r++)
          ws.getCell(origin.row + 1 + r, origin.col + i).alignment = { wrapText: true, vertical: 'top' };
      if (c.linkKey || kinds[i] === 'url') {
        input.rows.forEach((row, r) => {
          const url = safeUrl(webUrl(row[c.linkKey ?? c.key]));
          if (!url) return;
          const cell = ws.getCell(origin.row + 1 + r, origin.col + i);
          const text =
            kinds[i] === 'url'
              ? url
              : typeof cell.value === 'string'
                ? cell.value
                : typeof row[c.key] === 'string' || typeof row[c.key] === 'number'
                  ? String(row[c.key])
                  : url;
          cell.value = { text: safeText(text), hyperlink: url, tooltip: url };
          cell.font = LINK_FONT;
        });
      }
    });
    // Wrapped cells: the row as high as its longest wrapped text (not every reader grows it).
    shown.forEach((v, r) => {
      const lines = Math.max(
        1,
        ...v.map((t, i) => (wrapped[i] && t ? wrappedLines(t, ws.getColumn(origin.col + i).width ?? 10) : 1)),
      );
      if (lines <= 1) return;
      ws.getRow(origin.row + 1 + r).height = lines * 15 + 3;
      // The row's other cells at its top too, level with the first line of the wrapped text.
      input.columns.forEach((_, i) => {
        if (wrapped[i]) return;
        const cell = ws.getCell(origin.row + 1 + r, origin.col + i);
        cell.alignment = { ...cell.alignment, vertical: 'top' };
      });
    });
    if (origin.row === 1) this.repeatRows(ws, 1);
    if ((input.freeze ?? origin.row === 1) && origin.row === 1) {
      ws.views = [
        {
          state: 'frozen',
          xSplit: 0,
          ySplit: origin.row,
          topLeftCell: ws.getCell(origin.row + 1, 1).address,
          activeCell: 'A2',
          showGridLines: false,
        },
      ];
    }
    return {
      tableName,
      lastRow: origin.row + tableRows.length,
      cells: {
        sheet: ws.name,
        headerRow: origin.row,
        rows: values.length,
        columns: new Map(input.columns.map((c, i) => [c.key, origin.col + i])),
      },
    };
  }

  /** Native charts added so far, anchored by the sheets' widths and heights now (`writeTo` writes them). */
  get nativeCharts(): NativeChart[] {
    return this.charts.map((c) => ({ ...c.chart, anchor: this.anchorFor(c.ws, c.at, c.size) }));
  }

  /**
   * True when `table` holds what `chart` plots from `rows` (a chart spec's data): for each row, in
   * order, the category cell shows the row's category and each series cell has its number. A
   * chart whose data came with it (a service chart) plots the table only when this holds.
   */
  tableHolds(
    table: TableCells,
    chart: TableChart,
    rows: readonly Record<string, unknown>[],
    keys: Record<string, string> = {},
  ): boolean {
    const source = this.wb.getWorksheet(table.sheet);
    const n = Math.min(table.rows, chart.rows ?? table.rows);
    if (!source || rows.length !== n || n === 0) return false;
    const specKey = (k: string): string => Object.entries(keys).find(([, v]) => v === k)?.[0] ?? k;
    const catCol = table.columns.get(chart.category);
    if (catCol === undefined) return false;
    return rows.every((row, k) => {
      const r = table.headerRow + 1 + k;
      if (cellText(source.getCell(r, catCol).value) !== plainText(row[specKey(chart.category)])) return false;
      return chart.series.every((s) => {
        const col = table.columns.get(s.key);
        const v = row[specKey(s.key)];
        const cell = col === undefined ? undefined : source.getCell(r, col).value;
        return typeof v === 'number'
          ? typeof cell === 'number' && Math.abs(cell - v) <= 1e-9 * Math.max(1, Math.abs(v))
          : (v ?? null) === (cell ?? null);
      });
    });
  }

  /**
   * A native Excel chart on `ws` of the columns of `table` (from `addDataTable`, on `ws` or another sheet), its top-left at
   * (row, col), `size` px: its series reference the table's cells (the legend names its header
   * cells) and cache their values now. Returns false, adding nothing, when the table has no
   * rows or lacks a column the chart names.
   *
   * @example book.addTableChart(ws, years.cells, { type: 'combo', title: 'Deals and capital', category: 'year', series: [{ key: 'deals' }, { key: 'capital_usd', draw: 'line', secondary: true }] }, { row: 1, col: 9 }, { width: 480, height: 260 })
   */
  addTableChart(
    ws: ExcelJS.Worksheet,
    table: TableCells,
    chart: TableChart,
    at: { row: number; col: number },
    size: { width: number; height: number },
  ): boolean {
    const source = this.wb.getWorksheet(table.sheet);
    if (!source) return false;
    const native = nativeChartOver(ws.name, table, chart, (row, col) => {
      const cell = source.getCell(row, col);
      return { value: cell.value, numFmt: cell.numFmt };
    });
    if (!native) return false;
    this.charts.push({ chart: native, ws, at, size });
    return true;
  }

  /**
   * Places a PNG chart at (row, col) (1-based) at `width` × `height` pixels on screen (exceljs's
   * in-memory writer keeps no description of an image). Returns the first row below the image.
   */
  addImage(
    ws: ExcelJS.Worksheet,
    png: Buffer,
    at: { row: number; col: number },
    size: { width: number; height: number },
  ): number {
    const id = this.wb.addImage({ buffer: png as unknown as ExcelJS.Buffer, extension: 'png' });
    // A one-cell anchor: the image keeps its size; `finishPackage` drops the `editAs` exceljs
    // writes on it, which openpyxl refuses.
    ws.addImage(id, {
      tl: { col: at.col - 1, row: at.row - 1 },
      ext: { width: size.width, height: size.height },
    });
    return this.rowBelow(ws, at.row, size.height);
  }

  /**
   * Beside the image of a chart whose data came with its spec (a service chart, a count of the
   * batch): the data as a table on the "Chart data" sheet (the workbook's last) and a native
   * chart of that table, `size` px, right of the image (with `inPlace`, where the image would
   * be: the chart stands alone). Returns false when the spec has no native form.
   */
  protected override addSpecChart(
    ws: ExcelJS.Worksheet,
    spec: ChartSpec,
    image: { row: number; col: number },
    size: { width: number; height: number },
    inPlace = false,
  ): boolean {
    const found = specChartData(spec);
    if (!found) return false;
    const { chart, n } = found;
    if (!this.chartData) this.chartData = { ws: this.addSheet('Chart data'), row: 1 };
    const data = this.chartData;
    const title = data.ws.getCell(data.row, 1);
    title.value = safeText(n.title);
    title.font = { bold: true, color: { argb: 'FF1F4E79' } };
    const table = this.addDataTable(data.ws, {
      name: `ChartData${this.charts.length + 1}`,
      origin: { row: data.row + 1, col: 1 },
      freeze: false,
      columns: [
        { header: humanizeKey(n.xKey), key: n.xKey, width: 36 },
        ...n.series.map((s) => ({ header: s.name, key: s.key, kind: valueKind(n.rows, s.key), width: 16 })),
      ],
      rows: n.rows,
    });
    data.row = table.lastRow + 3;
    const at = inPlace ? image : { row: image.row, col: this.columnRightOf(ws, image.col, size.width) };
    return this.addTableChart(ws, table.cells, chart, at, size);
  }

  /**
   * The images of `ws` and its native charts: exceljs keeps each image's top-left cell and size,
   * the workbook each chart's.
   */
  protected imagesOf(ws: ExcelJS.Worksheet): SheetImage[] {
    const images = ws.getImages().flatMap((im) => {
      const ext = (im.range as { ext?: { width: number; height: number } }).ext;
      if (!ext) return [];
      return [{ row: im.range.tl.nativeRow + 1, col: im.range.tl.nativeCol + 1, ...ext }];
    });
    const charts = this.charts.filter((c) => c.ws === ws).map((c) => ({ ...c.at, ...c.size }));
    return [...images, ...charts];
  }

  /**
   * Writes the workbook to `path`: how every sheet prints (`finishSheet`), exceljs's package, then
   * the native charts added to it and its image anchors made ones Excel, LibreOffice and openpyxl
   * all keep (`finishPackage`).
   */
  async writeTo(path: string): Promise<void> {
    for (const ws of this.wb.worksheets)
      this.finishSheet(ws, { lastCol: ws.columnCount, lastRow: ws.rowCount });
    // The chart data sheet last, whenever it was added.
    if (this.chartData)
      (this.chartData.ws as unknown as { orderNo: number }).orderNo = Number.MAX_SAFE_INTEGER;
    const saved = await this.wb.xlsx.writeBuffer();
    await writeFile(path, await finishPackage(saved, this.nativeCharts));
  }
}
