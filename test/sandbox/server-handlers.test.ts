/**
 * The pipeline with the operations' real handlers, over real HTTP: atomic debits of paid
 * calls, stored results and their views. (The free plan's one find_investors run, then 402
 * upgrade_required at no cost, is finders-investors.test.ts's, which checks all this one did.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../sandbox/index.js';
import { KEYS, callSandbox, startTestSandbox } from '../helpers/sandbox.js';

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(async () => {
  await sandbox.close();
});

const QUESTION = 'How many seed rounds were there in Germany in 2025?';

describe('paid calls with real handlers', () => {
  it('never overspends the broke account: with 2 credits exactly 2 of 5 parallel asks succeed', async () => {
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        callSandbox(sandbox, 'ask', { key: KEYS.broke, params: { query: QUESTION } }),
      ),
    );
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(2);
    for (const r of ok) expect(r.body.credits?.charged).toBe(1);
    const refused = results.filter((r) => r.status !== 200);
    expect(refused.map((r) => [r.status, r.body.error?.code])).toEqual(
      Array.from({ length: 3 }, () => [402, 'insufficient_credits']),
    );
    expect(sandbox.state.accounts.get('acct_broke')?.credits).toBe(0);
    const after = await callSandbox(sandbox, 'my_account', { key: KEYS.broke });
    expect(after.body.data?.credits_balance).toBe(0);
    expect(after.body.credits).toEqual({ charged: 0, remaining: 0 });
  });

  it('stores the result of a paid call and serves its view', async () => {
    const r = await callSandbox(sandbox, 'ask', { key: KEYS.startup, params: { query: QUESTION } });
    expect(r.status).toBe(200);
    const id = /\/view\/results\/([^/?#]+)$/.exec(r.body.url ?? '')?.[1];
    expect(id).toBeDefined();
    expect(sandbox.state.results.get(id ?? '')).toMatchObject({
      operation: 'ask',
      account_id: 'acct_startup',
      summary: r.body.summary,
    });
    const page = await fetch(r.body.url ?? '');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('seed rounds');
  });
});
