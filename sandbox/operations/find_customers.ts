/**
 * find_customers (3 credits, finder scope, paid service-provider and organisation accounts):
 * ranks startups as sales targets. A repeat call with the same parameters within 24 hours of
 * the charged call is free.
 *
 * The call is read (organisation, target: its 400/404 errors) and its repeat decided and
 * recorded here, on the main thread, before the scoring runs on the pool: a same call arriving
 * while this one scores is its free repeat, exactly as one after the other.
 */
import { customersRequest, decideRepeat, repeatKey } from '../finders/customers-result.js';
import { scorerOf } from './scorer.js';
import type { Handler } from '../types.js';

export const find_customers: Handler<'find_customers'> = async (ctx) => {
  const { account, params, state, now } = ctx;
  const request = customersRequest(account, params);
  const key = repeatKey(account.id, request.org, params);
  const repeat = decideRepeat(state, key, now);
  const before = state.customerCalls.get(key);
  if (!repeat.free) state.customerCalls.set(key, repeat.chargedAt);
  let outcome;
  try {
    outcome = await scorerOf(ctx).score(
      { kind: 'customers', request, limit: params.limit, baseUrl: ctx.baseUrl },
      account.id,
    );
  } catch (error) {
    // Not charged (the pipeline refunds), so not a charged call to repeat for free.
    if (!repeat.free && state.customerCalls.get(key) === repeat.chargedAt) {
      if (before === undefined) state.customerCalls.delete(key);
      else state.customerCalls.set(key, before);
    }
    throw error;
  }
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
