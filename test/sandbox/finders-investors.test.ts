/**
 * find_investors over real HTTP: rankings move with their inputs, the startup is read from the
 * database, a website or a description, limits, the free-plan single run and credit debits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FindInvestorsDataSchema } from '../../sandbox/result-shapes.js';
import { REGION_COUNTRIES, SANDBOX_TEST_AS_OF } from '../../sandbox/data/index.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { callSandbox, KEYS, startTestSandbox } from '../helpers/sandbox.js';

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox({ asOf: SANDBOX_TEST_AS_OF });
});
afterAll(() => sandbox.close());

interface Item {
  key: string;
  name: string;
  fit_pct: number;
  why: string[];
  url: string;
  hq_country: string;
  investor_type: string;
  score: number;
  recent_comparable_deals: { startup: string; stage: string; amount_usd: number; date: string }[];
}

async function find(params: Record<string, unknown>, key: string = KEYS.startup) {
  const r = await callSandbox(sandbox, 'find_investors', { key, params });
  return r;
}

async function investors(
  params: Record<string, unknown>,
): Promise<{ items: Item[]; startup: Record<string, unknown> }> {
  const r = await find(params);
  expect(r.status, r.text).toBe(200);
  const data = FindInvestorsDataSchema.parse(r.body.data);
  return { items: data.investors as unknown as Item[], startup: data.startup };
}

/** Deals of an investor in a sector, counted straight from the database. */
function sectorDeals(investorKey: string, sector: string): number {
  const row = sandbox.db
    .prepare(
      `SELECT COUNT(*) AS n FROM round_investors ri JOIN rounds r ON r.id = ri.round_id JOIN startups s ON s.key = r.startup_key
       WHERE ri.investor_key = ? AND s.sector = ?`,
    )
    .get(investorKey, sector) as { n: number };
  return row.n;
}

/** Deals of an investor at a database stage. */
function stageDeals(investorKey: string, stage: string): number {
  const row = sandbox.db
    .prepare(
      'SELECT COUNT(*) AS n FROM round_investors ri JOIN rounds r ON r.id = ri.round_id WHERE ri.investor_key = ? AND r.stage = ?',
    )
    .get(investorKey, stage) as { n: number };
  return row.n;
}

const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

function expectWellFormed(items: Item[]) {
  for (const it of items) {
    expect(it.fit_pct).toBeGreaterThanOrEqual(0);
    expect(it.fit_pct).toBeLessThanOrEqual(100);
    expect(Math.round(it.fit_pct * 10) / 10).toBe(it.fit_pct);
    expect(Array.isArray(it.why)).toBe(true);
    expect(it.why.length).toBeGreaterThan(0);
    for (const w of it.why) expect(w).toMatch(/\d/);
    expect(it.url).toBe(`${sandbox.url}/view/investors/${encodeURIComponent(it.key)}`);
    expect(typeof it.hq_country).toBe('string');
    expect(typeof it.investor_type).toBe('string');
    expect(typeof it.score).toBe('number');
  }
  for (let i = 1; i < items.length; i++)
    expect(items[i - 1]!.fit_pct).toBeGreaterThanOrEqual(items[i]!.fit_pct);
}

describe('find_investors', () => {
  it('returns ranked investors with reasons, charts, a result link and a 3-credit debit', async () => {
    const before = await callSandbox(sandbox, 'my_account', { key: KEYS.startup });
    const balance = (before.body.data as { credits_balance: number }).credits_balance;
    const r = await find({ sector: 'Finance & Blockchain', tags: ['payments'] });
    expect(r.status, r.text).toBe(200);
    expect(r.body.success).toBe(true);
    expect(r.body.credits).toEqual({ charged: 3, remaining: balance - 3 });
    const data = FindInvestorsDataSchema.parse(r.body.data);
    expect(data.investors).toHaveLength(20);
    expectWellFormed(data.investors as unknown as Item[]);
    expect(data.startup).toMatchObject({
      source: 'parameters',
      sector: 'Finance & Blockchain',
      tags: ['payments'],
      stage: 'seed',
    });
    const first = data.investors[0] as unknown as Item;
    expect(first.why.join(' ')).toMatch(/deals? in Finance & Blockchain since 2020/);
    expect(first.recent_comparable_deals.length).toBeGreaterThan(0);
    for (const d of first.recent_comparable_deals) expect(d.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    expect(r.body.url).toMatch(new RegExp(`^${sandbox.url}/view/results/[^/]+$`));
    const id = decodeURIComponent(String(r.body.url).split('/').pop()!);
    expect(sandbox.state.results.get(id)?.operation).toBe('find_investors');
    const view = await fetch(String(r.body.url));
    expect(view.status).toBe(200);

    const charts = r.body.charts ?? [];
    const combo = charts.find((c) => c.type === 'combo');
    expect(combo).toBeDefined();
    expect(combo!.xKey).toBe('year');
    expect(combo!.series).toEqual([
      expect.objectContaining({ key: 'deals', type: 'bar' }),
      expect.objectContaining({ key: 'capital_usd', type: 'line' }),
    ]);
    for (const s of combo!.series as { name: string }[]) expect(typeof s.name).toBe('string');
    const years = (combo!.data ?? []).map((d) => d.year as number);
    expect(years[0]).toBe(2020);
    const dbDeals2021 = sandbox.db
      .prepare(
        "SELECT COUNT(*) AS n FROM rounds r JOIN startups s ON s.key = r.startup_key WHERE s.sector = 'Finance & Blockchain' AND r.year = 2021",
      )
      .get() as { n: number };
    expect(combo!.data!.find((d) => d.year === 2021)?.deals).toBe(dbDeals2021.n);
    expect(charts.some((c) => c.xKey === 'stage')).toBe(true);
    const location = charts.find((c) => c.xKey === 'country');
    expect(location).toBeDefined();
    expect((location!.data ?? []).reduce((n, d) => n + (d.investors as number), 0)).toBe(20);
  });

  it('ranks investors with more deals in the requested sector higher when the sector changes', async () => {
    const health = await investors({ sector: 'Healthcare & Life Sciences', limit: 10 });
    const energy = await investors({ sector: 'Energy, Environment & Mobility', limit: 10 });
    const healthKeys = health.items.map((i) => i.key);
    const energyKeys = energy.items.map((i) => i.key);
    expect(healthKeys.filter((k) => energyKeys.includes(k)).length).toBeLessThan(5);
    const energyDealsOfEnergyTop = avg(
      energyKeys.map((k) => sectorDeals(k, 'Energy, Environment & Mobility')),
    );
    const energyDealsOfHealthTop = avg(
      healthKeys.map((k) => sectorDeals(k, 'Energy, Environment & Mobility')),
    );
    expect(energyDealsOfEnergyTop).toBeGreaterThan(energyDealsOfHealthTop);
    for (const k of energyKeys) expect(sectorDeals(k, 'Energy, Environment & Mobility')).toBeGreaterThan(0);
  });

  it("puts DACH investors on top for investor_region 'dach', and investor_countries wins over it", async () => {
    const dach = REGION_COUNTRIES.dach as string[];
    const anywhere = await investors({ sector: 'Software & Developer Tools', limit: 20 });
    expect(anywhere.items.some((i) => !dach.includes(i.hq_country))).toBe(true);
    const region = await investors({
      sector: 'Software & Developer Tools',
      investor_region: 'dach',
      limit: 20,
    });
    expect(region.items).toHaveLength(20);
    for (const i of region.items) expect(dach).toContain(i.hq_country);
    expect(region.startup.overrides).toContain('investor_region');
    expect(region.items[0]!.why.join(' ')).toContain('requested: DACH');

    const countries = await investors({
      sector: 'Software & Developer Tools',
      investor_region: 'dach',
      investor_countries: ['France'],
      limit: 20,
    });
    expect(countries.items.length).toBeGreaterThan(0);
    for (const i of countries.items) expect(i.hq_country).toBe('France');
    expect(countries.startup.overrides).toContain('investor_countries');
    expect(countries.startup.overrides).not.toContain('investor_region');
  });

  it('favours investors with Series B deals over seed-only ones when raising_stage is series-b', async () => {
    const seed = await investors({ sector: 'Finance & Blockchain', raising_stage: 'seed', limit: 10 });
    const seriesB = await investors({ sector: 'Finance & Blockchain', raising_stage: 'series-b', limit: 10 });
    expect(seriesB.startup.stage).toBe('series-b');
    const bOfB = seriesB.items.map((i) => stageDeals(i.key, 'series-b'));
    const bOfSeed = seed.items.map((i) => stageDeals(i.key, 'series-b'));
    expect(avg(bOfB)).toBeGreaterThan(avg(bOfSeed));
    for (const n of bOfB) expect(n).toBeGreaterThan(0);
    expect(seriesB.items[0]!.why.join(' ')).toMatch(/Series B rounds? of \$/);
  });

  it('reads a known startup from the database by its website', async () => {
    const s = sandbox.db
      .prepare(
        "SELECT key, name, domain, sector, subsector, hq_country, stage FROM startups WHERE stage = 'seed' ORDER BY key LIMIT 1",
      )
      .get() as {
      key: string;
      name: string;
      domain: string;
      sector: string;
      subsector: string;
      hq_country: string;
      stage: string;
    };
    const { items, startup } = await investors({ website: `HTTPS://www.${s.domain}/about?ref=x`, limit: 5 });
    expect(startup).toMatchObject({
      source: 'database',
      key: s.key,
      name: s.name,
      domain: s.domain,
      sector: s.sector,
      subsectors: [s.subsector],
      country: s.hq_country,
      stage: 'series-a',
      overrides: [],
    });
    expect(items).toHaveLength(5);
    // A raising_stage and a sector override the reading and are listed.
    const over = await investors({
      website: `https://${s.domain}`,
      raising_stage: 'series-b',
      sector: 'Industry & Hardware',
      limit: 5,
    });
    expect(over.startup).toMatchObject({
      source: 'database',
      stage: 'series-b',
      sector: 'Industry & Hardware',
    });
    expect(over.startup.overrides).toEqual(expect.arrayContaining(['raising_stage', 'sector']));
  });

  it('reads an unknown website from its host name and a description from its keywords', async () => {
    const site = await investors({ website: 'https://ledgerpay-cloud.example', limit: 3 });
    expect(site.startup).toMatchObject({
      source: 'website',
      domain: 'ledgerpay-cloud.example',
      name: 'Ledgerpay Cloud',
    });
    const desc = await investors({
      description:
        'We build payment APIs and card issuing for online marketplaces. Based in Berlin and raising a seed round.',
      limit: 3,
    });
    expect(desc.startup).toMatchObject({
      source: 'description',
      sector: 'Finance & Blockchain',
      country: 'Germany',
      stage: 'seed',
    });
    expect(desc.startup.subsectors).toContain('Payments');
  });

  it('answers 400 invalid_input saying what is needed when nothing describes the startup', async () => {
    const r = await find({ raising_stage: 'seed' });
    expect(r.status).toBe(400);
    expect(r.body.error?.code).toBe('invalid_input');
    expect(r.body.error?.message).toMatch(/website/);
    expect(r.body.error?.message).toMatch(/description/);
    expect(r.body.error?.message).toMatch(/sector/);
    expect(r.body.credits?.charged).toBe(0);
    const unreadable = await find({ website: 'https://zzqx.example' });
    expect(unreadable.status).toBe(400);
    expect(unreadable.body.error?.message).toMatch(/zzqx\.example/);
  });

  it('honours limit 1 and 50 and refuses 51', async () => {
    expect((await investors({ sector: 'Commerce & Marketing', limit: 1 })).items).toHaveLength(1);
    const fifty = await investors({ sector: 'Commerce & Marketing', limit: 50 });
    expect(fifty.items).toHaveLength(50);
    expectWellFormed(fifty.items);
    const r = await find({ sector: 'Commerce & Marketing', limit: 51 });
    expect(r.status).toBe(400);
    expect(r.body.error?.code).toBe('invalid_input');
    expect(r.body.error?.message).toMatch(/limit/);
  });

  it('gives a free-plan account one run of the top 5, then 402 upgrade_required without charging', async () => {
    const tools = async () =>
      (await callSandbox(sandbox, 'my_account', { key: KEYS.free })).body.data?.tools as string[];
    expect(await tools()).toContain('find_investors');
    const first = await find({ sector: 'Healthcare & Life Sciences', limit: 20 }, KEYS.free);
    expect(first.status, first.text).toBe(200);
    const data = FindInvestorsDataSchema.parse(first.body.data);
    expect(data.investors).toHaveLength(5);
    expect(first.body.credits?.charged).toBe(3);
    expect(first.body.summary).toMatch(/Free plan/);
    expect(sandbox.state.freeFinderRunsUsed.get('acct_free')).toBe(1);
    const remaining = first.body.credits?.remaining;
    const second = await find({ sector: 'Healthcare & Life Sciences' }, KEYS.free);
    expect(second.status).toBe(402);
    expect(second.body.error?.code).toBe('upgrade_required');
    expect(second.body.credits).toEqual({ charged: 0, remaining });
    // my_account no longer offers the tool the account can no longer call.
    expect(await tools()).not.toContain('find_investors');
    expect(await tools()).toContain('search_investors');
  });
});
