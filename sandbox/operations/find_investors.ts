/**
 * find_investors (3 credits, finder scope): ranks investors that fit a startup by their deals.
 * Free plans get one run with the top 5 matches; a second run is refused with 402.
 *
 * The scoring runs on the pool; the free run is counted here, on the main thread. A free-plan
 * account's calls go one at a time: a second call waits for the first to finish, then sees
 * whether it used the run (a first call refused for its input leaves the run unused).
 */
import type { FindInvestorsOutcome } from '../finders/investors-result.js';
import { scorerOf } from './scorer.js';
import { SandboxError, type Handler, type SandboxState } from '../types.js';

/** Matches a free-plan run returns. */
export const FREE_PLAN_MATCHES = 5;
/** find_investors runs a free-plan account gets. */
export const FREE_PLAN_RUNS = 1;

/** Free-plan calls in flight, by account id (per sandbox state). */
const freeCalls = new WeakMap<SandboxState, Map<string, Promise<unknown>>>();

export const find_investors: Handler<'find_investors'> = async (ctx) => {
  const { account, state, params } = ctx;
  const free = account.plan !== 'paid';
  if (!free) {
    const outcome = await scorerOf(ctx).score(
      { kind: 'investors', params, count: params.limit, baseUrl: ctx.baseUrl },
      account.id,
    );
    return result(ctx.baseUrl, outcome, params.limit, null);
  }

  let inFlight = freeCalls.get(state);
  if (!inFlight) freeCalls.set(state, (inFlight = new Map()));
  for (let earlier = inFlight.get(account.id); earlier; earlier = inFlight.get(account.id))
    await earlier.then(
      () => undefined,
      () => undefined,
    );
  const used = state.freeFinderRunsUsed.get(account.id) ?? 0;
  if (used >= FREE_PLAN_RUNS) {
    throw new SandboxError(
      402,
      'upgrade_required',
      `find_investors on the free plan includes ${FREE_PLAN_RUNS} run with the top ${FREE_PLAN_MATCHES} matches, and it has been used; upgrade to a paid plan for more runs and up to 50 matches`,
    );
  }
  const count = Math.min(FREE_PLAN_MATCHES, params.limit);
  const call = scorerOf(ctx).score({ kind: 'investors', params, count, baseUrl: ctx.baseUrl }, account.id);
  inFlight.set(account.id, call);
  let outcome: FindInvestorsOutcome;
  try {
    outcome = await call;
    state.freeFinderRunsUsed.set(account.id, used + 1);
  } finally {
    if (inFlight.get(account.id) === call) inFlight.delete(account.id);
  }
  return result(ctx.baseUrl, outcome, count, used + 1);
};

function result(baseUrl: string, outcome: FindInvestorsOutcome, count: number, freeRunsUsed: number | null) {
  const free = freeRunsUsed !== null;
  const freeNote = free
    ? ` Free plan: this was the account's one run (top ${FREE_PLAN_MATCHES}); a paid plan returns up to 50 matches.`
    : '';
  return {
    data: {
      startup: outcome.profile,
      investors: outcome.items,
      total_matches: outcome.total,
      limit: count,
      ...(free
        ? {
            free_plan: {
              runs_included: FREE_PLAN_RUNS,
              runs_used: freeRunsUsed,
              max_matches: FREE_PLAN_MATCHES,
            },
          }
        : {}),
    },
    summary: outcome.summary + freeNote,
    charts: outcome.charts,
    url: `${baseUrl}/view/results`,
  };
}
