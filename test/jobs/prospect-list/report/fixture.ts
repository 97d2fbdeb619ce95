/**
 * A synthetic prospect list for the renderer tests: a summary and rows as the activities pass
 * them on, with the names a list really brings (formula-like, `-2+3`, CJK, accents), rows whose
 * optional fields are all null, and a stress variant (long names and reasons, 20 briefs and 20
 * searches, many limits and malformed suppression rows).
 */
import { emptyRow } from '../../../../jobs/prospect-list/merge.js';
import { JOB_REGIONS } from '../../../../config/regions.js';
import { searchFilters } from '../../../../jobs/prospect-list/plan.js';
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

/** Suppressed rows, a formula-like one among them. */
export async function* suppressedRows(n: number): AsyncGenerator<SuppressedRow> {
  for (let i = 1; i <= n; i++) {
    const reason = i % 3 === 0 ? 'delivered' : i % 3 === 1 ? 'crm-domain' : 'crm-name';
    yield {
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
  return {
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
    briefs,
    searches,
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
  };
}
