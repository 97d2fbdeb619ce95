/**
 * The read operations' handlers called directly over a small, fully known database: every
 * expectation is computed independently from the fixture rows.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { validateParams, type OperationName, type ParamsIn } from '../../api/index.js';
import { HANDLERS } from '../../sandbox/operations/index.js';
import { RESULT_SHAPES } from '../../sandbox/result-shapes.js';
import { SandboxError, type Account, type HandlerResult } from '../../sandbox/types.js';
import { buildFixture, fixtureContext, FIXTURE_AS_OF, type Fixture } from './read-fixture.js';

let fx: Fixture;
beforeAll(() => {
  fx = buildFixture();
});

async function call<N extends OperationName>(name: N, input: ParamsIn<N>, over = {}): Promise<HandlerResult> {
  const v = validateParams(name, input);
  if (!v.ok) throw new Error(v.message);
  const result = await HANDLERS[name](fixtureContext(fx.db, v.value, over));
  expect(() => RESULT_SHAPES[name].parse(result.data)).not.toThrow();
  return result;
}

async function callError(name: OperationName, input: object): Promise<SandboxError> {
  try {
    await call(name, input as never);
  } catch (e) {
    expect(e).toBeInstanceOf(SandboxError);
    return e as SandboxError;
  }
  throw new Error(`${name} did not fail`);
}

type Row = Record<string, any>;
const keys = (rows: Row[]) => rows.map((r) => r.key as string);
const byScore = (a: Row, b: Row) => b.score - a.score || (a.key < b.key ? -1 : 1);

function investmentsOf(key: string): number {
  return fx.rounds.filter((r) => r.investors.includes(key)).length;
}

describe('search_investors', () => {
  it('lists every investor by score, ties by key, with the summary fields', async () => {
    const r = await call('search_investors', { limit: 100 });
    const d = r.data as Row;
    expect(d.total).toBe(60);
    expect(keys(d.investors)).toEqual([...fx.investors].sort(byScore).map((i) => i.key));
    expect(d.next_offset).toBeNull();
    const first = d.investors[0];
    expect(Object.keys(first)).toEqual(
      expect.arrayContaining([
        'key',
        'name',
        'investor_type',
        'hq_city',
        'hq_country',
        'region',
        'sectors',
        'score',
        'investments_count',
        'check_min_usd',
        'check_max_usd',
        'url',
      ]),
    );
    expect(first.investments_count).toBe(investmentsOf(first.key));
    expect(first.url).toBe(`http://sandbox.test/view/investors/${first.key}`);
    expect(r.summary).toMatch(/^Investors 1-60 of 60, by score: /);
    expect(r.url).toBe('http://sandbox.test/view/search_investors?sort=score&limit=100&offset=0');
  });

  it('sorts by investments (count of rounds desc, key asc)', async () => {
    const d = (await call('search_investors', { sort: 'investments', limit: 100 })).data as Row;
    const expected = [...fx.investors]
      .map((i) => ({ key: i.key, n: investmentsOf(i.key) }))
      .sort((a, b) => b.n - a.n || (a.key < b.key ? -1 : 1));
    expect(keys(d.investors)).toEqual(expected.map((e) => e.key));
    expect(d.investors.map((i: Row) => i.investments_count)).toEqual(expected.map((e) => e.n));
  });

  it.each([
    ['USA', 'United States'],
    ['uk', 'United Kingdom'],
    ['germany', 'Germany'],
  ])('filters by country alias %s', async (alias, country) => {
    const d = (await call('search_investors', { country: alias, limit: 100 })).data as Row;
    expect(d.total).toBe(fx.investors.filter((i) => i.hq_country === country).length);
    expect(d.total).toBeGreaterThan(0);
    expect(d.investors.every((i: Row) => i.hq_country === country)).toBe(true);
  });

  it('filters by region, subregion and investor_region values', async () => {
    const europe = (await call('search_investors', { region: 'Europe', limit: 100 })).data as Row;
    expect(new Set(europe.investors.map((i: Row) => i.hq_country))).toEqual(
      new Set(['Germany', 'United Kingdom', 'France', 'Sweden']),
    );
    const nordics = (await call('search_investors', { region: 'nordics', limit: 100 })).data as Row;
    expect(new Set(nordics.investors.map((i: Row) => i.hq_country))).toEqual(new Set(['Sweden']));
    const dach = (await call('search_investors', { region: 'DACH', limit: 100 })).data as Row;
    expect(dach.total).toBe(fx.investors.filter((i) => i.hq_country === 'Germany').length);
    const latam = (await call('search_investors', { region: 'latam', limit: 100 })).data as Row;
    expect(new Set(latam.investors.map((i: Row) => i.hq_country))).toEqual(new Set(['Brazil']));
    expect((await callError('search_investors', { region: 'Atlantis' })).message).toMatch(
      /region: unknown region 'Atlantis'/,
    );
  });

  it('reads investor_type as free text', async () => {
    const types = async (t: string) =>
      new Set(
        ((await call('search_investors', { investor_type: t, limit: 100 })).data as Row).investors.map(
          (i: Row) => i.investor_type,
        ),
      );
    expect(await types('vc')).toEqual(new Set(['VC']));
    expect(await types('Corporate VC')).toEqual(new Set(['Corporate VC']));
    expect(await types('corporate')).toEqual(new Set(['Corporate VC']));
    expect(await types('Angels')).toEqual(new Set(['Angel']));
    expect(await types('cvc')).toEqual(new Set(['Corporate VC']));
    // Free text, as the spec says: a type no investor has is an empty answer, not an error.
    for (const t of ['Family Office', 'banana']) {
      const r = await call('search_investors', { investor_type: t, limit: 100 });
      expect((r.data as Row).investors).toEqual([]);
      expect((r.data as Row).total).toBe(0);
    }
  });

  it('filters by primary sector, exact or by part of its name', async () => {
    const exact = (await call('search_investors', { sector: 'finance & blockchain', limit: 100 }))
      .data as Row;
    const expected = fx.investors.filter((i) => i.sectors[0] === 'Finance & Blockchain').map((i) => i.key);
    expect(keys(exact.investors).sort()).toEqual(expected.sort());
    const part = (await call('search_investors', { sector: 'finance', limit: 100 })).data as Row;
    expect(part.total).toBe(expected.length);
    expect((await callError('search_investors', { sector: 'knitting' })).message).toMatch(
      /sector: unknown sector 'knitting'/,
    );
  });

  it('matches query over name, city and country, case-insensitively', async () => {
    const berlin = (await call('search_investors', { query: 'BERLIN', limit: 100 })).data as Row;
    expect(berlin.total).toBe(fx.investors.filter((i) => i.hq_city === 'Berlin').length);
    const script = (await call('search_investors', { query: '<script>' })).data as Row;
    expect(keys(script.investors)).toEqual(['alpha-script-capital']);
    const usa = (await call('search_investors', { query: 'usa', limit: 100 })).data as Row;
    expect(usa.investors.every((i: Row) => i.hq_country === 'United States')).toBe(true);
    expect(usa.total).toBe(10);
    const none = await call('search_investors', { query: 'zzzz' });
    expect((none.data as Row).total).toBe(0);
    expect(none.summary).toMatch(/^Investors none of 0 at offset 0 \(matching 'zzzz'\)/);
  });

  it('combines filters with AND', async () => {
    const d = (await call('search_investors', { region: 'Europe', investor_type: 'VC', limit: 100 }))
      .data as Row;
    const expected = fx.investors.filter(
      (i) =>
        ['Germany', 'United Kingdom', 'France', 'Sweden'].includes(i.hq_country) && i.investor_type === 'VC',
    );
    expect(keys(d.investors)).toEqual([...expected].sort(byScore).map((i) => i.key));
  });

  it.each([7, 100, 1])(
    'pages with limit %i over the whole set without skipping or repeating',
    async (limit) => {
      for (const sort of ['score', 'investments'] as const) {
        const seen: string[] = [];
        let offset: number | null = 0;
        let pages = 0;
        while (offset !== null) {
          const d = (await call('search_investors', { sort, limit, offset })).data as Row;
          expect(d.total).toBe(60);
          expect(d.offset).toBe(offset);
          seen.push(...keys(d.investors));
          offset = d.next_offset;
          pages++;
        }
        expect(pages).toBe(Math.ceil(60 / limit));
        expect(new Set(seen).size).toBe(60);
        const all = (await call('search_investors', { sort, limit: 100 })).data as Row;
        expect(seen).toEqual(keys(all.investors));
      }
    },
  );

  it('answers an offset past the end with an empty page', async () => {
    const d = (await call('search_investors', { offset: 500 })).data as Row;
    expect(d.investors).toEqual([]);
    expect(d.total).toBe(60);
    expect(d.next_offset).toBeNull();
  });
});

describe('search_startups', () => {
  const byRaised = (a: Row, b: Row) => b.total_raised_usd - a.total_raised_usd || (a.key < b.key ? -1 : 1);

  it('orders by total raised desc then key, with last round fields', async () => {
    const d = (await call('search_startups', { limit: 100 })).data as Row;
    expect(d.total).toBe(90);
    expect(keys(d.startups)).toEqual([...fx.startups].sort(byRaised).map((s) => s.key));
    expect(d.order).toBe('total raised descending, then key ascending');
    for (const s of d.startups as Row[]) {
      const last = fx.rounds
        .filter((r) => r.startup_key === s.key)
        .sort((a, b) => (a.date < b.date ? 1 : -1))[0]!;
      expect(s.last_round_date).toBe(last.date);
      expect(s.last_round_amount_usd).toBe(last.amount_usd);
    }
  });

  it('matches every query word in the name or description', async () => {
    const d = (await call('search_startups', { query: 'Robotics', limit: 100 })).data as Row;
    const expected = fx.startups.filter((s) =>
      `${s.name} ${s.description}`.toLowerCase().includes('robotics'),
    );
    expect(keys(d.startups).sort()).toEqual(expected.map((s) => s.key).sort());
    const two = (await call('search_startups', { query: 'robotics climate', limit: 100 })).data as Row;
    const both = expected.filter((s) => `${s.name} ${s.description}`.toLowerCase().includes('climate'));
    expect(two.total).toBe(both.length);
    expect(two.total).toBeLessThan(expected.length);
  });

  it('filters by sector, countries (aliases) and stages', async () => {
    const d = (await call('search_startups', { sector: 'Healthcare', countries: ['USA', 'uk'], limit: 100 }))
      .data as Row;
    const expected = fx.startups.filter(
      (s) =>
        s.sector === 'Healthcare & Life Sciences' &&
        ['United States', 'United Kingdom'].includes(s.hq_country),
    );
    expect(keys(d.startups).sort()).toEqual(expected.map((s) => s.key).sort());
    const stages = (await call('search_startups', { stages: ['Series A', 'seed'], limit: 100 })).data as Row;
    expect(stages.total).toBe(fx.startups.filter((s) => ['series-a', 'seed'].includes(s.stage)).length);
    const late = (await call('search_startups', { stages: ['series-c-plus'], limit: 100 })).data as Row;
    expect(new Set(late.startups.map((s: Row) => s.stage))).toEqual(
      new Set(['series-c', 'series-d-plus', 'growth']),
    );
    const sub = (await call('search_startups', { sector: 'genomics', limit: 100 })).data as Row;
    expect(sub.total).toBe(
      fx.startups.filter((s) => s.subsector === 'Sub genomics' || s.tags.includes('genomics')).length,
    );
    expect((await callError('search_startups', { countries: ['Germany', 'Narnia'] })).message).toMatch(
      /countries: unknown country 'Narnia'/,
    );
    expect((await callError('search_startups', { stages: ['series-z'] })).message).toMatch(
      /stages: unknown stage 'series-z'/,
    );
  });

  it('pages with limit 7 over a filtered set without skipping or repeating', async () => {
    const all = fx.startups
      .filter((s) => s.hq_country === 'Germany' || s.hq_country === 'France')
      .sort(byRaised);
    const seen: string[] = [];
    for (let offset: number | null = 0; offset !== null;) {
      const d = (await call('search_startups', { countries: ['Germany', 'France'], limit: 7, offset }))
        .data as Row;
      expect(d.total).toBe(all.length);
      seen.push(...keys(d.startups));
      offset = d.next_offset;
    }
    expect(seen).toEqual(all.map((s) => s.key));
  });
});

describe('get_investor', () => {
  it('returns the profile with history-derived fields', async () => {
    const key = 'inv-03';
    const r = await call('get_investor', { key });
    const inv = (r.data as Row).investor;
    const mine = fx.rounds.filter((x) => x.investors.includes(key));
    expect(inv.name).toBe('Investor D3');
    expect(inv.thesis).toMatch(/backs/);
    expect(inv.team).toEqual([{ name: 'Ada Partner', role: 'General Partner' }]);
    expect(inv.investments_count).toBe(mine.length);
    expect(inv.investments_by_year.map((y: Row) => y.year)).toEqual([2020, 2021, 2022, 2023, 2024, 2025]);
    expect(inv.investments_by_year.reduce((a: number, y: Row) => a + y.deals, 0)).toBe(
      mine.filter((x) => x.date <= FIXTURE_AS_OF).length,
    );
    expect(inv.sector_mix.reduce((a: number, s: Row) => a + s.deals, 0)).toBe(mine.length);
    expect(inv.stage_mix.reduce((a: number, s: Row) => a + s.deals, 0)).toBe(mine.length);
    expect(inv.scores.overall).toBe(65);
    expect(inv.scores.lead_rate_pct).toBe(
      Math.round((mine.filter((x) => x.lead === key).length / mine.length) * 1000) / 10,
    );
    const dates = inv.recent_portfolio.map((p: Row) => p.date);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(inv.recent_portfolio.length).toBe(Math.min(10, new Set(mine.map((x) => x.startup_key)).size));
    expect(r.summary).toMatch(
      /^Investor D3 \(Accelerator, Paris, France\): score 65, \d+ investments since 2020, mostly /,
    );
    expect(r.url).toBe('http://sandbox.test/view/investors/inv-03');
    expect(r.charts?.[0]).toMatchObject({
      type: 'bar',
      xKey: 'year',
      series: [{ key: 'deals' }, { key: 'lead_deals' }],
    });
  });

  it('answers 404 not_found naming an unknown key', async () => {
    const e = await callError('get_investor', { key: 'no-such-fund' });
    expect([e.status, e.code]).toEqual([404, 'not_found']);
    expect(e.message).toContain("'no-such-fund'");
  });
});

describe('get_startup', () => {
  it('finds a startup by key or exact name and lists every round with its investors', async () => {
    const byKey = (await call('get_startup', { key: 'st-11' })).data as Row;
    const byName = (await call('get_startup', { key: 'startup 11 security' })).data as Row;
    expect(byName).toEqual(byKey);
    const s = byKey.startup;
    const mine = fx.rounds.filter((r) => r.startup_key === 'st-11');
    expect(s.rounds).toHaveLength(mine.length);
    for (const round of s.rounds as Row[]) {
      const src = mine.find((m) => m.id === round.id)!;
      expect(round.lead_investors.map((i: Row) => i.key)).toEqual([src.lead]);
      expect(round.investors.map((i: Row) => i.key).sort()).toEqual([...src.investors].sort());
      expect(round.lead_investors[0].name).toBe(fx.investors.find((i) => i.key === src.lead)!.name);
    }
    expect(s.founders).toEqual([{ name: 'Founder One', role: 'CEO' }]);
    expect(s.total_raised_usd).toBe(12_000_000);
  });

  it('answers 404 not_found for an unknown key or name', async () => {
    const e = await callError('get_startup', { key: 'Startup 11' });
    expect([e.status, e.code]).toEqual([404, 'not_found']);
    expect(e.message).toContain("'Startup 11'");
  });
});

describe('country_overview', () => {
  it('computes deals and capital by year, YoY, totals and the recent mixes', async () => {
    const r = await call('country_overview', { country: 'Sweden' });
    const d = r.data as Row;
    const swedish = new Set(fx.startups.filter((s) => s.hq_country === 'Sweden').map((s) => s.key));
    const rounds = fx.rounds.filter((x) => swedish.has(x.startup_key) && x.date <= FIXTURE_AS_OF);
    expect(d.country).toBe('Sweden');
    expect(d.region).toBe('Europe');
    expect(d.as_of).toBe(FIXTURE_AS_OF);
    expect(d.period).toEqual({ from: '2020-01-01', to: FIXTURE_AS_OF });
    expect(d.by_year.map((y: Row) => y.year)).toEqual([2020, 2021, 2022, 2023, 2024, 2025]);
    for (const y of d.by_year as Row[]) {
      const inYear = rounds.filter((x) => x.year === y.year);
      expect(y.deals).toBe(inYear.length);
      expect(y.capital_usd).toBe(inYear.reduce((a, x) => a + x.amount_usd, 0));
    }
    const [y2020, y2021] = d.by_year as Row[];
    expect(y2020!.yoy_deals_pct).toBeNull();
    expect(y2021!.yoy_capital_pct).toBe(
      y2020!.capital_usd
        ? Math.round(((y2021!.capital_usd - y2020!.capital_usd) / y2020!.capital_usd) * 1000) / 10
        : null,
    );
    expect(d.by_year[5].partial).toBe(true);
    expect(d.totals.deals).toBe(rounds.length);
    expect(d.mega_rounds).toBe(rounds.filter((x) => x.amount_usd >= 100_000_000).length);
    expect(d.mega_rounds).toBe(1);
    const recent = rounds.filter((x) => x.date >= '2022-07-01');
    expect(d.stage_mix.reduce((a: number, s: Row) => a + s.deals, 0)).toBe(recent.length);
    expect(d.top_sectors.reduce((a: number, s: Row) => a + s.deals, 0)).toBe(recent.length);
    expect(d.most_active_investors.length).toBeGreaterThan(0);
    const top = d.most_active_investors[0];
    expect(top.deals).toBe(recent.filter((x) => x.investors.includes(top.key)).length);
    expect(r.summary).toMatch(
      /^Sweden: \d+ deals and \$[\d.]+[KMB] since 2020; 2025 capital [+-][\d.]+% YoY \(year to date/,
    );
    expect(r.url).toBe('http://sandbox.test/view/countries/Sweden');
    const types = r.charts!.map((c) => c.type);
    expect(types).toEqual(['bar', 'combo', 'bar', 'bar']);
    expect(r.charts![1]!.series).toEqual([
      { key: 'deals', name: 'Deals', type: 'bar' },
      { key: 'capital_usd', name: 'Capital (USD)', type: 'line' },
    ]);
  });

  it('resolves aliases and answers 404 with suggestions for unknown countries', async () => {
    expect(((await call('country_overview', { country: 'USA' })).data as Row).country).toBe('United States');
    expect(((await call('country_overview', { country: 'uk' })).data as Row).country).toBe('United Kingdom');
    const e = await callError('country_overview', { country: 'Germanyy' });
    expect([e.status, e.code]).toEqual([404, 'not_found']);
    expect(e.message).toBe("Unknown country 'Germanyy'; did you mean Germany?");
    expect((await callError('country_overview', { country: 'Qwxzv' })).message).toMatch(
      /^Unknown country 'Qwxzv'; use a country name/,
    );
  });
});

describe('my_account', () => {
  const vc: Account = {
    id: 'acct_vc',
    name: 'Fund',
    type: 'investor',
    plan: 'paid',
    credits: 99_970,
    thesis: {
      fund_name: 'Fund I',
      sectors: [],
      stages: ['seed'],
      countries: [],
      check_min_usd: 1,
      check_max_usd: 2,
      portfolio: [],
    },
  };
  it('lists the tools the key and account may use', async () => {
    const all = {
      key: 'k',
      account_id: 'acct_vc',
      scopes: ['read', 'ask', 'finder'] as const,
      revoked: false,
    };
    const r = await call('my_account', {}, { account: vc, key: { ...all, scopes: [...all.scopes] } });
    const d = r.data as Row;
    expect(d.tools).toHaveLength(11);
    expect(d.tools).not.toContain('find_customers');
    expect(d).toMatchObject({
      plan: 'paid',
      credits_balance: 99_970,
      account_type: 'investor',
      rate_limits: { per_minute: 60, per_day: 5000 },
    });
    expect(d.thesis.fund_name).toBe('Fund I');
    expect(d.match_list).toEqual({ batches: 0, latest: null });
    expect(r.summary).toBe('Paid plan, 99,970 credits, 11 tools');
    const ro = await call('my_account', {}, { account: vc, key: { ...all, scopes: ['read'] } });
    expect((ro.data as Row).tools).toEqual([
      'my_account',
      'get_deck_analysis',
      'search_investors',
      'get_investor',
      'search_startups',
      'get_startup',
      'country_overview',
    ]);
    expect(JSON.stringify(ro.data)).not.toContain('"k"');
  });
});

describe('precomputed stats and memoized results', () => {
  it('follow writes to the database', async () => {
    const local = buildFixture();
    const before = await HANDLERS.get_investor(fixtureContext(local.db, { key: 'inv-01' }));
    const country = await HANDLERS.country_overview(fixtureContext(local.db, { country: 'Germany' }));
    const count0 = (before.data as Row).investor.investments_count as number;
    const deals0 = (country.data as Row).totals.deals as number;
    local.db
      .prepare("INSERT INTO rounds VALUES (9999, 'st-00', '2025-05-01', 2025, 'seed', 1000000, 'inv-01')")
      .run();
    local.db.prepare("INSERT INTO round_investors VALUES (9999, 'inv-01', 1)").run();
    const after = await HANDLERS.get_investor(fixtureContext(local.db, { key: 'inv-01' }));
    expect((after.data as Row).investor.investments_count).toBe(count0 + 1);
    const country2 = await HANDLERS.country_overview(fixtureContext(local.db, { country: 'Germany' }));
    expect((country2.data as Row).totals.deals).toBe(deals0 + 1);
    const st = await HANDLERS.get_startup(fixtureContext(local.db, { key: 'st-00' }));
    expect((st.data as Row).startup.last_round_date).toBe('2025-05-01');
  });
});
