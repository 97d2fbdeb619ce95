/**
 * The sandbox's simulated week of market news (the demo's step between two fund-match runs):
 * deterministic for a seed, and each item does to the thesis's batch what it says, as
 * find_startups_for_fund answers over HTTP and get_startup reads the profiles.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_TEST_AS_OF } from '../../sandbox/data/index.js';
import { describeMarketWeek, type MarketWeek, type RunningSandbox } from '../../sandbox/index.js';
import { callSandbox, KEYS, startTestSandbox } from '../helpers/sandbox.js';

interface Entry {
  key: string;
  fit_pct: number;
}

let sandbox: RunningSandbox;
let before: Entry[];
let week: MarketWeek;
let after: Entry[];

async function batch(): Promise<Entry[]> {
  const r = await callSandbox(sandbox, 'find_startups_for_fund', { key: KEYS.vc, params: { limit: 20 } });
  expect(r.status).toBe(200);
  return (r.body.data as { startups: Entry[] }).startups;
}

beforeAll(async () => {
  sandbox = await startTestSandbox({ asOf: SANDBOX_TEST_AS_OF });
  before = await batch();
  week = sandbox.simulateMarketWeek({ limit: 20, seed: 7 });
  after = await batch();
});
afterAll(() => sandbox.close());

describe('simulateMarketWeek', () => {
  it('is the same week for the same seed on the same data', async () => {
    const twin = await startTestSandbox({ asOf: SANDBOX_TEST_AS_OF });
    try {
      expect(twin.simulateMarketWeek({ limit: 20, seed: 7 })).toEqual(week);
    } finally {
      await twin.close();
    }
  });

  it('dates the news in the week up to the data\'s "today", never later', () => {
    expect(week.to >= SANDBOX_TEST_AS_OF).toBe(true);
    for (const d of [week.pastThesisStage?.date, week.acquired?.date, week.sameStageRound?.date]) {
      expect(d! >= week.from && d! <= week.to, d).toBe(true);
    }
  });

  it('brings new startups into the batch and takes out the acquired and the one past the thesis stages', () => {
    const keys = (list: Entry[]) => new Set(list.map((e) => e.key));
    expect(week.newStartups).toHaveLength(3);
    for (const s of week.newStartups) expect(keys(after).has(s.key), s.name).toBe(true);
    expect(keys(before).has(week.acquired!.key)).toBe(true);
    expect(keys(after).has(week.acquired!.key)).toBe(false);
    expect(keys(before).has(week.pastThesisStage!.key)).toBe(true);
    expect(keys(after).has(week.pastThesisStage!.key)).toBe(false);
    expect(['seed', 'series-a']).toContain(week.pastThesisStage!.from);
    expect(week.pastThesisStage!.to).toBe('series-b');
  });

  it('moves the fit of the startup that raised again at its stage, which stays matched', () => {
    const same = week.sameStageRound!;
    const fit = (list: Entry[]) => list.find((e) => e.key === same.key)?.fit_pct;
    expect(fit(before)).toBeDefined();
    expect(fit(after)).toBeDefined();
    expect(fit(after)! - fit(before)!).toBeGreaterThanOrEqual(2);
  });

  it('shows in the profiles get_startup answers', async () => {
    const profile = async (key: string) =>
      (await callSandbox(sandbox, 'get_startup', { key: KEYS.vc, params: { key } })).body.data as {
        startup?: { status?: string; stage?: string };
        status?: string;
        stage?: string;
      };
    const acquired = await profile(week.acquired!.key);
    expect(JSON.stringify(acquired)).toContain('"status":"acquired"');
    const past = await profile(week.pastThesisStage!.key);
    expect(JSON.stringify(past)).toContain('"stage":"series-b"');
  });

  it('reads as one line', () => {
    const line = describeMarketWeek(week);
    expect(line).toMatch(/^3 new startups that fit the thesis \(.+\); .+ raised a \$[\d.]+M Series B \(was /);
    expect(line).toContain(`${week.acquired!.name} was acquired`);
    expect(line).toContain(`${week.sameStageRound!.name} raised another`);
  });
});
