/** The fund-match digest's model from a baseline run and a second run with changes. */
import { describe, expect, it, test } from 'vitest';
import { buildDigest, changedStartupKeys } from '../../../jobs/fund-match/digest.js';
import {
  compareBatch,
  nextHistory,
  type ProfileState,
  type StillMatched,
} from '../../../jobs/fund-match/history.js';
import type { BatchStartup } from '../../../jobs/fund-match/read.js';

const startup = (key: string, fit: number, rank: number, over: Partial<BatchStartup> = {}): BatchStartup => ({
  key,
  name: key.toUpperCase(),
  fitPct: fit,
  rank,
  why: [`${key} fits`],
  note: rank <= 5 ? `${key} note` : null,
  conflict: null,
  sector: 'Finance & Blockchain',
  stage: 'seed',
  country: 'Germany',
  momentum: 50,
  url: null,
  ...over,
});
const state = (over: Partial<ProfileState> = {}): ProfileState => ({
  stage: 'seed',
  status: 'active',
  lastRoundDate: '2026-06-01',
  lastRoundStage: 'seed',
  roundsCount: 1,
  totalRaisedUsd: 1_000_000,
  ...over,
});
const job = { id: 'weekly-matches', title: 'Weekly matches' };

test('a baseline, then new, changed, dropped and events, with conflicts shown and the fit trend across runs', () => {
  const b1 = [
    startup('a', 91, 1),
    startup('b', 84, 2, { conflict: 'Acme: same market' }),
    startup('c', 77, 3),
  ];
  const p1 = new Map(b1.map((b) => [b.key, state()]));
  const c1 = compareBatch(null, b1, p1, ['seed', 'series-a']);
  const h1 = nextHistory(null, job.id, { run: 1, date: '2026-11-16', workflowId: 'w1' }, b1, p1);
  const d1 = buildDigest({
    job,
    date: '2026-11-16',
    fundName: 'Fund',
    batch: b1,
    changes: c1,
    history: h1,
    enrichment: new Map(),
  });
  expect(d1).toMatchObject({ baseline: true, quiet: false, counts: { batch: 3, new: 0, dropped: 0 } });
  expect(d1.newMatches.map((m) => m.key)).toEqual(['a', 'b', 'c']);
  expect(d1.conflicts).toEqual([{ key: 'b', name: 'B', conflict: 'Acme: same market' }]);
  expect(d1.charts.fit.map((f) => f.label)).toEqual(['75-79', '80-84', '85-89', '90-94', '95-100']);

  const b2 = [startup('b', 86, 1), startup('a', 90.5, 2), startup('d', 70, 3)];
  const p2 = new Map<string, ProfileState>([
    ['a', state()],
    ['b', state()],
    ['c', state({ status: 'acquired' })],
    ['d', state()],
  ]);
  const c2 = compareBatch(h1, b2, p2, ['seed', 'series-a']);
  const h2 = nextHistory(h1, job.id, { run: 2, date: '2026-11-23', workflowId: 'w2' }, b2, p2);
  const d2 = buildDigest({
    job,
    date: '2026-11-23',
    fundName: 'Fund',
    batch: b2,
    changes: c2,
    history: h2,
    enrichment: new Map([['d', { founders: ['Ada (CEO)'], investors: ['Lead Capital'] }]]),
  });
  // b's fit rose 2 points and it moved above a: b changed; a, whose fit held, did not.
  expect(d2.counts).toEqual({ batch: 3, new: 1, changed: 1, still: 2, dropped: 1, events: 1 });
  expect(d2.changedKeys).toEqual(['b']);
  expect(d2.newMatches.map((m) => [m.key, m.founders, m.investors])).toEqual([
    ['d', ['Ada (CEO)'], ['Lead Capital']],
  ]);
  expect(d2.dropped.map((d) => [d.key, d.reason])).toEqual([['c', 'status']]);
  expect(d2.charts.trend).toEqual([
    { key: 'b', name: 'B', fits: [84, 86] },
    { key: 'a', name: 'A', fits: [91, 90.5] },
  ]);
  expect(d2.history.map((r) => [r.key, r.inBatch, r.fits, r.ranks, r.status])).toEqual([
    ['a', true, [91, 90.5], [1, 2], 'active'],
    ['b', true, [84, 86], [2, 1], 'active'],
    ['d', true, [null, 70], [null, 3], 'active'],
    ['c', false, [77, null], [3, null], 'acquired'],
  ]);

  // A startup dropping out above the others shifts their ranks: that alone is no change.
  const b4 = [startup('a', 90.5, 1), startup('d', 70, 2)];
  const c4 = compareBatch(h2, b4, p2, ['seed', 'series-a']);
  const h4 = nextHistory(h2, job.id, { run: 3, date: '2026-11-30', workflowId: 'w4' }, b4, p2);
  const d4 = buildDigest({
    job,
    date: '2026-11-30',
    fundName: 'Fund',
    batch: b4,
    changes: c4,
    history: h4,
    enrichment: new Map(),
  });
  expect(d4.still.map((x) => [x.key, x.rankChange])).toEqual([
    ['a', 1],
    ['d', 1],
  ]);
  expect(d4.counts).toMatchObject({ changed: 0, dropped: 1 });

  // A third run where nothing happened is quiet.
  const c3 = compareBatch(h2, b2, p2, ['seed', 'series-a']);
  const h3 = nextHistory(h2, job.id, { run: 3, date: '2026-11-30', workflowId: 'w3' }, b2, p2);
  const d3 = buildDigest({
    job,
    date: '2026-11-30',
    fundName: 'Fund',
    batch: b2,
    changes: c3,
    history: h3,
    enrichment: new Map(),
  });
  expect(d3.quiet).toBe(true);
  expect(d3.counts).toMatchObject({ new: 0, changed: 0, dropped: 0, events: 0 });
});

describe('changedStartupKeys', () => {
  const s = (key: string, rank: number, before: number, fitChange = 0): StillMatched => ({
    key,
    name: key.toUpperCase(),
    fitPct: 80,
    fitChange,
    rank,
    rankChange: before - rank,
  });

  it('counts the one startup that jumped, not the ones it passed', () => {
    // f was 6th, now 1st; a to e each lost a place because of it.
    const still = [s('f', 1, 6, 3), s('a', 2, 1), s('b', 3, 2), s('c', 4, 3), s('d', 5, 4), s('e', 6, 5)];
    expect(changedStartupKeys(still)).toEqual(['f']);
  });

  it('counts nothing when new matches came in above or dropped ones left gaps', () => {
    const still = [s('a', 3, 1), s('b', 4, 2), s('c', 7, 3), s('d', 8, 6)];
    expect(changedStartupKeys(still)).toEqual([]);
  });

  it('counts a fit that moved 2 points even in the same place, and one of two that swapped', () => {
    expect(changedStartupKeys([s('a', 1, 1, -2.5), s('b', 2, 2, 1.5)])).toEqual(['a']);
    expect(changedStartupKeys([s('b', 1, 2), s('a', 2, 1)])).toHaveLength(1);
    // Of two that swapped, the one whose fit moved is the one that changed.
    expect(changedStartupKeys([s('b', 1, 2), s('a', 2, 1, -4)])).toEqual(['a']);
    expect(changedStartupKeys([])).toEqual([]);
  });
});
