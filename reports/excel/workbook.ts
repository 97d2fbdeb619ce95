/**
 * Workbook building blocks on exceljs: sheets with safe unique names, data sheets as Excel
 * tables (frozen header, filter buttons, number formats, column widths, http(s) hyperlinks),
 * key-figure blocks and PNG chart images. exceljs has no native charts: charts are images.
 */
import ExcelJS from 'exceljs';
import {
  safeText,
  safeUrl,
  safeValue,
  sanitizeHeaders,
  sanitizeSheetName,
  sanitizeTableName,
} from './safe.js';

/** How a column's values are written. */
export type ColumnKind = 'text' | 'int' | 'number' | 'usd' | 'usd-millions' | 'pct' | 'date' | 'url' | 'id';

export interface DataColumn {
  header: string;
  /** Key of the value in each row. */
  key: string;
  kind?: ColumnKind;
  /** Key of a url in the row: the cell becomes a hyperlink when that url is http(s). */
  linkKey?: string;
  /** Width in characters; default from the content (10 to 60). */
  width?: number;
  /** Wrap long text in the cell (rows grow when the file is opened). */
  wrap?: boolean;
}

export interface KeyFigureCell {
  label: string;
  value: number | string | null;
  kind?: ColumnKind;
  note?: string;
}

/** Excel number formats by column kind. Percent values are given in percent units (12.5 = 12.5%). */
export const NUMBER_FORMATS: Record<ColumnKind, string | undefined> = {
  text: undefined,
  url: undefined,
  int: '#,##0',
  number: '#,##0.0#',
  usd: '$#,##0',
  'usd-millions': '$#,##0.0,,"M"',
  pct: '0.0%',
  date: 'yyyy-mm-dd',
  // Years, quarters and ids: numbers without a thousands separator (2021, not 2,021).
  id: '0',
};

const HEADER_FILL: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FF1F4E79' } };

function toNumber(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
}

/** The cell value for `v` in a column of `kind`. Text is always formula-safe. */
export function cellValue(v: unknown, kind: ColumnKind = 'text'): ExcelJS.CellValue {
  switch (kind) {
    case 'int':
    case 'number':
    case 'usd':
    case 'usd-millions':
      return toNumber(v);
    case 'pct': {
      const n = toNumber(v);
      return n === null ? null : n / 100;
    }
    case 'id':
      return typeof v === 'number' ? (Number.isFinite(v) ? v : null) : safeValue(v);
    case 'date': {
      if (typeof v !== 'string' && !(v instanceof Date)) return safeValue(v);
      const d = v instanceof Date ? v : new Date(v);
      return Number.isNaN(d.getTime()) ? safeValue(v) : d;
    }
    default:
      return safeValue(v);
  }
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

/** A workbook with safe unique sheet and table names. */
export class ReportWorkbook {
  readonly wb: ExcelJS.Workbook;
  private readonly sheetNames = new Set<string>();
  private readonly tableNames = new Set<string>();

  constructor(options: { creator?: string; title?: string; created?: Date } = {}) {
    this.wb = new ExcelJS.Workbook();
    this.wb.creator = options.creator ?? 'Venture Intelligence report runner';
    if (options.title) this.wb.title = options.title;
    const created = options.created ?? new Date();
    this.wb.created = created;
    this.wb.modified = created;
  }

  /** Adds a sheet; the name is sanitised (31 chars, no []:*?/\) and made unique. */
  addSheet(name: string, options: { tabColor?: string } = {}): ExcelJS.Worksheet {
    const ws = this.wb.addWorksheet(sanitizeSheetName(name, this.sheetNames), {
      properties: options.tabColor ? { tabColor: { argb: options.tabColor } } : {},
      views: [{ showGridLines: false }],
    });
    return ws;
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
      const fmt = NUMBER_FORMATS[kinds[i] ?? 'text'];
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
          cell.font = { color: { argb: 'FF0563C1' }, underline: true };
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
    const href = safeUrl(url);
    if (!href) return false;
    const cell = ws.getCell(row, col);
    cell.value = { text: safeText(text), hyperlink: href, tooltip: href };
    cell.font = { color: { argb: 'FF0563C1' }, underline: true };
    return true;
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
    if (options.heading) {
      const h = ws.getCell(r, 1);
      h.value = safeText(options.heading);
      h.font = { bold: true, size: 12, color: { argb: 'FF1F4E79' } };
      r++;
    }
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

  /** Key figures as label / value / note rows starting at `row`. Returns the next free row. */
  addKeyFigures(ws: ExcelJS.Worksheet, figures: KeyFigureCell[], row: number, col = 1): number {
    const header = ['Key figure', 'Value', 'Note'];
    header.forEach((h, i) => {
      const c = ws.getCell(row, col + i);
      c.value = h;
      c.font = { bold: true, color: { argb: 'FFFFFFFF' } };
      c.fill = HEADER_FILL;
    });
    figures.forEach((f, i) => {
      const r = row + 1 + i;
      ws.getCell(r, col).value = safeText(f.label);
      const v = ws.getCell(r, col + 1);
      const kind = f.kind ?? (typeof f.value === 'number' ? 'number' : 'text');
      v.value = cellValue(f.value, kind);
      const fmt = NUMBER_FORMATS[kind];
      if (fmt) v.numFmt = fmt;
      v.alignment = { horizontal: 'right' };
      if (f.note) ws.getCell(r, col + 2).value = safeText(f.note);
    });
    const widths = [32, 16, 40];
    widths.forEach((w, i) => {
      const c = ws.getColumn(col + i);
      c.width = Math.max(c.width ?? 0, w);
    });
    return row + figures.length + 2;
  }

  /**
   * Places a PNG chart at (row, col) (1-based) at `width` × `height` pixels on screen.
   * Returns the first row below the image (rows are about 20 px high).
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
    return at.row + Math.ceil(size.height / 20) + 1;
  }

  /** Writes the workbook to `path`. */
  async writeTo(path: string): Promise<void> {
    await this.wb.xlsx.writeFile(path);
  }
}
