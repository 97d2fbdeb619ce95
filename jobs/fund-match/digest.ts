/**
 * The fund-match digest's model: what a partner reads in a minute (the counts of new, changed and
 * dropped, the new matches with fit, reasons, the analyst note and any portfolio conflict, the
 * notable watchlist events), then the details (still matched with their fit and rank changes, the
 * dropped with their reasons, every event), the charts' data (fit distribution, sector and stage
 * mix of the batch, the fit of the still-matched across runs) and the history the workbook lists.
 * Every record names the answer(s) of this run it came from (`source`, `sources`: ids of the
 * digest's `sources`, S1 the batch); what was compared with earlier runs comes from the job's
 * history, which is no answer of this run.
 * Pure: built from the batch, the changes and the history after the run.
 */
import type { SourceRow } from '../../shared/types.js';
import type { BatchChanges, Dropped, MatchHistory, StillMatched, WatchEvent } from './history.js';
import type { BatchStartup } from './read.js';

/** A fit change that counts as "changed" in the digest's first page (percentage points). */
export const NOTABLE_FIT_CHANGE = 2;

/** A new match as the digest shows it: the batch's fields and what its profile added. */
export interface NewMatch extends BatchStartup {
  founders: string[];
  investors: string[];
  /** The answers it came from: the batch, and the profile its founders and investors were read from. */
  sources?: string[];
}

/** One row of the workbook's history sheet. */
export interface HistoryRow {
  key: string;
  name: string;
  firstSeen: string;
  lastSeen: string;
  /** Fit and rank per run, in the order of `runs` (null: not matched that run). */
  fits: (number | null)[];
  ranks: (number | null)[];
  inBatch: boolean;
  stage: string | null;
  status: string | null;
  /**
   * This run's answers it came from: the batch (when in it) and its profile (when read this
   * run); fits and ranks of earlier runs are the job's history.
   */
  sources?: string[];
}

export interface CountBar {
  label: string;
  count: number;
}

export interface FundDigest {
  job: { id: string; title: string };
  date: string;
  fundName: string | null;
  /** True on the job's first run: the batch is the baseline, nothing is compared. */
  baseline: boolean;
  run: number;
  /** True when nothing is new, changed, dropped or an event (the job says whether to write it). */
  quiet: boolean;
  counts: { batch: number; new: number; changed: number; still: number; dropped: number; events: number };
  /** The run's batch as read, in rank order (the workbook's Batch sheet lists every field). */
  batch: BatchStartup[];
  /** The new matches; on a baseline, the whole batch (counted as the batch, not as new). */
  newMatches: NewMatch[];
  still: StillMatched[];
  /** Keys of the still-matched startups that count as changed (fit moved 2 points or more, or moved among the still-matched). */
  changedKeys: string[];
  dropped: Dropped[];
  events: WatchEvent[];
  /** Startups of the batch a portfolio company conflicts with (shown, never hidden). */
  conflicts: { key: string; name: string; conflict: string; source?: string }[];
  charts: {
    /** Fit of the batch in bands of 5 points. */
    fit: CountBar[];
    sectors: CountBar[];
    stages: CountBar[];
    /** The still-matched startups' fit per run (the run dates in `runs`). */
    trend: { key: string; name: string; fits: (number | null)[] }[];
  };
  runs: { run: number; date: string }[];
  history: HistoryRow[];
  /** The stored answers the digest was made from (absent in digests stored before they were kept). */
  sources?: SourceRow[];
}

/** Where this run's answers are among the digest's sources: the batch's id and each profile's, by key. */
export interface DigestSources {
  rows: SourceRow[];
  batch: string;
  profiles: ReadonlyMap<string, string>;
}

function bars(values: readonly (string | null)[]): CountBar[] {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v ?? 'not given', (counts.get(v ?? 'not given') ?? 0) + 1);
  return [...counts.entries()]
    .map(([label, count]) => ({ label, count }))
    .sort((a, b) => b.count - a.count || a.label.localeCompare(b.label));
}

/** Fit in bands of 5 points, from the lowest band with a startup to 100. */
function fitBands(fits: readonly (number | null)[]): CountBar[] {
  const known = fits.filter((f): f is number => f !== null);
  if (known.length === 0) return [];
  const low = Math.min(95, Math.floor(Math.min(...known) / 5) * 5);
  const out: CountBar[] = [];
  for (let b = low; b <= 95; b += 5) {
    out.push({
      label: `${b}-${b === 95 ? 100 : b + 4}`,
      count: known.filter((f) => Math.min(95, Math.floor(f / 5) * 5) === b).length,
    });
  }
  return out;
}

/**
 * The still-matched startups that changed: a fit moved by `NOTABLE_FIT_CHANGE` points or more,
 * or a startup that moved among the still-matched. Startups that dropped out or came in above
 * shift ranks without anything changing, and one startup jumping ten places moves ten others
 * down by one: the ones that moved are those outside the longest run of startups still in
 * their previous order (among the longest, the one that keeps the most unchanged fits).
 */
export function changedStartupKeys(still: readonly StillMatched[]): string[] {
  const fitMoved = (s: StillMatched) => s.fitChange !== null && Math.abs(s.fitChange) >= NOTABLE_FIT_CHANGE;
  const now = [...still].sort((a, b) => a.rank - b.rank);
  const before = now.map((s) => s.rank + s.rankChange);
  // Weighted longest increasing subsequence of the previous ranks, in the current order: each
  // startup weighs 1, plus a little when its fit did not move (it is the one that stayed put).
  const weight = now.map((s) => 1 + (fitMoved(s) ? 0 : 1 / (2 * now.length + 2)));
  const best = now.map((_, i) => weight[i]!);
  const prev = now.map(() => -1);
  for (let i = 0; i < now.length; i++)
    for (let j = 0; j < i; j++)
      if (before[j]! < before[i]! && best[j]! + weight[i]! > best[i]!) {
        best[i] = best[j]! + weight[i]!;
        prev[i] = j;
      }
  const kept = new Set<string>();
  let at = best.reduce((m, v, i) => (v > best[m]! ? i : m), 0);
  for (; at >= 0 && now.length > 0; at = prev[at]!) kept.add(now[at]!.key);
  return still.filter((s) => fitMoved(s) || !kept.has(s.key)).map((s) => s.key);
}

/**
 * Builds the digest of a run.
 *
 * @example
 * const digest = buildDigest({ job, date, batch, changes, history, enrichment });
 */
export function buildDigest(input: {
  job: { id: string; title: string };
  date: string;
  fundName: string | null;
  batch: readonly BatchStartup[];
  changes: BatchChanges;
  /** The history after the run (this run recorded). */
  history: MatchHistory;
  /** What the new matches' profiles added, by key. */
  enrichment: ReadonlyMap<string, { founders: string[]; investors: string[] }>;
  /** The answers read, when the builder kept them (records then name theirs). */
  sources?: DigestSources;
}): FundDigest {
  const { changes, history } = input;
  const src = input.sources;
  const profileOf = (key: string): string | undefined => src?.profiles.get(key);
  /** `x` naming its answer `id` (as it is when there is none). */
  const sourced = <T extends object>(x: T, id: string | undefined): T => (id ? { ...x, source: id } : x);
  const batch = input.batch.map((b) => sourced(b, src?.batch));
  const byKey = new Map(batch.map((b) => [b.key, b]));
  const newMatches = changes.fresh.map((f) => {
    const enriched = input.enrichment.get(f.key);
    const profile = enriched ? profileOf(f.key) : undefined;
    return {
      ...byKey.get(f.key)!,
      founders: enriched?.founders ?? [],
      investors: enriched?.investors ?? [],
      ...(src ? { sources: [src.batch, ...(profile ? [profile] : [])] } : {}),
    };
  });
  const changedKeys = changedStartupKeys(changes.still);
  const changed = changedKeys.length;
  const runs = history.runs.map((r) => ({ run: r.run, date: r.date }));
  const historyRows: HistoryRow[] = Object.values(history.startups)
    .map((t) => ({
      key: t.key,
      name: t.name,
      firstSeen: t.firstSeen,
      lastSeen: t.lastSeen,
      fits: runs.map((r) => t.fits[String(r.run)] ?? null),
      ranks: runs.map((r) => t.ranks[String(r.run)] ?? null),
      inBatch: byKey.has(t.key),
      stage: t.state?.stage ?? null,
      status: t.state?.status ?? null,
      ...(src
        ? {
            sources: [
              ...(byKey.has(t.key) ? [src.batch] : []),
              ...(profileOf(t.key) ? [profileOf(t.key)!] : []),
            ],
          }
        : {}),
    }))
    .sort(
      (a, b) =>
        Number(b.inBatch) - Number(a.inBatch) ||
        b.lastSeen.localeCompare(a.lastSeen) ||
        a.name.localeCompare(b.name),
    );
  const quiet =
    !changes.baseline &&
    changes.fresh.length === 0 &&
    changed === 0 &&
    changes.dropped.length === 0 &&
    changes.events.length === 0;
  return {
    job: input.job,
    date: input.date,
    fundName: input.fundName,
    baseline: changes.baseline,
    run: changes.run,
    quiet,
    counts: {
      batch: input.batch.length,
      new: changes.baseline ? 0 : changes.fresh.length,
      changed,
      still: changes.still.length,
      dropped: changes.dropped.length,
      events: changes.events.length,
    },
    batch,
    newMatches,
    still: changes.still,
    changedKeys,
    dropped: changes.dropped.map((d) => sourced(d, profileOf(d.key))),
    events: changes.events.map((e) => sourced(e, profileOf(e.key))),
    conflicts: batch
      .filter((b) => b.conflict !== null)
      .map((b) => sourced({ key: b.key, name: b.name, conflict: b.conflict! }, b.source)),
    charts: {
      fit: fitBands(input.batch.map((b) => b.fitPct)),
      sectors: bars(input.batch.map((b) => b.sector)),
      stages: bars(input.batch.map((b) => b.stage)),
      trend: changes.still.map((s) => ({
        key: s.key,
        name: s.name,
        fits: runs.map((r) => history.startups[s.key]?.fits[String(r.run)] ?? null),
      })),
    },
    runs,
    history: historyRows,
    ...(src ? { sources: src.rows } : {}),
  };
}
