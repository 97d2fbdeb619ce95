/**
 * The deck triage's pure parts: a data room's answer read wherever the service puts its fields
 * (the sandbox's layout and the service variants' `data_room` nesting), the ranking, the
 * snapshot by SHA-256, the polling plan, and the job's schema refusing what the service would.
 */
import { describe, expect, test } from 'vitest';
import { parseDeckTriageJob } from '../../../jobs/deck-triage/job.js';
import {
  asDeckSnapshot,
  nextSnapshot,
  rankDecks,
  readAnalysis,
  unanalysedDeck,
  analysedDeck,
} from '../../../jobs/deck-triage/model.js';
import { maxPolls, planDeckTriage, pollWaitMs } from '../../../jobs/deck-triage/plan.js';
import type { CollectedDeck } from '../../../jobs/deck-triage/types.js';

const analysis = {
  startup_name: 'Ledgerly',
  deal_score: 78,
  verdict: 'pursue',
  verdict_reason: 'Strong traction for the stage and a team that has built payments before.',
  dimensions: [
    {
      dimension: 'team',
      label: 'Team',
      score: 85,
      weight: 0.3,
      rationale: 'Ex-Stripe founders.',
      evidence: [],
    },
    {
      dimension: 'market',
      label: 'Market',
      score: 70,
      weight: 0.2,
      rationale: 'Large SMB market.',
      evidence: [],
    },
  ],
  strengths: ['ARR of $1.8M growing 3x'],
  risks: ['Competition from suites'],
  red_flags: [],
  questions: ['How is churn trending?'],
  facts: { raise_usd: 4_000_000, stage: 'seed', arr_usd: 1_800_000, growth_yoy_pct: 200, customers: 240 },
};

describe('a data room read', () => {
  test("the sandbox's layout: room_id and status at the top, the analysis under analysis", () => {
    const read = readAnalysis({ data: { room_id: 'r1', status: 'done', analysis } });
    expect(read).toMatchObject({
      startupName: 'Ledgerly',
      score: 78,
      verdict: 'pursue',
      roomId: 'r1',
      status: 'done',
      strengths: ['ARR of $1.8M growing 3x'],
      questions: ['How is churn trending?'],
    });
    expect(read.dimensions).toEqual([
      { label: 'Team', score: 85, note: 'Ex-Stripe founders.' },
      { label: 'Market', score: 70, note: 'Large SMB market.' },
    ]);
    expect(read.facts).toEqual([
      { label: 'Raising', value: '$4.0M' },
      { label: 'Stage', value: 'seed' },
      { label: 'ARR', value: '$1.8M' },
      { label: 'Growth, year on year', value: '200%' },
      { label: 'Customers', value: '240' },
    ]);
  });

  test('room and status inside data_room, the analysis at the top; a running room has no score', () => {
    const read = readAnalysis({ data: { data_room: { id: 'r2', status: 'RUNNING' } } });
    expect(read).toMatchObject({ roomId: 'r2', status: 'running', score: null, dimensions: [] });
    const done = readAnalysis({ data: { data_room: { id: 'r2', status: 'done' }, ...analysis } });
    expect(done).toMatchObject({ roomId: 'r2', status: 'done', score: 78, verdict: 'pursue' });
  });

  test('an answer of another shape reads as nothing, without throwing', () => {
    for (const data of [
      null,
      'text',
      [],
      { analysis: 'x' },
      { dimensions: 'x', red_flags: [1, { text: 'Flag' }] },
    ])
      expect(() => readAnalysis({ data })).not.toThrow();
    expect(readAnalysis({ data: { red_flags: [{ text: 'Cap table' }, 3] } }).redFlags).toEqual(['Cap table']);
  });
});

const deck = (label: string, over: Partial<CollectedDeck> = {}): CollectedDeck => ({
  sha256: `sha-${label}`,
  origin: 'url',
  label,
  deckUrl: null,
  startupName: null,
  kind: 'pdf',
  bytes: 100,
  problem: null,
  duplicateOf: null,
  ...over,
});

test('the ranking: analysed and carried by score, then failed, timed out, duplicates', () => {
  const read = (score: number) => readAnalysis({ data: { analysis: { ...analysis, deal_score: score } } });
  const more = { analysedOn: '2026-11-27', credits: 3, sources: [] };
  const ranked = rankDecks([
    unanalysedDeck(deck('dup.pdf', { duplicateOf: 'a.pdf' }), 'duplicate', 'same'),
    analysedDeck(deck('a.pdf'), read(60), { ...more, outcome: 'analysed' }),
    unanalysedDeck(deck('gone.pdf'), 'failed', 'the link answered 404 Not Found'),
    analysedDeck(deck('b.pdf'), read(90), { ...more, outcome: 'carried' }),
    unanalysedDeck(deck('slow.pdf'), 'timed-out', 'still running'),
  ]);
  expect(ranked.map((d) => [d.label, d.outcome])).toEqual([
    ['b.pdf', 'carried'],
    ['a.pdf', 'analysed'],
    ['gone.pdf', 'failed'],
    ['slow.pdf', 'timed-out'],
    ['dup.pdf', 'duplicate'],
  ]);
});

test('the snapshot keeps every deck analysed so far by its bytes; an odd one reads as no earlier run', () => {
  const first = nextSnapshot(
    null,
    [{ sha256: 'aa', label: 'a.pdf', ref: 'runs/1/decks/deck-001.json' }],
    '2026-11-20',
  );
  const second = nextSnapshot(
    first,
    [{ sha256: 'bb', label: 'b.pdf', ref: 'runs/2/decks/deck-002.json' }],
    '2026-11-27',
  );
  expect(Object.keys(second.decks).sort()).toEqual(['aa', 'bb']);
  expect(second.decks.aa).toEqual({
    label: 'a.pdf',
    analysedOn: '2026-11-20',
    ref: 'runs/1/decks/deck-001.json',
  });
  expect(asDeckSnapshot(second)).toEqual(second);
  expect(asDeckSnapshot({ startups: {} })).toBeNull();
  expect(asDeckSnapshot('x')).toBeNull();
});

test('polls wait 5 s, 10 s, 20 s … at most 5 minutes, never longer than the service asks', () => {
  expect([0, 1, 2, 3, 6, 7, 12].map((n) => pollWaitMs(n) / 1000)).toEqual([5, 10, 20, 40, 300, 300, 300]);
  expect(pollWaitMs(4, 3)).toBe(3000);
  expect(pollWaitMs(0, 0.2)).toBe(1000);
  // 30 minutes: 5+10+20+40+80+160 = 315 s, then 5 minutes each: 4 more waits within 1,800 s.
  expect(maxPolls(30 * 60_000)).toBe(10);
});

describe('the job', () => {
  const base = { id: 'decks', kind: 'deck-triage', title: 'Decks', budget: { credits: 9 } };

  test('the plan: 3 credits a deck, the budget pays for three', () => {
    const job = parseDeckTriageJob({
      ...base,
      decks: {
        urls: [
          'https://a.test/1.pdf',
          'https://a.test/2.pdf',
          'https://a.test/3.pdf',
          'https://a.test/4.pptx',
        ],
      },
    });
    expect(job.pollDeadline).toBe('30m');
    expect(planDeckTriage(job)).toMatchObject({ paidCalls: 4, creditsNeeded: 12, paidCallsInBudget: 3 });
  });

  test('refuses what the service would, naming the field', () => {
    expect(() => parseDeckTriageJob({ ...base, decks: {} })).toThrow(
      /decks.*needs at least one of urls, folder or s3/,
    );
    expect(() =>
      parseDeckTriageJob({ ...base, decks: { urls: ['https://docs.google.com/presentation/d/abc/edit'] } }),
    ).toThrow(/decks\.urls\[0\]/);
    expect(() => parseDeckTriageJob({ ...base, decks: { urls: ['http://a.test/1.pdf'] } })).toThrow(
      /decks\.urls\[0\]/,
    );
    expect(() =>
      parseDeckTriageJob({ ...base, decks: { urls: ['https://a.test/1.pdf'] }, pollDeadline: '2d' }),
    ).toThrow(/pollDeadline.*must look like 90s, 30m or 2h/);
  });
});
