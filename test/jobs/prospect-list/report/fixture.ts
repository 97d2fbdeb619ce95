/**
 * A synthetic prospect list for the renderer tests: a summary and rows as the activities pass
 * them on, with the names a list really brings (formula-like, `-2+3`, CJK, accents), rows whose
 * optional fields are all null, and a stress variant (long names and reasons, 20 briefs and 20
 * searches, many limits and malformed suppression rows). The summary lists its stored answers
 * (`sources`) and each row names its own (`sourceIds`), as a run makes them; `legacy` gives a
 * list as stored before sources were kept (neither).
 */
import { emptyRow } from '../../../../jobs/prospect-list/merge.js';
import { JOB_REGIONS } from '../../../../config/regions.js';
import { searchFilters } from '../../../../jobs/prospect-list/plan.js';
import type { SourceRow } from '../../../../shared/types.js';
import type {
  CountBar,
  ProspectRow,
  ProspectSummary,
  SuppressedRow,
} from '../../../../jobs/prospect-list/types.js';

export const FORMULA_NAME = '=HYPERLINK("http://x","y")';
export const MINUS_NAME = '-2+3';
export const CJK_NAME = '北京智能科技';
export const ACCENT_NAME = 'Zürich Ünïcode AG';

const COUNTRIES = [
  'Germany',
  'France',
  'United Kingdom',
  'Netherlands',
  'Switzerland',
  'Austria',
  'Spain',
  'Italy',
  'Sweden',
  'Denmark',
  'Poland',
  'Belgium',
  'Ireland',
  'Portugal',
  'Finland',
  'Norway',
  'Czechia',
  'Estonia',
  'Bosnia and Herzegovina',
  'China',
];
const SECTORS = [
  'Finance & Blockchain',
  'Artificial Intelligence & Data',
  'Energy, Environment & Mobility',
  'Consumer, Lifestyle & Services',
  'Software & Developer Tools',
  'Healthcare & Life Sciences',
  'Industry & Hardware',
  'Commerce & Marketing',
];
const STAGES = ['pre-seed', 'seed', 'series-a', 'series-b', 'series-c-plus', 'growth'];

const LONG_REASON =
  'Runs card payments for several hundred merchants across the DACH region and is hiring a payments ' +
  'operations team, which means reconciliation and chargeback handling at a scale your product automates';

/** The fixture's run (its store folder is `runs/<this>`). */
export const FIXTURE_RUN = 'prospect-list-dach-payments-prospects-2026-11-23';
/** Pages of each search in the default summary: search 1's 1,000 rows, search 2's 440. */
const SEARCH_PAGES = [10, 5];
/** Profiles (get_startup) of the default summary: the top 100 rows. */
const PROFILES = 100;

/**
 * The stored answers of a summary with these briefs (null: not asked) and searches' pages, then
 * `profiles` get_startup answers: ids S1, S2, ... in that order, as the activities read them.
 */
export function fixtureSources(
  briefs: readonly (string | null)[],
  pages: readonly number[],
  profiles: number,
) {
  const rows: SourceRow[] = [];
  const at = (minute: number) => `2026-11-23T06:${String(minute % 60).padStart(2, '0')}:00.000Z`;
  const add = (row: Omit<SourceRow, 'id' | 'status' | 'fetchedAt'>) => {
    const id = `S${rows.length + 1}`;
    rows.push({ id, status: 200, fetchedAt: at(rows.length), ...row });
    return id;
  };
  const briefIds = briefs.map((text, i) =>
    text === null
      ? []
      : [
          add({
            operation: 'find_customers',
            params: { brief: text, limit: 30 },
            credits: i === 1 ? 0 : 3,
            records: 30,
            ref: `runs/${FIXTURE_RUN}/customers/brief-${i + 1}.json`,
          }),
        ],
  );
  const searchIds = pages.map((n, s) =>
    Array.from({ length: n }, (_, p) =>
      add({
        operation: 'search_startups',
        params: { countries: ['Germany', 'Austria', 'Switzerland'], limit: 100, offset: p * 100 },
        credits: 0,
        records: 100,
        ref: `runs/${FIXTURE_RUN}/pages/search-${s + 1}-${p}.json`,
      }),
    ),
  );
  for (let i = 0; i < profiles; i++)
    add({
      operation: 'get_startup',
      params: { key: `st_${i + 1}` },
      credits: 0,
      records: 1,
      ref: `runs/${FIXTURE_RUN}/profiles/startup-${i}.json`,
    });
  return { sources: rows, briefIds, searchIds };
}

/**
 * The stored answers row `i` was read from, in the default summary's numbering: a brief's
 * answer (S1) and search 1's page of the row for a scored row, search 2's first page otherwise,
 * and the row's profile when it was enriched (the top 100).
 */
function rowSourceIds(i: number, scored: boolean): string[] {
  const first = SEARCH_PAGES[0]!;
  const page = scored ? `S${3 + (Math.floor((i - 1) / 100) % first)}` : `S${3 + first}`;
  const profile = i <= PROFILES ? [`S${2 + first + (SEARCH_PAGES[1] ?? 0) + i}`] : [];
  return [...(scored ? ['S1'] : []), page, ...profile];
}

/** One row of the list, rank `i` (1-based); `long` gives long names and reasons, `unscored` no fit. */
export function prospectRow(i: number, long = false, unscored = false): ProspectRow {
  const special: Partial<Record<number, string>> = {
    1: FORMULA_NAME,
    2: MINUS_NAME,
    3: CJK_NAME,
    4: ACCENT_NAME,
  };
  const scored = !unscored && i <= 60;
  const name =
    special[i] ??
    (long
      ? `Company ${i} Internationale Zahlungsverkehrs- und Abrechnungsdienstleistungsgesellschaft mbH & Co. KG`
      : `Company ${i} GmbH`);
  // Short domains as most are, one long one.
  const domain = i === 8 ? 'internationale-zahlungsdienste-gruppe.example.com' : `company${i}.de`;
  if (i === 5 || i === 26)
    // All optional fields null (the service gave a name and nothing else).
    return { ...emptyRow(i === 5 ? 'Nameonly Startup' : `Bare Company ${i}`), rank: i };
  return {
    rank: i,
    key: `st_${i}`,
    name,
    domain,
    // One website a spreadsheet must not link (not http), one plain https.
    website: i === 7 ? 'javascript:alert(1)' : `https://${domain}`,
    profileUrl: `https://vis.example.com/startups/st_${i}`,
    city: i % 3 === 0 ? 'Berlin' : 'Zürich',
    country: COUNTRIES[i % COUNTRIES.length] ?? null,
    sector: SECTORS[i % SECTORS.length] ?? null,
    subsector: i % 2 === 0 ? 'Payments' : null,
    stage: STAGES[i % STAGES.length] ?? null,
    status: 'active',
    description: `${name} builds payment infrastructure for small merchants.`,
    totalRaisedUsd: 1_000_000 + i * 250_000,
    lastRoundDate: `2025-${String((i % 12) + 1).padStart(2, '0')}-15`,
    lastRoundStage: STAGES[i % STAGES.length] ?? null,
    lastRoundAmountUsd: 500_000 + i * 10_000,
    fitPct: scored ? Math.max(50, 98 - i * 0.7) : null,
    momentum: scored ? (i * 37) % 101 : null,
    why: scored
      ? [long ? `${LONG_REASON} (${i})` : `Processes card payments (${i})`, 'Hiring a payments team']
      : [],
    sources: scored ? ['brief 1', 'search 1'] : ['search 2'],
    sourceIds: rowSourceIds(i, scored),
    deliveredOn: i % 10 === 0 ? '2026-11-16' : null,
    enriched: i <= 100,
    foundedYear: 2015 + (i % 9),
    founders: i % 4 === 0 ? ['=cmd|x (CEO)', 'Anna Müller (CTO)'] : ['Anna Müller (CEO)'],
    investors: ['+Plus Capital', 'Seedcamp'],
    roundsCount: (i % 5) + 1,
  };
}

/** The rows 1..n as a stream read chunk by chunk, as the store gives them. */
export async function* prospectRows(n: number, long = false, unscored = false): AsyncGenerator<ProspectRow> {
  for (let i = 1; i <= n; i++) {
    yield prospectRow(i, long, unscored);
    // A chunk boundary every 1,000 rows, as reading the next chunk from the store would be.
    if (i % 1000 === 0) await Promise.resolve();
  }
}

/** Suppressed rows, a formula-like one among them (each read from a page of search 2). */
export async function* suppressedRows(n: number): AsyncGenerator<SuppressedRow> {
  for (let i = 1; i <= n; i++) {
    const reason = i % 3 === 0 ? 'delivered' : i % 3 === 1 ? 'crm-domain' : 'crm-name';
    yield {
      sourceIds: [`S${3 + (SEARCH_PAGES[0] ?? 0) + (i % (SEARCH_PAGES[1] ?? 1))}`],
      name: i === 1 ? '@SUM(A1:A9)' : `Known Customer ${i}`,
      domain: reason === 'crm-name' ? null : `known-${i}.example.com`,
      key: `st_s${i}`,
      reason,
      detail:
        reason === 'delivered'
          ? 'delivered on 2026-11-16'
          : reason === 'crm-domain'
            ? `in the CRM export (domain known-${i}.example.com)`
            : `in the CRM export (name Known Customer ${i})`,
    };
  }
}

function bands(labels: string[], counts: number[]): CountBar[] {
  return labels.map((label, i) => ({ label, count: counts[i] ?? 0 }));
}

export interface FixtureOptions {
  /** Rows of the list (the top 25 come from them). Default 500. */
  listed?: number;
  /** Long names and reasons, 20 briefs, 20 searches, many limits and malformed rows. */
  stress?: boolean;
  /** No row scored: no fit, no momentum. */
  unscored?: boolean;
  /** A summary stored before sources were kept: no `sources`, no source ids on its rows, briefs or searches. */
  legacy?: boolean;
}

/** A row (or a summary's brief or search) as stored before sources were kept: without source ids. */
export function withoutSourceIds<T extends { sourceIds?: string[] }>(row: T): T {
  const { sourceIds: _ids, ...rest } = row;
  return rest as T;
}

/** A list's summary as stored before sources were kept: no sources, no source ids anywhere. */
export function legacySummary(summary: ProspectSummary): ProspectSummary {
  const { sources: _sources, ...rest } = summary;
  return {
    ...rest,
    briefs: summary.briefs.map(withoutSourceIds),
    searches: summary.searches.map(withoutSourceIds),
    top: summary.top.map(withoutSourceIds),
  };
}

/** Rows as stored before sources were kept. */
export async function* legacyRows<T extends { sourceIds?: string[] }>(
  rows: AsyncIterable<T>,
): AsyncGenerator<T> {
  for await (const r of rows) yield withoutSourceIds(r);
}

/** A summary consistent with `prospectRows(listed)`. */
export function prospectSummary(options: FixtureOptions = {}): ProspectSummary {
  const listed = options.listed ?? 500;
  const stress = options.stress ?? false;
  const scored = options.unscored ? 0 : Math.min(60, listed);
  const briefCount = stress ? 20 : 2;
  const searchCount = stress ? 20 : 2;
  const briefs = Array.from({ length: briefCount }, (_, i) => ({
    label: `brief ${i + 1}`,
    text: stress
      ? `We sell automated reconciliation and chargeback handling to payment companies, acquirers and marketplaces in the DACH region that run card payments for merchants, variant ${i + 1}`
      : 'Automated reconciliation for payment companies in DACH',
    returned: options.unscored ? 0 : 30,
    charged: i === 1 ? 0 : 3,
    problem: i === 2 ? 'not asked: the run budget of 9 credits was spent' : null,
  }));
  const searches = Array.from({ length: searchCount }, (_, i) => ({
    label: `search ${i + 1}`,
    // The filters in words as the workflow writes them (stages as words).
    filters: searchFilters(
      stress
        ? {
            countries: ['Germany', 'Austria', 'Switzerland', 'Netherlands', 'Belgium', 'Luxembourg'],
            sector: 'Finance & Blockchain',
            stages: ['seed', 'series-a', 'series-b'],
            query: `payments reconciliation ${i + 1}`,
            cap: 1000,
          }
        : i === 0
          ? {
              countries: ['Germany', 'Austria', 'Switzerland'],
              sector: 'Finance & Blockchain',
              stages: ['seed', 'series-a'],
              cap: 1000,
            }
          : { region: 'europe', countries: [...JOB_REGIONS.europe], query: 'payments', cap: 1000 },
    ),
    total: i === 1 ? null : 12_345,
    fetched: i === 0 ? 1000 : 440,
    cap: 1000,
    capped: i === 0,
    problem: i === 3 ? 'paging failed on page 3: the service answered 503 three times' : null,
  }));
  const limits = [
    'search 1 stopped at its cap of 1,000 rows (12,345 matching).',
    'brief 3 was not asked: the run budget of 9 credits was spent.',
    ...(stress
      ? Array.from(
          { length: 14 },
          (_, i) =>
            `search ${i + 5} stopped at its cap of 1,000 rows of 23,456 matching; raise its cap in the job file to get more of the list (limit ${i + 1}).`,
        )
      : []),
  ];
  const examples = stress
    ? Array.from(
        { length: 8 },
        (_, i) => `line ${i * 7 + 3}: no domain nor name ("${'x'.repeat(20)};;;=cmd|' /C calc'!A0;;${i}")`,
      )
    : ['line 7: no domain nor name (";;;")', 'line 12: no domain nor name ("=cmd|\' /C calc\'!A0")'];
  const top: ProspectRow[] = [];
  for (let i = 1; i <= Math.min(25, listed); i++) top.push(prospectRow(i, stress, options.unscored));
  const countries = COUNTRIES.map((c, i) => ({ label: c, count: Math.max(1, 80 - i * 4) }));
  const { sources, briefIds, searchIds } = fixtureSources(
    briefs.map((b) => (b.problem === null ? b.text : null)),
    searches.map((s, i) => (s.problem !== null ? 2 : (SEARCH_PAGES[i] ?? Math.ceil(s.fetched / 100)))),
    Math.min(PROFILES, listed),
  );
  const summary: ProspectSummary = {
    job: {
      id: 'dach-payments-prospects',
      title: stress
        ? 'DACH payments prospects for the reconciliation product: acquirers, PSPs and marketplaces, weekly refresh'
        : 'DACH payments prospects',
      delivered: 'mark',
      crm: ['hubspot', 'generic'],
      enrich: 100,
      outputs: ['csv', 'xlsx', 'pdf'],
    },
    date: '2026-11-23',
    counts: {
      merged: listed + 412,
      listed,
      suppressedByDomain: 312,
      suppressedByName: 41,
      suppressedDelivered: 59,
      markedDelivered: Math.floor(listed / 10),
      netNew: listed - Math.floor(listed / 10),
      scored,
      enriched: Math.min(100, listed),
      enrichAsked: 100,
      sourceRecords: listed + 700,
    },
    briefs: briefs.map((b, i) => ({ ...b, sourceIds: briefIds[i] ?? [] })),
    searches: searches.map((s, i) => ({ ...s, sourceIds: searchIds[i] ?? [] })),
    suppression: {
      file: 'hubspot-companies-export-2026-11-20.csv',
      rows: 1200,
      malformed: examples.length + (stress ? 30 : 0),
      examples,
    },
    limits,
    top,
    charts: {
      stages:
        listed === 0
          ? []
          : STAGES.map((s, i) => ({ label: s, count: 20 + i * 7 })).concat([{ label: 'unknown', count: 4 }]),
      sectors: listed === 0 ? [] : SECTORS.map((s, i) => ({ label: s, count: 90 - i * 9 })),
      countries: listed === 0 ? [] : countries,
      momentum: bands(['0-19', '20-39', '40-59', '60-79', '80-100'], scored ? [5, 9, 17, 19, 10] : []),
      fit: bands(
        ['below 50', '50-59', '60-69', '70-79', '80-89', '90-100'],
        scored ? [0, 8, 14, 16, 12, 10] : [],
      ),
    },
    notProvided: ['employees', 'revenue_usd'],
    stats: {
      workflowId: 'prospect-list-dach-payments-prospects-2026-11-23',
      runId: 'run-1',
      startedAt: '2026-11-23T06:00:00.000Z',
      callsByOperation: { find_customers: briefCount, search_startups: 15, get_startup: 100 },
      callsMade: briefCount + 115,
      pages: 15,
      records: listed + 700,
      creditsSpent: 6,
      creditsBudget: 9,
      accountBalance: 994,
      partial: false,
      reasons: [],
    },
    sources,
  };
  return options.legacy ? legacySummary(summary) : summary;
}
