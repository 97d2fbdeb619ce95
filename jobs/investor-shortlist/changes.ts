/**
 * What an investor shortlist marks: investors new since the last run (per company), and the
 * investors who fit several of the portfolio's companies. Pure functions of the runs' lists.
 */

/** One investor of a company's find_investors list, as read. */
export interface ShortlistInvestor {
  key: string;
  name: string;
  fitPct: number | null;
}

/** What the job's earlier runs listed: each company's investor keys, with the date first listed. */
export interface ShortlistSnapshot {
  kind: 'investor-shortlist';
  jobId: string;
  companies: Record<string, Record<string, string>>;
}

/** A snapshot that reads as one (anything else: the job's first run). */
export function asShortlistSnapshot(value: unknown, jobId: string): ShortlistSnapshot | null {
  const s = value as Partial<ShortlistSnapshot> | null;
  if (!s || s.kind !== 'investor-shortlist' || typeof s.companies !== 'object' || s.companies === null)
    return null;
  return { kind: 'investor-shortlist', jobId, companies: s.companies };
}

/**
 * Each investor of a company's list with whether it is new since the last run: on a first run
 * (or for a company new to the job) nothing is marked, the list is the baseline.
 */
export function markNew(
  previous: ShortlistSnapshot | null,
  company: string,
  investors: readonly ShortlistInvestor[],
): (ShortlistInvestor & { isNew: boolean })[] {
  const seen = previous?.companies[company];
  return investors.map((i) => ({ ...i, isNew: seen !== undefined && !(i.key in seen) }));
}

/** The snapshot after a run: every company's investors, each with the date first listed. */
export function nextShortlist(
  previous: ShortlistSnapshot | null,
  jobId: string,
  date: string,
  lists: ReadonlyMap<string, readonly ShortlistInvestor[]>,
): ShortlistSnapshot {
  const companies: Record<string, Record<string, string>> = structuredClone(previous?.companies ?? {});
  for (const [company, investors] of lists) {
    const seen = (companies[company] ??= {});
    for (const i of investors) seen[i.key] ??= date;
  }
  return { kind: 'investor-shortlist', jobId, companies };
}

/** An investor who fits several companies: which, and the best fit. */
export interface SharedInvestor {
  key: string;
  name: string;
  companies: string[];
  bestFit: number | null;
  /** The lists it was found on (their answers' ids; the model's builder sets them). */
  sources?: string[];
}

/** Investors on two or more companies' lists, most companies first, then best fit. */
export function sharedInvestors(lists: ReadonlyMap<string, readonly ShortlistInvestor[]>): SharedInvestor[] {
  const byKey = new Map<string, SharedInvestor>();
  for (const [company, investors] of lists) {
    for (const i of investors) {
      const s = byKey.get(i.key) ?? { key: i.key, name: i.name, companies: [], bestFit: null };
      if (!s.companies.includes(company)) s.companies.push(company);
      if (i.fitPct !== null && (s.bestFit === null || i.fitPct > s.bestFit)) s.bestFit = i.fitPct;
      byKey.set(i.key, s);
    }
  }
  return [...byKey.values()]
    .filter((s) => s.companies.length > 1)
    .sort(
      (a, b) =>
        b.companies.length - a.companies.length ||
        (b.bestFit ?? -1) - (a.bestFit ?? -1) ||
        a.name.localeCompare(b.name),
    );
}
