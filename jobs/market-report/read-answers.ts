/**
 * Reads the data agent's answers: the answer, the declared columns and their rows (plain
 * numeric strings read as numbers), the SQL, the charts and the link; a question that was not
 * asked keeps why.
 */
import type { ChartSpec } from '../../api/envelope.js';
import { readRecord } from '../../api/read.js';
import { ANSWER_FIELDS } from '../../api/read-answers.js';
import { SourceBook } from '../../activities/sources.js';
import type { Store } from '../../activities/store.js';
import type { StoredCall } from '../../shared/types.js';
import { Findings, readCharts } from './read-common.js';
import type { AnswerRef } from './types.js';

export interface AnswerData {
  question: string;
  country: string | null;
  answer: string | null;
  columns: string[];
  rows: Record<string, unknown>[];
  charts: ChartSpec[];
  sql: string | null;
  url: string | null;
  skipped: string | null;
  charged: number;
  /** The source id of the stored answer (null: not asked; absent: read without sources). */
  source?: string | null;
}

const PLAIN_NUMBER = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;
/** An answer row with numbers given as plain numeric strings ("1234", "-2.5") read as numbers. */
function numericCells(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row))
    out[k] = typeof v === 'string' && PLAIN_NUMBER.test(v) ? Number(v) : v;
  return out;
}

function onlyColumns(row: Record<string, unknown>, columns: string[]): Record<string, unknown> {
  return Object.fromEntries(columns.filter((c) => c in row).map((c) => [c, row[c]]));
}

/**
 * Reads one data agent answer (or what stands for a question that was not asked); `source`:
 * the stored answer's source id.
 */
export function readAnswer(a: AnswerRef, call: StoredCall | null, source?: string | null): AnswerData {
  const base: AnswerData = {
    question: a.question,
    country: a.country,
    answer: null,
    columns: [],
    rows: [],
    charts: [],
    sql: null,
    url: null,
    skipped: a.skipped,
    charged: a.charged,
    ...(source !== undefined ? { source: call ? source : null } : {}),
  };
  if (call === null) return base;
  const r = call.result;
  const d = readRecord(r.data, ANSWER_FIELDS);
  base.answer = d.answer ?? (typeof r.summary === 'string' ? r.summary : null);
  const rows = (d.rows ?? []).map(numericCells);
  base.columns = d.columns && d.columns.length > 0 ? d.columns : rows[0] ? Object.keys(rows[0]) : [];
  // The columns the service declared are the answer's; anything else in a row is not shown.
  base.rows = d.columns && d.columns.length > 0 ? rows.map((r) => onlyColumns(r, base.columns)) : rows;
  base.sql = d.sql;
  base.charts = readCharts(r, new Findings(), 'answer');
  base.url = typeof r.url === 'string' ? r.url : null;
  return base;
}

/** Reads the data agent's answers through `book`, which gives each stored answer its source id. */
export async function readAnswers(
  store: Store,
  answers: AnswerRef[],
  book: SourceBook = new SourceBook(store),
): Promise<AnswerData[]> {
  const out: AnswerData[] = [];
  for (const a of answers) {
    const read = a.ref ? await book.read(a.ref) : null;
    out.push(readAnswer(a, read?.call ?? null, read?.source ?? null));
  }
  return out;
}
