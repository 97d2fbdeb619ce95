import { allowedOperations } from '../access.js';
import { savedBatches } from '../finders/fund-result.js';
import { count, plural } from '../queries/format.js';
import { accountUrl } from '../queries/urls.js';
import type { Handler } from '../types.js';
import { FREE_PLAN_RUNS } from './find_investors.js';

/**
 * my_account: the plan, credit balance, account type and name, the key's scopes, the tools
 * this key of this account may call (decided like the pipeline decides; a free plan's used
 * find_investors run is not listed), the rate limits; for
 * investor accounts the fund thesis and the saved match list; for service providers and
 * organisations their organisations.
 */
export const my_account: Handler<'my_account'> = ({ account, key, state, options, baseUrl }) => {
  // A free plan's one find_investors run, once used, is no longer a tool it can call.
  const freeRunsUsed = state.freeFinderRunsUsed.get(account.id) ?? 0;
  const tools = allowedOperations(account, key).filter(
    (op) => !(op === 'find_investors' && account.plan === 'free' && freeRunsUsed >= FREE_PLAN_RUNS),
  );
  const data: Record<string, unknown> = {
    account_id: account.id,
    account_name: account.name,
    account_type: account.type,
    plan: account.plan,
    credits_balance: account.credits,
    scopes: [...key.scopes],
    tools,
    rate_limits: { per_minute: options.rateLimitPerMinute, per_day: options.rateLimitPerDay },
  };
  if (account.plan === 'free') {
    data.free_find_investors_runs_used = freeRunsUsed;
  }
  if (account.type === 'investor') {
    data.thesis = account.thesis ?? null;
    const batches = savedBatches(state, account.id);
    const latest = batches.at(-1);
    data.match_list = {
      batches: batches.length,
      latest: latest
        ? {
            batch_id: latest.batch_id,
            created_at: latest.created_at,
            fund_name: latest.fund_name,
            startups: latest.startups.length,
          }
        : null,
    };
  }
  if (account.type === 'service_provider' || account.type === 'organisation') {
    data.organisations = account.organisations ?? [];
  }
  const plan = account.plan === 'paid' ? 'Paid' : 'Free';
  return {
    data,
    summary: `${plan} plan, ${count(account.credits)} credits, ${plural(tools.length, 'tool')}`,
    url: accountUrl(baseUrl, account.id),
  };
};
