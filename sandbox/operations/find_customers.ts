/**
 * find_customers (3 credits, finder scope, paid service-provider and organisation accounts):
 * ranks startups as sales targets. A repeat call with the same parameters within 24 hours of
 * the charged call is free.
 */
import { decideRepeat, findCustomers, repeatKey } from '../finders/customers-result.js';
import { getSnapshot } from '../finders/snapshot.js';
import type { Handler } from '../types.js';

export const find_customers: Handler<'find_customers'> = (ctx) => {
  const { account, params, state, now } = ctx;
  const outcome = findCustomers(getSnapshot(ctx.db), account, params, ctx.baseUrl);
  const key = repeatKey(account.id, outcome.org, params);
  const repeat = decideRepeat(state, key, now);
  if (!repeat.free) state.customerCalls.set(key, repeat.chargedAt);
  const chargedAt = new Date(repeat.chargedAt).toISOString();
  const freeUntil = new Date(repeat.chargedAt + 24 * 60 * 60 * 1000).toISOString();
  const { target } = outcome;
  return {
    data: {
      organisation: outcome.org
        ? { org_key: outcome.org.org_key, name: outcome.org.name, offering: outcome.org.offering }
        : null,
      target: {
        sectors: target.sectors,
        tags: target.tags,
        stages: target.stages,
        regions: target.regionsLabel || null,
        countries: [...target.countries].sort(),
        seller_kind: target.kind,
        sources: outcome.sources,
      },
      customers: outcome.customers,
      total_matches: outcome.total,
      limit: params.limit,
      repeat: { free: repeat.free, charged_at: chargedAt, free_until: freeUntil },
    },
    summary: repeat.free
      ? `Repeat within 24 h: not charged (same call charged at ${chargedAt}). ${outcome.summary}`
      : `${outcome.summary} A repeat with the same parameters until ${freeUntil} is free.`,
    charts: outcome.charts,
    url: `${ctx.baseUrl}/view/results`,
    ...(repeat.free ? { charge: 0 } : {}),
  };
};
