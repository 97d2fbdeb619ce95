/**
 * Reads one country's stored calls (the overview, the investor and startup search pages, the
 * profiles) into plain data: records deduplicated by key in the service's order, the profiles
 * the run enriched, and what the service did not provide. Never throws on what the service sent.
 */
import type { ChartSpec } from '../../api/envelope.js';
import { absentFields, asObject, readRecord, type ReadRecord } from '../../api/read.js';
import { readPage } from '../../api/read-page.js';
import { INVESTOR_PROFILE_FIELDS, PORTFOLIO_FIELDS, readProfile } from '../../api/read-profiles.js';
import { INVESTOR_FIELDS, STARTUP_FIELDS } from '../../api/read-records.js';
import { SourceBook } from '../../activities/sources.js';
import type { Store } from '../../activities/store.js';
import type { StoreRef, StoredCall } from '../../shared/types.js';
import { Findings, readCharts } from './read-common.js';
import { readOverview } from './read-overview.js';
import type { OverviewRead } from './read-overview.js';
import type { CountryRefs } from './types.js';

/** A record's source: the id of the stored answer it was read from (when read through a SourceBook). */
interface Sourced {
  source?: string;
}

export type InvestorItem = ReadRecord<typeof INVESTOR_FIELDS> & { key: string; name: string } & Sourced;
export type StartupItem = ReadRecord<typeof STARTUP_FIELDS> & { key: string; name: string } & Sourced;

export interface ProfileItem {
  key: string;
  name: string;
  thesis: string | null;
  investor_type: string | null;
  hq_city: string | null;
  hq_country: string | null;
  url: string | null;
  recent_portfolio: ReadRecord<typeof PORTFOLIO_FIELDS>[];
  source?: string;
}

export interface CountryData {
  country: string;
  overview: OverviewRead | null;
  overviewSummary: string | null;
  overviewUrl: string | null;
  overviewCharts: ChartSpec[];
  /** The source id of the stored overview (null: none stored; absent: read without sources). */
  overviewSource?: string | null;
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

/** The source ids of one country's stored calls, in the order of {@link CountryCalls}' lists. */
export interface CountrySourceIds {
  overview: string | null;
  investorsByScore: string[];
  investorsByInvestments: string[];
  startups: string[];
  investorProfiles: string[];
  startupProfiles: string[];
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
  /** Each call's source id (absent: the calls were not read through a SourceBook). */
  ids?: CountrySourceIds;
}

/**
 * Loads one country's stored calls through `book`, which gives each its source id: the
 * overview, the search pages (by score, by investments, startups), then the profiles, in the
 * order of the references (so the ids are the same on a retry).
 */
export async function loadCountry(
  store: Store,
  refs: CountryRefs,
  book: SourceBook = new SourceBook(store),
): Promise<CountryCalls> {
  const all = async (rs: StoreRef[]) => {
    const read = await Promise.all(rs.map((r) => book.read(r)));
    return { calls: read.map((r) => r.call), ids: read.map((r) => r.source) };
  };
  const overview = refs.overview ? await book.read(refs.overview) : null;
  const byScore = await all(refs.investorsByScore);
  const byInv = await all(refs.investorsByInvestments);
  const startups = await all(refs.startups);
  const investorProfiles = await all(refs.investorProfiles);
  const startupProfiles = await all(refs.startupProfiles);
  return {
    refs,
    overview: overview?.call ?? null,
    investorsByScore: byScore.calls,
    investorsByInvestments: byInv.calls,
    startups: startups.calls,
    investorProfiles: investorProfiles.calls,
    startupProfiles: startupProfiles.calls,
    ids: {
      overview: overview?.source ?? null,
      investorsByScore: byScore.ids,
      investorsByInvestments: byInv.ids,
      startups: startups.ids,
      investorProfiles: investorProfiles.ids,
      startupProfiles: startupProfiles.ids,
    },
  };
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

/**
 * Reads records of pages with a field table, each with the source id of its page (`ids`, in
 * the order of `calls`); records without a key or a name are left out.
 */
function readItems<F extends typeof INVESTOR_FIELDS | typeof STARTUP_FIELDS>(
  calls: StoredCall[],
  ids: readonly string[] | undefined,
  fields: F,
  labels: Partial<Record<keyof F, string>>,
  what: string,
  found: Findings,
): (ReadRecord<F> & { key: string; name: string } & Sourced)[] {
  const pages = calls.map((c, k) => ({
    items: readPage(c.operation, c.result.data).items,
    source: ids?.[k],
  }));
  const raw = pages.flatMap((p) => p.items);
  for (const f of absentFields(raw, fields)) {
    const label = labels[f];
    if (label) found.missing(label);
  }
  const out: (ReadRecord<F> & { key: string; name: string } & Sourced)[] = [];
  let unnamed = 0;
  for (const { items, source } of pages)
    for (const r of items) {
      const rec = readRecord(r, fields);
      if (rec.key === null || rec.name === null) unnamed++;
      else
        out.push({
          ...(rec as ReadRecord<F> & { key: string; name: string }),
          ...(source ? { source } : {}),
        });
    }
  if (unnamed > 0) found.note(`${unnamed} ${what} without a key or a name were left out`);
  return out;
}

function profileOf(call: StoredCall, source: string | undefined): ProfileItem | null {
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
    ...(source ? { source } : {}),
  };
}

/** Reads one country's stored calls into plain data. Never throws on what the service sent. */
export function readCountryCalls(calls: CountryCalls): CountryData {
  const { refs, ids } = calls;
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
    readItems(
      calls.investorsByScore,
      ids?.investorsByScore,
      INVESTOR_FIELDS,
      INVESTOR_LABELS,
      'investors',
      found,
    ),
  );
  const byInv = dedupeByKey(
    readItems(
      calls.investorsByInvestments,
      ids?.investorsByInvestments,
      INVESTOR_FIELDS,
      INVESTOR_LABELS,
      'investors',
      found,
    ),
  );
  const startups = dedupeByKey(
    readItems(calls.startups, ids?.startups, STARTUP_FIELDS, STARTUP_LABELS, 'startups', found),
  );
  if (refs.investorsByScore.length > 0 && refs.investorsTotal === null)
    found.note('the investor search gave no total, so it was paged until a short page');
  if (refs.startups.length > 0 && refs.startupsTotal === null)
    found.note('the startup search gave no total, so it was paged until a short page');
  const investorProfiles: ProfileItem[] = [];
  for (const [k, call] of calls.investorProfiles.entries()) {
    const p = profileOf(call, ids?.investorProfiles[k]);
    if (p) investorProfiles.push(p);
    else found.missing('an investor profile');
  }
  const startupProfiles: StartupItem[] = [];
  for (const [k, call] of calls.startupProfiles.entries()) {
    const p = readRecord(readProfile('startup', call.result.data), STARTUP_FIELDS);
    const source = ids?.startupProfiles[k];
    if (p.key !== null && p.name !== null)
      startupProfiles.push({ ...(p as StartupItem), ...(source ? { source } : {}) });
    else found.missing('a startup profile');
  }
  return {
    country: refs.country,
    overview,
    overviewSummary,
    overviewUrl,
    overviewCharts,
    ...(ids ? { overviewSource: calls.overview ? ids.overview : null } : {}),
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

/** Reads one country's stored calls into plain data, each record with its source id (`book`'s). */
export async function readCountry(store: Store, refs: CountryRefs, book?: SourceBook): Promise<CountryData> {
  return readCountryCalls(await loadCountry(store, refs, book));
}
