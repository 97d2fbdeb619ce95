/**
 * What changed since the last fund-match run: each batch of find_startups_for_fund compared with
 * every earlier run of the job. A startup is **new** (never matched before), **still matched**
 * (its fit and rank against the last run), or **dropped** (matched last time, not now, with the
 * likely reason read from its profile: its status changed, a new round moved it past the thesis
 * stages, a new round, or simply outranked). Every startup ever matched stays on the
 * **watchlist**: a new round, a stage change or a status change of a past match is an event.
 * Pure functions of the previous history, the batch and the profiles read this run.
 */
import { formatMoneyIn, moneyUnit, stageLabel } from '../../reports/editorial.js';
import { formatDate } from '../../reports/format.js';

/** One startup of a batch, as the tolerant reader gave it. */
export interface BatchMatch {
  key: string;
  name: string;
  fitPct: number | null;
  /** 1-based place in the batch. */
  rank: number;
}

/** What a startup's profile says now (get_startup), the fields the watchlist follows. */
export interface ProfileState {
  stage: string | null;
  status: string | null;
  lastRoundDate: string | null;
  lastRoundStage: string | null;
  roundsCount: number | null;
  totalRaisedUsd: number | null;
  /** The last round's amount in USD (absent in histories written before it was read). */
  lastRoundAmountUsd?: number | null;
  /** The last round's lead investors, by name (absent in older histories). */
  lastRoundLeads?: string[];
}

/** A startup the job has ever matched. */
export interface TrackedStartup {
  key: string;
  name: string;
  /** The run (1-based) that first matched it, and its date. */
  firstSeenRun: number;
  firstSeen: string;
  /** The last run that matched it, and its date. */
  lastSeenRun: number;
  lastSeen: string;
  /** Fit and rank per run that matched it (run number as text). */
  fits: Record<string, number | null>;
  ranks: Record<string, number>;
  /** What its profile said when last read (null: never read). */
  state: ProfileState | null;
}

/** The job's history: every run's date and every startup it ever matched. */
export interface MatchHistory {
  kind: 'fund-match';
  jobId: string;
  runs: { run: number; date: string; workflowId: string; batchSize: number }[];
  startups: Record<string, TrackedStartup>;
}

export interface StillMatched {
  key: string;
  name: string;
  fitPct: number | null;
  /** Fit now less fit at the last run (null when either is unknown). */
  fitChange: number | null;
  rank: number;
  /** Places moved up (positive) or down (negative) since the last run. */
  rankChange: number;
}

export type DropReason = 'status' | 'stage' | 'round' | 'outranked';

export interface Dropped {
  key: string;
  name: string;
  reason: DropReason;
  /** The reason in words: `acquired (was active)`, `a new round moved it to Series B, past the thesis stages (Seed, Series A)`. */
  detail: string;
  /**
   * The id of this run's get_startup answer the reason was read from (the digest's builder sets
   * it; absent when the profile was not read this run, and in digests stored before sources).
   * Its being matched before is the job's history of earlier runs, not an answer of this run.
   */
  source?: string;
}

/**
 * A new round in words: `Series B of $18.3M on 21 Nov 2026, led by Zurich Capital`; what the
 * service did not give is left out.
 */
export function roundText(r: {
  stage: string | null;
  date: string | null;
  amountUsd: number | null | undefined;
  leads: readonly string[] | undefined;
}): string {
  const amount =
    typeof r.amountUsd === 'number' && Number.isFinite(r.amountUsd) && r.amountUsd > 0
      ? formatMoneyIn(r.amountUsd, moneyUnit([r.amountUsd]), { symbol: true })
      : null;
  const leads = (r.leads ?? []).filter((l) => l.trim() !== '');
  return [
    r.stage ? stageLabel(r.stage) : 'a round',
    amount ? ` of ${amount}` : '',
    r.date ? ` on ${formatDate(r.date)}` : '',
    leads.length > 0 ? `, led by ${leads.join(' and ')}` : '',
  ].join('');
}

export type WatchKind = 'round' | 'stage' | 'status';

export interface WatchEvent {
  key: string;
  name: string;
  kind: WatchKind;
  from: string | null;
  to: string | null;
  /** The event in words: `new round: Series B of $18.3M on 21 Nov 2026, led by Zurich Capital`. */
  detail: string;
  /** A new round's facts as the service gave them (round events only). */
  round?: { stage: string | null; date: string | null; amountUsd: number | null; leads: string[] };
  /** Whether the startup is in this run's batch. */
  inBatch: boolean;
  /**
   * The id of this run's get_startup answer it was read from (the digest's builder sets it;
   * absent in digests stored before sources). What the profile said before is the job's history.
   */
  source?: string;
}

/** A run's changes against the job's history. */
export interface BatchChanges {
  /** True on the job's first run: everything is new, nothing is compared. */
  baseline: boolean;
  run: number;
  fresh: BatchMatch[];
  still: StillMatched[];
  dropped: Dropped[];
  events: WatchEvent[];
}

/** A history that reads as one (anything else: the job's first run). */
export function asMatchHistory(value: unknown, jobId: string): MatchHistory | null {
  const h = value as Partial<MatchHistory> | null;
  if (!h || h.kind !== 'fund-match' || !Array.isArray(h.runs) || typeof h.startups !== 'object') return null;
  return { kind: 'fund-match', jobId, runs: h.runs, startups: h.startups ?? {} };
}

const STATUS_GONE = new Set(['acquired', 'closed', 'dead', 'shut down', 'ipo', 'public']);

/** A stage's words, for comparing stages however the service spells them. */
const stageKey = (s: string | null) => (s ?? '').toLowerCase().replace(/[\s_]+/g, '-');

/** Why a startup matched last time is not in the batch now, from its profile read this run. */
export function dropReason(
  before: ProfileState | null,
  now: ProfileState | null,
  thesisStages: readonly string[],
): { reason: DropReason; detail: string } {
  const status = now?.status ?? null;
  if (
    status &&
    stageKey(status) !== stageKey(before?.status ?? null) &&
    STATUS_GONE.has(status.toLowerCase())
  ) {
    return { reason: 'status', detail: `${status}${before?.status ? ` (was ${before.status})` : ''}` };
  }
  const stages = new Set(thesisStages.map(stageKey));
  const newRound = now?.lastRoundDate && now.lastRoundDate !== (before?.lastRoundDate ?? null);
  if (
    now?.stage &&
    stages.size > 0 &&
    !stages.has(stageKey(now.stage)) &&
    stageKey(now.stage) !== stageKey(before?.stage ?? null)
  ) {
    return {
      reason: 'stage',
      detail: `${newRound ? 'a new round' : 'its stage'} moved it to ${stageLabel(now.stage)}, past the thesis stages (${thesisStages.map(stageLabel).join(', ')})`,
    };
  }
  if (newRound) {
    return {
      reason: 'round',
      detail: `raised a new round: ${roundText({ stage: now.lastRoundStage, date: now.lastRoundDate, amountUsd: now.lastRoundAmountUsd, leads: now.lastRoundLeads })}`,
    };
  }
  return { reason: 'outranked', detail: 'outranked: other startups fit better this time' };
}

/** The watchlist events of one startup: its profile now against what it said when last read. */
export function watchEvents(
  t: Pick<TrackedStartup, 'key' | 'name' | 'state'>,
  now: ProfileState,
  inBatch: boolean,
): WatchEvent[] {
  const before = t.state;
  if (before === null) return [];
  const events: WatchEvent[] = [];
  const add = (
    kind: WatchKind,
    from: string | null,
    to: string | null,
    detail: string,
    round?: WatchEvent['round'],
  ) =>
    events.push({ key: t.key, name: t.name, kind, from, to, detail, inBatch, ...(round ? { round } : {}) });
  const roundsUp =
    now.roundsCount !== null && before.roundsCount !== null && now.roundsCount > before.roundsCount;
  if ((now.lastRoundDate && now.lastRoundDate !== before.lastRoundDate) || roundsUp) {
    const round = {
      stage: now.lastRoundStage,
      date: now.lastRoundDate,
      amountUsd: now.lastRoundAmountUsd ?? null,
      leads: now.lastRoundLeads ?? [],
    };
    add('round', before.lastRoundDate, now.lastRoundDate, `new round: ${roundText(round)}`, round);
  }
  if (now.stage && stageKey(now.stage) !== stageKey(before.stage)) {
    add(
      'stage',
      before.stage,
      now.stage,
      `stage ${before.stage ? stageLabel(before.stage) : 'unknown'} → ${stageLabel(now.stage)}`,
    );
  }
  if (now.status && stageKey(now.status) !== stageKey(before.status)) {
    add('status', before.status, now.status, `status ${before.status ?? 'unknown'} → ${now.status}`);
  }
  return events;
}

/**
 * Compares a batch with the job's history. `profiles` holds what get_startup said this run, by
 * key (the dropped and the watchlist; absent: not read).
 */
export function compareBatch(
  previous: MatchHistory | null,
  batch: readonly BatchMatch[],
  profiles: ReadonlyMap<string, ProfileState>,
  thesisStages: readonly string[],
): BatchChanges {
  const run = (previous?.runs.at(-1)?.run ?? 0) + 1;
  if (previous === null || previous.runs.length === 0) {
    return { baseline: true, run, fresh: [...batch], still: [], dropped: [], events: [] };
  }
  const lastRun = previous.runs.at(-1)!.run;
  const inBatch = new Set(batch.map((b) => b.key));
  const fresh: BatchMatch[] = [];
  const still: StillMatched[] = [];
  for (const b of batch) {
    const t = previous.startups[b.key];
    if (!t) {
      fresh.push(b);
      continue;
    }
    const lastFit = t.fits[String(lastRun)] ?? null;
    const lastRank = t.ranks[String(lastRun)];
    if (lastRank === undefined) {
      // Matched in an earlier run, not the last: back in the batch (its change is since then).
      const seenRank = t.ranks[String(t.lastSeenRun)] ?? b.rank;
      const seenFit = t.fits[String(t.lastSeenRun)] ?? null;
      still.push({
        key: b.key,
        name: b.name,
        fitPct: b.fitPct,
        fitChange: fitDelta(b.fitPct, seenFit),
        rank: b.rank,
        rankChange: seenRank - b.rank,
      });
      continue;
    }
    still.push({
      key: b.key,
      name: b.name,
      fitPct: b.fitPct,
      fitChange: fitDelta(b.fitPct, lastFit),
      rank: b.rank,
      rankChange: lastRank - b.rank,
    });
  }
  const dropped: Dropped[] = Object.values(previous.startups)
    .filter((t) => t.lastSeenRun === lastRun && !inBatch.has(t.key))
    .map((t) => ({
      key: t.key,
      name: t.name,
      ...dropReason(t.state, profiles.get(t.key) ?? null, thesisStages),
    }));
  const events = Object.values(previous.startups).flatMap((t) => {
    const now = profiles.get(t.key);
    return now ? watchEvents(t, now, inBatch.has(t.key)) : [];
  });
  return { baseline: false, run, fresh, still, dropped, events };
}

function fitDelta(now: number | null, before: number | null): number | null {
  return now === null || before === null ? null : Math.round((now - before) * 10) / 10;
}

/** The history after a run: its batch recorded, every profile read kept as the startup's state. */
export function nextHistory(
  previous: MatchHistory | null,
  jobId: string,
  run: { run: number; date: string; workflowId: string },
  batch: readonly BatchMatch[],
  profiles: ReadonlyMap<string, ProfileState>,
): MatchHistory {
  const startups: Record<string, TrackedStartup> = structuredClone(previous?.startups ?? {});
  const r = String(run.run);
  for (const b of batch) {
    const t = (startups[b.key] ??= {
      key: b.key,
      name: b.name,
      firstSeenRun: run.run,
      firstSeen: run.date,
      lastSeenRun: run.run,
      lastSeen: run.date,
      fits: {},
      ranks: {},
      state: null,
    });
    t.name = b.name;
    t.lastSeenRun = run.run;
    t.lastSeen = run.date;
    t.fits[r] = b.fitPct;
    t.ranks[r] = b.rank;
  }
  for (const [key, state] of profiles) {
    const t = startups[key];
    if (t) t.state = state;
  }
  return {
    kind: 'fund-match',
    jobId,
    runs: [...(previous?.runs ?? []), { ...run, batchSize: batch.length }],
    startups,
  };
}
