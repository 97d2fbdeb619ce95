/**
 * What every report workbook writes the same way, in memory or streamed: sheets with safe unique
 * names, a title, wrapped paragraphs, key figures, header rows and hyperlinks. `ReportWorkbook`
 * (in memory, tables) and `StreamingReportWorkbook` (rows written as they come) both extend it.
 */
import type ExcelJS from 'exceljs';
import type { ChartSpec } from '../../api/envelope.js';
import { HEADER_FILL, LINK_FONT, NUMBER_FORMATS, cellValue, linkValue } from './cells.js';
import type { ColumnKind } from './cells.js';
import type { AnchorCell } from './chart-model.js';
import {
  DEFAULT_ROW_PT,
  PRINT_PAPER,
  PX_PER_WIDTH_UNIT,
  fitColumnWidth,
  fitScale,
  headerText,
  imagePageBreaks,
  orientationFor,
  printableArea,
  wrappedLines,
} from './print.js';
import { safeText, sanitizeSheetName } from './safe.js';
import { UrlTally } from '../web-url.js';
import { houseStyle } from '../house-style.js';

/** An image as placed on a sheet: top-left cell (1-based) and size in screen pixels. */
export interface SheetImage {
  row: number;
  col: number;
  width: number;
  height: number;
}

/** Width of a column without one set (Excel's 8.43 characters and padding). */
const DEFAULT_COL_WIDTH = 9;
/** Widest the key-figure label and value columns get from their content; longer text wraps. */
const KEY_LABEL_CAP = 48;
const KEY_VALUE_CAP = 40;

/** EMU a screen pixel (96 dpi). */
const EMU_PER_PX = 9525;

/** Screen pixels of a column `width` characters wide (Excel's rule; 64 px when not set). */
export function columnPx(width: number | undefined): number {
  return width === undefined ? 64 : Math.trunc(((256 * width + Math.trunc(128 / 7)) / 256) * 7);
}

export interface KeyFigureCell {
  label: string;
  value: number | string | null;
  kind?: ColumnKind;
  note?: string;
}

/**
 * A chart on a sheet: its PNG (twice its size in pixels), or why it is not drawn; with `spec`
 * (its data), a workbook that can adds a native chart of that data beside the image.
 */
export interface SheetChart {
  title: string;
  rendered: { png: Buffer; width: number; height: number } | null;
  note: string | null;
  spec?: ChartSpec;
}

/** Workbook properties written to the file. */
export interface WorkbookMeta {
  creator?: string;
  title?: string;
  created?: Date;
}

/** Sheet-level building blocks over an exceljs workbook `wb` (in memory or a stream writer). */
export abstract class WorkbookBlocks<W extends ExcelJS.Workbook = ExcelJS.Workbook> {
  readonly wb: W;
  private readonly sheetNames = new Set<string>();
  /** Rows repeated at the top of every printed page, per sheet. */
  private readonly titleRows = new Map<ExcelJS.Worksheet, number>();
  /** Sheets whose print settings are finished (a workbook written twice gets its breaks once). */
  private readonly finished = new Set<ExcelJS.Worksheet>();
  /** The title printed in every page's header. */
  private readonly printTitle: string;
  /** URL cells of the workbook left empty: their value was not an http(s) URL (for the manifest). */
  readonly urls = new UrlTally();

  protected constructor(wb: W, options: WorkbookMeta) {
    this.wb = wb;
    this.printTitle = options.title ?? 'Venture Intelligence report';
    this.wb.creator = options.creator ?? 'Venture Intelligence report runner';
    if (options.title) this.wb.title = options.title;
    const created = options.created ?? new Date();
    this.wb.created = created;
    this.wb.modified = created;
  }

  /**
   * Adds a sheet; the name is sanitised (31 chars, no []:*?/\) and made unique. With
   * `frozenRows`, that many top rows stay in view when scrolling and repeat on every printed
   * page. Every sheet prints on A4, one page wide, with the report's title, the sheet's name
   * and "Page X of Y" in its header and footer (`pageSetup` overrides; the orientation and the
   * page breaks are set when the sheet is finished, see `finishSheet`).
   */
  addSheet(
    name: string,
    options: { tabColor?: string; frozenRows?: number; pageSetup?: Partial<ExcelJS.PageSetup> } = {},
  ): ExcelJS.Worksheet {
    const frozen = options.frozenRows ?? 0;
    const { notice } = houseStyle();
    const ws = this.wb.addWorksheet(sanitizeSheetName(name, this.sheetNames), {
      properties: options.tabColor ? { tabColor: { argb: options.tabColor } } : {},
      pageSetup: {
        paperSize: PRINT_PAPER.paperSize,
        orientation: 'portrait',
        fitToPage: true,
        fitToWidth: 1,
        fitToHeight: 0,
        margins: { ...PRINT_PAPER.margins },
        ...options.pageSetup,
      },
      headerFooter: {
        oddHeader: `&L${headerText(this.printTitle)}&R&A`,
        oddFooter: `${notice ? `&L${headerText(notice)}` : ''}&CPage &P of &N`,
      },
      views: [
        frozen > 0
          ? {
              state: 'frozen',
              xSplit: 0,
              ySplit: frozen,
              topLeftCell: `A${frozen + 1}`,
              activeCell: `A${frozen + 1}`,
              showGridLines: false,
            }
          : { showGridLines: false },
      ],
    });
    if (frozen > 0) this.repeatRows(ws, frozen);
    return ws;
  }

  /** Repeats the top `rows` rows of `ws` on every printed page (its header row). */
  repeatRows(ws: ExcelJS.Worksheet, rows: number): void {
    this.titleRows.set(ws, rows);
    ws.pageSetup.printTitlesRow = `1:${rows}`;
  }

  /** The images placed on `ws` so far. */
  protected abstract imagesOf(ws: ExcelJS.Worksheet): SheetImage[];

  /** Width of column `col` in characters (Excel's default where none is set). */
  protected columnWidth(ws: ExcelJS.Worksheet, col: number): number {
    return ws.getColumn(col).width ?? DEFAULT_COL_WIDTH;
  }

  /**
   * Sets how `ws` prints, once everything is on it: landscape when its content (cells and
   * images) is wider than a portrait page, and a manual page break before every image that the
   * bottom of a page would cut, from the fit-to-width scale and the rows' heights.
   * `lastCol` and `lastRow` bound the cells (the images are added to them).
   */
  /** Sheets that print only their first columns (`printColumns`). */
  private readonly printedColumns = new Map<ExcelJS.Worksheet, number>();

  /**
   * Prints only columns 1 to `lastCol` of `ws` (a list sheet's columns a person reads: the rest,
   * keys and links, stay in the file): the print area, the orientation and the fit-to-width
   * scale are reckoned from them, so a wide list prints at a legible size.
   */
  printColumns(ws: ExcelJS.Worksheet, lastCol: number): void {
    this.printedColumns.set(ws, Math.max(1, lastCol));
  }

  protected finishSheet(ws: ExcelJS.Worksheet, used: { lastCol: number; lastRow: number }): void {
    if (this.finished.has(ws)) return;
    this.finished.add(ws);
    const printed = this.printedColumns.get(ws);
    if (printed !== undefined) {
      used = { lastCol: printed, lastRow: used.lastRow };
      // exceljs puts a `$` before each corner; the rows get theirs here. LibreOffice ignores a
      // print area whose rows are relative (`$A1:$I21`) and prints every column.
      ws.pageSetup.printArea = `A$1:${ws.getColumn(printed).letter}$${Math.max(1, used.lastRow)}`;
    }
    const images = this.imagesOf(ws);
    const colPx = (c: number) => this.columnWidth(ws, c) * PX_PER_WIDTH_UNIT;
    const leftOf = (c: number) => {
      let px = 0;
      for (let k = 1; k < c; k++) px += colPx(k);
      return px;
    };
    // The printed width: the cells and every image, whole columns.
    let lastCol = Math.max(1, used.lastCol);
    for (const im of printed === undefined ? images : []) {
      let c = im.col;
      for (let x = colPx(c); x < im.width; x += colPx(c)) c++;
      lastCol = Math.max(lastCol, c);
    }
    const width = leftOf(lastCol + 1);
    const orientation = orientationFor(width);
    ws.pageSetup.orientation = orientation;
    const scale = fitScale(width, orientation);
    // Every row down to the last image's bottom gets a height of its own: a row without one is as
    // high as the reader's default font makes it (LibreOffice's is lower than Excel's), which
    // moves its automatic page breaks away from the ones reckoned here.
    let bottom = used.lastRow;
    for (const im of images)
      bottom = Math.max(bottom, im.row + Math.ceil((im.height * 0.75) / DEFAULT_ROW_PT) + 1);
    if (images.length > 0)
      for (let r = 1; r <= bottom; r++) {
        const row = ws.getRow(r);
        if (row.height === undefined) row.height = DEFAULT_ROW_PT;
      }
    const breaks = imagePageBreaks(
      (r) => ws.findRow(r)?.height ?? DEFAULT_ROW_PT,
      images.map((im) => ({ row: im.row, heightPx: im.height })),
      {
        pageHeightPt: printableArea(orientation).height,
        scale,
        titleRows: this.titleRows.get(ws) ?? 0,
        lastRow: used.lastRow,
      },
    );
    const rowBreaks = (ws as unknown as { rowBreaks?: { id: number; max: number; man: number }[] }).rowBreaks;
    if (rowBreaks) for (const r of breaks) rowBreaks.push({ id: r, max: 16383, man: 1 });
  }

  /**
   * The Summary sheet a reader sees first: blue tab, printed landscape one page wide, columns
   * A, B, ... as wide as `widths` (characters).
   */
  addSummarySheet(widths: readonly number[]): ExcelJS.Worksheet {
    const ws = this.addSheet('Summary', {
      tabColor: 'FF1F4E79',
      pageSetup: { orientation: 'landscape', fitToPage: true, fitToWidth: 1, fitToHeight: 0 },
    });
    widths.forEach((w, i) => (ws.getColumn(i + 1).width = w));
    return ws;
  }

  /** A bold title (and optional subtitle) at the top-left of a sheet. Returns the next free row. */
  addTitle(ws: ExcelJS.Worksheet, title: string, subtitle?: string, row = 1): number {
    const t = ws.getCell(row, 1);
    t.value = safeText(title);
    t.font = { bold: true, size: 16, color: { argb: 'FF1F4E79' } };
    if (subtitle) {
      const s = ws.getCell(row + 1, 1);
      s.value = safeText(subtitle);
      s.font = { size: 10, color: { argb: 'FF5B6470' } };
      return row + 3;
    }
    return row + 2;
  }

  /**
   * A hyperlink cell at (row, col) when `url` is an absolute http(s) url (the text is
   * formula-safe); nothing otherwise. Returns true when the link was written.
   */
  addLink(ws: ExcelJS.Worksheet, row: number, col: number, text: string, url: unknown): boolean {
    const value = linkValue(text, url);
    if (!value) return false;
    const cell = ws.getCell(row, col);
    cell.value = value;
    cell.font = LINK_FONT;
    return true;
  }

  /** Header cells (white bold on blue) from `col` on in `row`; the texts are formula-safe. */
  addHeaderRow(ws: ExcelJS.Worksheet, row: number, headers: string[], col = 1): void {
    headers.forEach((h, i) => {
      const c = ws.getCell(row, col + i);
      c.value = safeText(h);
      c.font = { bold: true, color: { argb: 'FFFFFFFF' } };
      c.fill = HEADER_FILL;
    });
  }

  /**
   * Paragraphs of text, one a row, merged across `span` columns and wrapped, starting at
   * `row`; an optional bold heading first. Returns the next free row.
   */
  addParagraphs(
    ws: ExcelJS.Worksheet,
    paragraphs: string[],
    row: number,
    options: { heading?: string; span?: number; charsPerLine?: number } = {},
  ): number {
    const span = options.span ?? 8;
    const perLine = options.charsPerLine ?? 120;
    let r = row;
    if (options.heading) r = this.addHeading(ws, options.heading, r);
    for (const p of paragraphs) {
      ws.mergeCells(r, 1, r, span);
      const cell = ws.getCell(r, 1);
      cell.value = safeText(p);
      cell.alignment = { wrapText: true, vertical: 'top' };
      ws.getRow(r).height = Math.max(1, Math.ceil(p.length / perLine)) * 15 + 3;
      r++;
    }
    return r + 1;
  }

  /**
   * Places a PNG at (row, col) (1-based) at `width` × `height` pixels on screen, `alt` its
   * description where the writer keeps one. Returns the first row below the image.
   */
  abstract addImage(
    ws: ExcelJS.Worksheet,
    png: Buffer,
    at: { row: number; col: number },
    size: { width: number; height: number },
    alt?: string,
  ): number;

  /**
   * A native chart of `spec`'s data beside the image of it at `image` (`size` px), where the
   * workbook can write one; nothing by default. With `beside` false the chart goes at `image`
   * itself (no image is drawn there: native charts only).
   */
  protected addSpecChart(
    _ws: ExcelJS.Worksheet,
    _spec: ChartSpec,
    _image: { row: number; col: number },
    _size: { width: number; height: number },
    _inPlace?: boolean,
  ): boolean {
    return false;
  }

  /**
   * The cell corners of a frame whose top-left is at (row, col) (1-based) and whose size is
   * `size` px, from the sheet's column widths and row heights as they are now.
   */
  anchorFor(
    ws: ExcelJS.Worksheet,
    at: { row: number; col: number },
    size: { width: number; height: number },
  ): { from: AnchorCell; to: AnchorCell } {
    let col = at.col;
    let x = size.width;
    for (let w = columnPx(ws.getColumn(col).width); x >= w; w = columnPx(ws.getColumn(col).width)) {
      x -= w;
      col++;
    }
    let row = at.row;
    let y = size.height;
    for (
      let h = (ws.findRow(row)?.height ?? 15) * (4 / 3);
      y >= h;
      h = (ws.findRow(row)?.height ?? 15) * (4 / 3)
    ) {
      y -= h;
      row++;
    }
    return {
      from: { col: at.col - 1, row: at.row - 1 },
      to: { col: col - 1, row: row - 1, colOff: x * EMU_PER_PX, rowOff: y * EMU_PER_PX },
    };
  }

  /**
   * The first column whose left edge is at least `px` + `gap` pixels right of the left edge of
   * `col` (1-based): where a chart goes beside an image `px` wide.
   */
  columnRightOf(ws: ExcelJS.Worksheet, col: number, px: number, gap = 16): number {
    let c = col;
    for (let x = 0; x < px + gap; c++) x += columnPx(ws.getColumn(c).width);
    return c;
  }

  /**
   * The first row whose top is at least `px` pixels below the top of `row`, plus one as a gap:
   * rows as high as they were set (a row without a height is 15 pt, 20 px), so an image placed
   * beside tall rows of text does not leave a gap or overlap the next.
   */
  protected rowBelow(ws: ExcelJS.Worksheet, row: number, px: number): number {
    let r = row;
    for (let y = 0; y < px; r++) y += (ws.findRow(r)?.height ?? 15) * (4 / 3);
    return r + 1;
  }

  /**
   * Charts one under the other from (row, col), each `zoom` times its rendered size; a chart not
   * drawn is its title and why, where it would be. With `images: false` a chart with a native
   * form is that native chart alone, in the image's place (a chart without one stays an image),
   * so a spreadsheet prints each chart once. Returns the next free row.
   */
  addChartColumn(
    ws: ExcelJS.Worksheet,
    charts: readonly SheetChart[],
    at: { row: number; col: number },
    zoom: number,
    options: { images?: boolean } = {},
  ): number {
    let r = at.row;
    for (const c of charts) {
      if (c.rendered) {
        const size = {
          width: Math.round(c.rendered.width * zoom),
          height: Math.round(c.rendered.height * zoom),
        };
        if (
          options.images === false &&
          c.spec &&
          this.addSpecChart(ws, c.spec, { row: r, col: at.col }, size, true)
        ) {
          r = this.rowBelow(ws, r, size.height);
          continue;
        }
        const top = r;
        r = this.addImage(ws, c.rendered.png, { row: r, col: at.col }, size, c.title);
        if (c.spec) this.addSpecChart(ws, c.spec, { row: top, col: at.col }, size);
        continue;
      }
      const title = ws.getCell(r, at.col);
      title.value = safeText(c.title);
      title.font = { bold: true, color: { argb: 'FF1F4E79' } };
      ws.getCell(r + 1, at.col).value = safeText(c.note ?? 'Nothing to draw.');
      r += 3;
    }
    return r;
  }

  /**
   * Sets the height of `row` to fit its wrapped cells (`[text, column width]` pairs), about a
   * character a unit of column width: spreadsheets do not all grow rows with wrapped text.
   */
  fitRowHeight(ws: ExcelJS.Worksheet, row: number, cells: [string, number][]): void {
    const lines = Math.max(
      1,
      ...cells.map(([text, width]) =>
        text
          .split('\n')
          .reduce(
            (n, part) => n + Math.max(1, Math.ceil(Array.from(part).length / Math.max(1, width - 2))),
            0,
          ),
      ),
    );
    if (lines > 1) ws.getRow(row).height = lines * 15 + 3;
  }

  /** A bold section heading in column A at `row`. Returns the next row. */
  addHeading(ws: ExcelJS.Worksheet, text: string, row: number): number {
    const h = ws.getCell(row, 1);
    h.value = safeText(text);
    h.font = { bold: true, size: 12, color: { argb: 'FF1F4E79' } };
    return row + 1;
  }

  /**
   * Key figures as label / value / note rows starting at `row`. The label and value columns
   * are widened to their longest text (measured; at most 48 and 40 characters, wrapped beyond),
   * so that no label runs under its value and no value is cut. Returns the next free row.
   */
  addKeyFigures(ws: ExcelJS.Worksheet, figures: KeyFigureCell[], row: number, col = 1): number {
    this.addHeaderRow(ws, row, ['Key figure', 'Value', 'Note'], col);
    const labels = fitColumnWidth(['Key figure', ...figures.map((f) => f.label)], {
      min: 32,
      cap: KEY_LABEL_CAP,
    });
    const values = fitColumnWidth(
      figures.map((f) => (typeof f.value === 'string' ? f.value : '')),
      { min: 16, cap: KEY_VALUE_CAP },
    );
    const widths = [labels.width, values.width, 40];
    widths.forEach((w, i) => {
      const c = ws.getColumn(col + i);
      c.width = Math.max(c.width ?? 0, w);
    });
    const labelWidth = this.columnWidth(ws, col);
    const valueWidth = this.columnWidth(ws, col + 1);
    figures.forEach((f, i) => {
      const r = row + 1 + i;
      const label = ws.getCell(r, col);
      label.value = safeText(f.label);
      label.alignment = { vertical: 'top', wrapText: true };
      const v = ws.getCell(r, col + 1);
      const kind = f.kind ?? (typeof f.value === 'number' ? 'number' : 'text');
      v.value = cellValue(f.value, kind);
      const fmt = NUMBER_FORMATS[kind];
      if (fmt) v.numFmt = fmt;
      v.alignment = { horizontal: 'right', vertical: 'top', wrapText: true };
      if (f.note) {
        const n = ws.getCell(r, col + 2);
        n.value = safeText(f.note);
        n.alignment = { horizontal: 'left', vertical: 'top', indent: 1 };
      }
      const lines = Math.max(
        wrappedLines(f.label, labelWidth),
        typeof f.value === 'string' ? wrappedLines(f.value, valueWidth) : 1,
      );
      if (lines > 1) ws.getRow(r).height = lines * 15 + 3;
    });
    return row + figures.length + 2;
  }
}
