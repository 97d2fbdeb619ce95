/**
 * A country's venture market since 2020 (the data behind country_overview): deals and capital
 * by year with year-on-year change, and over the last three years the stage mix, top sectors,
 * most active investors and largest rounds.
 */
import type { DatabaseSync } from 'node:sqlite';
import { getCountry } from '../data/countries.js';
import { FIRST_YEAR, trailingStart } from './as-of.js';
import { byStageLadder } from './filters.js';
import { change, median, share } from './format.js';
import { memoized } from './stats.js';
import { prepared } from './statements.js';
import { investorUrl, startupUrl } from './urls.js';

/** Rounds of at least this size are mega-rounds. */
export const MEGA_ROUND_USD = 100_000_000;
/** Length of the "recent" window of the stage mix, sectors and investors. */
export const RECENT_YEARS = 3;

export interface YearRow {
  year: number;
  deals: number;
  capital_usd: number;
  median_round_usd: number | null;
  mega_rounds: number;
  yoy_deals_pct: number | null;
  yoy_capital_pct: number | null;
  /** True for the as-of year when the data ends before 31 December. */
  partial: boolean;
  /** What the YoY change compares with: the previous year, or its same period for a partial year. */
  yoy_basis: 'previous year' | 'same period of the previous year' | null;
}

export interface CountryOverview {
  country: string;
  iso2: string | null;
  region: string | null;
  subregion: string | null;
  as_of: string;
  period: { from: string; to: string };
  recent_period: { from: string; to: string; years: number };
  by_year: YearRow[];
  stage_mix: { stage: string; deals: number; capital_usd: number; share_pct: number }[];
  top_sectors: { sector: string; deals: number; capital_usd: number; share_pct: number }[];
  most_active_investors: {
    key: string;
    name: string;
    investor_type: string;
    hq_country: string;
    deals: number;
    lead_deals: number;
    url: string;
  }[];
  largest_rounds: {
    startup_key: string;
    startup_name: string;
    stage: string;
    amount_usd: number;
    date: string;
    lead_investor: string | null;
    url: string;
  }[];
  totals: {
    deals: number;
    capital_usd: number;
    startups_funded: number;
    median_round_usd: number | null;
    mega_rounds: number;
    recent_deals: number;
    recent_capital_usd: number;
  };
  median_round_usd: number | null;
  mega_rounds: number;
}

/** Rounds of startups based in the country, dated within [from, to]. */
const IN_COUNTRY = `FROM startups s JOIN rounds r ON r.startup_key = s.key
  WHERE s.hq_country = ? AND r.date >= ? AND r.date <= ?`;

function amountsStats(amounts: number[]): { median: number | null; mega: number } {
  return {
    median: amounts.length ? median(amounts) : null,
    mega: amounts.filter((a) => a >= MEGA_ROUND_USD).length,
  };
}

/**
 * The market overview of a country (a canonical name, see resolveCountry) up to the as-of date.
 * The YoY change of a partial as-of year compares with the same period of the previous year.
 * Memoized while the database is unchanged.
 */
export function countryOverview(
  db: DatabaseSync,
  country: string,
  asOf: string,
  baseUrl: string,
): CountryOverview {
  return memoized(db, `country_overview|${country}|${asOf}|${baseUrl}`, () =>
    compute(db, country, asOf, baseUrl),
  );
}

function compute(db: DatabaseSync, country: string, asOf: string, baseUrl: string): CountryOverview {
  const from = `${FIRST_YEAR}-01-01`;
  const recentFrom = trailingStart(asOf, RECENT_YEARS);
  const lastYear = Number(asOf.slice(0, 4));
  const info = getCountry(country);

  const rounds = prepared(
    db,
    `SELECT r.year AS year, r.date AS date, r.amount_usd AS amount ${IN_COUNTRY}`,
  ).all(country, from, asOf) as { year: number; date: string; amount: number }[];
  const amountsByYear = new Map<number, number[]>();
  for (const r of rounds) {
    const list = amountsByYear.get(r.year) ?? [];
    list.push(r.amount);
    amountsByYear.set(r.year, list);
  }
  const partial = asOf.slice(5) !== '12-31';
  const samePeriodEnd = `${lastYear - 1}-${asOf.slice(5)}`;
  const samePeriod = rounds.filter((r) => r.year === lastYear - 1 && r.date <= samePeriodEnd);

  const byYear: YearRow[] = [];
  for (let year = FIRST_YEAR; year <= lastYear; year++) {
    const amounts = amountsByYear.get(year) ?? [];
    const capital = amounts.reduce((a, b) => a + b, 0);
    const stats = amountsStats(amounts);
    const isPartial = year === lastYear && partial;
    const prior = byYear[byYear.length - 1];
    const before = isPartial
      ? { deals: samePeriod.length, capital_usd: samePeriod.reduce((a, r) => a + r.amount, 0) }
      : prior;
    byYear.push({
      year,
      deals: amounts.length,
      capital_usd: capital,
      median_round_usd: stats.median,
      mega_rounds: stats.mega,
      yoy_deals_pct: before ? change(amounts.length, before.deals) : null,
      yoy_capital_pct: before ? change(capital, before.capital_usd) : null,
      partial: isPartial,
      yoy_basis: before ? (isPartial ? 'same period of the previous year' : 'previous year') : null,
    });
  }

  const stages = prepared(
    db,
    `SELECT r.stage AS stage, COUNT(*) AS deals, SUM(r.amount_usd) AS capital_usd ${IN_COUNTRY} GROUP BY r.stage`,
  ).all(country, recentFrom, asOf) as { stage: string; deals: number; capital_usd: number }[];
  const recentDeals = stages.reduce((a, s) => a + s.deals, 0);
  const recentCapital = stages.reduce((a, s) => a + s.capital_usd, 0);
  const sectors = prepared(
    db,
    `SELECT s.sector AS sector, COUNT(*) AS deals, SUM(r.amount_usd) AS capital_usd ${IN_COUNTRY}
     GROUP BY s.sector ORDER BY deals DESC, capital_usd DESC, s.sector LIMIT 8`,
  ).all(country, recentFrom, asOf) as { sector: string; deals: number; capital_usd: number }[];
  const investors = prepared(
    db,
    `SELECT i.key AS key, i.name AS name, i.investor_type AS investor_type, i.hq_country AS hq_country,
            COUNT(*) AS deals, SUM(ri.is_lead) AS lead_deals
     ${IN_COUNTRY.replace('WHERE', 'JOIN round_investors ri ON ri.round_id = r.id JOIN investors i ON i.key = ri.investor_key WHERE')}
     GROUP BY i.key ORDER BY deals DESC, lead_deals DESC, i.key LIMIT 10`,
  ).all(country, recentFrom, asOf) as CountryOverview['most_active_investors'];
  const largest = prepared(
    db,
    `SELECT s.key AS startup_key, s.name AS startup_name, r.stage AS stage, r.amount_usd AS amount_usd, r.date AS date,
            (SELECT name FROM investors WHERE key = r.lead_investor_key) AS lead_investor
     ${IN_COUNTRY} ORDER BY r.amount_usd DESC, r.date DESC, r.id LIMIT 5`,
  ).all(country, recentFrom, asOf) as Omit<CountryOverview['largest_rounds'][number], 'url'>[];

  const all = amountsStats(rounds.map((r) => r.amount));
  return {
    country,
    iso2: info?.iso2 ?? null,
    region: info?.region ?? null,
    subregion: info?.subregion ?? null,
    as_of: asOf,
    period: { from, to: asOf },
    recent_period: { from: recentFrom, to: asOf, years: RECENT_YEARS },
    by_year: byYear,
    stage_mix: byStageLadder(stages).map((s) => ({ ...s, share_pct: share(s.deals, recentDeals) })),
    top_sectors: sectors.map((s) => ({ ...s, share_pct: share(s.deals, recentDeals) })),
    most_active_investors: investors.map((i) => ({ ...i, url: investorUrl(baseUrl, i.key) })),
    largest_rounds: largest.map((r) => ({ ...r, url: startupUrl(baseUrl, r.startup_key) })),
    totals: {
      deals: rounds.length,
      capital_usd: rounds.reduce((a, r) => a + r.amount, 0),
      startups_funded: (
        prepared(db, `SELECT COUNT(DISTINCT s.key) AS n ${IN_COUNTRY}`).get(country, from, asOf) as {
          n: number;
        }
      ).n,
      median_round_usd: all.median,
      mega_rounds: all.mega,
      recent_deals: recentDeals,
      recent_capital_usd: recentCapital,
    },
    median_round_usd: all.median,
    mega_rounds: all.mega,
  };
}
