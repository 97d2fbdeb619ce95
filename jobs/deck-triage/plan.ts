/**
 * What a deck-triage run will do, from the job alone (pure: the workflow and `vir run`'s
 * estimate use it): my_account, one analyze_deck per new deck (3 credits), and for an analysis
 * still running, get_deck_analysis on durable timers whose interval grows from
 * {@link FIRST_POLL_MS} to {@link LONGEST_POLL_MS}, up to the job's deadline. The job's links are
 * counted; the decks of a folder or a bucket are known once the run lists them (then the run
 * plans its calls again).
 */
import { creditsOf } from '../../api/catalog.js';
import type { JobEstimate } from '../kind.js';
import { durationMs } from './durations.js';
import type { DeckTriageJob } from './job.js';

/** The first wait before asking again for an analysis still running. */
export const FIRST_POLL_MS = 5_000;
/** The longest wait between two asks. */
export const LONGEST_POLL_MS = 5 * 60_000;

/**
 * The wait before poll `n` (0-based): doubling from {@link FIRST_POLL_MS}, at most
 * {@link LONGEST_POLL_MS}, and not longer than the service's own `retry after` when it gives one
 * (never shorter than a second).
 */
export function pollWaitMs(n: number, retryAfterSeconds: number | null = null): number {
  const grown = Math.min(LONGEST_POLL_MS, FIRST_POLL_MS * 2 ** n);
  const told = retryAfterSeconds !== null && retryAfterSeconds > 0 ? retryAfterSeconds * 1000 : grown;
  return Math.max(1000, Math.min(grown, told));
}

/** The most polls of one analysis within `deadlineMs`: one after each wait that ends before it. */
export function maxPolls(deadlineMs: number): number {
  let waited = 0;
  let n = 0;
  while (waited + pollWaitMs(n) <= deadlineMs) waited += pollWaitMs(n++);
  return n;
}

/** The decks a run of the job knows before listing its folder or bucket: its links. */
export function knownDecks(job: Pick<DeckTriageJob, 'decks'>): number {
  return job.decks.urls?.length ?? 0;
}

/** The upper bound of calls and the credits a run needs for `decks` decks (default: the links). */
export function planDeckTriage(job: DeckTriageJob, decks = knownDecks(job)): JobEstimate {
  const cost = creditsOf('analyze_deck');
  return {
    // my_account, then each deck's analysis and its polls.
    maxCalls: 1 + decks * (1 + maxPolls(durationMs(job.pollDeadline))),
    paidCalls: decks,
    creditsNeeded: decks * cost,
    paidCallsInBudget: Math.min(decks, Math.floor(job.budget.credits / cost)),
    paidCallNoun: ['deck', 'decks'],
  };
}
