/**
 * Assembles what a market-report run fetched (stored pages, overviews, profiles, answers)
 * into plain data: deduplicated records, top lists, and the comparison with the previous run.
 * Everything inside `data` is read with the tolerant accessors of api/read.ts; what the
 * service did not provide is named in `notProvided`, never a failure.
 */
import type { ChartSpec, Result } from '../../api/envelope.js';
import { absentFields, asObject, readField, readRecord, type ReadRecord } from '../../api/read.js';
import {
  ACTIVE_INVESTOR_FIELDS,
  ANSWER_FIELDS,
  MIX_FIELDS,
  OVERVIEW_FIELDS,
  OVERVIEW_SECTIONS,
  SECTOR_LABEL,
  STAGE_LABEL,
  YEAR_FIELDS,
} from '../../api/read-answers.js';
import { readPage } from '../../api/read-page.js';
import { INVESTOR_PROFILE_FIELDS, PORTFOLIO_FIELDS, readProfile } from '../../api/read-profiles.js';
import { INVESTOR_FIELDS, STARTUP_FIELDS } from '../../api/read-records.js';
import type { Store } from '../../activities/store.js';
import type { StoreRef, StoredCall } from '../../activities/types.js';
import type { AnswerRef, CountryRefs } from './types.js';

/** What the next run compares against. */
export interface RunSnapshot {
  jobId: string;
  workflowId: string;
  runAt: string;
  countries: Record<
    string,
    {
      topInvestorKeys: string[];
      topStartupKeys: string[];
      byYear: { year: number; deals: number; capital_usd: number }[];
      /**
       * The weeks this job's runs reported, newest first (this run's first), at most
       * {@link WEEKS_KEPT}: the rounds the service added between one run and the run before it.
       */
      weeks?: WeekEntry[];
    }
  >;
}

/** How many past weeks a snapshot keeps (the previous week and the average of the last four). */
export const WEEKS_KEPT = 5;

/** One run's week: the rounds the service added for a country since the run before it. */
export interface WeekEntry {
  /** When the run that saw the week started (ISO). */
  runAt: string;
  deals: number;
  capital_usd: number;
}

/** A country's week as this run saw it, against the previous run's week and a recent average. */
export interface CountryWeekData {
  country: string;
  /** Rounds and capital the service added since the previous run; null on a first run. */
  week: WeekEntry | null;
  /** The previous run's week (null when that run had none). */
  previous: WeekEntry | null;
  /** The average week of the last runs before this one (up to four), with how many it averages. */
  average: { deals: number; capital_usd: number; runs: number } | null;
  /** What the next snapshot keeps, newest first. */
  history: WeekEntry[];
}

export type InvestorItem = ReadRecord<typeof INVESTOR_FIELDS> & { key: string; name: string };
export type StartupItem = ReadRecord<typeof STARTUP_FIELDS> & { key: string; name: string };

export interface YearItem {
  year: number;
  deals: number;
  capital_usd: number;
  yoy_deals_pct: number | null;
  yoy_capital_pct: number | null;
}
export interface MixItem {
  label: string;
  deals: number;
  capital_usd: number | null;
}
export interface ActiveInvestorItem {
  key: string | null;
  name: string;
  deals: number;
  lead_deals: number | null;
  url: string | null;
}

/** A country overview as read; a section is null when the service did not provide it. */
export interface OverviewRead {
  country: string | null;
  region: string | null;
  as_of: string | null;
  by_year: YearItem[] | null;
  stage_mix: MixItem[] | null;
  top_sectors: MixItem[] | null;
  most_active_investors: ActiveInvestorItem[] | null;
}

export interface ProfileItem {
  key: string;
  name: string;
  thesis: string | null;
  investor_type: string | null;
  hq_city: string | null;
  hq_country: string | null;
  url: string | null;
  recent_portfolio: ReadRecord<typeof PORTFOLIO_FIELDS>[];
}

export interface CountryData {
  country: string;
  overview: OverviewRead | null;
  overviewSummary: string | null;
  overviewUrl: string | null;
  overviewCharts: ChartSpec[];
  investorsByScore: InvestorItem[];
  investorsByInvestments: InvestorItem[];
  startups: StartupItem[];
  investorProfiles: ProfileItem[];
  startupProfiles: StartupItem[];
  investorsTotal: number | null;
  startupsTotal: number | null;
  investorsCapped: boolean;
  startupsCapped: boolean;
  /** Records seen on pages, and how many were duplicates across pages. */
  duplicatesDropped: number;
  /** What the service did not provide for this country, as a reader names it ("stage mix"). */
  notProvided: string[];
  /** Other things the reading noticed (records left out, charts left out), as sentences. */
  readingNotes: string[];
}

export interface AnswerData {
  question: string;
  country: string | null;
  answer: string | null;
  columns: string[];
  rows: Record<string, unknown>[];
  charts: ChartSpec[];
  sql: string | null;
  url: string | null;
  skipped: string | null;
  charged: number;
}

/** Deduplicates records by key, keeping the first occurrence (page order is the service's order). */
export function dedupeByKey<T extends { key: string }>(items: T[]): { items: T[]; dropped: number } {
  const seen = new Set<string>();
  const out: T[] = [];
  for (const it of items) {
    if (seen.has(it.key)) continue;
    seen.add(it.key);
    out.push(it);
  }
  return { items: out, dropped: items.length - out.length };
}

/** The stored calls of one country, as loaded from the store. */
export interface CountryCalls {
  refs: CountryRefs;
  overview: StoredCall | null;
  investorsByScore: StoredCall[];
  investorsByInvestments: StoredCall[];
  startups: StoredCall[];
  investorProfiles: StoredCall[];
  startupProfiles: StoredCall[];
}

/** Loads one country's stored calls. */
export async function loadCountry(store: Store, refs: CountryRefs): Promise<CountryCalls> {
  const all = (rs: StoreRef[]) => Promise.all(rs.map((r) => store.getJson<StoredCall>(r)));
  return {
    refs,
    overview: refs.overview ? await store.getJson<StoredCall>(refs.overview) : null,
    investorsByScore: await all(refs.investorsByScore),
    investorsByInvestments: await all(refs.investorsByInvestments),
    startups: await all(refs.startups),
    investorProfiles: await all(refs.investorProfiles),
    startupProfiles: await all(refs.startupProfiles),
  };
}

/** Collects "not provided" names and reading notes while a country is read. */
class Findings {
  readonly notProvided: string[] = [];
  readonly notes: string[] = [];
  missing(what: string): void {
    if (!this.notProvided.includes(what)) this.notProvided.push(what);
  }
  note(text: string): void {
    if (!this.notes.includes(text)) this.notes.push(text);
  }
}

/** How the report names each field it shows when the service leaves it out. */
const INVESTOR_LABELS: Partial<Record<keyof typeof INVESTOR_FIELDS, string>> = {
  investor_type: 'investor type',
  hq_city: 'investor HQ city',
  hq_country: 'investor HQ country',
  score: 'investor score',
  investments_count: 'investor investment counts',
  url: 'investor links',
};
const STARTUP_LABELS: Partial<Record<keyof typeof STARTUP_FIELDS, string>> = {
  sector: 'startup sector',
  stage: 'startup stage',
  hq_city: 'startup HQ city',
  total_raised_usd: 'startup total raised',
  last_round_date: 'startup last round date',
  last_round_amount_usd: 'startup last round amount',
  url: 'startup links',
};

/** Reads records of pages with a field table; records without a key or a name are left out. */
function readItems<F extends typeof INVESTOR_FIELDS | typeof STARTUP_FIELDS>(
  calls: StoredCall[],
  fields: F,
  labels: Partial<Record<keyof F, string>>,
  what: string,
  found: Findings,
): (ReadRecord<F> & { key: string; name: string })[] {
  const raw = calls.flatMap((c) => readPage(c.operation, c.result.data).items);
  for (const f of absentFields(raw, fields)) {
    const label = labels[f];
    if (label) found.missing(label);
  }
  const out: (ReadRecord<F> & { key: string; name: string })[] = [];
  let unnamed = 0;
  for (const r of raw) {
    const rec = readRecord(r, fields);
    if (rec.key === null || rec.name === null) unnamed++;
    else out.push(rec as ReadRecord<F> & { key: string; name: string });
  }
  if (unnamed > 0) found.note(`${unnamed} ${what} without a key or a name were left out`);
  return out;
}

/** Reads a section of the overview that is a list of rows; null when not provided. */
function readRows<T>(
  data: unknown,
  section: keyof typeof OVERVIEW_SECTIONS,
  label: string,
  row: (o: unknown) => T | null,
  found: Findings,
): T[] | null {
  const list = readField(data, OVERVIEW_SECTIONS[section]);
  if (list === null) {
    found.missing(label);
    return null;
  }
  const rows = list.map(row).filter((r): r is T => r !== null);
  if (rows.length < list.length)
    found.note(`${list.length - rows.length} rows of the ${label} could not be read and were left out`);
  return rows;
}

function mixRow(labelSpec: typeof STAGE_LABEL) {
  return (o: unknown): MixItem | null => {
    const label = readField(o, labelSpec);
    const m = readRecord(o, MIX_FIELDS);
    return label === null || m.deals === null ? null : { label, deals: m.deals, capital_usd: m.capital_usd };
  };
}

/** Reads a country overview's data (any object, or nothing). */
export function readOverview(data: unknown, found: Findings = new Findings()): OverviewRead {
  const head = readRecord(data, OVERVIEW_FIELDS);
  return {
    ...head,
    by_year: readRows(
      data,
      'by_year',
      'deals and capital by year',
      (o) => {
        const y = readRecord(o, YEAR_FIELDS);
        if (y.year === null || y.deals === null || y.capital_usd === null) return null;
        return { ...y, year: y.year, deals: y.deals, capital_usd: y.capital_usd };
      },
      found,
    ),
    stage_mix: readRows(data, 'stage_mix', 'stage mix', mixRow(STAGE_LABEL), found),
    top_sectors: readRows(data, 'top_sectors', 'top sectors', mixRow(SECTOR_LABEL), found),
    most_active_investors: readRows(
      data,
      'most_active_investors',
      'most active investors',
      (o) => {
        const i = readRecord(o, ACTIVE_INVESTOR_FIELDS);
        if (i.name === null || i.deals === null) return null;
        return { key: i.key, name: i.name, deals: i.deals, lead_deals: i.lead_deals, url: i.url };
      },
      found,
    ),
  };
}

const CHART_KEYS = ['type', 'title', 'xKey', 'series', 'data', 'unit'] as const;

/**
 * The charts of an answer the report can draw: chart objects with at least one row of data.
 * The renderer reads each one tolerantly (an unknown type becomes a line, bars or a table of
 * its data); a chart without rows is left out with a note.
 */
export function readCharts(result: Result, found: Findings, where: string): ChartSpec[] {
  const out: ChartSpec[] = [];
  for (const c of result.charts ?? []) {
    const chart = asObject(c);
    if (chart === null) continue;
    const rows = Array.isArray(chart.data) ? chart.data.filter((r) => asObject(r) !== null) : [];
    if (rows.length === 0) {
      const title =
        typeof chart.title === 'string' && chart.title.trim() ? `"${chart.title.trim()}"` : 'untitled';
      found.note(`the ${title} chart of the ${where} had no data the report could draw and was left out`);
      continue;
    }
    // The spec's named keys of a chart; anything else the service adds is not drawn.
    const named: ChartSpec = {};
    for (const k of CHART_KEYS) if (chart[k] !== undefined) named[k] = chart[k];
    out.push(named);
  }
  return out;
}

function profileOf(call: StoredCall): ProfileItem | null {
  const p = readProfile('investor', call.result.data);
  if (p === null) return null;
  const i = readRecord(p, INVESTOR_FIELDS);
  const extra = readRecord(p, INVESTOR_PROFILE_FIELDS);
  // A profile without its key in it is the one asked for.
  const asked = asObject(call.params)?.key;
  const key = i.key ?? (typeof asked === 'string' ? asked : '');
  if (key === '' || i.name === null) return null;
  return {
    key,
    name: i.name,
    thesis: extra.thesis,
    investor_type: i.investor_type,
    hq_city: i.hq_city,
    hq_country: i.hq_country,
    url: i.url ?? call.result.url ?? null,
    recent_portfolio: (extra.recent_portfolio ?? []).map((r) => readRecord(r, PORTFOLIO_FIELDS)),
  };
}

/** Reads one country's stored calls into plain data. Never throws on what the service sent. */
export function readCountryCalls(calls: CountryCalls): CountryData {
  const { refs } = calls;
  const found = new Findings();
  let overview: OverviewRead | null = null;
  let overviewSummary: string | null = null;
  let overviewUrl: string | null = null;
  let overviewCharts: ChartSpec[] = [];
  if (calls.overview) {
    const r = calls.overview.result;
    overview = readOverview(r.data, found);
    overviewSummary = typeof r.summary === 'string' ? r.summary : null;
    overviewUrl = typeof r.url === 'string' ? r.url : null;
    overviewCharts = readCharts(r, found, 'country overview');
  }
  const byScore = dedupeByKey(
    readItems(calls.investorsByScore, INVESTOR_FIELDS, INVESTOR_LABELS, 'investors', found),
  );
  const byInv = dedupeByKey(
    readItems(calls.investorsByInvestments, INVESTOR_FIELDS, INVESTOR_LABELS, 'investors', found),
  );
  const startups = dedupeByKey(readItems(calls.startups, STARTUP_FIELDS, STARTUP_LABELS, 'startups', found));
  if (refs.investorsByScore.length > 0 && refs.investorsTotal === null)
    found.note('the investor search gave no total, so it was paged until a short page');
  if (refs.startups.length > 0 && refs.startupsTotal === null)
    found.note('the startup search gave no total, so it was paged until a short page');
  const investorProfiles: ProfileItem[] = [];
  for (const call of calls.investorProfiles) {
    const p = profileOf(call);
    if (p) investorProfiles.push(p);
    else found.missing('an investor profile');
  }
  const startupProfiles: StartupItem[] = [];
  for (const call of calls.startupProfiles) {
    const p = readRecord(readProfile('startup', call.result.data), STARTUP_FIELDS);
    if (p.key !== null && p.name !== null) startupProfiles.push(p as StartupItem);
    else found.missing('a startup profile');
  }
  return {
    country: refs.country,
    overview,
    overviewSummary,
    overviewUrl,
    overviewCharts,
    investorsByScore: byScore.items,
    investorsByInvestments: byInv.items,
    startups: startups.items,
    investorProfiles,
    startupProfiles,
    investorsTotal: refs.investorsTotal,
    startupsTotal: refs.startupsTotal,
    investorsCapped: refs.investorsCapped,
    startupsCapped: refs.startupsCapped,
    duplicatesDropped: byScore.dropped + byInv.dropped + startups.dropped,
    notProvided: found.notProvided,
    readingNotes: found.notes,
  };
}

/** Reads one country's stored calls into plain data. */
export async function readCountry(store: Store, refs: CountryRefs): Promise<CountryData> {
  return readCountryCalls(await loadCountry(store, refs));
}

const PLAIN_NUMBER = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;
/** An answer row with numbers given as plain numeric strings ("1234", "-2.5") read as numbers. */
function numericCells(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row))
    out[k] = typeof v === 'string' && PLAIN_NUMBER.test(v) ? Number(v) : v;
  return out;
}

function onlyColumns(row: Record<string, unknown>, columns: string[]): Record<string, unknown> {
  return Object.fromEntries(columns.filter((c) => c in row).map((c) => [c, row[c]]));
}

/** Reads one data agent answer (or what stands for a question that was not asked). */
export function readAnswer(a: AnswerRef, call: StoredCall | null): AnswerData {
  const base: AnswerData = {
    question: a.question,
    country: a.country,
    answer: null,
    columns: [],
    rows: [],
    charts: [],
    sql: null,
    url: null,
    skipped: a.skipped,
    charged: a.charged,
  };
  if (call === null) return base;
  const r = call.result;
  const d = readRecord(r.data, ANSWER_FIELDS);
  base.answer = d.answer ?? (typeof r.summary === 'string' ? r.summary : null);
  const rows = (d.rows ?? []).map(numericCells);
  base.columns = d.columns && d.columns.length > 0 ? d.columns : rows[0] ? Object.keys(rows[0]) : [];
  // The columns the service declared are the answer's; anything else in a row is not shown.
  base.rows = d.columns && d.columns.length > 0 ? rows.map((r) => onlyColumns(r, base.columns)) : rows;
  base.sql = d.sql;
  base.charts = readCharts(r, new Findings(), 'answer');
  base.url = typeof r.url === 'string' ? r.url : null;
  return base;
}

/** Reads the data agent's answers. */
export async function readAnswers(store: Store, answers: AnswerRef[]): Promise<AnswerData[]> {
  const out: AnswerData[] = [];
  for (const a of answers) out.push(readAnswer(a, a.ref ? await store.getJson<StoredCall>(a.ref) : null));
  return out;
}

/** The snapshot of this run that the next run compares against. */
export function snapshotOf(
  jobId: string,
  workflowId: string,
  runAt: string,
  countries: CountryData[],
  topN: { investors: number; startups: number },
  weeks: CountryWeekData[] = [],
): RunSnapshot {
  const snap: RunSnapshot = { jobId, workflowId, runAt, countries: {} };
  for (const c of countries) {
    const history = weeks.find((w) => w.country === c.country)?.history ?? [];
    snap.countries[c.country] = {
      weeks: history,
      topInvestorKeys: c.investorsByScore.slice(0, topN.investors).map((i) => i.key),
      topStartupKeys: c.startups.slice(0, topN.startups).map((s) => s.key),
      byYear: (c.overview?.by_year ?? []).map((y) => ({
        year: y.year,
        deals: y.deals,
        capital_usd: y.capital_usd,
      })),
    };
  }
  return snap;
}

export interface CountryComparison {
  country: string;
  /** Top investors / startups that were not in the previous run's top lists (empty on a first run). */
  newTopInvestors: { key: string; name: string }[];
  newTopStartups: { key: string; name: string }[];
}

/** Compares this run with the previous snapshot (null: first run). */
export function compare(
  countries: CountryData[],
  previous: RunSnapshot | null,
  top: { investors: number; startups: number },
): CountryComparison[] {
  return countries.map((c) => {
    const prev = previous?.countries[c.country];
    const topInv = c.investorsByScore.slice(0, top.investors);
    const topSt = c.startups.slice(0, top.startups);
    const prevInv = new Set(prev?.topInvestorKeys ?? []);
    const prevSt = new Set(prev?.topStartupKeys ?? []);
    return {
      country: c.country,
      newTopInvestors: prev
        ? topInv.filter((i) => !prevInv.has(i.key)).map((i) => ({ key: i.key, name: i.name }))
        : [],
      newTopStartups: prev
        ? topSt.filter((s) => !prevSt.has(s.key)).map((s) => ({ key: s.key, name: s.name }))
        : [],
    };
  });
}

/** Deals and capital summed over every year of a by-year list. */
function allYears(rows: readonly { deals: number; capital_usd: number }[]): {
  deals: number;
  capital_usd: number;
} {
  return rows.reduce((t, y) => ({ deals: t.deals + y.deals, capital_usd: t.capital_usd + y.capital_usd }), {
    deals: 0,
    capital_usd: 0,
  });
}

/**
 * Each country's week: the rounds and capital the service added since the previous run (its
 * deals and capital summed over every year now, minus the same sums at the previous run, so a
 * round reported late counts in the week it appears), the previous run's week, and the average
 * of the last four runs' weeks where they exist. A first run (or a country the previous run did
 * not cover, or an overview without years) has no week.
 */
export function weekFigures(
  countries: CountryData[],
  previous: RunSnapshot | null,
  runAt: string,
): CountryWeekData[] {
  return countries.map((c) => {
    const prev = previous?.countries[c.country];
    const past = (prev?.weeks ?? []).slice(0, WEEKS_KEPT);
    const now = c.overview?.by_year;
    let week: WeekEntry | null = null;
    if (prev && now && now.length > 0 && prev.byYear.length > 0) {
      const a = allYears(now);
      const b = allYears(prev.byYear);
      week = { runAt, deals: a.deals - b.deals, capital_usd: a.capital_usd - b.capital_usd };
    }
    const lastFour = past.slice(0, 4);
    return {
      country: c.country,
      week,
      previous: past[0] ?? null,
      average:
        lastFour.length > 0
          ? {
              deals: lastFour.reduce((s, w) => s + w.deals, 0) / lastFour.length,
              capital_usd: lastFour.reduce((s, w) => s + w.capital_usd, 0) / lastFour.length,
              runs: lastFour.length,
            }
          : null,
      history: (week ? [week, ...past] : past).slice(0, WEEKS_KEPT),
    };
  });
}
