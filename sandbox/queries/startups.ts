/**
 * Startup queries: the search behind search_startups (keyword, sector, countries, stages; a
 * stable order for offset paging) and the profile behind get_startup (every round with its
 * lead and other investors).
 */
import type { DatabaseSync } from 'node:sqlite';
import type { ParamsOut } from '../../api/index.js';
import { countryFilter, matchSectors, stagesFilter } from './filters.js';
import { ensureStats } from './stats.js';
import { pageFields, Where, type SearchPage } from './where.js';
import { parseJson, prepared } from './statements.js';
import { investorUrl, startupUrl } from './urls.js';

/** One startup in a list (StartupSummarySchema fields plus region and founded_year). */
export interface StartupSummaryRow {
  key: string;
  name: string;
  description: string;
  website: string;
  hq_city: string;
  hq_country: string;
  region: string;
  sector: string;
  subsector: string;
  stage: string;
  status: string;
  founded_year: number;
  total_raised_usd: number;
  rounds_count: number;
  last_round_date: string | null;
  last_round_stage: string | null;
  last_round_amount_usd: number | null;
  url: string;
}

export interface StartupSearchResult extends SearchPage {
  startups: StartupSummaryRow[];
}

/** A summary row as SQL returns it (no url; rounds_count null without rounds). */
type StartupDbRow = Omit<StartupSummaryRow, 'rounds_count' | 'url'> & { rounds_count: number | null };

const SUMMARY_COLUMNS = `s.key, s.name, s.description, s.website, s.hq_city, s.hq_country, s.region, s.sector,
  s.subsector, s.stage, s.status, s.founded_year, s.total_raised_usd, l.rounds AS rounds_count,
  l.date AS last_round_date, l.stage AS last_round_stage, l.amount_usd AS last_round_amount_usd`;

/** The order of search_startups: a total order, so offset paging never skips or repeats. */
export const STARTUP_ORDER = 'total raised descending, then key ascending';

/** At most this many words of a query are matched (each must occur in the name or description). */
const MAX_QUERY_WORDS = 8;

function summaryRow(row: StartupDbRow, baseUrl: string): StartupSummaryRow {
  return { ...row, rounds_count: row.rounds_count ?? 0, url: startupUrl(baseUrl, row.key) };
}

/**
 * Lists startups matching the filters, ordered by total raised descending then key, one page
 * at a time. query: every word must occur in the name or the description (case-insensitive);
 * sector: one of the 8 sectors or part of a name, else a subsector or tag; countries: names or
 * aliases; stages: stage slugs or words ('Series A'), 'series-c-plus' for every later stage.
 */
export function searchStartups(
  db: DatabaseSync,
  params: ParamsOut<'search_startups'>,
  baseUrl: string,
): StartupSearchResult {
  ensureStats(db);
  const where = new Where();
  if (params.query !== undefined) {
    const words = params.query.toLowerCase().split(/\s+/).filter(Boolean).slice(0, MAX_QUERY_WORDS);
    for (const word of words)
      where.add('(instr(lower(s.name), ?) > 0 OR instr(lower(s.description), ?) > 0)', [word, word]);
    where.filters.query = params.query;
  }
  if (params.sector !== undefined) {
    const sectors = matchSectors(params.sector);
    if (sectors.length) where.in('s.sector', sectors, 'sector');
    else {
      const term = params.sector.trim().toLowerCase();
      where.add(
        '(instr(lower(s.subsector), ?) > 0 OR EXISTS (SELECT 1 FROM json_each(s.tags) t WHERE lower(t.value) = ?))',
        [term, term],
        ['subsector_or_tag', params.sector],
      );
    }
  }
  if (params.countries !== undefined) {
    where.in(
      's.hq_country',
      [...new Set(params.countries.map((c) => countryFilter('countries', c)))],
      'countries',
    );
  }
  if (params.stages !== undefined) where.in('s.stage', stagesFilter(params.stages), 'stages');
  const rows = prepared(
    db,
    `SELECT ${SUMMARY_COLUMNS}
     FROM startups s LEFT JOIN temp.vis_startup_last_round l ON l.startup_key = s.key
     ${where.sql} ORDER BY s.total_raised_usd DESC, s.key ASC LIMIT ? OFFSET ?`,
  ).all(...where.args, params.limit, params.offset) as unknown as StartupDbRow[];
  return {
    startups: rows.map((r) => summaryRow(r, baseUrl)),
    ...pageFields(where.count(db, 'startups s'), params.limit, params.offset, rows.length),
    order: STARTUP_ORDER,
    filters: where.filters,
  };
}

export interface InvestorRef {
  key: string;
  name: string;
  url: string;
}

export interface StartupRound {
  id: number;
  date: string;
  stage: string;
  amount_usd: number;
  lead_investors: InvestorRef[];
  /** Every investor of the round, leads first. */
  investors: InvestorRef[];
  /** The investors of the round that did not lead it. */
  other_investors: InvestorRef[];
}

export interface StartupProfile extends StartupSummaryRow {
  domain: string;
  tags: string[];
  subsectors: string[];
  founders: { name: string; role?: string }[];
  rounds: StartupRound[];
  investors_count: number;
}

/**
 * The profile of a startup by key or exact name (case-insensitive; the largest by total
 * raised when two share a name), with every round oldest first. Null when none matches.
 */
export function startupProfile(db: DatabaseSync, keyOrName: string, baseUrl: string): StartupProfile | null {
  ensureStats(db);
  const wanted = keyOrName.trim();
  const select = `SELECT ${SUMMARY_COLUMNS}, s.domain, s.tags, s.founders
    FROM startups s LEFT JOIN temp.vis_startup_last_round l ON l.startup_key = s.key`;
  type Row = StartupDbRow & { domain: string; tags: string; founders: string };
  const row =
    (prepared(db, `${select} WHERE s.key = ?`).get(wanted) as Row | undefined) ??
    (prepared(
      db,
      `${select} WHERE s.name = ? COLLATE NOCASE ORDER BY s.total_raised_usd DESC, s.key LIMIT 1`,
    ).get(wanted) as Row | undefined);
  if (!row) return null;

  const rounds = prepared(
    db,
    'SELECT id, date, stage, amount_usd, lead_investor_key FROM rounds WHERE startup_key = ? ORDER BY date, id',
  ).all(row.key) as {
    id: number;
    date: string;
    stage: string;
    amount_usd: number;
    lead_investor_key: string | null;
  }[];
  const participants = prepared(
    db,
    `SELECT ri.round_id AS round_id, i.key AS key, i.name AS name, (ri.is_lead = 1 OR r.lead_investor_key = i.key) AS lead
     FROM rounds r JOIN round_investors ri ON ri.round_id = r.id JOIN investors i ON i.key = ri.investor_key
     WHERE r.startup_key = ?
     UNION
     SELECT r.id, i.key, i.name, 1 FROM rounds r JOIN investors i ON i.key = r.lead_investor_key
     WHERE r.startup_key = ? AND NOT EXISTS (SELECT 1 FROM round_investors x WHERE x.round_id = r.id AND x.investor_key = i.key)
     ORDER BY 1, 4 DESC, 3, 2`,
  ).all(row.key, row.key) as { round_id: number; key: string; name: string; lead: number }[];

  const byRound = new Map<number, { key: string; name: string; lead: number }[]>();
  for (const p of participants) {
    const list = byRound.get(p.round_id) ?? [];
    list.push(p);
    byRound.set(p.round_id, list);
  }
  const ref = (p: { key: string; name: string }): InvestorRef => ({
    key: p.key,
    name: p.name,
    url: investorUrl(baseUrl, p.key),
  });
  const { domain, tags, founders, ...summary } = row;
  return {
    ...summaryRow(summary, baseUrl),
    domain,
    tags: parseJson<string[]>(tags, []),
    subsectors: row.subsector ? [row.subsector] : [],
    founders: parseJson<{ name: string; role?: string }[]>(founders, []),
    rounds: rounds.map((r) => {
      const people = byRound.get(r.id) ?? [];
      return {
        id: r.id,
        date: r.date,
        stage: r.stage,
        amount_usd: r.amount_usd,
        lead_investors: people.filter((p) => p.lead).map(ref),
        investors: people.map(ref),
        other_investors: people.filter((p) => !p.lead).map(ref),
      };
    }),
    investors_count: new Set(participants.map((p) => p.key)).size,
  };
}
