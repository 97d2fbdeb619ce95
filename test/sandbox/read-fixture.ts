/**
 * A small, fully known database for the read operations' unit tests: every row is generated
 * here deterministically, so tests can compute the expected answer independently in JS.
 * Includes ties (same score, same total raised) to check the stable orders, and names with
 * `<`, `"` and `=` to check escaping.
 */
import { DatabaseSync } from 'node:sqlite';
import { SECTORS } from '../../api/enums.js';
import { COUNTRIES } from '../../sandbox/data/countries.js';
import { INVESTOR_TYPES, SCHEMA_SQL, STAGES } from '../../sandbox/data/schema.js';
import type {
  Account,
  ApiKeyRecord,
  HandlerContext,
  OperationName,
  ParamsOut,
  SandboxState,
} from '../../sandbox/types.js';

export interface FixtureInvestor {
  key: string;
  name: string;
  investor_type: string;
  hq_city: string;
  hq_country: string;
  region: string;
  sectors: string[];
  score: number;
}
export interface FixtureStartup {
  key: string;
  name: string;
  description: string;
  hq_country: string;
  sector: string;
  subsector: string;
  tags: string[];
  stage: string;
  total_raised_usd: number;
}
export interface FixtureRound {
  id: number;
  startup_key: string;
  date: string;
  year: number;
  stage: string;
  amount_usd: number;
  lead: string;
  investors: string[];
}

export const FIXTURE_AS_OF = '2025-06-30';
const HQS = [
  ['Germany', 'Berlin'],
  ['United States', 'San Francisco'],
  ['United Kingdom', 'London'],
  ['France', 'Paris'],
  ['Sweden', 'Stockholm'],
  ['Brazil', 'São Paulo'],
] as const;
const WORDS = ['payments', 'robotics', 'climate', 'genomics', 'logistics', 'security'];

export interface Fixture {
  db: DatabaseSync;
  investors: FixtureInvestor[];
  startups: FixtureStartup[];
  rounds: FixtureRound[];
}

/** Builds the fixture database in memory. */
export function buildFixture(): Fixture {
  const db = new DatabaseSync(':memory:');
  db.exec(SCHEMA_SQL);
  db.prepare("INSERT INTO meta (key, value) VALUES ('as_of', ?)").run(FIXTURE_AS_OF);
  const country = db.prepare('INSERT INTO countries VALUES (?, ?, ?, ?, ?, ?)');
  for (const c of COUNTRIES)
    country.run(c.name, c.iso2, c.region, c.subregion, c.in_eu ? 1 : 0, JSON.stringify(c.aliases));
  const regionOf = (name: string) => COUNTRIES.find((c) => c.name === name)?.region ?? 'Europe';

  const investors: FixtureInvestor[] = [];
  for (let i = 0; i < 60; i++) {
    const [hq_country, hq_city] = HQS[i % HQS.length]!;
    const special = i === 7;
    investors.push({
      key: special ? 'alpha-script-capital' : `inv-${String(i).padStart(2, '0')}`,
      name: special
        ? 'Alpha <Script> "Quote" = Capital'
        : `Investor ${String.fromCharCode(65 + (i % 26))}${i}`,
      investor_type: INVESTOR_TYPES[i % INVESTOR_TYPES.length]!,
      hq_city,
      hq_country,
      region: regionOf(hq_country),
      sectors: [SECTORS[i % SECTORS.length]!, SECTORS[(i + 3) % SECTORS.length]!],
      score: 50 + (i % 10) * 5, // ties: every score is shared by 6 investors
    });
  }
  const ins = db.prepare(
    `INSERT INTO investors (key, name, investor_type, hq_city, hq_country, region, website, founded_year, sectors,
      stage_mix, check_min_usd, check_max_usd, score, thesis, team) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const v of investors) {
    ins.run(
      v.key,
      v.name,
      v.investor_type,
      v.hq_city,
      v.hq_country,
      v.region,
      `https://${v.key}.example`,
      2010,
      JSON.stringify(v.sectors),
      JSON.stringify({ seed: 0.6, 'series-a': 0.4 }),
      250_000,
      4_000_000,
      v.score,
      `${v.name} backs ${v.sectors[0]} founders.`,
      JSON.stringify([{ name: 'Ada Partner', role: 'General Partner' }]),
    );
  }

  const startups: FixtureStartup[] = [];
  for (let s = 0; s < 90; s++) {
    const [hq_country] = HQS[s % HQS.length]!;
    const special = s === 5;
    startups.push({
      key: special ? 'formula-co' : `st-${String(s).padStart(2, '0')}`,
      name: special
        ? '=HYPERLINK("x") <b>Formula</b> & Co'
        : `Startup ${s} ${WORDS[s % WORDS.length]!.toUpperCase()}`,
      description: `Builds ${WORDS[(s + 1) % WORDS.length]} software for ${WORDS[(s + 2) % WORDS.length]} teams.`,
      hq_country,
      sector: SECTORS[s % SECTORS.length]!,
      subsector: `Sub ${WORDS[s % WORDS.length]}`,
      tags: [WORDS[(s + 3) % WORDS.length]!],
      stage: STAGES[s % STAGES.length]!,
      total_raised_usd: 1_000_000 * (1 + (s % 15)), // ties: 6 startups per amount
    });
  }
  const st = db.prepare(
    `INSERT INTO startups (key, name, description, website, domain, hq_city, hq_country, region, sector, subsector, tags,
      stage, status, founded_year, founders, total_raised_usd) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const s of startups) {
    st.run(
      s.key,
      s.name,
      s.description,
      `https://${s.key}.example`,
      `${s.key}.example`,
      'City',
      s.hq_country,
      regionOf(s.hq_country),
      s.sector,
      s.subsector,
      JSON.stringify(s.tags),
      s.stage,
      'active',
      2019,
      JSON.stringify([{ name: 'Founder One', role: 'CEO' }]),
      s.total_raised_usd,
    );
  }

  const rounds: FixtureRound[] = [];
  let id = 1;
  startups.forEach((s, si) => {
    const n = 1 + (si % 3);
    for (let k = 0; k < n; k++) {
      const year = 2020 + ((si + k * 2) % 6);
      const date = `${year}-${String(1 + ((si * 7 + k) % 12)).padStart(2, '0')}-15`;
      const lead = investors[(si * 3 + k) % investors.length]!.key;
      const other = investors[(si * 5 + k + 1) % investors.length]!.key;
      const amount = si === 10 && k === 0 ? 150_000_000 : 500_000 * (1 + ((si + k) % 9));
      rounds.push({
        id: id++,
        startup_key: s.key,
        date,
        year,
        stage: STAGES[(si + k) % STAGES.length]!,
        amount_usd: amount,
        lead,
        investors: lead === other ? [lead] : [lead, other],
      });
    }
  });
  const rd = db.prepare(
    'INSERT INTO rounds (id, startup_key, date, year, stage, amount_usd, lead_investor_key) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const ri = db.prepare('INSERT INTO round_investors (round_id, investor_key, is_lead) VALUES (?, ?, ?)');
  for (const r of rounds) {
    rd.run(r.id, r.startup_key, r.date, r.year, r.stage, r.amount_usd, r.lead);
    for (const inv of r.investors) ri.run(r.id, inv, inv === r.lead ? 1 : 0);
  }
  return { db, investors, startups, rounds };
}

const emptyState = (): SandboxState => ({
  accounts: new Map(),
  keys: new Map(),
  freeFinderRunsUsed: new Map(),
  matchLists: new Map(),
  customerCalls: new Map(),
  rooms: new Map(),
  results: new Map(),
});

export const FIXTURE_ACCOUNT: Account = {
  id: 'acct_test',
  name: 'Test Co',
  type: 'startup',
  plan: 'paid',
  credits: 1234,
};
export const FIXTURE_KEY: ApiKeyRecord = {
  key: 'vis_live_fixture',
  account_id: 'acct_test',
  scopes: ['read'],
  revoked: false,
};

/** A handler context over the fixture database (params already validated by the caller). */
export function fixtureContext<N extends OperationName>(
  db: DatabaseSync,
  params: ParamsOut<N>,
  over: Partial<HandlerContext<N>> = {},
): HandlerContext<N> {
  return {
    db,
    account: FIXTURE_ACCOUNT,
    key: FIXTURE_KEY,
    params,
    baseUrl: 'http://sandbox.test',
    now: new Date(`${FIXTURE_AS_OF}T12:00:00Z`),
    state: emptyState(),
    options: { rateLimitPerMinute: 60, rateLimitPerDay: 5000 } as HandlerContext<N>['options'],
    ...over,
  };
}
