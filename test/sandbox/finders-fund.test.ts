/**
 * find_startups_for_fund over real HTTP: thesis fit with reasons and notes, the saved match
 * list, account-type and limit rules, credits, and repeated runs that see new rounds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FindStartupsForFundDataSchema } from '../../sandbox/result-shapes.js';
import { SANDBOX_TEST_AS_OF } from '../../sandbox/data/index.js';
import { rankForFund } from '../../sandbox/finders/score-fund.js';
import { getSnapshot } from '../../sandbox/finders/snapshot.js';
import type { FundThesis, RunningSandbox } from '../../sandbox/index.js';
import { callSandbox, KEYS, startTestSandbox } from '../helpers/sandbox.js';

let sandbox: RunningSandbox;
let thesis: FundThesis;

beforeAll(async () => {
  sandbox = await startTestSandbox({ asOf: SANDBOX_TEST_AS_OF });
  thesis = sandbox.state.accounts.get('acct_vc')!.thesis!;
});
afterAll(() => sandbox.close());

interface Entry {
  key: string;
  name: string;
  fit_pct: number;
  why: string[];
  url: string;
  sector: string;
  stage: string;
  hq_country: string;
  note?: string;
  new_since_last_batch: boolean;
  conflict: unknown;
  momentum: { score: number; last_round_date: string | null };
}

async function run(limit?: number) {
  const r = await callSandbox(sandbox, 'find_startups_for_fund', {
    key: KEYS.vc,
    params: limit === undefined ? {} : { limit },
  });
  expect(r.status, r.text).toBe(200);
  const data = FindStartupsForFundDataSchema.parse(r.body.data);
  return { r, data, entries: data.startups as unknown as Entry[] };
}

function portfolioCompany() {
  return sandbox.db
    .prepare('SELECT key, name, sector, subsector, tags, hq_country FROM startups WHERE key = ?')
    .get(thesis.portfolio[0]!) as {
    key: string;
    name: string;
    sector: string;
    subsector: string;
    tags: string;
    hq_country: string;
  };
}

describe('find_startups_for_fund', () => {
  it('scores startups against the thesis, writes notes for the top 5 and saves the batch', async () => {
    const { r, data, entries } = await run();
    expect(r.body.credits?.charged).toBe(3);
    expect(entries).toHaveLength(20);
    expect(data.batch_id).toMatch(/^mb_/);
    const active = sandbox.db.prepare('SELECT status FROM startups WHERE key = ?');
    for (const [i, e] of entries.entries()) {
      expect(e.fit_pct).toBeGreaterThanOrEqual(0);
      expect(e.fit_pct).toBeLessThanOrEqual(100);
      expect(e.why.length).toBeGreaterThan(0);
      expect(thesis.portfolio).not.toContain(e.key);
      expect((active.get(e.key) as { status: string }).status).toBe('active');
      expect(e.url).toBe(`${sandbox.url}/view/startups/${encodeURIComponent(e.key)}`);
      if (i < 5) {
        expect(e.note).toBeDefined();
        const sentences = e.note!.split(/(?<=[.!?])\s+(?=[A-Z])/);
        expect(sentences.length).toBeGreaterThanOrEqual(2);
        expect(sentences.length).toBeLessThanOrEqual(4);
        expect(e.note).toMatch(/\$\d/);
        expect(e.note).toMatch(/\d+(\.\d)?%/);
      } else {
        expect(e.note).toBeUndefined();
      }
    }
    // The best fits are in the thesis sectors, stages and countries.
    for (const e of entries.slice(0, 5)) {
      expect(thesis.sectors).toContain(e.sector);
      expect(thesis.countries).toContain(e.hq_country);
    }
    for (let i = 1; i < entries.length; i++)
      expect(entries[i - 1]!.fit_pct).toBeGreaterThanOrEqual(entries[i]!.fit_pct);

    const saved = sandbox.state.matchLists.get('acct_vc') as { batch_id: string; entries: Entry[] }[];
    expect(saved.at(-1)!.batch_id).toBe(data.batch_id);
    expect(saved.at(-1)!.entries.map((e) => e.key)).toEqual(entries.map((e) => e.key));
    const account = await callSandbox(sandbox, 'my_account', { key: KEYS.vc });
    expect(account.body.data).toMatchObject({
      match_list: { latest: { batch_id: data.batch_id, startups: 20 } },
    });
    expect(r.body.url).toBe(`${sandbox.url}/view/results/${data.batch_id}`);
    expect(sandbox.state.results.get(data.batch_id!)?.operation).toBe('find_startups_for_fund');

    const charts = r.body.charts ?? [];
    const fit = charts.find((c) => c.xKey === 'fit');
    expect((fit?.data ?? []).reduce((n, d) => n + (d.count as number), 0)).toBe(20);
    expect(charts.some((c) => c.xKey === 'sector')).toBe(true);
    expect(charts.some((c) => c.xKey === 'stage')).toBe(true);
  });

  it('honours limit 1 and 30 and refuses 31', async () => {
    expect((await run(1)).entries).toHaveLength(1);
    expect((await run(30)).entries).toHaveLength(30);
    const r = await callSandbox(sandbox, 'find_startups_for_fund', { key: KEYS.vc, params: { limit: 31 } });
    expect(r.status).toBe(400);
    expect(r.body.error?.code).toBe('invalid_input');
  });

  it('refuses startup and service-provider accounts with 403 account_type_required', async () => {
    for (const key of [KEYS.startup, KEYS.provider]) {
      const r = await callSandbox(sandbox, 'find_startups_for_fund', { key, params: {} });
      expect(r.status).toBe(403);
      expect(r.body.error?.code).toBe('account_type_required');
      expect(r.body.credits?.charged).toBe(0);
    }
  });

  it('sees a new startup and a fresh round in a repeated run', async () => {
    const first = await run(30);
    const p = portfolioCompany();
    const country = thesis.countries.find((c) => c !== p.hq_country)!;
    const d = (months: number) => {
      const x = new Date(`${SANDBOX_TEST_AS_OF}T00:00:00Z`);
      x.setUTCMonth(x.getUTCMonth() - months);
      return x.toISOString().slice(0, 10);
    };
    const key = sandbox.insertStartup(
      {
        name: 'Freshline Systems',
        hq_country: country,
        sector: p.sector,
        subsector: p.subsector,
        tags: p.tags,
        stage: 'seed',
        status: 'active',
      },
      [
        { date: d(9), stage: 'seed', amount_usd: 3_000_000 },
        { date: SANDBOX_TEST_AS_OF, stage: 'seed', amount_usd: 5_000_000 },
      ],
    );
    expect(first.entries.map((e) => e.key)).not.toContain(key);

    // A startup of the first batch with little momentum gets a fresh round.
    const slow = [...first.entries].reverse().find((e) => e.momentum.score < 60)!;
    expect(slow).toBeDefined();
    const stage = (
      sandbox.db.prepare('SELECT stage FROM startups WHERE key = ?').get(slow.key) as { stage: string }
    ).stage;
    sandbox.db
      .prepare(
        'INSERT INTO rounds (startup_key, date, year, stage, amount_usd, lead_investor_key) VALUES (?, ?, ?, ?, ?, NULL)',
      )
      .run(slow.key, SANDBOX_TEST_AS_OF, Number(SANDBOX_TEST_AS_OF.slice(0, 4)), stage, 4_000_000);

    const second = await run(30);
    const fresh = second.entries.find((e) => e.key === key);
    expect(fresh, 'the inserted startup is in the new batch').toBeDefined();
    expect(fresh!.new_since_last_batch).toBe(true);
    expect(fresh!.momentum.last_round_date).toBe(SANDBOX_TEST_AS_OF);
    expect(second.data.previous_batch_id).toBe(first.data.batch_id);
    const moved = second.entries.find((e) => e.key === slow.key);
    expect(moved, 'the startup with a fresh round stays in the batch').toBeDefined();
    expect(moved!.fit_pct).toBeGreaterThan(slow.fit_pct);
    expect(second.entries.indexOf(moved!)).toBeLessThan(first.entries.findIndex((e) => e.key === slow.key));
    expect(moved!.momentum.last_round_date).toBe(SANDBOX_TEST_AS_OF);
  });

  it('flags a direct competitor of a portfolio company as a conflict', () => {
    const p = portfolioCompany();
    const key = sandbox.insertStartup(
      {
        name: 'Rival Works',
        hq_country: p.hq_country,
        sector: p.sector,
        subsector: p.subsector,
        tags: p.tags,
        stage: 'seed',
      },
      [{ date: SANDBOX_TEST_AS_OF, stage: 'seed', amount_usd: 3_000_000 }],
    );
    const ranking = rankForFund(getSnapshot(sandbox.db), thesis, sandbox.url, 1_000_000);
    const rival = ranking.matches.find((m) => m.key === key)!;
    expect(rival.conflict).toMatchObject({ key: p.key, name: p.name });
    expect(rival.why.join(' ')).toContain(`CONFLICT: direct competitor of portfolio company ${p.name}`);
    expect(ranking.matches.some((m) => thesis.portfolio.includes(m.key))).toBe(false);
  });
});
