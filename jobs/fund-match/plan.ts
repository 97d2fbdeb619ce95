/**
 * What a fund-match run will do, from the job alone (pure: the workflow and `vir run`'s estimate
 * use it): one find_startups_for_fund batch (3 credits), then a free get_startup for each startup
 * of the batch and each past match the watchlist follows.
 */
import { creditsOf } from '../../api/catalog.js';
import type { JobEstimate } from '../kind.js';
import type { FundMatchJob } from './job.js';

/** The upper bound of calls and the credits a run of the job needs. */
export function planFundMatch(job: FundMatchJob): JobEstimate {
  const cost = creditsOf('find_startups_for_fund');
  return {
    // my_account, the batch, a profile of each startup of the batch and of each past match followed.
    maxCalls: 2 + job.limit + job.watchlist,
    paidCalls: 1,
    creditsNeeded: cost,
    paidCallsInBudget: job.budget.credits >= cost ? 1 : 0,
    paidCallNoun: ['batch', 'batches'],
  };
}

/**
 * The startups whose profile a run reads: the batch's (their state is what the next run compares
 * with; the new ones are enriched from it), then past matches, most recently matched first, up to
 * the watchlist's cap (the ones dropped since the last run first among equals).
 */
export function profilesToRead(
  batchKeys: readonly string[],
  tracked: readonly { key: string; lastSeenRun: number }[],
  watchlist: number,
): string[] {
  const inBatch = new Set(batchKeys);
  const past = tracked
    .filter((t) => !inBatch.has(t.key))
    .sort((a, b) => b.lastSeenRun - a.lastSeenRun || a.key.localeCompare(b.key))
    .slice(0, watchlist)
    .map((t) => t.key);
  return [...batchKeys, ...past];
}
