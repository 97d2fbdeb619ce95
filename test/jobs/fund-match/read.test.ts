/**
 * The fund-match readers on the sandbox's real answers over HTTP (a batch of
 * find_startups_for_fund, get_startup before and after the startup is marked acquired and
 * raises a round), and on the same fields under other names.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { dropReason, watchEvents } from '../../../jobs/fund-match/history.js';
import { readBatch, readProfileState } from '../../../jobs/fund-match/read.js';
import type { RunningSandbox } from '../../../sandbox/index.js';
import { callSandbox, KEYS, startTestSandbox } from '../../helpers/sandbox.js';

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimitPerMinute: 10_000 });
});

afterAll(async () => {
  await sandbox?.close();
});

test("a batch and a profile read from the sandbox's answers; a status change and a new round seen", async () => {
  const batch = await callSandbox(sandbox, 'find_startups_for_fund', { key: KEYS.vc, params: { limit: 10 } });
  expect(batch.status).toBe(200);
  const read = readBatch(batch.body.data);
  expect(read.startups).toHaveLength(10);
  expect(read.startups.map((s) => s.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  expect(read.startups.every((s) => typeof s.fitPct === 'number' && s.why.length > 0)).toBe(true);
  expect(read.startups.slice(0, 5).every((s) => s.note !== null)).toBe(true);
  expect(read.thesisStages).toEqual(['seed', 'series-a']);
  expect(read.fundName).toBe('Northwind Seed Fund II');

  const first = read.startups[0]!;
  const profile = async () =>
    readProfileState(
      (await callSandbox(sandbox, 'get_startup', { key: KEYS.vc, params: { key: first.key } })).body.data,
    );
  const before = (await profile())!;
  expect(before.stage).toBe(first.stage);
  expect(before.status).toBe('active');
  expect(before.lastRoundDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  expect(before.roundsCount).toBeGreaterThan(0);

  // The startup raises a series B today and is then acquired.
  const today = new Date().toISOString().slice(0, 10);
  sandbox.db
    .prepare(
      'INSERT INTO rounds (startup_key, date, year, stage, amount_usd, lead_investor_key) VALUES (?, ?, ?, ?, ?, NULL)',
    )
    .run(first.key, today, Number(today.slice(0, 4)), 'series-b', 30_000_000);
  sandbox.db
    .prepare("UPDATE startups SET stage = 'series-b', status = 'acquired' WHERE key = ?")
    .run(first.key);
  const after = (await profile())!;
  expect(after).toMatchObject({
    stage: 'series-b',
    status: 'acquired',
    lastRoundDate: today,
    roundsCount: before.roundsCount! + 1,
  });
  expect(dropReason(before, after, read.thesisStages)).toEqual({
    reason: 'status',
    detail: 'acquired (was active)',
  });
  expect(
    watchEvents({ key: first.key, name: first.name, state: before }, after, false).map((e) => e.kind),
  ).toEqual(['round', 'stage', 'status']);
});

test('the same fields under other names, and a conflict however the service marks it', () => {
  const read = readBatch({
    matches: [
      {
        startup_key: 'x',
        company_name: 'X Labs',
        fit: '91.5',
        reasons: 'a thesis sector, a thesis stage',
        analyst_note: 'Strong team.',
        portfolio_conflict: { name: 'Acme', reason: 'same market' },
      },
      { id: 'y', name: 'Y', match_pct: 80, conflict: 'competes with Bolt' },
      { name: 'no key', fit_pct: 70, conflict: null },
    ],
    fund: { name: 'Fund I', stages: 'seed, series-a' },
  });
  expect(read.startups.map((s) => [s.key, s.name, s.fitPct, s.conflict, s.note])).toEqual([
    ['x', 'X Labs', 91.5, 'Acme: same market', 'Strong team.'],
    ['y', 'Y', 80, 'competes with Bolt', null],
    ['no key', 'no key', 70, null, null],
  ]);
  expect(read.startups[0]!.why).toEqual(['a thesis sector, a thesis stage']);
  expect(read.thesisStages).toEqual(['seed', 'series-a']);
  expect(read.fundName).toBe('Fund I');
  expect(
    readProfileState({
      profile: {
        funding_stage: 'seed',
        operating_status: 'closed',
        funding_rounds: [
          { date: '2023-05-01', stage: 'pre-seed', amount_usd: 1_000_000 },
          // The latest round, its fields under other names: its amount and leads are read too.
          {
            announced_on: '2025-01-02T00:00:00Z',
            round_stage: 'seed',
            amount: 4_000_000,
            lead_investors: [{ name: 'Acme Ventures' }, { title: 'Bolt Capital' }],
          },
        ],
      },
    }),
  ).toEqual({
    stage: 'seed',
    status: 'closed',
    lastRoundDate: '2025-01-02',
    lastRoundStage: 'seed',
    roundsCount: 2,
    totalRaisedUsd: null,
    lastRoundAmountUsd: 4_000_000,
    lastRoundLeads: ['Acme Ventures', 'Bolt Capital'],
  });
  // A round without amount or leads: none made up.
  expect(
    readProfileState({ profile: { funding_rounds: [{ date: '2025-01-02', stage: 'seed' }] } }),
  ).toMatchObject({ lastRoundAmountUsd: null, lastRoundLeads: [] });
  expect(readProfileState(null)).toBeNull();
});
