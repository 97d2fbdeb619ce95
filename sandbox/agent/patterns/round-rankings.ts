/**
 * Patterns that rank countries, sectors, cities and regions by the capital their startups raised
 * or by their number of deals.
 */
import { chart } from '../charts.js';
import { int, scopeText, usd } from '../format.js';
import { has, W, wantsCount, type BuiltQuery, type Pattern } from '../pattern.js';
import type { Slots } from '../slots.js';
import { Filters, ROUNDS_FROM, roundFilters } from '../sql.js';

/** What a ranking groups rounds by, and what it ranks them on. */
type Dim = 'country' | 'sector' | 'city' | 'region';
type Metric = 'capital' | 'deals';

/** The column each ranking groups by (a region through the startup's country). */
const GROUP_COLUMN: Record<Dim, string> = {
  country: 'st.hq_country',
  sector: 'st.sector',
  city: 'st.hq_city',
  region: 'c.region',
};

/** The words that ask for each ranking. */
const GROUP_WORDS: Record<Dim, RegExp> = {
  country: W.byCountry,
  sector: W.bySector,
  city: W.byCity,
  region: W.byRegion,
};

/** Example wordings of each ranking and metric. */
const RANKING_EXAMPLES: Record<string, string[]> = {
  'country-capital': [
    'Which countries raised the most in 2024?',
    'top countries by capital raised in fintech',
  ],
  'country-deals': ['which countries had the most deals in 2023', 'top 5 countries by number of seed rounds'],
  'sector-capital': [
    'which sectors raised the most money in Germany',
    'top sectors by funding in Europe since 2023',
  ],
  'sector-deals': ['top sectors by number of rounds in the UK', 'which sectors had the most deals last year'],
  'city-capital': ['which cities raised the most in the US', 'top cities by funding in Europe'],
  'city-deals': ['top cities by number of deals in India', 'which cities had the most seed rounds in 2024'],
  'region-capital': ['funding by region in 2024', 'which regions raised the most capital'],
  'region-deals': ['number of deals by region since 2023'],
};

/** The ranking's query: deals and capital of each group, best first, the top N. */
function rankingQuery(dim: Dim, metric: Metric, s: Slots): BuiltQuery {
  const col = GROUP_COLUMN[dim];
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
}

/** The ranking's answer: the leader, the top ten, and a bar chart. */
function rankingAnswer(
  dim: Dim,
  metric: Metric,
  rows: Record<string, unknown>[],
  s: Slots,
): ReturnType<Pattern['answer']> {
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
}

/** Countries, sectors, cities or regions ranked by capital raised or by number of deals. */
function topGroup(id: string, dim: Dim, metric: Metric): Pattern {
  return {
    id,
    description: `${dim[0]!.toUpperCase()}${dim.slice(1)} ranking by ${metric === 'capital' ? 'capital raised' : 'number of deals'}`,
    examples: RANKING_EXAMPLES[`${dim}-${metric}`] ?? [],
    matches: (s) =>
      has(s, GROUP_WORDS[dim]) &&
      (metric === 'deals') === wantsCount(s) &&
      !(
        dim !== 'sector' &&
        has(s, /\b(startups|companies)\b/) &&
        !has(s, /\b(raised|raise|funding|capital)\b/)
      ),
    query: (s) => rankingQuery(dim, metric, s),
    answer: (rows, s) => rankingAnswer(dim, metric, rows, s),
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
