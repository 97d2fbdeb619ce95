/**
 * find_customers over real HTTP: the organisation profile, org_key rules, brief, regions and
 * stages, momentum, limits and the free repeat within 24 hours (with the sandbox's clock).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FindCustomersDataSchema } from '../../sandbox/result-shapes.js';
import { REGION_COUNTRIES, SANDBOX_TEST_AS_OF } from '../../sandbox/data/index.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { callSandbox, KEYS, startTestSandbox } from '../helpers/sandbox.js';

const START = Date.parse('2026-11-21T09:00:00Z');
let clock = START;
let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox({ asOf: SANDBOX_TEST_AS_OF, now: () => new Date(clock) });
});
afterAll(() => sandbox.close());

interface Customer {
  key: string;
  name: string;
  fit_pct: number;
  why: string[];
  url: string;
  hq_country: string;
  stage: string;
  sector: string;
  website: string;
  domain: string;
  momentum: {
    score: number;
    rounds_last_12m: number;
    capital_last_12m_usd: number;
    growth: { raised_vs_prior_year_pct: number | null };
    last_round_date: string | null;
  };
}

async function call(params: Record<string, unknown>, key: string = KEYS.provider) {
  return callSandbox(sandbox, 'find_customers', { key, params });
}

async function customers(params: Record<string, unknown>, key: string = KEYS.provider) {
  const r = await call(params, key);
  expect(r.status, r.text).toBe(200);
  const data = FindCustomersDataSchema.parse(r.body.data);
  return { r, data: r.body.data as Record<string, unknown>, items: data.customers as unknown as Customer[] };
}

function expectWellFormed(items: Customer[]) {
  for (const c of items) {
    expect(c.fit_pct).toBeGreaterThanOrEqual(0);
    expect(c.fit_pct).toBeLessThanOrEqual(100);
    expect(c.why.length).toBeGreaterThan(0);
    expect(c.why[0]).toMatch(/\d/);
    expect(c.momentum.score).toBeGreaterThanOrEqual(0);
    expect(c.momentum.score).toBeLessThanOrEqual(100);
    expect(Number.isInteger(c.momentum.rounds_last_12m)).toBe(true);
    expect(c.url).toBe(`${sandbox.url}/view/startups/${encodeURIComponent(c.key)}`);
    expect(c.website).toMatch(/^https?:\/\//);
    expect(c.domain.length).toBeGreaterThan(3);
    expect(typeof c.stage).toBe('string');
    expect(typeof c.sector).toBe('string');
  }
  for (let i = 1; i < items.length; i++)
    expect(items[i - 1]!.fit_pct).toBeGreaterThanOrEqual(items[i]!.fit_pct);
}

/** Momentum fields recomputed from the database for one startup, relative to the data's as-of date. */
function roundsInLast12m(key: string): { n: number; capital: number } {
  const from = new Date(`${SANDBOX_TEST_AS_OF}T00:00:00Z`);
  from.setUTCDate(from.getUTCDate() - 365);
  const row = sandbox.db
    .prepare(
      'SELECT COUNT(*) AS n, COALESCE(SUM(amount_usd), 0) AS capital FROM rounds WHERE startup_key = ? AND date > ? AND date <= ?',
    )
    .get(key, from.toISOString().slice(0, 10), SANDBOX_TEST_AS_OF) as { n: number; capital: number };
  return row;
}

describe('find_customers', () => {
  it("ranks startups for the default organisation's profile with momentum and reasons", async () => {
    const { r, data, items } = await customers({});
    expect(r.body.credits?.charged).toBe(3);
    expect(items).toHaveLength(20);
    expectWellFormed(items);
    expect(data.organisation).toMatchObject({ org_key: 'brightline-legal' });
    const europe = REGION_COUNTRIES.europe as string[];
    for (const c of items) expect(europe).toContain(c.hq_country);
    const top = items[0]!;
    expect(['seed', 'series-a']).toContain(top.stage);
    expect(top.why.join(' ')).toMatch(/term sheet|closing documents|equity/);
    const recount = roundsInLast12m(top.key);
    expect(top.momentum.rounds_last_12m).toBe(recount.n);
    expect(top.momentum.capital_last_12m_usd).toBe(recount.capital);
    expect(r.body.url).toMatch(new RegExp(`^${sandbox.url}/view/results/[^/]+$`));
    expect((r.body.charts ?? []).length).toBeGreaterThan(0);
  });

  it('requires org_key when the account has several organisations and none is the default', async () => {
    const missing = await call({}, KEYS.org);
    expect(missing.status).toBe(400);
    expect(missing.body.error?.code).toBe('invalid_input');
    expect(missing.body.error?.message).toContain('org_key');
    expect(missing.body.error?.message).toContain('harbour-accelerator');
    expect(missing.body.error?.message).toContain('harbour-cloud');
    expect(missing.body.credits?.charged).toBe(0);

    const unknown = await call({ org_key: 'no-such-org' }, KEYS.org);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error?.code).toBe('not_found');
    expect(unknown.body.error?.message).toContain('harbour-cloud');

    const { items, data } = await customers({ org_key: 'harbour-accelerator', limit: 10 }, KEYS.org);
    expect(data.organisation).toMatchObject({ org_key: 'harbour-accelerator' });
    const allowed = [...(REGION_COUNTRIES.nordics as string[]), ...(REGION_COUNTRIES.dach as string[])];
    for (const c of items) {
      expect(allowed).toContain(c.hq_country);
      expect(['pre-seed', 'seed']).toContain(c.stage);
      expect(['Energy, Environment & Mobility', 'Industry & Hardware']).toContain(c.sector);
    }
  });

  it('lets regions and stages override the profile, and a brief win over it where it says something', async () => {
    const fr = await customers({ regions: ['France'], stages: ['series-b'], limit: 10 });
    for (const c of fr.items) expect(c.hq_country).toBe('France');
    expect(fr.items[0]!.stage).toBe('series-b');
    expect(fr.data.target).toMatchObject({
      sources: { regions: 'parameters', stages: 'parameters', sectors: 'organisation' },
    });

    const brief = await customers({
      brief: 'Series A fintech startups in the UK that just raised',
      limit: 10,
    });
    expect(brief.data.target).toMatchObject({
      sectors: ['Finance & Blockchain'],
      stages: ['series-a'],
      sources: { sectors: 'brief', stages: 'brief', regions: 'brief' },
    });
    for (const c of brief.items) {
      expect(c.hq_country).toBe('United Kingdom');
      expect(c.sector).toBe('Finance & Blockchain');
    }
    expect(brief.items[0]!.stage).toBe('series-a');
    expect(brief.items[0]!.momentum.rounds_last_12m).toBeGreaterThan(0);
  });

  it('refuses investor and startup accounts and honours limit 1, 50 and 51', async () => {
    for (const key of [KEYS.vc, KEYS.startup]) {
      const r = await call({}, key);
      expect(r.status).toBe(403);
      expect(r.body.error?.code).toBe('account_type_required');
    }
    expect((await customers({ limit: 1 })).items).toHaveLength(1);
    const fifty = await customers({ limit: 50 });
    expect(fifty.items).toHaveLength(50);
    expectWellFormed(fifty.items);
    const r = await call({ limit: 51 });
    expect(r.status).toBe(400);
    expect(r.body.error?.code).toBe('invalid_input');
  });

  it('does not charge a repeat with the same parameters within 24 hours of the charged call', async () => {
    clock = START + 60_000;
    const params = { org_key: 'harbour-cloud', regions: ['nordics'], limit: 7 };
    const first = await call(params, KEYS.org);
    expect(first.status, first.text).toBe(200);
    expect(first.body.credits?.charged).toBe(3);
    const balance = first.body.credits!.remaining!;

    clock += 3 * 3_600_000;
    const repeat = await call({ limit: 7, regions: ['Nordics'], org_key: 'harbour-cloud' }, KEYS.org);
    expect(repeat.body.credits).toEqual({ charged: 0, remaining: balance });
    expect(repeat.body.summary).toContain('Repeat within 24 h: not charged');
    expect((repeat.body.data as { customers: { key: string }[] }).customers.map((c) => c.key)).toEqual(
      (first.body.data as { customers: { key: string }[] }).customers.map((c) => c.key),
    );

    const changed = await call({ ...params, limit: 8 }, KEYS.org);
    expect(changed.body.credits).toEqual({ charged: 3, remaining: balance - 3 });

    clock = START + 60_000 + 24 * 3_600_000 - 1_000;
    const lastFree = await call(params, KEYS.org);
    expect(lastFree.body.credits?.charged).toBe(0);

    clock = START + 60_000 + 24 * 3_600_000 + 1_000;
    const after = await call(params, KEYS.org);
    expect(after.body.credits).toEqual({ charged: 3, remaining: balance - 6 });
    expect(after.body.summary).not.toContain('not charged');

    // The window restarts at the new charged call.
    clock += 3_600_000;
    expect((await call(params, KEYS.org)).body.credits?.charged).toBe(0);
  });

  it('a free repeat is answered even when the balance is below the price; a new call is then refused', async () => {
    clock = START + 2 * 24 * 3_600_000;
    sandbox.addAccount(
      {
        id: 'acct_three_credits',
        name: 'Three Credits Agency',
        type: 'service_provider',
        plan: 'paid',
        credits: 3,
        organisations: [
          {
            org_key: 'three-credits',
            name: 'Three Credits Agency',
            is_default: true,
            offering: 'Growth marketing for seed-stage fintech startups',
            target_regions: ['europe'],
            target_stages: ['seed'],
            target_sectors: ['Finance & Blockchain'],
          },
        ],
      },
      [
        {
          key: 'vis_live_three_credits',
          account_id: 'acct_three_credits',
          scopes: ['read', 'ask', 'finder'],
          revoked: false,
        },
      ],
    );
    const params = { limit: 5 };
    const first = await call(params, 'vis_live_three_credits');
    expect(first.status, first.text).toBe(200);
    expect(first.body.credits).toEqual({ charged: 3, remaining: 0 });
    clock += 3_600_000;
    const repeat = await call(params, 'vis_live_three_credits');
    expect(repeat.status, repeat.text).toBe(200);
    expect(repeat.body.credits).toEqual({ charged: 0, remaining: 0 });
    expect(repeat.body.summary).toContain('Repeat within 24 h: not charged');
    const other = await call({ limit: 6 }, 'vis_live_three_credits');
    expect(other.status).toBe(402);
    expect(other.body.error?.code).toBe('insufficient_credits');
  });
});
