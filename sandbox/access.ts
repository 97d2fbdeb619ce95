/**
 * Who may call what: the key's scope, the account's plan and the account's type, decided in
 * one place. The pipeline refuses calls with it, and my_account lists the tools it allows.
 */
import { OPERATIONS, OPERATION_NAMES, type OperationName } from '../api/index.js';
import type { Account, ApiKeyRecord } from './types.js';

/** The outcome of an access decision. */
export type AccessDecision =
  | {
      allowed: true;
      /** 'free-run': allowed on the free plan with a limited run (find_investors: one run, top 5). */
      limit?: 'free-run';
    }
  | {
      allowed: false;
      status: 402 | 403;
      code: 'insufficient_scope' | 'account_type_required' | 'upgrade_required';
      message: string;
    };

const TYPE_LABEL: Record<string, string> = {
  startup: 'startup',
  investor: 'investor (VC)',
  service_provider: 'service provider',
  organisation: 'organisation',
};

function label(type: string): string {
  return TYPE_LABEL[type] ?? type;
}

function withArticle(text: string): string {
  return `${/^[aeiou]/i.test(text) ? 'an' : 'a'} ${text}`;
}

/**
 * Decides whether `key` of `account` may call `operation`. Checked in this order: the key's
 * scope (403 insufficient_scope), the account type (403 account_type_required; upgrading
 * would not help), the plan (402 upgrade_required). Revoked keys and credits are not decided
 * here (authentication and the credit check come before and after).
 *
 * @example
 * decideAccess(freeAccount, freeKey, 'ask');
 * // { allowed: false, status: 402, code: 'upgrade_required', message: 'ask needs a paid plan; ...' }
 */
export function decideAccess(account: Account, key: ApiKeyRecord, operation: OperationName): AccessDecision {
  const def = OPERATIONS[operation];
  if (!key.scopes.includes(def.scope)) {
    return {
      allowed: false,
      status: 403,
      code: 'insufficient_scope',
      message: `${operation} requires the '${def.scope}' scope; this key has: ${key.scopes.join(', ') || 'no scopes'}`,
    };
  }
  const types = def.rule.accountTypes;
  if (types && !types.includes(account.type)) {
    return {
      allowed: false,
      status: 403,
      code: 'account_type_required',
      message: `${operation} is for ${types.map(label).join(' and ')} accounts; this is ${withArticle(label(account.type))} account`,
    };
  }
  if (def.rule.plan === 'paid' && account.plan !== 'paid') {
    return {
      allowed: false,
      status: 402,
      code: 'upgrade_required',
      message: `${operation} needs a paid plan (${def.rule.text}); this account is on the ${account.plan} plan`,
    };
  }
  if (def.rule.plan === 'free-limited' && account.plan !== 'paid')
    return { allowed: true, limit: 'free-run' };
  return { allowed: true };
}

/** The operations `key` of `account` may call (as my_account reports them), in table order. */
export function allowedOperations(account: Account, key: ApiKeyRecord): OperationName[] {
  return OPERATION_NAMES.filter((name) => decideAccess(account, key, name).allowed);
}
