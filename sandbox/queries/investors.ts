/**
 * Investor queries: the search behind search_investors (filters, two stable sort orders,
 * offset paging) and the profile behind get_investor (history-derived mixes and scores).
 */
import type { DatabaseSync } from 'node:sqlite';
import type { ParamsOut } from '../../api/index.js';
import type { InvestorFields } from '../types.js';
import { resolveCountry } from '../data/countries.js';
import { FIRST_YEAR, trailingStart } from './as-of.js';
import { byStageLadder, countryFilter, investorTypeFilter, regionFilter, sectorFilter } from './filters.js';
import { median, share } from './format.js';
import { ensureStats, memoized } from './stats.js';
import { pageFields, Where, type SearchPage } from './where.js';
import { parseJson, prepared } from './statements.js';
import { investorUrl, startupUrl } from './urls.js';

/** One investor in a list (InvestorSummarySchema fields plus lead_investments_count). */
export interface InvestorSummaryRow extends InvestorFields {
  investments_count: number;
  lead_investments_count: number;
  url: string;
}

export interface InvestorSearchResult extends SearchPage {
  investors: InvestorSummaryRow[];
}

/** A list row as SQL returns it: sectors still JSON text, the counts from the stats table. */
interface InvestorDbRow extends Omit<InvestorFields, 'sectors'> {
  sectors: string;
  investments: number;
  lead_investments: number;
}

/** Each order walks an index: investors by score, the stats table by investments. */
const ORDERS = {
  score: {
    from: 'investors i JOIN temp.vis_investor_stats s ON s.investor_key = i.key',
    sql: 'i.score DESC, i.key ASC',
    text: 'score descending, then key ascending',
  },
  investments: {
    from: 'temp.vis_investor_stats s CROSS JOIN investors i ON i.key = s.investor_key',
    sql: 's.investments DESC, s.investor_key ASC',
    text: 'number of investments descending, then key ascending',
  },
} as const;

function summaryRow(row: InvestorDbRow, baseUrl: string): InvestorSummaryRow {
  return {
    key: row.key,
    name: row.name,
    investor_type: row.investor_type,
    hq_city: row.hq_city,
    hq_country: row.hq_country,
    region: row.region,
    sectors: parseJson<string[]>(row.sectors, []),
    score: row.score,
    investments_count: row.investments,
    lead_investments_count: row.lead_investments,
    check_min_usd: row.check_min_usd,
    check_max_usd: row.check_max_usd,
    url: investorUrl(baseUrl, row.key),
  };
}

/**
 * Lists investors matching the filters, in a stable total order (score or investments
 * descending, then key), one page at a time: paging with offset never skips or repeats one.
 * Filters: query (substring of name, HQ city or HQ country; a country alias also matches the
 * country), country (aliases), region (region, subregion or investor_region value),
 * investor_type (free text) and sector (the investor's primary sector).
 */
export function searchInvestors(
  db: DatabaseSync,
  params: ParamsOut<'search_investors'>,
  baseUrl: string,
): InvestorSearchResult {
  ensureStats(db);
  const where = new Where();
  if (params.query !== undefined) {
    const q = params.query.toLowerCase();
    where.add(
      '(instr(lower(i.name), ?) > 0 OR instr(lower(i.hq_city), ?) > 0 OR instr(lower(i.hq_country), ?) > 0 OR i.hq_country = ?)',
      [q, q, q, resolveCountry(params.query) ?? ''],
      ['query', params.query],
    );
  }
  if (params.country !== undefined) {
    const country = countryFilter('country', params.country);
    where.add('i.hq_country = ?', [country], ['country', country]);
  }
  if (params.region !== undefined)
    where.in('i.hq_country', regionFilter(params.region), 'region', params.region);
  if (params.investor_type !== undefined)
    where.in('i.investor_type', investorTypeFilter(params.investor_type), 'investor_type');
  if (params.sector !== undefined)
    where.in("json_extract(i.sectors, '$[0]')", sectorFilter(params.sector), 'sector');
  const order = ORDERS[params.sort];
  const rows = prepared(
    db,
    `SELECT i.key, i.name, i.investor_type, i.hq_city, i.hq_country, i.region, i.sectors, i.score,
            i.check_min_usd, i.check_max_usd, s.investments, s.lead_investments
     FROM ${order.from} ${where.sql} ORDER BY ${order.sql} LIMIT ? OFFSET ?`,
  ).all(...where.args, params.limit, params.offset) as unknown as InvestorDbRow[];
  return {
    investors: rows.map((r) => summaryRow(r, baseUrl)),
    ...pageFields(where.count(db, 'investors i'), params.limit, params.offset, rows.length),
    order: order.text,
    filters: where.filters,
  };
}

/** A company of the investor's recent portfolio as SQL returns it (is_lead 0 or 1); a type alias, so the cast from SQL rows checks. */
type RecentDbRow = {
  key: string;
  name: string;
  sector: string;
  hq_country: string;
  stage: string;
  amount_usd: number;
  date: string;
  is_lead: number;
};

export interface InvestorProfile extends InvestorSummaryRow {
  website: string | null;
  founded_year: number | null;
  thesis: string;
  team: { name: string; role?: string }[];
  scores: {
    overall: number;
    activity: number;
    follow_on_rate_pct: number;
    lead_rate_pct: number;
    deals_last_12_months: number;
    deals_previous_12_months: number;
  };
  portfolio_companies: number;
  sector_mix: { sector: string; deals: number; share_pct: number }[];
  stage_mix: { stage: string; deals: number; share_pct: number }[];
  stated_stage_focus: { stage: string; share_pct: number }[];
  investments_by_year: { year: number; deals: number; lead_deals: number; capital_usd: number }[];
  recent_portfolio: (Omit<RecentDbRow, 'is_lead'> & { is_lead: boolean; url: string })[];
  check_size: { min_usd: number; max_usd: number; median_round_usd: number | null };
  co_investors: { key: string; name: string; shared_deals: number; url: string }[];
  as_of: string;
}

interface ProfileDbRow extends InvestorDbRow {
  website: string | null;
  founded_year: number | null;
  thesis: string;
  team: string;
  stage_mix: string;
}

/**
 * The profile of an investor by key, with its history: sector and stage mix, investments by
 * year from 2020 to the as-of year, the last 10 portfolio companies, scores and check size.
 * Null when no investor has that key. Memoized while the database is unchanged.
 */
export function investorProfile(
  db: DatabaseSync,
  key: string,
  asOf: string,
  baseUrl: string,
): InvestorProfile | null {
  const wanted = key.trim();
  return memoized(db, `investor_profile|${wanted}|${asOf}|${baseUrl}`, () =>
    computeProfile(db, wanted, asOf, baseUrl),
  );
}

function computeProfile(
  db: DatabaseSync,
  key: string,
  asOf: string,
  baseUrl: string,
): InvestorProfile | null {
  const row = prepared(
    db,
    `SELECT i.*, s.investments, s.lead_investments
     FROM investors i JOIN temp.vis_investor_stats s ON s.investor_key = i.key WHERE i.key = ?`,
  ).get(key) as ProfileDbRow | undefined;
  if (!row) return null;

  const years = prepared(
    db,
    `SELECT r.year AS year, COUNT(*) AS deals, SUM(ri.is_lead) AS lead_deals, SUM(r.amount_usd) AS capital_usd
     FROM round_investors ri JOIN rounds r ON r.id = ri.round_id
     WHERE ri.investor_key = ? AND r.date <= ? GROUP BY r.year`,
  ).all(row.key, asOf) as { year: number; deals: number; lead_deals: number; capital_usd: number }[];
  const byYear = new Map(years.map((y) => [y.year, y]));
  const lastYear = Number(asOf.slice(0, 4));
  const investmentsByYear = [];
  for (let year = FIRST_YEAR; year <= lastYear; year++) {
    const y = byYear.get(year);
    investmentsByYear.push({
      year,
      deals: y?.deals ?? 0,
      lead_deals: y?.lead_deals ?? 0,
      capital_usd: y?.capital_usd ?? 0,
    });
  }

  const sectors = prepared(
    db,
    `SELECT st.sector AS sector, COUNT(*) AS deals
     FROM round_investors ri JOIN rounds r ON r.id = ri.round_id JOIN startups st ON st.key = r.startup_key
     WHERE ri.investor_key = ? GROUP BY st.sector ORDER BY deals DESC, st.sector`,
  ).all(row.key) as { sector: string; deals: number }[];
  const stages = prepared(
    db,
    `SELECT r.stage AS stage, COUNT(*) AS deals
     FROM round_investors ri JOIN rounds r ON r.id = ri.round_id WHERE ri.investor_key = ? GROUP BY r.stage`,
  ).all(row.key) as { stage: string; deals: number }[];
  const recent = prepared(
    db,
    `SELECT st.key AS key, st.name AS name, st.sector AS sector, st.hq_country AS hq_country,
            r.stage AS stage, r.amount_usd AS amount_usd, MAX(r.date) AS date, ri.is_lead AS is_lead
     FROM round_investors ri JOIN rounds r ON r.id = ri.round_id JOIN startups st ON st.key = r.startup_key
     WHERE ri.investor_key = ? GROUP BY st.key ORDER BY date DESC, st.key LIMIT 10`,
  ).all(row.key) as RecentDbRow[];
  const followOn = prepared(
    db,
    `SELECT COUNT(*) AS companies, COALESCE(SUM(n > 1), 0) AS repeat FROM (
       SELECT r.startup_key, COUNT(*) AS n FROM round_investors ri JOIN rounds r ON r.id = ri.round_id
       WHERE ri.investor_key = ? GROUP BY r.startup_key)`,
  ).get(row.key) as { companies: number; repeat: number };
  const amounts = (
    prepared(
      db,
      'SELECT r.amount_usd AS amount FROM round_investors ri JOIN rounds r ON r.id = ri.round_id WHERE ri.investor_key = ?',
    ).all(row.key) as { amount: number }[]
  ).map((a) => a.amount);
  const activity = prepared(
    db,
    `SELECT (SELECT COUNT(*) FROM temp.vis_investor_stats WHERE investments < ?) AS below,
            (SELECT COUNT(*) FROM temp.vis_investor_stats) AS everyone`,
  ).get(row.investments) as { below: number; everyone: number };
  const windowDeals = prepared(
    db,
    `SELECT COALESCE(SUM(r.date >= ?), 0) AS last12, COALESCE(SUM(r.date < ?), 0) AS prev12
     FROM round_investors ri JOIN rounds r ON r.id = ri.round_id
     WHERE ri.investor_key = ? AND r.date >= ? AND r.date <= ?`,
  );
  const start12 = trailingStart(asOf, 1);
  const start24 = trailingStart(asOf, 2);
  const windows = windowDeals.get(start12, start12, row.key, start24, asOf) as {
    last12: number;
    prev12: number;
  };
  const coInvestors = prepared(
    db,
    `SELECT o.investor_key AS key, i.name AS name, COUNT(*) AS shared_deals
     FROM round_investors me JOIN round_investors o ON o.round_id = me.round_id AND o.investor_key <> me.investor_key
     JOIN investors i ON i.key = o.investor_key
     WHERE me.investor_key = ? GROUP BY o.investor_key ORDER BY shared_deals DESC, o.investor_key LIMIT 5`,
  ).all(row.key) as { key: string; name: string; shared_deals: number }[];

  const total = row.investments;
  const stated = parseJson<Record<string, number>>(row.stage_mix, {});
  return {
    ...summaryRow(row, baseUrl),
    website: row.website,
    founded_year: row.founded_year,
    thesis: row.thesis,
    team: parseJson<{ name: string; role?: string }[]>(row.team, []),
    scores: {
      overall: row.score,
      activity: share(activity.below, Math.max(1, activity.everyone - 1)),
      follow_on_rate_pct: share(followOn.repeat, followOn.companies),
      lead_rate_pct: share(row.lead_investments, total),
      deals_last_12_months: windows.last12,
      deals_previous_12_months: windows.prev12,
    },
    portfolio_companies: followOn.companies,
    sector_mix: sectors.map((s) => ({ sector: s.sector, deals: s.deals, share_pct: share(s.deals, total) })),
    stage_mix: byStageLadder(stages).map((s) => ({
      stage: s.stage,
      deals: s.deals,
      share_pct: share(s.deals, total),
    })),
    stated_stage_focus: byStageLadder(
      Object.entries(stated).map(([stage, value]) => ({ stage, share_pct: Math.round(value * 1000) / 10 })),
    ),
    investments_by_year: investmentsByYear,
    recent_portfolio: recent.map((r) => ({
      ...r,
      is_lead: r.is_lead === 1,
      url: startupUrl(baseUrl, r.key),
    })),
    check_size: {
      min_usd: row.check_min_usd,
      max_usd: row.check_max_usd,
      median_round_usd: amounts.length ? median(amounts) : null,
    },
    co_investors: coInvestors.map((c) => ({ ...c, url: investorUrl(baseUrl, c.key) })),
    as_of: asOf,
  };
}
