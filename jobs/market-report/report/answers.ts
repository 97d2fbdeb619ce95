/**
 * The data agent's answer rows as a reader sees them: which columns to print (key columns
 * that only repeat a name are left out, a column that only repeats the question's country
 * too), in what order for the workbook, and each value as text (years without thousands
 * separators, amounts as $1.2M, dates as 17 Nov 2026).
 */
import { humanizeKey, isIdentifierKey, isKeyColumn, unitFromKey } from '../../../reports/charts/index.js';
import { formatDate, formatInt, formatNumber } from '../../../reports/format.js';
import {
  formatMoneyIn,
  formatPctFixed,
  moneyUnit,
  stageLabel,
  type MoneyUnit,
} from '../../../reports/editorial.js';
import type { AgentAnswer } from './model.js';

/** Most columns an answer table prints in the PDF (the workbook has them all). */
export const MAX_ANSWER_COLUMNS = 6;

/** The answer's columns in their own order: `columns`, else the keys of the first row. */
export function answerColumnsAll(a: AgentAnswer): string[] {
  const rows = a.rows ?? [];
  return a.columns && a.columns.length > 0 ? [...a.columns] : Object.keys(rows[0] ?? {});
}

/** True when the key column `col` has a name column next to it (`startup` or `startup_name` for `startup_key`, or any `name`). */
function hasNameFor(col: string, columns: string[]): boolean {
  const prefix = col.replace(/[_\s-]*(key|id|slug|uuid)$/i, '').toLowerCase();
  return columns.some((c) => {
    if (c === col || isKeyColumn(c)) return false;
    const l = c.toLowerCase();
    return (
      (prefix !== '' && (l === prefix || l === `${prefix}_name` || l === `${prefix}name`)) ||
      /(^|[_\s-])name$/.test(l)
    );
  });
}

/** Key columns that only repeat a name shown in another column. */
export function redundantKeyColumns(columns: string[]): string[] {
  return columns.filter((c) => isKeyColumn(c) && hasNameFor(c, columns));
}

/**
 * Columns of an answer table as the workbook writes them: the answer's order with the key
 * columns that repeat a name moved to the end.
 */
export function answerColumnsForSheet(a: AgentAnswer): string[] {
  const all = answerColumnsAll(a);
  const keys = new Set(redundantKeyColumns(all));
  return [...all.filter((c) => !keys.has(c)), ...all.filter((c) => keys.has(c))];
}

/**
 * Columns of an answer table as the PDF prints them: without the key columns that repeat a
 * name and without a text column whose every value is the question's country (printed above
 * the table), at most `MAX_ANSWER_COLUMNS`.
 */
export function answerColumnsForPdf(a: AgentAnswer): { shown: string[]; left: string[] } {
  const rows = a.rows ?? [];
  const all = answerColumnsAll(a);
  const keys = new Set(redundantKeyColumns(all));
  const country = a.country?.trim().toLowerCase();
  const constantCountry = (c: string): boolean =>
    !!country &&
    rows.length > 0 &&
    rows.every((r) => typeof r[c] === 'string' && r[c].trim().toLowerCase() === country);
  const useful = all.filter((c) => !keys.has(c) && !constantCountry(c));
  return { shown: useful.slice(0, MAX_ANSWER_COLUMNS), left: useful.slice(MAX_ANSWER_COLUMNS) };
}

/** True when every value of `col` is a number or missing (and one at least is a number). */
export function isNumericColumn(rows: Record<string, unknown>[], col: string): boolean {
  return (
    rows.every((r) => typeof r[col] === 'number' || r[col] === null || r[col] === undefined) &&
    rows.some((r) => typeof r[col] === 'number')
  );
}

/** True when every value of `col` is an ISO date (2026-11-17, optionally with a time). */
export function isDateColumn(rows: Record<string, unknown>[], col: string): boolean {
  const present = rows.map((r) => r[col]).filter((v) => v !== null && v !== undefined && v !== '');
  return (
    present.length > 0 &&
    present.every(
      (v) =>
        typeof v === 'string' && /^\d{4}-\d{2}-\d{2}(T[\d:.]+Z?)?$/.test(v) && !Number.isNaN(Date.parse(v)),
    )
  );
}

/** The money unit of each amount column of an answer table (one unit and precision a column). */
export function answerUnits(rows: Record<string, unknown>[], columns: string[]): Map<string, MoneyUnit> {
  const out = new Map<string, MoneyUnit>();
  for (const c of columns)
    if (!isIdentifierKey(c) && unitFromKey(c) === 'usd')
      out.set(c, moneyUnit(rows.map((r) => (typeof r[c] === 'number' ? r[c] : null))));
  return out;
}

/** True for a column of stage keys (`stage`, `round_stage`). */
const isStageColumn = (column: string): boolean => /(^|_)stage$/i.test(column);

/**
 * A value of column `column` as printed: amounts (in the column's unit when given), percentages
 * with one decimal, counts, years and ids, dates, stages in words.
 */
export function answerCellText(v: unknown, column: string, dateColumn = false, unit?: MoneyUnit): string {
  if (v === null || v === undefined || v === '') return '—';
  if (typeof v === 'number') {
    if (isIdentifierKey(column)) return String(v);
    const kind = unitFromKey(column);
    if (kind === 'usd') return formatMoneyIn(v, unit ?? moneyUnit([v]), { symbol: true });
    if (kind === 'pct') return formatPctFixed(v);
    return Number.isInteger(v) ? formatInt(v) : formatNumber(v, 2);
  }
  if (typeof v === 'string') return dateColumn ? formatDate(v) : isStageColumn(column) ? stageLabel(v) : v;
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  return JSON.stringify(v);
}

/** The header of an answer column. */
export function answerHeader(column: string): string {
  return humanizeKey(column);
}

/**
 * A question as a heading in words (its intent, not its prompt): first letter upper case, "of
 * the last 7 days" as ", last 7 days", and the country it names moved after a colon.
 *
 * @example answerTitle('largest rounds of the last 7 days in United States', 'United States')
 * // 'Largest rounds, last 7 days: United States'
 */
export function answerTitle(question: string, country?: string | null): string {
  let t = question.trim().replace(/[?.!]+$/, '');
  let where: string | null = null;
  if (country) {
    const escaped = country.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const m = new RegExp(`\\s+in\\s+(the\\s+)?${escaped}$`, 'i').exec(t);
    if (m) {
      t = t.slice(0, m.index);
      where = country;
    }
  }
  t = t.replace(
    /\s+(of|in|over|during)\s+the\s+(last|past)\s+(\d+)\s+(days|weeks|months|years)\b/i,
    ', last $3 $4',
  );
  t = t.charAt(0).toUpperCase() + t.slice(1);
  return where ? `${t}: ${where}` : t;
}
