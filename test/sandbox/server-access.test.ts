/**
 * Authentication, scopes, plans, account types and credits over real HTTP.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decideAccess, allowedOperations, SandboxError } from '../../sandbox/index.js';
import type { Account, ApiKeyRecord, HandlerMap, RunningSandbox } from '../../sandbox/index.js';
import { KEYS, callSandbox, startTestSandbox } from '../helpers/sandbox.js';

/** Handlers of paid operations scripted for the pipeline tests (the real ones have their own tests). */
const handlers: HandlerMap = {
  ask: async ({ params }) => {
    await sleep(20); // a handler that takes time: the work the test measures around
    if (params.query === 'please fail')
      throw new SandboxError(422, 'unanswerable', 'the agent could not answer');
    if (params.query === 'please crash') throw new Error('boom');
    if (params.query === 'free please') return { data: { answer: 'free' }, summary: 'free', charge: 0 };
    return { data: { answer: params.query }, summary: `answer to ${params.query}`, url: '/view/results/' };
  },
  find_customers: ({ params }) => ({
    data: { org_key: params.org_key ?? null },
    summary: 'customers',
    url: '/view/results/fc-123',
  }),
};

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox({ handlers });
});
afterAll(async () => {
  await sandbox.close();
});

function credits(accountId: string): number {
  const account = sandbox.state.accounts.get(accountId);
  if (!account) throw new Error(`no account ${accountId}`);
  return account.credits;
}

describe('authentication', () => {
  it.each([
    ['missing', undefined, /missing API key/],
    ['empty', '', /missing API key/],
    ['not bearer', `Basic ${KEYS.startup}`, /malformed Authorization header/],
    ['bearer without key', 'Bearer', /malformed Authorization header/],
    ['unknown', 'Bearer vis_live_not_a_real_key', /unknown API key/],
    ['revoked', `Bearer ${KEYS.revoked}`, /revoked/],
  ])('refuses a %s key with 401 unauthorized and never echoes it', async (_name, authorization, message) => {
    const r = await callSandbox(sandbox, 'my_account', authorization === undefined ? {} : { authorization });
    expect(r.status).toBe(401);
    expect(r.body.error?.code).toBe('unauthorized');
    expect(r.body.error?.message).toMatch(message);
    expect(r.body.credits).toBeNull();
    expect(r.text).not.toContain('vis_live_');
    expect(r.headers.get('x-ratelimit-limit')).toBe('60');
    expect(r.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);
  });

  it('accepts the scheme in any case', async () => {
    const r = await callSandbox(sandbox, 'my_account', { authorization: `bearer ${KEYS.vc}` });
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
  });
});

describe('scope, plan and account type', () => {
  it('gives 402 upgrade_required to the free plan for ask', async () => {
    const r = await callSandbox(sandbox, 'ask', {
      key: KEYS.free,
      params: { query: 'How many seed rounds in 2024?' },
    });
    expect(r.status).toBe(402);
    expect(r.body.error?.code).toBe('upgrade_required');
    expect(r.body.error?.message).toMatch(/ask needs a paid plan/);
    expect(r.body.credits).toEqual({ charged: 0, remaining: credits('acct_free') });
  });

  it('gives 403 insufficient_scope to a read-only key', async () => {
    const r = await callSandbox(sandbox, 'ask', {
      key: KEYS.readonly,
      params: { query: 'How many seed rounds in 2024?' },
    });
    expect(r.status).toBe(403);
    expect(r.body.error?.code).toBe('insufficient_scope');
    expect(r.body.error?.message).toBe("ask requires the 'ask' scope; this key has: read");
    const read = await callSandbox(sandbox, 'my_account', { key: KEYS.readonly });
    expect(read.status).toBe(200);
    expect(read.body.data?.tools).toEqual([
      'my_account',
      'get_deck_analysis',
      'search_investors',
      'get_investor',
      'search_startups',
      'get_startup',
      'country_overview',
    ]);
  });

  it('gives 403 account_type_required to the wrong account type', async () => {
    const fund = await callSandbox(sandbox, 'find_startups_for_fund', { key: KEYS.startup, params: {} });
    expect(fund.status).toBe(403);
    expect(fund.body.error?.code).toBe('account_type_required');
    expect(fund.body.error?.message).toBe(
      'find_startups_for_fund is for investor (VC) accounts; this is a startup account',
    );
    const customers = await callSandbox(sandbox, 'find_customers', { key: KEYS.vc, params: {} });
    expect(customers.status).toBe(403);
    expect(customers.body.error?.message).toMatch(
      /for service provider and organisation accounts; this is an investor \(VC\) account/,
    );
    // The account type is checked before the plan: upgrading would not help a free startup.
    const deck = await callSandbox(sandbox, 'analyze_deck', {
      key: KEYS.free,
      params: { deck_url: 'https://example.com/d.pdf' },
    });
    expect(deck.status).toBe(403);
    expect(deck.body.error?.code).toBe('account_type_required');
  });

  it('gives 402 upgrade_required to a free investor account for a paid VC operation', async () => {
    sandbox.addAccount(
      { id: 'acct_free_vc', name: 'Free Fund', type: 'investor', plan: 'free', credits: 50 },
      [
        {
          key: 'vis_live_test_free_vc',
          account_id: 'acct_free_vc',
          scopes: ['read', 'ask', 'finder'],
          revoked: false,
        },
      ],
    );
    const r = await callSandbox(sandbox, 'find_startups_for_fund', {
      key: 'vis_live_test_free_vc',
      params: { limit: 5 },
    });
    expect(r.status).toBe(402);
    expect(r.body.error?.code).toBe('upgrade_required');
  });

  it('validates parameters before deciding access', async () => {
    const r = await callSandbox(sandbox, 'ask', { key: KEYS.readonly, params: {} });
    expect(r.status).toBe(400);
    expect(r.body.error?.message).toMatch(/query is required/);
  });

  it('decides my_account tools and the pipeline alike', () => {
    const free = sandbox.state.accounts.get('acct_free') as Account;
    const freeKey = sandbox.state.keys.get(KEYS.free) as ApiKeyRecord;
    expect(decideAccess(free, freeKey, 'find_investors')).toEqual({ allowed: true, limit: 'free-run' });
    expect(allowedOperations(free, freeKey)).not.toContain('ask');
    const provider = sandbox.state.accounts.get('acct_provider') as Account;
    const providerKey = sandbox.state.keys.get(KEYS.provider) as ApiKeyRecord;
    expect(allowedOperations(provider, providerKey)).toContain('find_customers');
    expect(allowedOperations(provider, providerKey)).not.toContain('analyze_deck');
  });
});

describe('credits', () => {
  it('refuses a call the balance cannot pay with 402 insufficient_credits and charges nothing', async () => {
    const before = credits('acct_broke');
    const r = await callSandbox(sandbox, 'find_investors', {
      key: KEYS.broke,
      params: { description: 'A tool for robots.' },
    });
    expect(r.status).toBe(402);
    expect(r.body.error?.code).toBe('insufficient_credits');
    expect(r.body.error?.message).toBe(`find_investors costs 3 credits; the balance is ${before}`);
    expect(r.body.credits).toEqual({ charged: 0, remaining: before });
    expect(credits('acct_broke')).toBe(before);
  });

  it('never overspends under parallel calls: with 2 credits exactly 2 of 6 asks succeed', async () => {
    sandbox.addAccount({ id: 'acct_two', name: 'Two Credits', type: 'startup', plan: 'paid', credits: 2 }, [
      { key: 'vis_live_test_two', account_id: 'acct_two', scopes: ['ask'], revoked: false },
    ]);
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        callSandbox(sandbox, 'ask', { key: 'vis_live_test_two', params: { query: `question ${i}` } }),
      ),
    );
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 402);
    expect(ok).toHaveLength(2);
    expect(refused).toHaveLength(4);
    for (const r of refused) expect(r.body.error?.code).toBe('insufficient_credits');
    for (const r of ok) expect(r.body.credits?.charged).toBe(1);
    // remaining is the balance when each call settled (the other call's reservation may still be held).
    for (const r of ok) expect([0, 1]).toContain(r.body.credits?.remaining);
    expect(credits('acct_two')).toBe(0);
  });

  it('debits the price and reports charged and remaining', async () => {
    const before = credits('acct_startup');
    const r = await callSandbox(sandbox, 'ask', {
      key: KEYS.startup,
      params: { query: 'top investors in Germany' },
    });
    expect(r.status).toBe(200);
    expect(r.body.credits).toEqual({ charged: 1, remaining: before - 1 });
    expect(credits('acct_startup')).toBe(before - 1);
  });

  it("charges the handler's charge instead of the price when it sets one", async () => {
    const before = credits('acct_startup');
    const r = await callSandbox(sandbox, 'ask', { key: KEYS.startup, params: { query: 'free please' } });
    expect(r.status).toBe(200);
    expect(r.body.credits).toEqual({ charged: 0, remaining: before });
  });

  it('charges nothing when the handler fails', async () => {
    const before = credits('acct_startup');
    const failed = await callSandbox(sandbox, 'ask', { key: KEYS.startup, params: { query: 'please fail' } });
    expect(failed.status).toBe(422);
    expect(failed.body.error).toEqual({ code: 'unanswerable', message: 'the agent could not answer' });
    expect(failed.body.credits).toEqual({ charged: 0, remaining: before });
    const crashed = await callSandbox(sandbox, 'ask', {
      key: KEYS.startup,
      params: { query: 'please crash' },
    });
    expect(crashed.status).toBe(500);
    expect(crashed.body.error).toEqual({ code: 'internal_error', message: 'internal error in ask: boom' });
    expect(credits('acct_startup')).toBe(before);
  });
});

describe('result views', () => {
  it('keeps results whose url points at /view/results/ under an id and makes the url absolute', async () => {
    const r = await callSandbox(sandbox, 'ask', { key: KEYS.vc, params: { query: 'seed rounds this week' } });
    expect(r.status).toBe(200);
    const match = new RegExp(`^${sandbox.url}/view/results/(r_[\\w-]+)$`).exec(r.body.url ?? '');
    expect(match).not.toBeNull();
    const stored = sandbox.state.results.get(match?.[1] ?? '');
    expect(stored).toMatchObject({
      operation: 'ask',
      account_id: 'acct_vc',
      summary: 'answer to seed rounds this week',
    });
    const fixed = await callSandbox(sandbox, 'find_customers', {
      key: KEYS.org,
      params: { org_key: 'harbour-cloud' },
    });
    expect(fixed.status).toBe(200);
    expect(fixed.body.url).toBe(`${sandbox.url}/view/results/fc-123`);
    expect(sandbox.state.results.get('fc-123')).toMatchObject({
      operation: 'find_customers',
      data: { org_key: 'harbour-cloud' },
    });
  });
});

describe('seeded accounts', () => {
  it('has the documented keys, plans, types and credits', () => {
    const rows = Object.values(KEYS).map((key) => {
      const record = sandbox.state.keys.get(key) as ApiKeyRecord;
      const account = sandbox.state.accounts.get(record.account_id) as Account;
      return [key, account.plan, account.type, record.scopes.join('+'), record.revoked];
    });
    expect(rows).toEqual([
      [KEYS.free, 'free', 'startup', 'read+ask+finder', false],
      [KEYS.startup, 'paid', 'startup', 'read+ask+finder', false],
      [KEYS.vc, 'paid', 'investor', 'read+ask+finder', false],
      [KEYS.provider, 'paid', 'service_provider', 'read+ask+finder', false],
      [KEYS.org, 'paid', 'organisation', 'read+ask+finder', false],
      [KEYS.readonly, 'paid', 'startup', 'read', false],
      [KEYS.broke, 'paid', 'startup', 'read+ask+finder', false],
      [KEYS.revoked, 'paid', 'startup', 'read+ask+finder', true],
    ]);
  });

  it('gives the VC a thesis whose portfolio names real startups, and the org two organisations without a default', () => {
    const vc = sandbox.state.accounts.get('acct_vc') as Account;
    expect(vc.thesis?.portfolio.length).toBeGreaterThan(0);
    const exists = sandbox.db.prepare('SELECT count(*) AS n FROM startups WHERE key = ?');
    for (const key of vc.thesis?.portfolio ?? []) expect((exists.get(key) as { n: number }).n).toBe(1);
    const provider = sandbox.state.accounts.get('acct_provider') as Account;
    expect(provider.organisations?.filter((o) => o.is_default)).toHaveLength(1);
    const org = sandbox.state.accounts.get('acct_org') as Account;
    expect(org.organisations).toHaveLength(2);
    expect(org.organisations?.some((o) => o.is_default)).toBe(false);
  });

  it('refuses run-time accounts that do not validate, naming the field', () => {
    expect(() =>
      sandbox.addAccount(
        { id: 'x', name: 'X', type: 'fund' as Account['type'], plan: 'paid', credits: 1 },
        [],
      ),
    ).toThrow(
      /addAccount: accounts\.0\.type: must be one of: startup, investor, service_provider, organisation/,
    );
    expect(() =>
      sandbox.addAccount({ id: 'y', name: 'Y', type: 'startup', plan: 'paid', credits: 1 }, [
        { key: 'vis_live_test_orphan', account_id: 'nobody', scopes: ['read'], revoked: false },
      ]),
    ).toThrow(/keys\.0\.account_id: no account 'nobody'/);
  });
});
