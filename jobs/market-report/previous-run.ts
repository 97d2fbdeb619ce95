/**
 * This run against the previous one: the snapshot a run keeps for the next (top lists, deals
 * and capital by year, the recent weeks), the names new to the top lists, and each country's
 * week (the rounds the service added since the previous run, against the earlier weeks).
 */
import type { CountryData } from './read-country.js';

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
