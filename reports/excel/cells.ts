/**
 * Cell values and styles shared by the in-memory and the streamed workbooks: how a value of a
 * column kind is written (numbers stay numbers, text is formula-safe, ISO dates are dates), the
 * number formats, the header fill and the hyperlink cell.
 */
import type ExcelJS from 'exceljs';
import { webUrl } from '../web-url.js';
import { safeText, safeUrl, safeValue } from './safe.js';

/** How a column's values are written. */
export type ColumnKind = 'text' | 'int' | 'number' | 'usd' | 'usd-millions' | 'pct' | 'date' | 'url' | 'id';

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

/** The fill of header cells (white bold text on the report blue). */
export const HEADER_FILL: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FF1F4E79' } };

/** The font of hyperlink cells. */
export const LINK_FONT: Partial<ExcelJS.Font> = { color: { argb: 'FF0563C1' }, underline: true };

function toNumber(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
}

/**
 * The cell value for `v` in a column of `kind`. Text is always formula-safe; a `url` cell holds
 * an http(s) URL or nothing (`webUrl`).
 */
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
    case 'url':
      return webUrl(v);
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

/**
 * A hyperlink cell value when `url` is an absolute http(s) url (the shown text formula-safe),
 * else null: no javascript:, file: or mailto: links.
 *
 * @example linkValue('=cmd', 'https://acme.io') // { text: "'=cmd", hyperlink: 'https://acme.io/', tooltip: ... }
 */
export function linkValue(text: string, url: unknown): ExcelJS.CellHyperlinkValue | null {
  const href = safeUrl(url);
  return href ? { text: safeText(text), hyperlink: href, tooltip: href } : null;
}
