/**
 * Measuring a table of a report PDF before it is drawn: column widths, the header's and the
 * cells' wrapped lines, row heights; and the heights a layout keeps together.
 */
import { wrapText } from '../fonts.js';
import type { ReportPdf } from './document.js';
import { PAGE_MARGINS } from './theme.js';

export interface TableColumn {
  header: string;
  /** Relative width (weights are normalised to the content width). Default 1. */
  width?: number;
  align?: 'left' | 'right' | 'center';
}

export interface TableOptions {
  /** Lines a cell may wrap to before it is cut with an ellipsis. Default 2. */
  maxLines?: number;
  fontSize?: number;
  /** Shown in place of rows when there are none. */
  emptyText?: string;
  /** Zebra striping. Default true. */
  zebra?: boolean;
  /** Link targets per cell (same shape as rows); a cell with a url links its text. */
  links?: (string | null | undefined)[][];
}

/** A table laid out at a width: sizes, wrapped lines (per row, per column) and row heights. */
export interface TableLayout {
  size: number;
  pad: number;
  /** Line height, points. */
  lh: number;
  widths: number[];
  headerLines: string[][];
  headerHeight: number;
  cells: string[][][];
  heights: number[];
}

/** Lays the table out at `width` (the content width it is drawn at). */
export function tableLayout(
  width: number,
  columns: TableColumn[],
  rows: string[][],
  options: TableOptions,
): TableLayout {
  const size = options.fontSize ?? 8;
  const maxLines = options.maxLines ?? 2;
  const pad = 3.5;
  const lh = size * 1.3;
  const total = columns.reduce((s, c) => s + (c.width ?? 1), 0) || 1;
  const widths = columns.map((c) => ((c.width ?? 1) / total) * width);
  const headerLines = columns.map((c, i) =>
    wrapText(c.header, (widths[i] ?? 20) - 2 * pad, size, { bold: true, maxLines: 2 }),
  );
  const headerHeight = Math.max(...headerLines.map((l) => l.length)) * lh + 2 * pad;
  const cells = rows.map((row) =>
    columns.map((_, i) => wrapText(row[i] ?? '', (widths[i] ?? 20) - 2 * pad, size, { maxLines })),
  );
  const heights =
    cells.length > 0
      ? cells.map((lines) => Math.max(1, ...lines.map((l) => l.length)) * lh + 2 * pad)
      : [lh + 2 * pad];
  return { size, pad, lh, widths, headerLines, headerHeight, cells, heights };
}

/** Height a table would take, spacing after it included (for keep-together decisions). */
export function measureTable(
  pdf: ReportPdf,
  columns: TableColumn[],
  rows: string[][],
  options: TableOptions = {},
): number {
  const l = tableLayout(pdf.contentWidth, columns, rows, options);
  return l.headerHeight + l.heights.reduce((a, b) => a + b, 0) + 10;
}

/** What a heading above this table must keep with it: the whole table when it is kept whole, else its header and two rows. */
export function tableKeepHeight(
  pdf: ReportPdf,
  columns: TableColumn[],
  rows: string[][],
  options: TableOptions = {},
): number {
  const l = tableLayout(pdf.contentWidth, columns, rows, options);
  const total = l.headerHeight + l.heights.reduce((a, b) => a + b, 0);
  return total <= (pdf.bottom - PAGE_MARGINS.top) / 3
    ? total
    : l.headerHeight + (l.heights[0] ?? 0) + (l.heights[1] ?? 0);
}
