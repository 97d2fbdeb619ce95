/**
 * Parameterised SQL building blocks for the agent's patterns. Every value from the question is
 * a bound parameter; only fixed column names and "?" placeholders are ever joined into SQL.
 */
import type { SQLInputValue } from 'node:sqlite';
import { DEADLINE_FN } from './run.js';
import type { Slots } from './slots.js';

/** A WHERE clause under construction: conditions with their parameters, in order. */
export class Filters {
  private readonly conditions: string[] = [`${DEADLINE_FN}()`];
  readonly params: SQLInputValue[] = [];

  /** Adds a condition with "?" placeholders and their values. */
  add(condition: string, ...params: SQLInputValue[]): this {
    this.conditions.push(condition);
    this.params.push(...params);
    return this;
  }

  /** Adds `column IN (?, ?, ...)`. */
  in(column: string, values: readonly SQLInputValue[]): this {
    return this.add(`${column} IN (${values.map(() => '?').join(', ')})`, ...values);
  }

  /** The WHERE clause. */
  toString(): string {
    return `WHERE ${this.conditions.join('\n  AND ')}`;
  }
}

/** Which slots a pattern applies to its rounds (r) and startups (st). */
export interface RoundScope {
  geo?: boolean;
  sector?: boolean;
  stage?: boolean;
  period?: boolean;
  amount?: boolean;
}

const ALL: Required<RoundScope> = { geo: true, sector: true, stage: true, period: true, amount: true };

/** Adds the startup filters (country or city, sector or subsector) on alias st. */
export function startupFilters(
  f: Filters,
  s: Slots,
  scope: { geo?: boolean; sector?: boolean } = { geo: true, sector: true },
): Filters {
  if (scope.geo && s.geo) {
    if (s.geo.city) f.add('st.hq_city = ?', s.geo.city);
    else f.in('st.hq_country', s.geo.countries);
  }
  if (scope.sector && s.subsector) f.add('st.subsector = ?', s.subsector);
  else if (scope.sector && s.sector) f.add('st.sector = ?', s.sector);
  return f;
}

/** Adds the round filters (stage, period, amount) on alias r and the startup filters on st. */
export function roundFilters(f: Filters, s: Slots, scope: RoundScope = ALL): Filters {
  startupFilters(f, s, { geo: scope.geo ?? false, sector: scope.sector ?? false });
  if (scope.stage && s.stages) f.in('r.stage', s.stages);
  if (scope.period && s.period) f.add('r.date BETWEEN ? AND ?', s.period.from, s.period.to);
  if (scope.amount && s.minAmount !== null) f.add('r.amount_usd >= ?', s.minAmount);
  if (scope.amount && s.maxAmount !== null) f.add('r.amount_usd <= ?', s.maxAmount);
  return f;
}

/** Rounds joined with their startups. */
export const ROUNDS_FROM = 'FROM rounds r\nJOIN startups st ON st.key = r.startup_key';

/** Median of a column over a filtered set, as a SQL expression pair (uses window functions). */
export function medianSql(valueSql: string, fromAndWhere: string): string {
  return `WITH v AS (
  SELECT ${valueSql} AS x, ROW_NUMBER() OVER (ORDER BY ${valueSql}) AS rn, COUNT(*) OVER () AS n
  ${fromAndWhere}
)
SELECT AVG(x) AS median_usd, MAX(n) AS rounds FROM v WHERE rn IN ((n + 1) / 2, (n + 2) / 2)`;
}

/** Stages in funding order, for ORDER BY. */
export const STAGE_ORDER = (col: string) =>
  `CASE ${col} WHEN 'pre-seed' THEN 1 WHEN 'seed' THEN 2 WHEN 'series-a' THEN 3 WHEN 'series-b' THEN 4 WHEN 'series-c' THEN 5 WHEN 'series-d-plus' THEN 6 WHEN 'growth' THEN 7 ELSE 8 END`;
