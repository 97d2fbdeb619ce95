/**
 * The data agent: maps a plain-language question onto one of its question patterns, fills the
 * pattern's slots, runs its parameterised SQL read-only under a time limit, and answers with a
 * sentence built from the real rows. A question it cannot map is answered with what it can
 * answer instead, and never with invented numbers.
 */
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import type { ChartSpec } from '../result-shapes.js';
import type { MatchContext, Pattern } from './pattern.js';
import { PATTERNS, findEntity } from './patterns/index.js';
import { runReadOnly, type QueryLimits } from './run.js';
import { readSlots, type Slots } from './slots.js';

/** The agent's answer (the ask operation's data). */
export interface AgentAnswer {
  answer: string;
  mapped: boolean;
  pattern: string | null;
  columns: string[];
  rows: Record<string, unknown>[];
  /** The query that ran ("?" placeholders) and its parameters, in order. */
  sql: string | null;
  params: SQLInputValue[];
  /** How the question was read: place, market, stage, period, N. */
  interpretation: Record<string, unknown> | null;
  /** True when the rows were cut at the row cap. */
  truncated: boolean;
  as_of: string;
  charts: ChartSpec[];
}

export interface AgentOptions extends QueryLimits {
  /** Reference date (YYYY-MM-DD) for relative periods; default the database's as-of date, else `now`. */
  asOf?: string;
  now?: Date;
}

/** The database's as-of date from its meta table, if it has one. */
export function databaseAsOf(db: DatabaseSync): string | null {
  try {
    const { rows } = runReadOnly(db, "SELECT value FROM meta WHERE agent_deadline() AND key = 'as_of'", []);
    const v = rows[0]?.value;
    return typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) ? v : null;
  } catch {
    return null;
  }
}

/** One line per pattern, for a refusal and the docs. */
export function describePatterns(): string[] {
  return PATTERNS.map((p) => `${p.description} (e.g. "${p.examples[0] ?? ''}")`);
}

const UNMAPPED_LIST = [
  'counts and totals of rounds and capital (by place, sector, stage, round size and period)',
  'breakdowns by year, quarter, month, stage, country, sector, city or region',
  'median and average round sizes',
  'the largest and latest rounds',
  'changes between two years and the fastest growing sectors',
  'startup counts per sector, country, city, stage, status or founding year, the best-funded startups and startups that raised a given round',
  'the most active investors and lead investors, the best scored investors, investor counts and lists by type and place',
  "a named investor's portfolio, yearly activity and co-investors, and a named startup's rounds",
];

function interpretation(s: Slots, ctx: MatchContext): Record<string, unknown> {
  return {
    place: s.geo ? { label: s.geo.label, countries: s.geo.countries, city: s.geo.city ?? null } : null,
    sector: s.sector,
    subsector: s.subsector,
    stages: s.stages,
    period: s.period,
    compare_years: s.compare,
    top_n: s.topN,
    min_amount_usd: s.minAmount,
    max_amount_usd: s.maxAmount,
    investor_type: s.investorType,
    entity: ctx.entity,
  };
}

/** Removes a named entity from the question so its words do not become slots ("Berlin Capital"). */
function withoutName(question: string, name: string): string {
  const i = question.toLowerCase().indexOf(name.toLowerCase());
  return i < 0 ? question : `${question.slice(0, i)} ${question.slice(i + name.length)}`;
}

/**
 * Answers a question over the sandbox database.
 *
 * @example
 * const a = answerQuestion(db, 'How many seed rounds in Germany in 2023?');
 * a.mapped;  // true
 * a.pattern; // 'round_count'
 * a.answer;  // 'There were 412 seed rounds in Germany in 2023, raising $1.1B in total.'
 */
export function answerQuestion(db: DatabaseSync, question: string, options: AgentOptions = {}): AgentAnswer {
  const asOf = options.asOf ?? databaseAsOf(db) ?? (options.now ?? new Date()).toISOString().slice(0, 10);
  const ref = new Date(`${asOf}T00:00:00Z`);
  const entity = findEntity(db, question);
  const slots = readSlots(entity ? withoutName(question, entity.name) : question, ref);
  const ctx: MatchContext = { db, asOf, entity };
  const pattern: Pattern | undefined = PATTERNS.find((p) => p.matches(slots, ctx));
  if (!pattern) {
    return {
      answer: `I cannot answer that question from the venture database. I can answer: ${UNMAPPED_LIST.join('; ')}. For example: "How many seed rounds were there in Germany in 2023?", "Top 10 investors by number of deals in France", "Median series A size in the US".`,
      mapped: false,
      pattern: null,
      columns: [],
      rows: [],
      sql: null,
      params: [],
      interpretation: null,
      truncated: false,
      as_of: asOf,
      charts: [],
    };
  }
  const built = pattern.query(slots, ctx);
  const result = runReadOnly(db, built.sql, built.params, options);
  const { answer, charts } = pattern.answer(result.rows, slots, ctx);
  return {
    answer,
    mapped: true,
    pattern: pattern.id,
    columns: built.columns,
    rows: result.rows,
    sql: built.sql,
    params: built.params,
    interpretation: interpretation(slots, ctx),
    truncated: result.truncated,
    as_of: asOf,
    charts: charts ?? [],
  };
}
