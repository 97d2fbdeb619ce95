/**
 * find_investors (3 credits, finder scope): ranks investors that fit a startup by their deals.
 * Free plans get one run with the top 5 matches; a second run is refused with 402.
 */
import { findInvestors } from '../finders/investors-result.js';
import { getSnapshot } from '../finders/snapshot.js';
import { SandboxError, type Handler } from '../types.js';

/** Matches a free-plan run returns. */
export const FREE_PLAN_MATCHES = 5;
/** find_investors runs a free-plan account gets. */
export const FREE_PLAN_RUNS = 1;

export const find_investors: Handler<'find_investors'> = (ctx) => {
  const { account, state, params } = ctx;
  const free = account.plan !== 'paid';
  const used = state.freeFinderRunsUsed.get(account.id) ?? 0;
  if (free && used >= FREE_PLAN_RUNS) {
    throw new SandboxError(
      402,
      'upgrade_required',
      `find_investors on the free plan includes ${FREE_PLAN_RUNS} run with the top ${FREE_PLAN_MATCHES} matches, and it has been used; upgrade to a paid plan for more runs and up to 50 matches`,
    );
  }
  const count = free ? Math.min(FREE_PLAN_MATCHES, params.limit) : params.limit;
  const outcome = findInvestors(getSnapshot(ctx.db), params, count, ctx.baseUrl);
  if (free) state.freeFinderRunsUsed.set(account.id, used + 1);
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
            free_plan: { runs_included: FREE_PLAN_RUNS, runs_used: used + 1, max_matches: FREE_PLAN_MATCHES },
          }
        : {}),
    },
    summary: outcome.summary + freeNote,
    charts: outcome.charts,
    url: `${ctx.baseUrl}/view/results`,
  };
};
