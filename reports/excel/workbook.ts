/**
 * The in-memory report workbook on exceljs: data sheets as Excel tables (frozen header, filter
 * buttons, number formats, column widths, http(s) hyperlinks) and PNG chart images, on top of
 * the shared sheet blocks (titles, paragraphs, key figures). exceljs has no native charts:
 * charts are images.
 */
import ExcelJS from 'exceljs';
import { WorkbookBlocks } from './blocks.js';
import type { WorkbookMeta } from './blocks.js';
import { LINK_FONT, NUMBER_FORMATS, cellValue } from './cells.js';
import type { ColumnKind } from './cells.js';
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
  /** Width in characters; default from the content (10 to 60). */
  width?: number;
  /** Wrap long text in the cell (rows grow when the file is opened). */
  wrap?: boolean;
}

function displayLength(v: ExcelJS.CellValue, kind: ColumnKind): number {
  if (v === null || v === undefined) return 0;
  if (typeof v === 'number')
    return kind === 'usd-millions'
      ? 9
      : kind === 'pct'
        ? 7
        : kind === 'id'
          ? String(v).length + 1
          : Math.round(Math.abs(v)).toLocaleString('en-US').length + 2;
  if (v instanceof Date) return 10;
  if (typeof v === 'object' && 'text' in v) return String(v.text).length;
  // Wide characters (CJK) take about two columns.
  let n = 0;
  for (const ch of typeof v === 'string' ? v : JSON.stringify(v))
    n += /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\uff00-\uff60]/.test(ch) ? 2 : 1;
  return n;
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
    input.columns.forEach((c, i) => {
      const col = ws.getColumn(origin.col + i);
      const fmt = c.numFmt ?? NUMBER_FORMATS[kinds[i] ?? 'text'];
      const widest = Math.max(
        displayLength(headers[i] ?? '', 'text') + 3,
        ...values.slice(0, 500).map((v) => displayLength(v[i] ?? null, kinds[i] ?? 'text')),
      );
      col.width = c.width ?? Math.min(60, Math.max(10, widest + 2));
      if (fmt)
        for (let r = 0; r < tableRows.length; r++)
          ws.getCell(origin.row + 1 + r, origin.col + i).numFmt = fmt;
      if (c.wrap)
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

  /** Writes the workbook to `path`. */
  async writeTo(path: string): Promise<void> {
    await this.wb.xlsx.writeFile(path);
  }
}
