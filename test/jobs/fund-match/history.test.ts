/**
 * What changed since the last fund-match run: new, still matched (fit and rank change), dropped
 * with the likely reason (status, stage past the thesis, a new round, outranked), watchlist events
 * of every startup ever matched, and the baseline of a first run.
 */
import { expect, test } from 'vitest';
import {
  asMatchHistory,
  compareBatch,
  dropReason,
  nextHistory,
  type BatchMatch,
  type ProfileState,
} from '../../../jobs/fund-match/history.js';

const STAGES = ['seed', 'series-a'];
const state = (over: Partial<ProfileState> = {}): ProfileState => ({
  stage: 'seed',
  status: 'active',
  lastRoundDate: '2026-06-01',
  lastRoundStage: 'seed',
  roundsCount: 1,
  totalRaisedUsd: 2_000_000,
  ...over,
});
const batch = (...rows: [string, number][]): BatchMatch[] =>
  rows.map(([key, fit], i) => ({ key, name: key.toUpperCase(), fitPct: fit, rank: i + 1 }));

test('a first run is the baseline: everything new, nothing compared', () => {
  const c = compareBatch(null, batch(['a', 90], ['b', 80]), new Map(), STAGES);
  expect(c).toMatchObject({ baseline: true, run: 1, still: [], dropped: [], events: [] });
  expect(c.fresh.map((f) => f.key)).toEqual(['a', 'b']);
});

test('the next run: new, fit and rank changes, dropped with their reasons, watchlist events', () => {
  const profiles1 = new Map(['a', 'b', 'c', 'd', 'e'].map((k) => [k, state()]));
  const h1 = nextHistory(
    null,
    'fund',
    { run: 1, date: '2026-11-16', workflowId: 'w1' },
    batch(['a', 90], ['b', 85], ['c', 80], ['d', 75], ['e', 70]),
    profiles1,
  );
  expect(asMatchHistory(JSON.parse(JSON.stringify(h1)), 'fund')).toEqual(h1);
  const profiles2 = new Map<string, ProfileState>([
    ['a', state()],
    ['b', state()],
    // c was acquired; d raised a series B (past the thesis); e raised a seed extension.
    ['c', state({ status: 'acquired' })],
    [
      'd',
      state({ stage: 'series-b', lastRoundDate: '2026-11-20', lastRoundStage: 'series-b', roundsCount: 2 }),
    ],
    ['e', state({ lastRoundDate: '2026-11-18', roundsCount: 2 })],
  ]);
  const second = batch(['b', 88], ['a', 86.5], ['f', 79]);
  const c = compareBatch(h1, second, profiles2, STAGES);
  expect(c.baseline).toBe(false);
  expect(c.run).toBe(2);
  expect(c.fresh.map((f) => f.key)).toEqual(['f']);
  expect(c.still).toEqual([
    { key: 'b', name: 'B', fitPct: 88, fitChange: 3, rank: 1, rankChange: 1 },
    { key: 'a', name: 'A', fitPct: 86.5, fitChange: -3.5, rank: 2, rankChange: -1 },
  ]);
  expect(c.dropped.map((d) => [d.key, d.reason, d.detail])).toEqual([
    ['c', 'status', 'acquired (was active)'],
    ['d', 'stage', 'a new round moved it to Series B, past the thesis stages (Seed, Series A)'],
    ['e', 'round', 'raised a new round: Seed on 18 Nov 2026'],
  ]);
  expect(c.events.map((e) => [e.key, e.kind, e.detail, e.inBatch])).toEqual([
    ['c', 'status', 'status active → acquired', false],
    ['d', 'round', 'new round: Series B on 20 Nov 2026', false],
    ['d', 'stage', 'stage Seed → Series B', false],
    ['e', 'round', 'new round: Seed on 18 Nov 2026', false],
  ]);

  // A third run: c, d and e left earlier; a profile read again with nothing new is no event.
  const h2 = nextHistory(h1, 'fund', { run: 2, date: '2026-11-23', workflowId: 'w2' }, second, profiles2);
  expect(h2.startups.f!.firstSeen).toBe('2026-11-23');
  expect(h2.startups.c!.lastSeen).toBe('2026-11-16');
  const c3 = compareBatch(h2, batch(['a', 86.5], ['c', 60]), profiles2, STAGES);
  expect(c3.fresh).toEqual([]);
  // c is back after a run away: its change is against when it was last seen.
  expect(c3.still.find((s) => s.key === 'c')).toMatchObject({ fitChange: -20, rankChange: 1 });
  expect(c3.dropped.map((d) => [d.key, d.reason])).toEqual([
    ['b', 'outranked'],
    ['f', 'outranked'],
  ]);
  expect(c3.events).toEqual([]);
});

test('a drop without a profile read is outranked; a stage inside the thesis is not a stage drop', () => {
  expect(dropReason(state(), null, STAGES).reason).toBe('outranked');
  expect(dropReason(state(), state({ stage: 'series-a' }), STAGES).reason).toBe('outranked');
  expect(dropReason(state(), state({ status: 'Closed' }), STAGES)).toEqual({
    reason: 'status',
    detail: 'Closed (was active)',
  });
});
