/**
 * A workbook written to its file as it is built (exceljs's streaming `WorkbookWriter`), for lists
 * too long to hold: each row is committed as it comes and freed, so memory does not grow with
 * the list. Sheets go into the file in the order they are added, and a sheet's rows are held
 * until it is committed: build a small sheet whole and commit it before streaming the next.
 * Streamed sheets have no Excel tables (the writer has none): a frozen header and a filter over
 * the rows do the same for a reader. PNG images work on any sheet (see `StreamDrawings`), and
 * beside the image of a chart with its spec, a native chart of its data, which goes on a Chart
 * data sheet written whole before the first row sheet.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import ExcelJS from 'exceljs';
import type { ChartSpec } from '../../api/envelope.js';
import { humanizeKey } from '../charts/index.js';
import { WorkbookBlocks } from './blocks.js';
import type { SheetImage, WorkbookMeta } from './blocks.js';
import { LINK_FONT, NUMBER_FORMATS, cellValue, linkValue } from './cells.js';
import type { ColumnKind } from './cells.js';
import { StreamDrawings } from './drawing.js';
import { nativeChartOver, specChartData, valueKind } from './table-charts.js';
import type { TableCells } from './table-charts.js';
import { UrlTally } from '../web-url.js';
import { measureText } from '../fonts.js';
import { PX_PER_WIDTH_UNIT } from './print.js';

/** One column of a streamed sheet: its header, width and how a row gives its cell. */
export interface StreamColumn<R> {
  header: string;
  /** Width in characters (a streamed sheet cannot measure its rows before writing them). */
  width: number;
  kind?: ColumnKind;
  value: (row: R) => unknown;
  /** The url the cell links to; the cell is a link only when it is an absolute http(s) url. */
  link?: (row: R) => unknown;
  /**
   * Wrap the cell's text and grow the row to show it whole (a reason, a note: text a reader acts
   * on is never cut, on screen or in print). The row's height is reckoned here from the text,
   * as spreadsheets do not all grow a row by themselves.
   */
  wrap?: boolean;
}

/** Height of one line of 11 pt text in a sheet row, in points. */
const LINE_PT = 15;
/** Points a unit of column width holds (7 px), less a cell's padding (10 px). */
const cellTextPt = (width: number) => (width * PX_PER_WIDTH_UNIT - 10) * 0.75;

/**
 * Lines `text` takes in an 11 pt cell `width` units wide, wrapped word by word. Each word is
 * measured once (the font's widths are cached), so a long list costs as much as its text.
 */
export function cellLines(text: string, width: number, bold = false): number {
  const room = cellTextPt(width);
  const space = measureText(' ', 11, bold);
  let lines = 0;
  for (const para of text.split('\n')) {
    let used = 0;
    lines++;
    for (const word of para.split(/\s+/).filter((w) => w !== '')) {
      const w = measureText(word, 11, bold);
      if (used > 0 && used + space + w > room) {
        lines++;
        used = w;
      } else used += (used > 0 ? space : 0) + w;
    }
  }
  return Math.max(1, lines);
}

/** The text of a cell's value as a reader sees it, for measuring (a link's text, a string). */
function shownText(v: ExcelJS.CellValue): string {
  if (typeof v === 'string') return v;
  if (v !== null && typeof v === 'object' && 'text' in v && typeof v.text === 'string') return v.text;
  return '';
}

/** How often (in rows) a streamed sheet waits for the zip to take what was written. */
const DRAIN_EVERY = 200;
/** Bytes of sheet XML a sheet may have waiting for the zip before it waits. */
const MAX_BACKLOG = 4 * 1024 * 1024;

interface Buffered {
  length?: number;
}
interface SheetStream {
  buffers?: Buffered[];
  pipes?: { _writableState?: Buffered; _readableState?: Buffered }[];
}

/**
 * Bytes written to a streamed sheet that the zip has not compressed yet. exceljs 4.4's sheet
 * stream ignores backpressure: it buffers in itself until the zip reaches the sheet, then writes
 * into the zip entry's PassThrough whatever its state. Read from those internals; 0 when they
 * are not there (no waiting then, as before).
 */
function zipBacklog(ws: ExcelJS.Worksheet): number {
  const stream = (ws as unknown as { stream?: SheetStream }).stream;
  const own = (stream?.buffers ?? []).reduce((n, b) => n + (b.length ?? 0), 0);
  const entry = stream?.pipes?.[0];
  return own + (entry?._writableState?.length ?? 0) + (entry?._readableState?.length ?? 0);
}

/** A sheet whose rows are written and freed one at a time; see `StreamingReportWorkbook.addRowSheet`. */
export class RowSheet<R> {
  private count = 0;

  constructor(
    readonly ws: ExcelJS.Worksheet,
    private readonly columns: readonly StreamColumn<R>[],
    /** Counts the URL cells left empty (their value not an http(s) URL). */
    private readonly urls: UrlTally = new UrlTally(),
  ) {}

  /** Data rows written so far. */
  get rows(): number {
    return this.count;
  }

  /**
   * Writes one row and commits it. Every `DRAIN_EVERY` rows it waits while more than
   * `MAX_BACKLOG` bytes are still to be compressed, so memory stays flat however long the list.
   */
  async add(row: R): Promise<void> {
    const r = this.ws.getRow(this.count + 2);
    let lines = 1;
    this.columns.forEach((c, i) => {
      const cell = r.getCell(i + 1);
      const v = c.kind === 'url' ? this.urls.cell(c.value(row)) : c.value(row);
      const link =
        c.link && (typeof v === 'string' || typeof v === 'number') ? linkValue(String(v), c.link(row)) : null;
      if (link) {
        cell.value = link;
        cell.font = LINK_FONT;
      } else cell.value = cellValue(v, c.kind ?? 'text');
      if (c.wrap) lines = Math.max(lines, cellLines(shownText(cell.value), c.width));
    });
    if (lines > 1) {
      // A grown row reads top down: every cell at the top, the wrapping ones wrapped.
      r.height = lines * LINE_PT;
      this.columns.forEach((c, i) => {
        r.getCell(i + 1).alignment = c.wrap ? { wrapText: true, vertical: 'top' } : { vertical: 'top' };
      });
    }
    r.commit();
    this.count++;
    if (this.count % DRAIN_EVERY === 0) while (zipBacklog(this.ws) > MAX_BACKLOG) await nextTurn();
  }

  /** Sets the filter over the header and every row written, and commits the sheet. */
  commit(): void {
    this.ws.autoFilter = {
      from: { row: 1, column: 1 },
      to: { row: this.count + 1, column: this.columns.length },
    };
    this.ws.commit();
  }
}

/** A report workbook streamed to `path`: summary sheets built whole, long lists row by row. */
export class StreamingReportWorkbook extends WorkbookBlocks<ExcelJS.stream.xlsx.WorkbookWriter> {
  private readonly drawings: StreamDrawings;
  /** The Chart data sheet and its cells (row, col → value), written whole by `writeChartData`. */
  private chartData: {
    ws: ExcelJS.Worksheet;
    next: number;
    cells: Map<string, { value: unknown; bold?: boolean; header?: boolean; numFmt?: string }>;
    committed: boolean;
  } | null = null;
  /** The frames of the native charts on each sheet (for its page breaks). */
  private readonly chartFrames = new Map<ExcelJS.Worksheet, SheetImage[]>();
  private readonly path: string;
  private readonly output: WriteStream;

  /**
   * Opens `path` for writing. `useSharedStrings` (default false) keeps every distinct string in
   * memory until the end to write each once: a smaller file, memory that grows with the list
   * (about twice the peak for 100,000 rows).
   */
  constructor(path: string, options: WorkbookMeta & { useSharedStrings?: boolean } = {}) {
    const output = createWriteStream(path);
    super(
      new ExcelJS.stream.xlsx.WorkbookWriter({
        stream: output,
        useStyles: true,
        useSharedStrings: options.useSharedStrings ?? false,
      }),
      options,
    );
    this.output = output;
    this.path = path;
    this.drawings = new StreamDrawings(this.wb);
  }

  /**
   * Adds a sheet (see `WorkbookBlocks.addSheet`) whose print settings are finished when it is
   * committed: the orientation from its columns and images, page breaks before images.
   */
  override addSheet(
    name: string,
    options: Parameters<WorkbookBlocks['addSheet']>[1] = {},
  ): ExcelJS.Worksheet {
    const ws = super.addSheet(name, options);
    const commit = ws.commit.bind(ws);
    ws.commit = () => {
      if (!(ws as unknown as { committed?: boolean }).committed) {
        const columns = (ws as unknown as { columns?: unknown[] | null }).columns;
        const next = (ws as unknown as { _nextRow?: number })._nextRow ?? 1;
        this.finishSheet(ws, { lastCol: columns?.length ?? 0, lastRow: next - 1 });
      }
      commit();
    };
    return ws;
  }

  /** The images anchored on `ws` and its native charts. */
  protected imagesOf(ws: ExcelJS.Worksheet): SheetImage[] {
    return [...this.drawings.anchorsOf(ws), ...(this.chartFrames.get(ws) ?? [])];
  }

  /**
   * Places a PNG at (row, col) (1-based) at `width` × `height` pixels on screen, on a sheet not
   * committed yet. Returns the first row below the image.
   */
  addImage(
    ws: ExcelJS.Worksheet,
    png: Buffer,
    at: { row: number; col: number },
    size: { width: number; height: number },
    alt = '',
  ): number {
    this.drawings.add(ws, png, at, size, alt);
    return this.rowBelow(ws, at.row, size.height);
  }

  /**
   * Beside the image of a chart drawn from `spec`: its data as a small table on the Chart data
   * sheet (added with the first such chart, so second after the sheet being built) and a native
   * chart of it, `size` px, right of the image. Returns false when the spec has no native form
   * or the Chart data sheet was already written (after the first row sheet).
   */
  protected override addSpecChart(
    ws: ExcelJS.Worksheet,
    spec: ChartSpec,
    image: { row: number; col: number },
    size: { width: number; height: number },
    inPlace = false,
  ): boolean {
    const found = this.chartData?.committed ? null : specChartData(spec);
    if (!found) return false;
    const { chart, n } = found;
    if (!this.chartData) {
      const sheet = this.addSheet('Chart data');
      sheet.getColumn(1).width = 36;
      for (let c = 2; c <= 9; c++) sheet.getColumn(c).width = 16;
      this.chartData = { ws: sheet, next: 1, cells: new Map(), committed: false };
    }
    const data = this.chartData;
    const keys = [n.xKey, ...n.series.map((s) => s.key)];
    const headers = [humanizeKey(n.xKey), ...n.series.map((s) => s.name)];
    const top = data.next;
    data.cells.set(`${top}:1`, { value: n.title, bold: true });
    headers.forEach((h, i) => data.cells.set(`${top + 1}:${i + 1}`, { value: h, header: true }));
    const formats = keys.map((k, i) => (i === 0 ? undefined : NUMBER_FORMATS[valueKind(n.rows, k)]));
    n.rows.forEach((r, k) =>
      keys.forEach((key, i) =>
        data.cells.set(`${top + 2 + k}:${i + 1}`, {
          value: r[key] ?? null,
          ...(formats[i] ? { numFmt: formats[i] } : {}),
        }),
      ),
    );
    data.next = top + 2 + n.rows.length + 2;
    const table: TableCells = {
      sheet: data.ws.name,
      headerRow: top + 1,
      rows: n.rows.length,
      columns: new Map(keys.map((k, i) => [k, i + 1])),
    };
    const native = nativeChartOver(ws.name, table, chart, (row, col) => ({
      value: data.cells.get(`${row}:${col}`)?.value ?? null,
      numFmt: data.cells.get(`${row}:${col}`)?.numFmt,
    }));
    if (!native) return false;
    const at = inPlace ? image : { row: image.row, col: this.columnRightOf(ws, image.col, size.width) };
    this.drawings.addChart(ws, { ...native, anchor: this.anchorFor(ws, at, size) });
    this.chartFrames.set(ws, [...(this.chartFrames.get(ws) ?? []), { ...at, ...size }]);
    return true;
  }

  /** Writes the Chart data sheet whole and commits it (once; before any row sheet streams). */
  private writeChartData(): void {
    const data = this.chartData;
    if (!data || data.committed) return;
    data.committed = true;
    for (const [at, c] of data.cells) {
      const [row, col] = at.split(':').map(Number) as [number, number];
      const cell = data.ws.getCell(row, col);
      if (c.header) this.addHeaderRow(data.ws, row, [String(c.value)], col);
      else if (typeof c.value === 'number') {
        cell.value = c.value;
        if (c.numFmt) cell.numFmt = c.numFmt;
      } else cell.value = cellValue(c.value, 'text');
      if (c.bold) cell.font = { bold: true, color: { argb: 'FF1F4E79' } };
    }
    data.ws.commit();
  }

  /**
   * A sheet of rows written one at a time: a bold header row frozen in view, column widths and
   * number formats per column, links where a column has them, and on `commit()` a filter over
   * every row. Rows are added with `await sheet.add(row)`. Columns marked `wrap` wrap and grow
   * their row; `wrapHeader` wraps the header row where a header is wider than its column.
   */
  addRowSheet<R>(
    name: string,
    columns: readonly StreamColumn<R>[],
    options: { tabColor?: string; wrapHeader?: boolean } = {},
  ): RowSheet<R> {
    this.writeChartData();
    const { wrapHeader, ...sheet } = options;
    const ws = this.addSheet(name, { ...sheet, frozenRows: 1 });
    ws.columns = columns.map((c) => {
      const numFmt = NUMBER_FORMATS[c.kind ?? 'text'];
      return { width: c.width, ...(numFmt ? { style: { numFmt } } : {}) };
    });
    this.addHeaderRow(
      ws,
      1,
      columns.map((c) => c.header),
    );
    if (wrapHeader) {
      // Headers wider than their column wrap (the row grows) instead of being cut in print.
      const lines = Math.max(...columns.map((c) => cellLines(c.header, c.width, true)));
      columns.forEach((_, i) => (ws.getCell(1, i + 1).alignment = { wrapText: true, vertical: 'top' }));
      if (lines > 1) ws.getRow(1).height = lines * LINE_PT;
    }
    ws.getRow(1).commit();
    return new RowSheet(ws, columns, this.urls);
  }

  /** Commits every sheet not committed yet and finishes the file. Returns its path. */
  async commit(): Promise<string> {
    this.writeChartData();
    this.drawings.writeParts();
    await this.wb.commit();
    return this.path;
  }

  /** Gives up the file: closes it and removes what was written (after a failed read of the rows). */
  async abort(): Promise<void> {
    await new Promise<void>((resolve) => {
      if (this.output.closed) resolve();
      else this.output.once('close', () => resolve()).destroy();
    });
    await rm(this.path, { force: true });
  }
}
