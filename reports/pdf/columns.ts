/**
 * Table columns sized from their content: short columns (ranks, scores, countries) as wide as
 * their longest value on one line, up to a share of the page; the long ones (names, reasons)
 * share what is left.
 */
import { measureText } from '../fonts.js';
import type { TableColumn } from './table-layout.js';

/** Cell padding of `ReportPdf.table` on both sides, and a point to spare. */
const CELL_PAD = 8;

/** A column to size: its header and the texts it holds. */
export interface SizedColumn {
  header: string;
  /** The column's texts: a one-line column is as wide as the widest (header in bold). */
  values?: readonly string[];
  align?: TableColumn['align'];
  /** The most of `width` a one-line column takes (0.16: 16%). */
  max?: number;
  /** A share of what the one-line columns leave (the shares of a table add up to 1). */
  share?: number;
}

/**
 * Widths of a table `width` points wide at `fontSize`: a column with a `share` takes that share
 * of what the others leave; every other one is as wide as its widest text on one line, at most
 * `max` of the width.
 *
 * @example sizedColumns(495, [{ header: '#', values: ['1', '25'] }, { header: 'Company', share: 1 }], 7.5)
 */
export function sizedColumns(
  width: number,
  columns: readonly SizedColumn[],
  fontSize: number,
): TableColumn[] {
  const fixed = columns.map((c) => {
    if (c.share !== undefined) return 0;
    const text = Math.max(
      measureText(c.header, fontSize, true),
      ...(c.values ?? []).map((v) => measureText(v, fontSize)),
    );
    const w = Math.ceil(text) + CELL_PAD;
    return c.max === undefined ? w : Math.min(w, width * c.max);
  });
  const rest = Math.max(0, width - fixed.reduce((a, b) => a + b, 0));
  return columns.map((c, i) => ({
    header: c.header,
    width: (fixed[i] ?? 0) + (c.share ?? 0) * rest,
    ...(c.align ? { align: c.align } : {}),
  }));
}
