/**
 * ask over real HTTP: the pipeline's rules (paid plan, ask scope, query bounds, credits) with
 * the data agent behind them; an unmapped question is answered and costs 1 credit like every ask.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_TEST_AS_OF } from '../../sandbox/data/index.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { callSandbox, KEYS, startTestSandbox } from '../helpers/sandbox.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox({ asOf: SANDBOX_TEST_AS_OF });
});
afterAll(() => sandbox.close());

const ask = (query: unknown, key: string = KEYS.vc) =>
  callSandbox(sandbox, 'ask', { key, params: { query } });

describe('ask over HTTP', () => {
  it('answers a mapped question with numbers from the database, charges 1 credit and links a view', async () => {
    const want = sandbox.db
      .prepare(
        "SELECT COUNT(*) n FROM rounds r JOIN startups s ON s.key = r.startup_key WHERE s.hq_country = 'Germany' AND r.stage = 'seed' AND r.year = 2023",
      )
      .get() as { n: number };
    const before = (await callSandbox(sandbox, 'my_account', { key: KEYS.vc })).body.credits!.remaining!;
    const r = await ask('How many seed rounds were there in Germany in 2023?');
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    const data = r.body.data as Record<string, any>;
    expect(data).toMatchObject({ mapped: true, pattern: 'round_count', columns: ['rounds', 'capital_usd'] });
    expect(data.rows[0].rounds).toBe(want.n);
    expect(data.params).toEqual(['Germany', 'seed', '2023-01-01', '2023-12-31']);
    expect(data.sql).toContain('WHERE');
    expect(r.body.summary).toBe(data.answer);
    expect(r.body.summary).toContain(want.n.toLocaleString('en-US'));
    expect(r.body.credits).toEqual({ charged: 1, remaining: before - 1 });
    expect(r.body.url).toMatch(/\/view\/results\/r_/);
    const view = await fetch(r.body.url!);
    expect(view.status).toBe(200);
  });

  it('returns a chart with series objects for a trend question', async () => {
    const r = await ask('total capital raised in fintech by year');
    expect(r.status).toBe(200);
    const chart = r.body.charts[0]!;
    expect(chart.xKey).toBe('year');
    expect(chart.series).toEqual(
      expect.arrayContaining([expect.objectContaining({ key: 'capital_usd', name: expect.any(String) })]),
    );
    expect(chart.data!.length).toBeGreaterThan(3);
  });

  it('answers a question it cannot map without numbers, at the price of every ask (1 credit)', async () => {
    const before = (await callSandbox(sandbox, 'my_account', { key: KEYS.vc })).body.credits!.remaining!;
    const r = await ask('What is the weather in Lisbon tomorrow?');
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    expect(r.body.data).toMatchObject({ mapped: false, rows: [] });
    expect(r.body.summary).toMatch(/^I cannot answer/);
    expect(r.body.credits).toEqual({ charged: 1, remaining: before - 1 });
    const after = (await callSandbox(sandbox, 'my_account', { key: KEYS.vc })).body.credits!.remaining;
    expect(after).toBe(before - 1);
  });

  it('refuses the free plan with 402 upgrade_required', async () => {
    const r = await ask('how many seed rounds in Germany', KEYS.free);
    expect(r.status).toBe(402);
    expect(r.body.error!.code).toBe('upgrade_required');
  });

  it('refuses a key without the ask scope with 403', async () => {
    const r = await ask('how many seed rounds in Germany', KEYS.readonly);
    expect(r.status).toBe(403);
    expect(r.body.success).toBe(false);
  });

  it('checks the query length: 2 and 501 characters are 400, 3 and 500 are answered', async () => {
    const short = await ask('ab');
    expect(short.status).toBe(400);
    expect(short.body.error!.code).toBe('invalid_input');
    expect(short.body.error!.message).toContain('query');
    const long = await ask('x'.repeat(501));
    expect(long.status).toBe(400);
    const three = await ask('abc');
    expect(three.status).toBe(200);
    expect(three.body.data).toMatchObject({ mapped: false });
    const max = `How many seed rounds were there in Germany in 2023? ${'Please answer. '.repeat(40)}`.slice(
      0,
      500,
    );
    expect(max.length).toBe(500);
    const fiveHundred = await ask(max);
    expect(fiveHundred.status).toBe(200);
    expect(fiveHundred.body.data).toMatchObject({ mapped: true, pattern: 'round_count' });
    const missing = await callSandbox(sandbox, 'ask', { key: KEYS.vc, params: {} });
    expect(missing.status).toBe(400);
  });
});
