/**
 * The in-memory report workbook on exceljs: data sheets as Excel tables (frozen header, filter
 * buttons, number formats, column widths, http(s) hyperlinks) and PNG chart images, on top of
 * the shared sheet blocks (titles, paragraphs, key figures). exceljs has no native charts:
 * charts are images.
 */
import ExcelJS from 'exceljs';
import { WorkbookBlocks } from './blocks.js';
import type { SheetImage, WorkbookMeta } from './blocks.js';
import { LINK_FONT, NUMBER_FORMATS, cellValue } from './cells.js';
import type { ColumnKind } from './cells.js';
import { WIDTH_CAP, fitColumnWidth, wrappedLines } from './print.js';
import { safeText, safeUrl, sanitizeHeaders, sanitizeTableName } from './safe.js';

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

/** A workbook held in memory: Excel tables and images on any sheet, written at the end. */
export class ReportWorkbook extends WorkbookBlocks {
  private readonly tableNames = new Set<string>();

  constructor(options: WorkbookMeta = {}) {
    super(new ExcelJS.Workbook(), options);
  }

  /**
   * Writes `rows` as an Excel table at `origin` (default A1): header row with filter buttons,
   * formats per column kind, hyperlinks from `linkKey` (http/https only, text formula-safe),
   * column widths from the content. On a sheet of its own (origin A1) the header is frozen.
   * Returns the table name and the last row written.
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
  ): { tableName: string; lastRow: number } {
    const origin = input.origin ?? { row: 1, col: 1 };
    const tableName = sanitizeTableName(input.name, this.tableNames);
    const headers = sanitizeHeaders(input.columns.map((c) => c.header));
    const kinds = input.columns.map((c) => c.kind ?? 'text');
    const values = input.rows.map((r) => input.columns.map((c, i) => cellValue(r[c.key], kinds[i])));
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
      const own = c.width === undefined ? fit.width : text ? c.width : Math.max(c.width, fit.width);
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
          const url = safeUrl(row[c.linkKey ?? c.key]);
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
    return { tableName, lastRow: origin.row + tableRows.length };
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
    ws.addImage(id, {
      tl: { col: at.col - 1, row: at.row - 1 },
      ext: { width: size.width, height: size.height },
      editAs: 'oneCell',
    });
    return this.rowBelow(ws, at.row, size.height);
  }

  /** The images of `ws`: exceljs keeps each one's top-left cell and size. */
  protected imagesOf(ws: ExcelJS.Worksheet): SheetImage[] {
    return ws.getImages().flatMap((im) => {
      const ext = (im.range as { ext?: { width: number; height: number } }).ext;
      if (!ext) return [];
      return [{ row: im.range.tl.nativeRow + 1, col: im.range.tl.nativeCol + 1, ...ext }];
    });
  }

  /** Sets how every sheet prints (`finishSheet`) and writes the workbook to `path`. */
  async writeTo(path: string): Promise<void> {
    for (const ws of this.wb.worksheets)
      this.finishSheet(ws, { lastCol: ws.columnCount, lastRow: ws.rowCount });
    await this.wb.xlsx.writeFile(path);
  }
}
