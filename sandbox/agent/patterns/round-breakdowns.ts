/**
 * Patterns that break funding rounds down: deals and capital by year, quarter and month, and by
 * stage (the stage mix, and the median and average round size of each stage).
 */
import { chart } from '../charts.js';
import { int, pct, scopeText, usd } from '../format.js';
import { has, W, wantsCount, type Pattern } from '../pattern.js';
import { Filters, ROUNDS_FROM, roundFilters, STAGE_ORDER } from '../sql.js';

/** Example wordings of each metric and period. */
const PERIOD_EXAMPLES: Record<string, string[]> = {
  'capital-year': [
    'total capital raised in fintech by year',
    'How has funding in Germany evolved over time?',
    'annual funding for series A rounds in Europe',
  ],
  'deals-year': ['number of deals per year in France', 'How many rounds were there each year in healthtech?'],
  'capital-quarter': ['funding by quarter in 2024', 'quarterly capital raised in the US since 2023'],
  'deals-quarter': ['deal count by quarter in 2025', 'how many rounds per quarter in India in 2024'],
  'capital-month': ['monthly funding in 2024 in the UK', 'capital raised by month in fintech last year'],
  'deals-month': ['number of deals per month in 2025', 'how many seed rounds each month this year'],
};

/** Deals or capital raised by year, quarter or month, with a chart. */
function byPeriod(id: string, unit: 'year' | 'quarter' | 'month', metric: 'capital' | 'deals'): Pattern {
  const bucket =
    unit === 'year'
      ? 'r.year'
      : unit === 'quarter'
        ? `strftime('%Y', r.date) || '-Q' || ((CAST(strftime('%m', r.date) AS INTEGER) + 2) / 3)`
        : `strftime('%Y-%m', r.date)`;
  const re = unit === 'year' ? W.byYear : unit === 'quarter' ? W.byQuarter : W.byMonth;
  return {
    id,
    description: `${metric === 'capital' ? 'Capital raised' : 'Deal count'} by ${unit}`,
    examples: PERIOD_EXAMPLES[`${metric}-${unit}`] ?? [],
    matches: (s) => has(s, re) && (metric === 'deals') === wantsCount(s),
    query: (s) => {
      const f = roundFilters(new Filters(), s);
      return {
        sql: `SELECT ${bucket} AS ${unit}, COUNT(*) AS deals, COALESCE(SUM(r.amount_usd), 0) AS capital_usd\n${ROUNDS_FROM}\n${f}\nGROUP BY ${unit}\nORDER BY ${unit}`,
        params: f.params,
        columns: [unit, 'deals', 'capital_usd'],
      };
    },
    answer: (rows, s) => {
      const what = scopeText(s, 'rounds');
      if (rows.length === 0) return { answer: `There were no ${what}.` };
      const key = metric === 'capital' ? 'capital_usd' : 'deals';
      const peak = rows.reduce((a, b) => (Number(b[key]) > Number(a[key]) ? b : a));
      const fmt = (r: Record<string, unknown>) =>
        metric === 'capital' ? usd(r.capital_usd) : `${int(r.deals)} deals`;
      const list = rows.length <= 8 ? `: ${rows.map((r) => `${r[unit]} ${fmt(r)}`).join(', ')}` : '';
      const totalDeals = rows.reduce((a, r) => a + Number(r.deals), 0);
      const totalCap = rows.reduce((a, r) => a + Number(r.capital_usd), 0);
      const answer = `${metric === 'capital' ? 'Capital raised' : 'Deal count'} by ${unit} for ${what}${list}. The peak was ${peak[unit]} with ${fmt(peak)}; in all ${int(totalDeals)} deals raised ${usd(totalCap)}.`;
      const series =
        metric === 'capital'
          ? [
              { key: 'capital_usd', name: 'Capital raised (USD)', type: 'bar' as const },
              { key: 'deals', name: 'Deals', type: 'line' as const },
            ]
          : [
              { key: 'deals', name: 'Deals', type: 'bar' as const },
              { key: 'capital_usd', name: 'Capital raised (USD)', type: 'line' as const },
            ];
      return {
        answer,
        charts: [
          chart(
            unit === 'year' ? 'combo' : 'bar',
            `${metric === 'capital' ? 'Capital raised' : 'Deals'} by ${unit}`,
            unit,
            series,
            rows,
            metric === 'capital' ? 'USD' : 'deals',
          ),
        ],
      };
    },
  };
}

export const capitalByYear = byPeriod('capital_by_year', 'year', 'capital');
export const dealsByYear = byPeriod('deals_by_year', 'year', 'deals');
export const capitalByQuarter = byPeriod('capital_by_quarter', 'quarter', 'capital');
export const dealsByQuarter = byPeriod('deals_by_quarter', 'quarter', 'deals');
export const capitalByMonth = byPeriod('capital_by_month', 'month', 'capital');
export const dealsByMonth = byPeriod('deals_by_month', 'month', 'deals');

export const roundsByStage: Pattern = {
  id: 'rounds_by_stage',
  description: 'Deals and capital by round stage (stage mix)',
  examples: ['deals by stage in the UK in 2024', 'stage breakdown of fintech rounds in Europe'],
  matches: (s) =>
    has(s, W.byStage) && !has(s, W.median) && !has(s, W.average) && !has(s, /\b(startups|companies)\b/),
  query: (s) => {
    const f = roundFilters(new Filters(), s, { geo: true, sector: true, period: true, amount: true });
    return {
      sql: `SELECT r.stage AS stage, COUNT(*) AS deals, COALESCE(SUM(r.amount_usd), 0) AS capital_usd\n${ROUNDS_FROM}\n${f}\nGROUP BY r.stage\nORDER BY ${STAGE_ORDER('r.stage')}`,
      params: f.params,
      columns: ['stage', 'deals', 'capital_usd'],
    };
  },
  answer: (rows, s) => {
    const total = rows.reduce((a, r) => a + Number(r.deals), 0);
    if (!total) return { answer: `There were no ${scopeText(s, 'rounds', { stage: false })}.` };
    const parts = rows.map((r) => `${r.stage} ${int(r.deals)} (${pct((100 * Number(r.deals)) / total)})`);
    return {
      answer: `Stage mix of ${int(total)} ${scopeText(s, 'rounds', { stage: false })}: ${parts.join(', ')}.`,
      charts: [
        chart(
          'bar',
          'Deals by stage',
          'stage',
          [
            { key: 'deals', name: 'Deals' },
            { key: 'capital_usd', name: 'Capital raised (USD)', type: 'line' },
          ],
          rows,
          'deals',
        ),
      ],
    };
  },
};

export const roundSizeByStage: Pattern = {
  id: 'round_size_by_stage',
  description: 'Median and average round size by stage',
  examples: ['median round size by stage in Europe', 'average round size per stage in fintech in 2024'],
  matches: (s) => has(s, W.byStage) && (has(s, W.median) || has(s, W.average)),
  query: (s) => {
    const f = roundFilters(new Filters(), s, { geo: true, sector: true, period: true, amount: true });
    return {
      sql: `WITH v AS (
  SELECT r.stage AS stage, r.amount_usd AS x,
    ROW_NUMBER() OVER (PARTITION BY r.stage ORDER BY r.amount_usd) AS rn,
    COUNT(*) OVER (PARTITION BY r.stage) AS n
  ${ROUNDS_FROM}
  ${f}
)
SELECT stage, MAX(n) AS rounds,
  AVG(CASE WHEN rn IN ((n + 1) / 2, (n + 2) / 2) THEN x END) AS median_usd,
  AVG(x) AS average_usd
FROM v
GROUP BY stage
ORDER BY ${STAGE_ORDER('stage')}`,
      params: f.params,
      columns: ['stage', 'rounds', 'median_usd', 'average_usd'],
    };
  },
  answer: (rows, s) => {
    if (!rows.length) return { answer: `There were no ${scopeText(s, 'rounds', { stage: false })}.` };
    const parts = rows.map(
      (r) =>
        `${r.stage} median ${usd(r.median_usd)} / average ${usd(r.average_usd)} (${int(r.rounds)} rounds)`,
    );
    return {
      answer: `Round size by stage for ${scopeText(s, 'rounds', { stage: false })}: ${parts.join('; ')}.`,
      charts: [
        chart(
          'bar',
          'Round size by stage',
          'stage',
          [
            { key: 'median_usd', name: 'Median (USD)' },
            { key: 'average_usd', name: 'Average (USD)' },
          ],
          rows,
          'USD',
        ),
      ],
    };
  },
};
