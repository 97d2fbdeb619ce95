/**
 * Patterns over funding rounds: counts, totals, medians and averages, breakdowns by year,
 * quarter, month, stage, country, sector, city and region, changes between years, and lists of
 * the largest and latest rounds.
 */
import { chart } from '../charts.js';
import { int, pct, scopeText, usd } from '../format.js';
import { has, W, type Pattern } from '../pattern.js';
import { Filters, medianSql, ROUNDS_FROM, roundFilters } from '../sql.js';
import type { Slots } from '../slots.js';

/** Stages in funding order, for ORDER BY. */
export const STAGE_ORDER = (col: string) =>
  `CASE ${col} WHEN 'pre-seed' THEN 1 WHEN 'seed' THEN 2 WHEN 'series-a' THEN 3 WHEN 'series-b' THEN 4 WHEN 'series-c' THEN 5 WHEN 'series-d-plus' THEN 6 WHEN 'growth' THEN 7 ELSE 8 END`;

/** True when the question asks for deal counts rather than capital. */
export function wantsCount(s: Slots): boolean {
  if (
    has(
      s,
      /\b(number of (deals|rounds|investments)|deal count|deal counts|count of|how many|most deals|most rounds|by deals|by rounds|by number|deal volume)\b/,
    )
  )
    return true;
  if (has(s, /\b(capital|funding|money|dollars|raised|raise|invested|amount|volume)\b/)) return false;
  return has(s, /\b(deals|rounds|investments|activity|active|count)\b/);
}

const rounds = (n: number) => (n === 1 ? 'round' : 'rounds');
const verb = (n: number) => (n === 1 ? 'was' : 'were');

export const roundCount: Pattern = {
  id: 'round_count',
  description: 'How many rounds (deals) match a place, sector, stage, size and period',
  examples: [
    'How many seed rounds were there in Germany in 2023?',
    'number of series A deals in fintech in the UK last year',
    'count of rounds above $50M in 2024',
  ],
  matches: (s) => has(s, W.count) && has(s, W.rounds) && (!has(s, W.startups) || has(s, W.countsRounds)),
  query: (s) => {
    const f = roundFilters(new Filters(), s);
    return {
      sql: `SELECT COUNT(*) AS rounds, COALESCE(SUM(r.amount_usd), 0) AS capital_usd\n${ROUNDS_FROM}\n${f}`,
      params: f.params,
      columns: ['rounds', 'capital_usd'],
    };
  },
  answer: (rows, s) => {
    const n = Number(rows[0]?.rounds ?? 0);
    const cap = Number(rows[0]?.capital_usd ?? 0);
    return {
      answer: `There ${verb(n)} ${int(n)} ${scopeText(s, rounds(n))}${n ? `, raising ${usd(cap)} in total` : ''}.`,
    };
  },
};

export const capitalTotal: Pattern = {
  id: 'capital_total',
  description: 'Total capital raised in a place, sector, stage and period',
  examples: [
    'How much capital was raised in fintech in 2024?',
    'total funding in Germany last year',
    'how much did AI startups in France raise since 2022',
  ],
  matches: (s) => has(s, W.capital) && (has(s, W.total) || has(s, /\b(raised|raise|invested)\b/)),
  query: (s) => {
    const f = roundFilters(new Filters(), s);
    return {
      sql: `SELECT COALESCE(SUM(r.amount_usd), 0) AS capital_usd, COUNT(*) AS rounds\n${ROUNDS_FROM}\n${f}`,
      params: f.params,
      columns: ['capital_usd', 'rounds'],
    };
  },
  answer: (rows, s) => {
    const n = Number(rows[0]?.rounds ?? 0);
    return { answer: `${usd(rows[0]?.capital_usd)} was raised across ${int(n)} ${scopeText(s, rounds(n))}.` };
  },
};

function byPeriod(id: string, unit: 'year' | 'quarter' | 'month', metric: 'capital' | 'deals'): Pattern {
  const bucket =
    unit === 'year'
      ? 'r.year'
      : unit === 'quarter'
        ? `strftime('%Y', r.date) || '-Q' || ((CAST(strftime('%m', r.date) AS INTEGER) + 2) / 3)`
        : `strftime('%Y-%m', r.date)`;
  const re = unit === 'year' ? W.byYear : unit === 'quarter' ? W.byQuarter : W.byMonth;
  const examples: Record<string, string[]> = {
    'capital-year': [
      'total capital raised in fintech by year',
      'How has funding in Germany evolved over time?',
      'annual funding for series A rounds in Europe',
    ],
    'deals-year': [
      'number of deals per year in France',
      'How many rounds were there each year in healthtech?',
    ],
    'capital-quarter': ['funding by quarter in 2024', 'quarterly capital raised in the US since 2023'],
    'deals-quarter': ['deal count by quarter in 2025', 'how many rounds per quarter in India in 2024'],
    'capital-month': ['monthly funding in 2024 in the UK', 'capital raised by month in fintech last year'],
    'deals-month': ['number of deals per month in 2025', 'how many seed rounds each month this year'],
  };
  return {
    id,
    description: `${metric === 'capital' ? 'Capital raised' : 'Deal count'} by ${unit}`,
    examples: examples[`${metric}-${unit}`] ?? [],
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

export const medianRound: Pattern = {
  id: 'median_round',
  description: 'Median round size',
  examples: ['median series A size in the US', 'What is the median seed round in Germany in 2024?'],
  matches: (s) => has(s, W.median),
  query: (s) => {
    const f = roundFilters(new Filters(), s);
    return {
      sql: medianSql('r.amount_usd', `${ROUNDS_FROM}\n  ${f}`),
      params: f.params,
      columns: ['median_usd', 'rounds'],
    };
  },
  answer: (rows, s) => {
    const n = Number(rows[0]?.rounds ?? 0);
    if (!n) return { answer: `There were no ${scopeText(s, 'rounds')}, so there is no median.` };
    return {
      answer: `The median size of ${int(n)} ${scopeText(s, rounds(n))} is ${usd(rows[0]?.median_usd)}.`,
    };
  },
};

export const averageRound: Pattern = {
  id: 'average_round',
  description: 'Average round size (with the smallest and largest)',
  examples: [
    'average seed round in India',
    'what is the typical series B size in fintech in Europe',
    'mean round size in Israel in 2023',
  ],
  matches: (s) =>
    has(s, W.average) && (has(s, W.rounds) || has(s, /\b(size|check|ticket)\b/) || s.stages !== null),
  query: (s) => {
    const f = roundFilters(new Filters(), s);
    return {
      sql: `SELECT AVG(r.amount_usd) AS average_usd, COUNT(*) AS rounds, MIN(r.amount_usd) AS min_usd, MAX(r.amount_usd) AS max_usd\n${ROUNDS_FROM}\n${f}`,
      params: f.params,
      columns: ['average_usd', 'rounds', 'min_usd', 'max_usd'],
    };
  },
  answer: (rows, s) => {
    const n = Number(rows[0]?.rounds ?? 0);
    if (!n) return { answer: `There were no ${scopeText(s, 'rounds')}, so there is no average.` };
    const r = rows[0]!;
    return {
      answer: `The average size of ${int(n)} ${scopeText(s, rounds(n))} is ${usd(r.average_usd)} (smallest ${usd(r.min_usd)}, largest ${usd(r.max_usd)}).`,
    };
  },
};

function topGroup(
  id: string,
  dim: 'country' | 'sector' | 'city' | 'region',
  metric: 'capital' | 'deals',
): Pattern {
  const col =
    dim === 'country'
      ? 'st.hq_country'
      : dim === 'sector'
        ? 'st.sector'
        : dim === 'city'
          ? 'st.hq_city'
          : 'c.region';
  const re =
    dim === 'country' ? W.byCountry : dim === 'sector' ? W.bySector : dim === 'city' ? W.byCity : W.byRegion;
  const examples: Record<string, string[]> = {
    'country-capital': [
      'Which countries raised the most in 2024?',
      'top countries by capital raised in fintech',
    ],
    'country-deals': [
      'which countries had the most deals in 2023',
      'top 5 countries by number of seed rounds',
    ],
    'sector-capital': [
      'which sectors raised the most money in Germany',
      'top sectors by funding in Europe since 2023',
    ],
    'sector-deals': [
      'top sectors by number of rounds in the UK',
      'which sectors had the most deals last year',
    ],
    'city-capital': ['which cities raised the most in the US', 'top cities by funding in Europe'],
    'city-deals': ['top cities by number of deals in India', 'which cities had the most seed rounds in 2024'],
    'region-capital': ['funding by region in 2024', 'which regions raised the most capital'],
    'region-deals': ['number of deals by region since 2023'],
  };
  return {
    id,
    description: `${dim[0]!.toUpperCase()}${dim.slice(1)} ranking by ${metric === 'capital' ? 'capital raised' : 'number of deals'}`,
    examples: examples[`${dim}-${metric}`] ?? [],
    matches: (s) =>
      has(s, re) &&
      (metric === 'deals') === wantsCount(s) &&
      !(
        dim !== 'sector' &&
        has(s, /\b(startups|companies)\b/) &&
        !has(s, /\b(raised|raise|funding|capital)\b/)
      ),
    query: (s) => {
      const f = roundFilters(new Filters(), s, {
        geo:
          dim === 'city' ||
          dim === 'sector' ||
          (dim === 'country' && (s.geo?.countries.length ?? 0) > 1) ||
          dim === 'region',
        sector: dim !== 'sector',
        stage: true,
        period: true,
        amount: true,
      });
      const join = dim === 'region' ? '\nJOIN countries c ON c.name = st.hq_country' : '';
      const extra = dim === 'city' ? ', st.hq_country AS country' : '';
      const order = metric === 'capital' ? 'capital_usd DESC, deals DESC' : 'deals DESC, capital_usd DESC';
      return {
        sql: `SELECT ${col} AS ${dim}${extra}, COUNT(*) AS deals, COALESCE(SUM(r.amount_usd), 0) AS capital_usd\n${ROUNDS_FROM}${join}\n${f}\nGROUP BY ${col}${dim === 'city' ? ', st.hq_country' : ''}\nORDER BY ${order}, ${dim}\nLIMIT ?`,
        params: [...f.params, s.topN],
        columns: dim === 'city' ? ['city', 'country', 'deals', 'capital_usd'] : [dim, 'deals', 'capital_usd'],
      };
    },
    answer: (rows, s) => {
      const what = scopeText(s, 'rounds', {
        geo: dim === 'city' || dim === 'sector' || dim === 'region',
        market: dim !== 'sector',
      });
      if (!rows.length) return { answer: `There were no ${what}.` };
      const fmt = (r: Record<string, unknown>) =>
        metric === 'capital'
          ? `${usd(r.capital_usd)} (${int(r.deals)} deals)`
          : `${int(r.deals)} deals (${usd(r.capital_usd)})`;
      const list = rows
        .slice(0, 10)
        .map((r, i) => `${i + 1}. ${r[dim]} ${fmt(r)}`)
        .join('; ');
      const series =
        metric === 'capital'
          ? [{ key: 'capital_usd', name: 'Capital raised (USD)' }]
          : [{ key: 'deals', name: 'Deals' }];
      return {
        answer: `${rows[0]![dim]} leads ${what} by ${metric === 'capital' ? 'capital raised' : 'number of deals'} with ${fmt(rows[0]!)}. Ranking: ${list}.`,
        charts: [
          chart(
            'bar',
            `Top ${dim === 'city' ? 'cities' : dim === 'country' ? 'countries' : `${dim}s`} by ${metric === 'capital' ? 'capital raised' : 'deals'}`,
            dim,
            series,
            rows,
            metric === 'capital' ? 'USD' : 'deals',
          ),
        ],
      };
    },
  };
}

export const topCountriesCapital = topGroup('top_countries_by_capital', 'country', 'capital');
export const topCountriesDeals = topGroup('top_countries_by_deals', 'country', 'deals');
export const topSectorsCapital = topGroup('top_sectors_by_capital', 'sector', 'capital');
export const topSectorsDeals = topGroup('top_sectors_by_deals', 'sector', 'deals');
export const topCitiesCapital = topGroup('top_cities_by_capital', 'city', 'capital');
export const topCitiesDeals = topGroup('top_cities_by_deals', 'city', 'deals');
export const capitalByRegion = topGroup('capital_by_region', 'region', 'capital');
export const dealsByRegion = topGroup('deals_by_region', 'region', 'deals');

function roundList(id: string, order: 'largest' | 'latest'): Pattern {
  return {
    id,
    description: order === 'largest' ? 'The largest rounds (list)' : 'The latest rounds (list)',
    examples:
      order === 'largest'
        ? [
            'largest rounds of the last 7 days in the United Kingdom',
            'top 5 biggest series B rounds in fintech in 2024',
          ]
        : ['latest seed rounds in Germany', 'most recent deals in climate tech in France'],
    matches: (s) =>
      has(s, W.rounds) &&
      has(s, order === 'largest' ? /\b(largest|biggest|top|highest|mega|big)\b/ : W.recent),
    query: (s) => {
      const f = roundFilters(new Filters(), s);
      return {
        sql: `SELECT r.date AS date, st.name AS startup, st.key AS startup_key, st.hq_country AS country, st.sector AS sector, r.stage AS stage, r.amount_usd AS amount_usd, i.name AS lead_investor
${ROUNDS_FROM}
LEFT JOIN investors i ON i.key = r.lead_investor_key
${f}
ORDER BY ${order === 'largest' ? 'r.amount_usd DESC, r.date DESC' : 'r.date DESC, r.amount_usd DESC'}, r.id
LIMIT ?`,
        params: [...f.params, s.topN],
        columns: [
          'date',
          'startup',
          'startup_key',
          'country',
          'sector',
          'stage',
          'amount_usd',
          'lead_investor',
        ],
      };
    },
    answer: (rows, s) => {
      const what = scopeText(s, 'rounds');
      if (!rows.length) return { answer: `There were no ${what}.` };
      const list = rows
        .slice(0, 10)
        .map((r) => `${r.startup} ${usd(r.amount_usd)} ${r.stage} (${r.country}, ${r.date})`)
        .join('; ');
      return {
        answer: `The ${rows.length} ${order} ${what}: ${list}.`,
        charts:
          order === 'largest'
            ? [
                chart(
                  'bar',
                  `Largest rounds`,
                  'startup',
                  [{ key: 'amount_usd', name: 'Round size (USD)' }],
                  rows,
                  'USD',
                ),
              ]
            : [],
      };
    },
  };
}

export const largestRounds = roundList('largest_rounds', 'largest');
export const latestRounds = roundList('latest_rounds', 'latest');

export const fundingChange: Pattern = {
  id: 'funding_change',
  description: 'How funding (capital and deals) changed between two years',
  examples: [
    'How did AI funding change from 2021 to 2023?',
    'fintech deals in Germany 2023 vs 2024',
    'compare capital raised in France in 2022 and 2024',
  ],
  matches: (s) =>
    s.compare !== null &&
    (has(s, W.change) || has(s, /\bfrom (20\d\d) to (20\d\d)\b/)) &&
    !has(s, W.bySector) &&
    !has(s, W.byCountry),
  query: (s) => {
    const [a, b] = s.compare!;
    const f = roundFilters(new Filters(), s, {
      geo: true,
      sector: true,
      stage: true,
      period: false,
      amount: true,
    }).in('r.year', [a, b]);
    return {
      sql: `SELECT r.year AS year, COUNT(*) AS deals, COALESCE(SUM(r.amount_usd), 0) AS capital_usd\n${ROUNDS_FROM}\n${f}\nGROUP BY r.year\nORDER BY r.year`,
      params: f.params,
      columns: ['year', 'deals', 'capital_usd'],
    };
  },
  answer: (rows, s) => {
    const [a, b] = s.compare!;
    const get = (y: number) =>
      rows.find((r) => Number(r.year) === y) ?? { year: y, deals: 0, capital_usd: 0 };
    const ra = get(a);
    const rb = get(b);
    const change = (x: number, y: number) =>
      x === 0 ? 'n/a' : `${y >= x ? '+' : ''}${pct((100 * (y - x)) / x)}`;
    const what = scopeText(s, 'funding', { period: false });
    const capA = Number(ra.capital_usd);
    const capB = Number(rb.capital_usd);
    const direction = capB > capA ? 'rose' : capB < capA ? 'fell' : 'stayed';
    return {
      answer: `${what[0]!.toUpperCase()}${what.slice(1)} ${direction} from ${usd(capA)} (${int(ra.deals)} deals) in ${a} to ${usd(capB)} (${int(rb.deals)} deals) in ${b}: ${change(capA, capB)} in capital and ${change(Number(ra.deals), Number(rb.deals))} in deals.`,
      charts: [
        chart(
          'bar',
          `Funding ${a} vs ${b}`,
          'year',
          [
            { key: 'capital_usd', name: 'Capital raised (USD)' },
            { key: 'deals', name: 'Deals', type: 'line' },
          ],
          [ra, rb],
          'USD',
        ),
      ],
    };
  },
};

export const fastestGrowingSectors: Pattern = {
  id: 'fastest_growing_sectors',
  description: 'Sectors ranked by growth of capital raised between two years',
  examples: [
    'fastest growing sectors from 2023 to 2024',
    'which sectors grew the most in Europe 2022 vs 2024',
  ],
  matches: (s) =>
    has(
      s,
      /\b(fastest[- ]growing|grew the most|growing fastest|biggest growth|most growth|growth by sector)\b/,
    ) ||
    (has(s, W.change) && has(s, W.bySector) && s.compare !== null),
  query: (s, ctx) => {
    const refYear = Number(ctx.asOf.slice(0, 4));
    const [a, b] = s.compare ?? [refYear - 2, refYear - 1];
    const f = roundFilters(new Filters(), s, {
      geo: true,
      sector: false,
      stage: true,
      period: false,
      amount: true,
    }).in('r.year', [a, b]);
    return {
      sql: `SELECT st.sector AS sector,
  SUM(CASE WHEN r.year = ? THEN r.amount_usd ELSE 0 END) AS capital_from_usd,
  SUM(CASE WHEN r.year = ? THEN r.amount_usd ELSE 0 END) AS capital_to_usd,
  ROUND(100.0 * (SUM(CASE WHEN r.year = ? THEN r.amount_usd ELSE 0 END) - SUM(CASE WHEN r.year = ? THEN r.amount_usd ELSE 0 END)) / NULLIF(SUM(CASE WHEN r.year = ? THEN r.amount_usd ELSE 0 END), 0), 1) AS growth_pct
${ROUNDS_FROM}
${f}
GROUP BY st.sector
ORDER BY growth_pct DESC, sector`,
      params: [a, b, b, a, a, ...f.params],
      columns: ['sector', 'capital_from_usd', 'capital_to_usd', 'growth_pct'],
    };
  },
  answer: (rows, s, ctx) => {
    const refYear = Number(ctx.asOf.slice(0, 4));
    const [a, b] = s.compare ?? [refYear - 2, refYear - 1];
    if (!rows.length) return { answer: `There were no rounds in ${a} or ${b} for that scope.` };
    const top = rows[0]!;
    const list = rows
      .map(
        (r) =>
          `${r.sector} ${r.growth_pct === null ? 'n/a' : `${Number(r.growth_pct) >= 0 ? '+' : ''}${Number(r.growth_pct)}%`}`,
      )
      .join('; ');
    return {
      answer: `From ${a} to ${b}, ${top.sector} grew fastest${s.geo ? ` in ${s.geo.label}` : ''}: ${usd(top.capital_from_usd)} to ${usd(top.capital_to_usd)} (${top.growth_pct}%). All sectors: ${list}.`,
      charts: [
        chart(
          'bar',
          `Capital growth by sector, ${a} to ${b}`,
          'sector',
          [{ key: 'growth_pct', name: 'Growth (%)' }],
          rows,
          '%',
        ),
      ],
    };
  },
};
