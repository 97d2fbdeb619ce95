/** Cell references as formulas write them: column letters, quoted sheet names, absolute ranges. */
import type { CellColumn } from './chart-model.js';

/** The column letters of a 1-based column number: 1 → A, 28 → AB. */
export function columnLetters(col: number): string {
  let n = col;
  let out = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    out = String.fromCharCode(65 + r) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

/**
 * A sheet name as formulas write it: always quoted, a quote inside doubled.
 *
 * @example sheetRef("Investors' view") // "'Investors'' view'"
 */
export function sheetRef(sheet: string): string {
  return `'${sheet.replace(/'/g, "''")}'`;
}

/** An absolute reference to a column of cells: `'Sheet 1'!$B$2:$B$9` (one cell: `'Sheet 1'!$B$2`). */
export function rangeRef(sheet: string, range: CellColumn): string {
  const c = columnLetters(range.col);
  const first = `$${c}$${range.firstRow}`;
  return `${sheetRef(sheet)}!${first}${range.lastRow > range.firstRow ? `:$${c}$${range.lastRow}` : ''}`;
}
