/**
 * ask (1 credit, ask scope, paid plans): the data agent answers a plain-language question with
 * a sentence built from real rows, the rows, the SQL it ran and a chart. A question it cannot
 * map is answered with what it can answer instead; it costs 1 credit like every ask (the
 * spec's table has one price per call).
 */
import { answerQuestion } from '../agent/index.js';
import type { Handler } from '../types.js';

export const ask: Handler<'ask'> = (ctx) => {
  const a = answerQuestion(ctx.db, ctx.params.query, { now: ctx.now });
  const data = {
    answer: a.answer,
    mapped: a.mapped,
    pattern: a.pattern,
    columns: a.columns,
    rows: a.rows,
    row_count: a.rows.length,
    truncated: a.truncated,
    sql: a.sql,
    params: a.params,
    interpretation: a.interpretation,
    as_of: a.as_of,
  };
  if (!a.mapped) return { data, summary: a.answer, charts: [], url: null };
  return { data, summary: a.answer, charts: a.charts, url: '/view/results' };
};
