/**
 * A synthetic fund-match history for the renderer tests, built with the job's own functions
 * (compareBatch, nextHistory, buildDigest): a baseline batch of 30, a second run with 4 new
 * matches, fit and rank changes, a startup acquired and one whose series B moved it past the
 * thesis (both dropped, both watchlist events), one outranked, one that raised a seed extension,
 * events of startups still in the batch, and portfolio conflicts; then a third run for a trend of
 * three points. Names a batch really brings: a formula (`=HYPERLINK(...)`) and Chinese.
 * Each run's digest keeps its sources as the activity would: the batch S1, then each profile read.
 */
import { buildDigest } from '../../../../jobs/fund-match/digest.js';
import type { FundDigest } from '../../../../jobs/fund-match/digest.js';
import { compareBatch, nextHistory } from '../../../../jobs/fund-match/history.js';
import type { MatchHistory, ProfileState } from '../../../../jobs/fund-match/history.js';
import type { BatchStartup } from '../../../../jobs/fund-match/read.js';
import type { SourceRow } from '../../../../shared/types.js';

export const FORMULA_NAME = '=HYPERLINK("http://x","y")';
export const CJK_NAME = '北京智能科技';
export const CJK_KEY = 'st_beijing';
export const THESIS = ['pre-seed', 'seed', 'series-a'];

const NAMES = [
  'Ledgerline',
  'Quantora Health',
  FORMULA_NAME,
  'Brightwave Robotics',
  CJK_NAME,
  'Fernhill Payments',
  'Carbonsense',
  'Tidepool Analytics',
  'Northstar Logistics Automation',
  'Mosaic Bio',
  'Helio Grid',
  'Parcelwise',
  'Vaultic',
  'Lumen Legal',
  'Orbital Farms',
  'Kitebase',
  'Stackyard',
  'Greenroute Mobility',
  'Claimly',
  'Neuronest',
  'Fabrik OS',
  'Sundial Insurance',
  'Harbor Compliance Cloud',
  'Pixelmint',
  'Atlas Freight',
  'Verdant Materials',
  'Cobalt Security',
  'Medley Care',
  'Tessellate AI',
  'Riverstone Energy Storage',
];
const SECTORS = [
  'Finance & Blockchain',
  'Artificial Intelligence & Data',
  'Energy, Environment & Mobility',
  'Healthcare & Life Sciences',
  'Software & Developer Tools',
  'Industry & Hardware',
];
const STAGES = ['seed', 'series-a', 'pre-seed'];
const COUNTRIES = ['Germany', 'France', 'United Kingdom', 'Netherlands', 'China', 'Sweden'];

const key = (i: number): string => (NAMES[i - 1] === CJK_NAME ? CJK_KEY : `st_${i}`);

function startup(i: number, name: string, fit: number, rank: number): BatchStartup {
  return {
    key: i > 100 ? `st_new_${i - 100}` : key(i),
    name,
    fitPct: fit,
    rank,
    why: [
      `${SECTORS[i % SECTORS.length]} is a thesis sector`,
      `${STAGES[i % STAGES.length]} round within the thesis stages`,
      'Revenue grew 3x in the last twelve months, with net revenue retention above 130%',
    ],
    note:
      rank <= 5
        ? `Strong founder-market fit; the team sold a previous company in the same market. Check the burn (${name}).`
        : null,
    conflict: null,
    sector: SECTORS[i % SECTORS.length] ?? null,
    stage: STAGES[i % STAGES.length] ?? null,
    country: COUNTRIES[i % COUNTRIES.length] ?? null,
    momentum: 40 + (i % 50),
    url: `https://startup${i}.example.com`,
  };
}

const state = (over: Partial<ProfileState> = {}): ProfileState => ({
  stage: 'seed',
  status: 'active',
  lastRoundDate: '2026-03-01',
  lastRoundStage: 'seed',
  roundsCount: 1,
  totalRaisedUsd: 2_000_000,
  ...over,
});

/** The first batch: 30 startups, fits from 94 down by about 0.8 a rank. */
function firstBatch(): BatchStartup[] {
  return NAMES.map((name, j) => {
    const b = startup(j + 1, name, Math.round((94 - j * 0.8) * 10) / 10, j + 1);
    return j === 1 ? { ...b, conflict: 'Portfolio company Medica One: same market (hospital billing)' } : b;
  });
}

/**
 * The second batch: 26 of the first (7 to 10 dropped; fits moved, 12 and 20 swapped places),
 * then 4 new ones, one of them in conflict with the portfolio; ranked by fit.
 */
function secondBatch(first: readonly BatchStartup[]): BatchStartup[] {
  const kept = first
    .filter((b) => b.rank < 7 || b.rank > 10)
    .map((b) => {
      const bump = b.rank === 20 ? 9 : b.rank === 12 ? -6 : b.rank === 4 ? 3.5 : b.rank % 3 === 0 ? -1 : 0;
      return { ...b, fitPct: Math.round(((b.fitPct ?? 0) + bump) * 10) / 10 };
    });
  const fresh = [
    startup(101, 'Arcwell Diagnostics', 92.4, 0),
    startup(102, 'Payloop', 88.1, 0),
    { ...startup(103, 'Crediflow', 80.2, 0), conflict: 'Portfolio company Lendwise: direct competitor' },
    startup(104, 'Gridmind', 71.6, 0),
  ];
  return [...kept, ...fresh]
    .sort((a, b) => (b.fitPct ?? 0) - (a.fitPct ?? 0))
    .map((b, i) => ({ ...b, rank: i + 1, note: i < 5 ? (b.note ?? `Analyst note for ${b.name}.`) : null }));
}

/** What the second run read: 7 acquired, 8 raised a series B, 9 a seed extension, 11 and 14 moved on. */
function secondProfiles(keys: readonly string[]): Map<string, ProfileState> {
  const p = new Map(keys.map((k) => [k, state()]));
  p.set('st_7', state({ status: 'acquired' }));
  p.set(
    'st_8',
    state({ stage: 'series-b', lastRoundDate: '2026-11-12', lastRoundStage: 'series-b', roundsCount: 2 }),
  );
  p.set('st_9', state({ lastRoundDate: '2026-11-10', lastRoundStage: 'seed', roundsCount: 2 }));
  p.set(
    'st_11',
    state({ stage: 'series-a', lastRoundDate: '2026-11-13', lastRoundStage: 'series-a', roundsCount: 2 }),
  );
  p.set('st_14', state({ stage: 'series-a' }));
  return p;
}

const JOB = { id: 'weekly-fund-matches', title: 'Weekly startup matches' };
const FUND = 'Northwind Ventures II';

function digestOf(
  previous: MatchHistory | null,
  run: { run: number; date: string },
  batch: BatchStartup[],
  profiles: Map<string, ProfileState>,
): { digest: FundDigest; history: MatchHistory } {
  const changes = compareBatch(previous, batch, profiles, THESIS);
  const runKey = `w${run.run}`;
  const at = `${run.date}T06:00:00.000Z`;
  const keys = [...profiles.keys()];
  const rows: SourceRow[] = [
    {
      id: 'S1',
      operation: 'find_startups_for_fund',
      params: { limit: 30 },
      fetchedAt: at,
      credits: 3,
      status: 200,
      records: batch.length,
      ref: `runs/${runKey}/batch.json`,
    },
    ...keys.map((k, i): SourceRow => ({
      id: `S${i + 2}`,
      operation: 'get_startup',
      params: { key: k },
      fetchedAt: at,
      credits: 0,
      status: 200,
      records: 1,
      ref: `runs/${runKey}/profiles/startup-${i}.json`,
    })),
  ];
  const history = nextHistory(previous, JOB.id, { ...run, workflowId: `w${run.run}` }, batch, profiles);
  const enrichment = new Map(
    changes.fresh.map((f, i) => [
      f.key,
      i % 2 === 0
        ? {
            founders: [`Founder ${i + 1}A (CEO)`, `Founder ${i + 1}B (CTO)`],
            investors: ['Lead Capital', 'Seedcamp'],
          }
        : { founders: [], investors: [] },
    ]),
  );
  const digest = buildDigest({
    job: JOB,
    date: run.date,
    fundName: FUND,
    batch,
    changes,
    history,
    enrichment,
    sources: { rows, batch: 'S1', profiles: new Map(keys.map((k, i) => [k, `S${i + 2}`])) },
  });
  return { digest, history };
}

/** The baseline, the second run's and the third run's digests. */
export function fundDigests(): { baseline: FundDigest; second: FundDigest; third: FundDigest } {
  const b1 = firstBatch();
  const r1 = digestOf(null, { run: 1, date: '2026-11-09' }, b1, new Map(b1.map((b) => [b.key, state()])));
  const b2 = secondBatch(b1);
  const watch = ['st_7', 'st_8', 'st_9', 'st_10'];
  const r2 = digestOf(
    r1.history,
    { run: 2, date: '2026-11-16' },
    b2,
    secondProfiles([...b2.map((b) => b.key), ...watch]),
  );
  const b3 = b2.map((b) => ({
    ...b,
    fitPct: Math.round(((b.fitPct ?? 0) + (b.rank % 4 === 0 ? 1.5 : -0.5)) * 10) / 10,
  }));
  const r3 = digestOf(
    r2.history,
    { run: 3, date: '2026-11-23' },
    b3,
    secondProfiles([...b3.map((b) => b.key), ...watch]),
  );
  return { baseline: r1.digest, second: r2.digest, third: r3.digest };
}
