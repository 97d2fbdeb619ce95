/**
 * The finders' building blocks on their own: website and text reading, taxonomy classification,
 * briefs, places, stages, money formats, momentum, the repeat window, organisation choice, and
 * the speed of a ranking on the real database.
 */
import type { DatabaseSync } from 'node:sqlite';
import { beforeAll, describe, expect, it } from 'vitest';
import { openSandboxDatabase, REGION_COUNTRIES, SANDBOX_TEST_AS_OF } from '../../sandbox/data/index.js';
import { readBrief } from '../../sandbox/finders/brief.js';
import { classifyText } from '../../sandbox/finders/classify.js';
import {
  decideRepeat,
  pickOrganisation,
  repeatKey,
  REPEAT_FREE_MS,
} from '../../sandbox/finders/customers-result.js';
import { countriesInText, expandPlaces, proximity } from '../../sandbox/finders/geo.js';
import { findInvestors } from '../../sandbox/finders/investors-result.js';
import { logCloseness, pct, usd, usdRange } from '../../sandbox/finders/money.js';
import { momentumOf } from '../../sandbox/finders/momentum.js';
import { getSnapshot, type StartupRecord } from '../../sandbox/finders/snapshot.js';
import { nextRaisingStage, parseStage, raisingBucket } from '../../sandbox/finders/stages.js';
import { hostWords, normaliseDomain } from '../../sandbox/finders/text.js';
import { createSandboxState, SandboxError, type Account } from '../../sandbox/index.js';

describe('reading websites and text', () => {
  it('normalises websites to bare domains', () => {
    expect(normaliseDomain('https://www.Payflow.io/about?x=1')).toBe('payflow.io');
    expect(normaliseDomain('payflow.io')).toBe('payflow.io');
    expect(normaliseDomain('http://user@www2.example.co.uk:8080/#top')).toBe('example.co.uk');
    expect(normaliseDomain('//cdn.example.com/x')).toBe('cdn.example.com');
  });

  it('splits host names into words and finds known words inside run-together labels', () => {
    expect(hostWords('get-paycloud.com', ['pay', 'cloud'])).toEqual(['get', 'paycloud', 'pay', 'cloud']);
    expect(hostWords('www.example.com')).toEqual(['example']);
  });

  it('classifies descriptions onto sectors, subsectors and tags, giving "for ..." audiences half weight', () => {
    const pay = classifyText('We build payment APIs and card issuing for online marketplaces.');
    expect(pay.sector).toBe('Finance & Blockchain');
    expect(pay.subsectors[0]).toBe('Payments');
    expect(pay.tags).toContain('payments');
    const market = classifyText('A B2B marketplace connecting buyers and sellers of spare parts');
    expect(market.sector).toBe('Commerce & Marketing');
    expect(market.tags).toContain('b2b-marketplace');
    expect(classifyText('Lorem ipsum dolor sit amet').sector).toBeNull();
  });

  it('reads briefs into sectors, stages and regions', () => {
    expect(readBrief('Seed-stage fintech startups in the Nordics and Germany that just raised')).toEqual({
      sectors: ['Finance & Blockchain'],
      tags: [],
      stages: ['seed'],
      regions: ['nordics', 'Germany'],
      recent_raise: true,
    });
    const b = readBrief('early-stage healthtech teams in the US');
    expect(b.sectors).toEqual(['Healthcare & Life Sciences']);
    expect(b.stages).toEqual(['pre-seed', 'seed', 'series-a']);
    expect(b.regions).toEqual(['us']);
    // "us" as a pronoun is not the United States.
    expect(readBrief('help us find robotics companies').regions).toEqual([]);
  });
});

describe('places and stages', () => {
  it('expands regions and countries and reports unknown names', () => {
    const p = expandPlaces(['dach', 'France', 'Atlantis']);
    expect([...p.countries].sort()).toEqual([...(REGION_COUNTRIES.dach as string[]), 'France'].sort());
    expect(p.unknown).toEqual(['Atlantis']);
    expect(expandPlaces(['Western Europe']).countries.has('France')).toBe(true);
    expect(expandPlaces(['global']).global).toBe(true);
  });

  it('measures nearness and finds countries named in text', () => {
    expect(proximity('Germany', 'Germany').relation).toBe('same country');
    expect(proximity('Germany', 'Austria').relation).toBe('same subregion');
    expect(proximity('Germany', 'France').relation).toBe('same region');
    expect(proximity('Germany', 'Brazil').score).toBeLessThan(0.2);
    expect(countriesInText('Based in Berlin, selling to the UK and USA.')).toEqual([
      'Germany',
      'United Kingdom',
      'United States',
    ]);
    expect(countriesInText('It is in use by us.')).toEqual([]);
  });

  it('maps stages between the data and the raising stages', () => {
    expect(parseStage('Series A')).toBe('series-a');
    expect(parseStage('pre seed')).toBe('pre-seed');
    expect(parseStage('C+')).toBe('series-c-plus');
    expect(parseStage('banana')).toBeNull();
    expect(raisingBucket('series-d-plus')).toBe('series-c-plus');
    expect(nextRaisingStage('seed')).toBe('series-a');
    expect(nextRaisingStage('series-b')).toBe('series-c-plus');
    expect(nextRaisingStage('growth')).toBe('series-c-plus');
  });

  it('formats money and percentages', () => {
    expect(usd(2_500_000)).toBe('$2.5M');
    expect(usd(850_000)).toBe('$850K');
    expect(usd(1_200_000_000)).toBe('$1.2B');
    expect(usdRange(2_000_000, 4_000_000)).toBe('$2–4M');
    expect(usdRange(500_000, 2_000_000)).toBe('$500K–2M');
    expect(pct(123.456)).toBe(100);
    expect(pct(42.26)).toBe(42.3);
    expect(logCloseness(2, 2)).toBe(1);
    expect(logCloseness(1, 4)).toBe(0);
  });
});

describe('momentum', () => {
  const record = (rounds: [string, number][]): StartupRecord => ({
    idx: 0,
    key: 'x',
    name: 'X',
    description: '',
    website: '',
    domain: '',
    hq_city: '',
    hq_country: 'Germany',
    region: 'Europe',
    sector: 'Software & Developer Tools',
    subsector: '',
    tags: [],
    stage: 'seed',
    status: 'active',
    founded_year: 2022,
    total_raised_usd: rounds.reduce((n, r) => n + r[1], 0),
    rounds: rounds.map(([date, amount], i) => ({
      id: i,
      date,
      year: Number(date.slice(0, 4)),
      stage: 'seed',
      amount_usd: amount,
      lead_investor_key: null,
      investor_keys: [],
    })),
    investor_keys: new Set(),
  });

  it('counts the last 12 months against the year before and ignores future rounds', () => {
    const m = momentumOf(
      record([
        ['2025-03-01', 1_000_000],
        ['2026-02-01', 2_000_000],
        ['2026-10-01', 1_000_000],
        ['2027-01-01', 9_000_000],
      ]),
      '2026-11-20',
    );
    expect(m.rounds_last_12m).toBe(2);
    expect(m.capital_last_12m_usd).toBe(3_000_000);
    expect(m.growth.capital_prior_12m_usd).toBe(1_000_000);
    expect(m.growth.raised_vs_prior_year_pct).toBe(200);
    expect(m.last_round_date).toBe('2026-10-01');
    expect(m.months_since_last_round).toBe(1);
    const stale = momentumOf(record([['2022-01-01', 1_000_000]]), '2026-11-20');
    expect(stale.score).toBe(0);
    expect(m.score).toBeGreaterThan(stale.score);
    expect(m.score).toBeLessThanOrEqual(100);
  });
});

describe('find_customers rules', () => {
  const org = (org_key: string, is_default: boolean) => ({
    org_key,
    name: org_key,
    offering: 'Legal services',
    target_regions: ['europe'],
    target_stages: ['seed'],
    target_sectors: [],
    is_default,
  });
  const account = (orgs: ReturnType<typeof org>[]): Account => ({
    id: 'a',
    name: 'A',
    type: 'organisation',
    plan: 'paid',
    credits: 10,
    organisations: orgs,
  });

  it('picks the given, default or only organisation and refuses ambiguity', () => {
    expect(pickOrganisation(account([org('a', false), org('b', true)]), undefined)?.org_key).toBe('b');
    expect(pickOrganisation(account([org('a', false)]), undefined)?.org_key).toBe('a');
    expect(pickOrganisation(account([]), undefined)).toBeNull();
    expect(() => pickOrganisation(account([org('a', false), org('b', false)]), undefined)).toThrow(
      /org_key, one of: a, b/,
    );
    try {
      pickOrganisation(account([org('a', false)]), 'zz');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(SandboxError);
      expect((e as SandboxError).status).toBe(404);
    }
  });

  it('keys repeats on the normalised parameters and frees them for 24 hours from the charged call', () => {
    const o = org('a', true);
    const k1 = repeatKey('acct', o, { regions: ['Nordics', 'dach'], brief: ' Seed  fintech ', limit: 20 });
    const k2 = repeatKey('acct', o, { regions: ['DACH', 'nordics'], brief: 'seed fintech', limit: 20 });
    expect(k1).toBe(k2);
    expect(repeatKey('acct', o, { limit: 21 })).not.toBe(repeatKey('acct', o, { limit: 20 }));
    expect(repeatKey('acct', org('b', false), { limit: 20 })).not.toBe(repeatKey('acct', o, { limit: 20 }));
    const state = createSandboxState();
    const t0 = new Date('2026-11-21T00:00:00Z');
    expect(decideRepeat(state, k1, t0).free).toBe(false);
    state.customerCalls.set(k1, t0.getTime());
    expect(decideRepeat(state, k1, new Date(t0.getTime() + REPEAT_FREE_MS - 1)).free).toBe(true);
    expect(decideRepeat(state, k1, new Date(t0.getTime() + REPEAT_FREE_MS)).free).toBe(false);
  });
});

describe('speed on the real database', () => {
  let db: DatabaseSync;
  beforeAll(() => {
    db = openSandboxDatabase({ asOf: SANDBOX_TEST_AS_OF }).db;
    getSnapshot(db);
  });

  it('reuses the snapshot while the data is unchanged and rebuilds it after an insert', () => {
    const a = getSnapshot(db);
    expect(getSnapshot(db)).toBe(a);
    db.prepare(
      "INSERT INTO rounds (startup_key, date, year, stage, amount_usd) VALUES (?, '2026-11-20', 2026, 'seed', 1000000)",
    ).run(a.startups[0]!.key);
    const b = getSnapshot(db);
    expect(b).not.toBe(a);
    expect(b.startupsByKey.get(a.startups[0]!.key)!.rounds.length).toBe(a.startups[0]!.rounds.length + 1);
  });

  it('ranks 50 investors on the real database, the same 50 each time', () => {
    // How fast is a benchmark's question (machines are noisy), not a test's: this checks the
    // ranking on the full database is whole and stable across calls on one snapshot.
    const ask = () =>
      findInvestors(
        getSnapshot(db),
        { description: 'Payment APIs for marketplaces, based in Berlin', limit: 50 },
        50,
        'http://x',
      ).items.map((i) => (i as { key?: string }).key);
    const first = ask();
    expect(first).toHaveLength(50);
    expect(new Set(first).size).toBe(50);
    for (let i = 0; i < 2; i++) expect(ask()).toEqual(first);
  });
});
