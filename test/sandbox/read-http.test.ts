/**
 * The read operations, their HTML views and /openapi.json over real HTTP against a sandbox on
 * the generated database. Expectations are computed independently with SQL on sandbox.db.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OperationName } from '../../api/index.js';
import { buildOpenApiDocument } from '../../sandbox/openapi.js';
import { RESULT_SHAPES } from '../../sandbox/result-shapes.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { callSandbox, KEYS, startTestSandbox } from '../helpers/sandbox.js';

type Row = Record<string, any>;
let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimitPerMinute: 100_000, rateLimitPerDay: 1_000_000 });
});
afterAll(async () => {
  await sandbox?.close();
});

/** Calls an operation with the VC key, expects 200 and a data object valid for the operation. */
async function ok(operation: OperationName, params: Record<string, unknown> = {}, method = 'POST') {
  const r = await callSandbox(sandbox, operation, { key: KEYS.vc, params, method });
  expect(r.status, r.text).toBe(200);
  expect(r.body.success).toBe(true);
  expect(() => RESULT_SHAPES[operation].parse(r.body.data)).not.toThrow();
  expect(r.body.summary.length).toBeGreaterThan(10);
  return r.body as { data: Row; summary: string; url: string; charts: Row[] };
}

function sql<T = Row>(query: string, ...args: (string | number)[]): T[] {
  return sandbox.db.prepare(query).all(...args) as T[];
}

async function view(url: string): Promise<{ status: number; type: string | null; html: string }> {
  const r = await fetch(url.startsWith('http') ? url : `${sandbox.url}${url}`);
  return { status: r.status, type: r.headers.get('content-type'), html: await r.text() };
}

async function pageAll(
  operation: 'search_investors' | 'search_startups',
  params: Row,
  limit: number,
): Promise<Row[]> {
  const out: Row[] = [];
  let offset: number | null = 0;
  while (offset !== null) {
    const { data } = await ok(operation, { ...params, limit, offset });
    expect(data.offset).toBe(offset);
    out.push(...(data.investors ?? data.startups));
    offset = data.next_offset;
  }
  return out;
}

describe('my_account', () => {
  it('lists different tools for the free, readonly and vc keys', async () => {
    const tools = async (key: string) => {
      const r = await callSandbox(sandbox, 'my_account', { key });
      expect(r.status).toBe(200);
      return r.body;
    };
    const free = await tools(KEYS.free);
    const readonly = await tools(KEYS.readonly);
    const vc = await tools(KEYS.vc);
    expect((free.data as Row).tools).toEqual([
      'my_account',
      'find_investors',
      'get_deck_analysis',
      'search_investors',
      'get_investor',
      'search_startups',
      'get_startup',
      'country_overview',
    ]);
    expect((readonly.data as Row).tools).toEqual([
      'my_account',
      'get_deck_analysis',
      'search_investors',
      'get_investor',
      'search_startups',
      'get_startup',
      'country_overview',
    ]);
    expect((vc.data as Row).tools).toHaveLength(11);
    expect((vc.data as Row).tools).toContain('find_startups_for_fund');
    expect(free.summary).toMatch(/^Free plan, \d+ credits, 8 tools$/);
    expect(vc.summary).toMatch(/^Paid plan, [\d,]+ credits, 11 tools$/);
    expect(vc.data).toMatchObject({
      plan: 'paid',
      account_type: 'investor',
      account_name: 'Northwind Ventures',
      scopes: ['read', 'ask', 'finder'],
      rate_limits: { per_minute: 100_000, per_day: 1_000_000 },
    });
    expect((vc.data as Row).thesis.fund_name).toBe('Northwind Seed Fund II');
    expect((vc.data as Row).match_list).toEqual({ batches: 0, latest: null });
    const provider = await tools(KEYS.provider);
    expect((provider.data as Row).organisations.map((o: Row) => o.org_key)).toEqual([
      'brightline-legal',
      'brightline-growth',
    ]);
    for (const r of [free, readonly, vc, provider]) expect(JSON.stringify(r)).not.toContain('vis_live_');
  });
});

describe('my_account after find_startups_for_fund', () => {
  it('summarises the saved match list', async () => {
    const run = await callSandbox(sandbox, 'find_startups_for_fund', { key: KEYS.vc, params: { limit: 7 } });
    expect(run.status, run.text).toBe(200);
    const { data } = await ok('my_account');
    expect(data.match_list.batches).toBe(1);
    expect(data.match_list.latest).toMatchObject({
      batch_id: (run.body.data as Row).batch_id,
      fund_name: 'Northwind Seed Fund II',
      startups: 7,
    });
  });
});

describe('search_investors', () => {
  it('pages all investors of one country with limit 100 and 7, in both sorts, without skips or repeats', async () => {
    const byScore = sql<{ key: string }>(
      "SELECT key FROM investors WHERE hq_country = 'Germany' ORDER BY score DESC, key",
    ).map((r) => r.key);
    expect(byScore.length).toBeGreaterThan(20);
    for (const limit of [100, 7]) {
      const rows = await pageAll('search_investors', { country: 'germany' }, limit);
      expect(rows.map((r) => r.key)).toEqual(byScore);
    }
    const byInvestments = sql<{ key: string; n: number }>(
      `SELECT i.key, (SELECT COUNT(*) FROM round_investors ri WHERE ri.investor_key = i.key) AS n
       FROM investors i WHERE hq_country = 'Germany' ORDER BY n DESC, i.key`,
    );
    const rows = await pageAll('search_investors', { country: 'Germany', sort: 'investments' }, 7);
    expect(rows.map((r) => r.key)).toEqual(byInvestments.map((r) => r.key));
    expect(rows.map((r) => r.investments_count)).toEqual(byInvestments.map((r) => r.n));
  });

  it('filters by alias, region, type, sector and query; GET equals POST', async () => {
    const usa = await ok('search_investors', { country: 'USA', limit: 100 });
    expect(usa.data.total).toBe(sql("SELECT key FROM investors WHERE hq_country = 'United States'").length);
    expect(usa.data.investors.every((i: Row) => i.hq_country === 'United States')).toBe(true);
    const uk = await ok('search_investors', { country: 'uk', limit: 100 });
    expect(new Set(uk.data.investors.map((i: Row) => i.hq_country))).toEqual(new Set(['United Kingdom']));

    const dach = await ok('search_investors', { region: 'DACH', limit: 100 });
    const dachCountries = sql<{ name: string }>("SELECT name FROM countries WHERE subregion = 'DACH'").map(
      (c) => c.name,
    );
    expect(dach.data.total).toBe(
      sql(
        `SELECT key FROM investors WHERE hq_country IN (${dachCountries.map(() => '?').join(',')})`,
        ...dachCountries,
      ).length,
    );

    const corporate = await ok('search_investors', { investor_type: 'corporate', limit: 100 });
    expect(corporate.data.total).toBe(
      sql("SELECT key FROM investors WHERE investor_type = 'Corporate VC'").length,
    );
    const vc = await ok('search_investors', { investor_type: 'vc', limit: 100 });
    expect(new Set(vc.data.investors.map((i: Row) => i.investor_type))).toEqual(new Set(['VC']));

    const health = await ok('search_investors', { sector: 'healthcare', limit: 100 });
    expect(health.data.total).toBe(
      sql("SELECT key FROM investors WHERE json_extract(sectors, '$[0]') = 'Healthcare & Life Sciences'")
        .length,
    );
    expect(health.data.investors.every((i: Row) => i.sectors[0] === 'Healthcare & Life Sciences')).toBe(true);

    const berlin = await ok('search_investors', { query: 'berlin', limit: 100 });
    expect(berlin.data.total).toBe(
      sql("SELECT key FROM investors WHERE lower(name) LIKE '%berlin%' OR lower(hq_city) LIKE '%berlin%'")
        .length,
    );
    expect(berlin.data.total).toBeGreaterThan(0);

    const params = { country: 'France', investor_type: 'VC', sort: 'investments', limit: 10, offset: 3 };
    const post = await ok('search_investors', params);
    const get = await ok('search_investors', params, 'GET');
    expect(get.data).toEqual(post.data);
    expect(post.url).toBe(
      `${sandbox.url}/view/search_investors?country=France&investor_type=VC&sort=investments&limit=10&offset=3`,
    );
  });

  it('answers 400 naming an unknown filter value', async () => {
    const r = await callSandbox(sandbox, 'search_investors', { key: KEYS.vc, params: { country: 'Narnia' } });
    expect(r.status).toBe(400);
    expect(r.body.error?.code).toBe('invalid_input');
    expect(r.body.error?.message).toContain("unknown country 'Narnia'");
  });
});

describe('search_startups', () => {
  it('filters by countries and stages (GET arrays) and pages in the stable order', async () => {
    const expected = sql<{ key: string }>(
      `SELECT key FROM startups WHERE hq_country IN ('United Kingdom', 'France') AND stage IN ('seed', 'series-a')
       ORDER BY total_raised_usd DESC, key`,
    ).map((r) => r.key);
    expect(expected.length).toBeGreaterThan(100);
    const paged = await pageAll(
      'search_startups',
      { countries: ['uk', 'France'], stages: ['seed', 'Series A'] },
      100,
    );
    expect(paged.map((s) => s.key)).toEqual(expected);
    const get = await ok(
      'search_startups',
      { countries: ['uk', 'France'], stages: ['seed', 'series-a'], limit: 5 },
      'GET',
    );
    expect(get.data.total).toBe(expected.length);
    expect(get.data.startups.map((s: Row) => s.key)).toEqual(expected.slice(0, 5));
    const first = get.data.startups[0];
    const last = sql(
      'SELECT date, amount_usd FROM rounds WHERE startup_key = ? ORDER BY date DESC, id DESC LIMIT 1',
      first.key,
    )[0];
    expect(first.last_round_date).toBe(last?.date);
    expect(first.last_round_amount_usd).toBe(last?.amount_usd);
  });

  it('matches query words over name and description, and sector', async () => {
    const r = await ok('search_startups', { query: 'Platform', sector: 'Finance & Blockchain', limit: 100 });
    const expected = sql(
      `SELECT key FROM startups WHERE (lower(name) LIKE '%platform%' OR lower(description) LIKE '%platform%')
       AND sector = 'Finance & Blockchain'`,
    );
    expect(r.data.total).toBe(expected.length);
    expect(r.data.total).toBeGreaterThan(0);
  });
});

describe('profiles, country overview and their views', () => {
  it('get_investor returns the profile and its view shows the name', async () => {
    const top = sql<{ key: string; name: string }>(
      'SELECT key, name FROM investors ORDER BY score DESC, key LIMIT 1',
    )[0]!;
    const r = await ok('get_investor', { key: top.key });
    const inv = r.data.investor;
    expect(inv.name).toBe(top.name);
    expect(inv.investments_count).toBe(
      sql('SELECT 1 FROM round_investors WHERE investor_key = ?', top.key).length,
    );
    expect(inv.investments_by_year[0].year).toBe(2020);
    expect(inv.recent_portfolio.length).toBeLessThanOrEqual(10);
    expect(inv.thesis.length).toBeGreaterThan(10);
    expect(r.url).toBe(`${sandbox.url}/view/investors/${top.key}`);
    const v = await view(r.url);
    expect(v.status).toBe(200);
    expect(v.type).toMatch(/^text\/html/);
    expect(v.html).toContain(`<h1>${top.name.replace(/&/g, '&amp;')}</h1>`);

    const missing = await callSandbox(sandbox, 'get_investor', {
      key: KEYS.vc,
      params: { key: 'no-such-investor' },
    });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ code: 'not_found' });
    expect(missing.body.error?.message).toContain("'no-such-investor'");
  });

  it('get_startup finds a startup by exact name and its view escapes a hostile name', async () => {
    const name = '<img src=x onerror=alert(1)> "Quote" = Co';
    const key = sandbox.insertStartup({ name, hq_country: 'Germany', description: 'Escapes <b>tags</b>.' }, [
      { amount_usd: 3_000_000, stage: 'seed', date: '2024-03-01' },
    ]);
    const r = await ok('get_startup', { key: name.toUpperCase() });
    expect(r.data.startup.key).toBe(key);
    expect(r.data.startup.rounds).toHaveLength(1);
    expect(r.data.startup.total_raised_usd).toBe(3_000_000);
    const v = await view(r.url);
    expect(v.status).toBe(200);
    expect(v.html).toContain('&lt;img src=x onerror=alert(1)&gt; &quot;Quote&quot; = Co');
    expect(v.html).not.toContain('<img src=x');
    expect(v.html).toContain('Escapes &lt;b&gt;tags&lt;/b&gt;.');

    const withInvestors = sql<{ key: string; name: string }>(
      `SELECT s.key, s.name FROM startups s JOIN rounds r ON r.startup_key = s.key
       WHERE r.lead_investor_key IS NOT NULL ORDER BY s.key LIMIT 1`,
    )[0]!;
    const full = await ok('get_startup', { key: withInvestors.key });
    const round = full.data.startup.rounds.find((x: Row) => x.lead_investors.length > 0);
    expect(round.lead_investors[0]).toMatchObject({ key: expect.any(String), name: expect.any(String) });
    expect(full.data.startup.founders.length).toBeGreaterThan(0);

    const missing = await callSandbox(sandbox, 'get_startup', {
      key: KEYS.vc,
      params: { key: 'No Such Startup' },
    });
    expect([missing.status, missing.body.error?.code]).toEqual([404, 'not_found']);
  });

  it('country_overview resolves aliases, matches SQL totals and serves its view', async () => {
    const r = await ok('country_overview', { country: 'uk' });
    const d = r.data;
    expect(d.country).toBe('United Kingdom');
    const totals = sql<{ deals: number; capital: number }>(
      `SELECT COUNT(*) AS deals, SUM(r.amount_usd) AS capital FROM rounds r JOIN startups s ON s.key = r.startup_key
       WHERE s.hq_country = 'United Kingdom' AND r.date >= '2020-01-01' AND r.date <= ?`,
      d.as_of,
    )[0]!;
    expect(d.totals.deals).toBe(totals.deals);
    expect(d.totals.capital_usd).toBe(totals.capital);
    expect(d.by_year.reduce((a: number, y: Row) => a + y.deals, 0)).toBe(totals.deals);
    expect(d.by_year[0].year).toBe(2020);
    expect(d.by_year.at(-1).year).toBe(Number(d.as_of.slice(0, 4)));
    expect(d.stage_mix.length).toBeGreaterThan(2);
    expect(d.top_sectors.length).toBeGreaterThan(2);
    expect(d.most_active_investors.length).toBe(10);
    expect(d.median_round_usd).toBeGreaterThan(0);
    expect(r.summary).toMatch(
      /^United Kingdom: [\d,]+ deals and \$[\d.]+[MB] since 2020; \d{4} capital [+-]?[\d.]+% YoY/,
    );
    expect(r.charts.map((c) => c.type)).toEqual(['bar', 'combo', 'bar', 'bar']);
    for (const c of r.charts)
      for (const s of c.series)
        expect(s).toEqual(expect.objectContaining({ key: expect.any(String), name: expect.any(String) }));
    const v = await view(r.url);
    expect(v.status).toBe(200);
    expect(v.html).toContain('United Kingdom: venture market');

    const usa = await ok('country_overview', { country: 'USA' }, 'GET');
    expect(usa.data.country).toBe('United States');
    const missing = await callSandbox(sandbox, 'country_overview', {
      key: KEYS.vc,
      params: { country: 'Frnace' },
    });
    expect(missing.status).toBe(404);
    expect(missing.body.error?.message).toBe("Unknown country 'Frnace'; did you mean France?");
  });

  it('search, account, result and unknown views', async () => {
    const search = await ok('search_investors', { country: 'Sweden', limit: 5 });
    const sv = await view(search.url);
    expect(sv.status).toBe(200);
    for (const i of search.data.investors) expect(sv.html).toContain(i.name.replace(/&/g, '&amp;'));
    expect(sv.html).toContain('Next →');
    const st = await ok('search_startups', { countries: ['Sweden'], limit: 3 });
    const stv = await view(st.url);
    expect(stv.status).toBe(200);
    expect(stv.html).toContain(st.data.startups[0].name.replace(/&/g, '&amp;'));
    expect((await view('/view/search_investors?limit=1000')).status).toBe(400);

    const account = await ok('my_account');
    const av = await view(account.url);
    expect(av.status).toBe(200);
    expect(av.html).toContain('Northwind Ventures');
    expect(av.html).toContain('Northwind Seed Fund II');
    expect(av.html).not.toContain('vis_live_');

    sandbox.state.results.set('res-test-1', {
      operation: 'find_investors',
      account_id: 'acct_vc',
      summary: 'Top <investors> for "x"',
      data: { investors: [{ name: 'A <b>', fit_pct: 91, url: '/view/investors/a' }] },
      created_at: '2026-01-01T00:00:00.000Z',
    });
    const rv = await view('/view/results/res-test-1');
    expect(rv.status).toBe(200);
    expect(rv.html).toContain('Top &lt;investors&gt; for &quot;x&quot;');
    expect(rv.html).toContain('<a href="/view/investors/a">A &lt;b&gt;</a>');
    expect(rv.html).toContain('&quot;fit_pct&quot;: 91');

    for (const path of [
      '/view/results/nope',
      '/view/investors/nope',
      '/view/countries/Narnia',
      '/view/account/nope',
      '/view/whatever',
    ]) {
      const nf = await view(path);
      expect(nf.status, path).toBe(404);
      expect(nf.type).toMatch(/^text\/html/);
    }
  });
});

describe('/openapi.json', () => {
  it('serves the generated document', async () => {
    const r = await fetch(`${sandbox.url}/openapi.json`);
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual(
      JSON.parse(JSON.stringify(buildOpenApiDocument({ serverUrl: sandbox.url }))),
    );
  });
});
