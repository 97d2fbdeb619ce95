/**
 * Assembles what a market-report run fetched (stored pages, overviews, profiles, answers)
 * into plain data: deduplicated records, top lists, and the comparison with the previous run.
 */
import type { ChartSpec } from '../../api/envelope.js';
import type { CountryOverviewData, InvestorSummary, StartupSummary } from '../../api/data.js';
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
    }
  >;
}

export interface CountryData {
  country: string;
  overview: CountryOverviewData | null;
  overviewSummary: string | null;
  overviewUrl: string | null;
  overviewCharts: ChartSpec[];
  investorsByScore: InvestorSummary[];
  investorsByInvestments: InvestorSummary[];
  startups: StartupSummary[];
  investorProfiles: Record<string, unknown>[];
  startupProfiles: Record<string, unknown>[];
  investorsTotal: number | null;
  startupsTotal: number | null;
  investorsCapped: boolean;
  startupsCapped: boolean;
  /** Records seen on pages, and how many were duplicates across pages. */
  duplicatesDropped: number;
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

async function readPages<T extends { key: string }>(
  store: Store,
  refs: StoreRef[],
  field: string,
): Promise<T[]> {
  const all: T[] = [];
  for (const ref of refs) {
    const call = await store.getJson<StoredCall>(ref);
    const arr = (call.result.data?.[field] ?? []) as unknown[];
    for (const it of arr) {
      if (it && typeof it === 'object' && typeof (it as { key?: unknown }).key === 'string')
        all.push(it as T);
    }
  }
  return all;
}

/** Reads one country's stored calls into plain data. */
export async function readCountry(store: Store, refs: CountryRefs): Promise<CountryData> {
  let overview: CountryOverviewData | null = null;
  let overviewSummary: string | null = null;
  let overviewUrl: string | null = null;
  let overviewCharts: ChartSpec[] = [];
  if (refs.overview) {
    const call = await store.getJson<StoredCall>(refs.overview);
    overview = (call.result.data ?? null) as CountryOverviewData | null;
    overviewSummary = call.result.summary ?? null;
    overviewUrl = call.result.url ?? null;
    overviewCharts = call.result.charts ?? [];
  }
  const byScore = dedupeByKey(await readPages<InvestorSummary>(store, refs.investorsByScore, 'investors'));
  const byInv = dedupeByKey(
    await readPages<InvestorSummary>(store, refs.investorsByInvestments, 'investors'),
  );
  const startups = dedupeByKey(await readPages<StartupSummary>(store, refs.startups, 'startups'));
  const profiles = async (rs: StoreRef[], field: string) => {
    const out: Record<string, unknown>[] = [];
    for (const r of rs) {
      const call = await store.getJson<StoredCall>(r);
      const v = call.result.data?.[field];
      if (v && typeof v === 'object')
        out.push({ ...(v as Record<string, unknown>), url: (v as { url?: unknown }).url ?? call.result.url });
    }
    return out;
  };
  return {
    country: refs.country,
    overview,
    overviewSummary,
    overviewUrl,
    overviewCharts,
    investorsByScore: byScore.items,
    investorsByInvestments: byInv.items,
    startups: startups.items,
    investorProfiles: await profiles(refs.investorProfiles, 'investor'),
    startupProfiles: await profiles(refs.startupProfiles, 'startup'),
    investorsTotal: refs.investorsTotal,
    startupsTotal: refs.startupsTotal,
    investorsCapped: refs.investorsCapped,
    startupsCapped: refs.startupsCapped,
    duplicatesDropped: byScore.dropped + byInv.dropped + startups.dropped,
  };
}

/** Reads the data agent's answers. */
export async function readAnswers(store: Store, answers: AnswerRef[]): Promise<AnswerData[]> {
  const out: AnswerData[] = [];
  for (const a of answers) {
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
    if (a.ref) {
      const call = await store.getJson<StoredCall>(a.ref);
      const d = call.result.data ?? {};
      base.answer = typeof d.answer === 'string' ? d.answer : (call.result.summary ?? null);
      base.rows = Array.isArray(d.rows) ? (d.rows as Record<string, unknown>[]) : [];
      base.columns = Array.isArray(d.columns)
        ? (d.columns as unknown[]).map(String)
        : base.rows[0]
          ? Object.keys(base.rows[0])
          : [];
      base.sql = typeof d.sql === 'string' ? d.sql : null;
      base.charts = call.result.charts ?? [];
      base.url = call.result.url ?? null;
    }
    out.push(base);
  }
  return out;
}

/** The snapshot of this run that the next run compares against. */
export function snapshotOf(
  jobId: string,
  workflowId: string,
  runAt: string,
  countries: CountryData[],
  topN: { investors: number; startups: number },
): RunSnapshot {
  const snap: RunSnapshot = { jobId, workflowId, runAt, countries: {} };
  for (const c of countries) {
    snap.countries[c.country] = {
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
