/**
 * Reading a my_account answer: the account's field table (plan, credit balance, tools, account
 * type, rate limits) and {@link readAccount}.
 */
import { field as f, readRecord } from './read.js';

/** The account (my_account). */
export const ACCOUNT_FIELDS = {
  plan: f('string', 'plan', 'plan_name', 'subscription.plan', 'tier', 'account.plan'),
  credits_balance: f(
    'number',
    'credits_balance',
    'credits.balance',
    'credits.remaining',
    'credits',
    'balance',
    'credit_balance',
    'creditsBalance',
    'account.credits_balance',
  ),
  tools: f('strings', 'tools', 'operations', 'available_tools', 'enabled_tools'),
  account_type: f('string', 'account_type', 'accountType', 'type', 'account.type'),
  // The spec does not name the account's rate limits: the sandbox's `rate_limits.per_minute`
  // first, then plausible shapes and names.
  rate_limit_per_minute: f(
    'number',
    'rate_limits.per_minute',
    'rate_limits.perMinute',
    'rate_limits.minute',
    'rate_limits.requests_per_minute',
    'rateLimits.perMinute',
    'rate_limit.per_minute',
    'rate_limit.minute',
    'limits.per_minute',
    'limits.requests_per_minute',
    'rate_limit_per_minute',
    'requests_per_minute',
    'calls_per_minute',
  ),
  rate_limit_per_day: f(
    'number',
    'rate_limits.per_day',
    'rate_limits.perDay',
    'rate_limits.day',
    'rate_limits.daily',
    'rate_limits.requests_per_day',
    'rateLimits.perDay',
    'rate_limit.per_day',
    'rate_limit.day',
    'limits.per_day',
    'limits.requests_per_day',
    'rate_limit_per_day',
    'daily_limit',
    'requests_per_day',
    'calls_per_day',
  ),
} as const;

export interface AccountRead {
  plan: string | null;
  /** The envelope's credits.remaining (the spec's field) or, without it, the balance in data. */
  balance: number | null;
  tools: string[] | null;
  accountType: string | null;
  /** The key's rate limits as the account reports them (null: not reported, or not a positive number). */
  rateLimits: { perMinute: number | null; perDay: number | null };
}

/** A limit as a whole number of calls, or null when it is not a positive one. */
function positiveLimit(n: number | null): number | null {
  return n !== null && Number.isFinite(n) && n >= 1 ? Math.floor(n) : null;
}

/** Reads a my_account answer. */
export function readAccount(result: {
  data?: unknown;
  credits?: { remaining?: number | null } | null;
}): AccountRead {
  const a = readRecord(result.data, ACCOUNT_FIELDS);
  return {
    plan: a.plan,
    balance: result.credits?.remaining ?? a.credits_balance,
    tools: a.tools,
    accountType: a.account_type,
    rateLimits: {
      perMinute: positiveLimit(a.rate_limit_per_minute),
      perDay: positiveLimit(a.rate_limit_per_day),
    },
  };
}
