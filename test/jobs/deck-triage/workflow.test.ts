/**
 * The deck triage's decisions on Temporal's time-skipping server, its activities plain
 * functions (test/helpers/stub-activities.ts): each new deck's analyze_deck asked once, with
 * its link named by where it is kept (never the link itself in the history); an analysis still
 * running asked again on durable timers whose wait grows, until it is done or the job's
 * deadline passes; decks past the budget not asked; the run's phase counting the analyses.
 */
import { temporal } from '@temporalio/proto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { parseDeckTriageJob } from '../../../jobs/deck-triage/job.js';
import { maxPolls, pollWaitMs } from '../../../jobs/deck-triage/plan.js';
import { deckTriageWorkflow } from '../../../jobs/deck-triage/workflow.js';
import type { DeckAsked, DeckToSend } from '../../../jobs/deck-triage/activities.js';
import type { ApiCallInput } from '../../../shared/types.js';
import { rendered, stubKit, type StubKit, type StubOptions } from '../../helpers/stub-activities.js';
import { skippingWorker, startTimeSkipping } from '../../helpers/time-skipping.js';

let env: TestWorkflowEnvironment;
beforeAll(async () => {
  env = await startTimeSkipping();
}, 120_000);
afterAll(async () => {
  await env?.teardown();
});

const decks = (n: number): DeckToSend[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `deck-00${i + 1}`,
    label: `deck-${i + 1}.pdf`,
    startupName: i === 0 ? 'Ledgerly' : null,
    linksRef: 'runs/r/decks/links.json',
  }));

/** A kit whose deck activities are stubs recording what the workflow asked. */
function deckKit(toSend: DeckToSend[], answers: StubOptions['api']): StubKit {
  return stubKit(env, {
    api: answers,
    overrides: {
      collectRunDecks: () => ({ collectedRef: 'runs/r/decks/collected.json', toSend }),
      buildDeckTriage: (input: { asked: DeckAsked[] }) => ({
        reportRef: 'runs/r/decks/report.json',
        snapshotRef: 'runs/r/decks/snapshot.json',
        counts: {
          analysed: input.asked.filter((a) => a.status === 'done').length,
          carried: 0,
          failed: input.asked.filter((a) => a.refs.length === 0).length,
          timedOut: input.asked.filter((a) => a.timedOut).length,
          duplicates: 0,
        },
      }),
      renderDeckTriage: (input: { job: { id: string }; date: string }) =>
        rendered(`/stub/${input.job.id}/${input.date}`, ['pdf', 'xlsx']),
    },
  });
}

async function runWith(kit: StubKit, job: ReturnType<typeof parseDeckTriageJob>) {
  const worker = await skippingWorker(env, { taskQueue: kit.taskQueue, activities: kit.activities });
  return worker.runUntil(async () => {
    const handle = await kit.start(deckTriageWorkflow, job);
    const result = await handle.result();
    return { result, history: await handle.fetchHistory(), workflowId: handle.workflowId };
  });
}

const E = temporal.api.enums.v1.EventType;

test('a slow analysis is polled on growing timers, one past the deadline is named, decks past the budget are not asked', async () => {
  const job = parseDeckTriageJob({
    id: 'triage-decisions',
    kind: 'deck-triage',
    title: 'Triage decisions',
    decks: { urls: ['https://decks.test/a.pdf'] },
    pollDeadline: '10m',
    budget: { credits: 9 },
  });
  // deck-001 done at once; deck-002 running, done on the third poll; deck-003 never done.
  const polls = new Map<string, number>();
  const kit = deckKit(decks(5), {
    analyze_deck: (input: ApiCallInput) => {
      const url = (input.params as { deck_url: string }).deck_url;
      const id = url.slice(url.indexOf('#') + 1);
      const status = id === 'deck-001' ? 'done' : 'running';
      return { room: { id: `room-${id}`, status, retryAfterSeconds: null } };
    },
    get_deck_analysis: (input: ApiCallInput) => {
      const room = (input.params as { room_id: string }).room_id;
      const n = (polls.get(room) ?? 0) + 1;
      polls.set(room, n);
      const status = room === 'room-deck-002' && n >= 3 ? 'done' : 'running';
      return { room: { id: room, status, retryAfterSeconds: null } };
    },
  });
  const { result, history } = await runWith(kit, job);

  // Three decks fit the budget of 9 credits: each asked once, its link named by where it is kept.
  const asked = kit.calls().filter((c) => c.operation === 'analyze_deck');
  expect(asked.map((c) => (c.input as ApiCallInput).params)).toEqual([
    { deck_url: 'vir-store:runs/r/decks/links.json#deck-001', startup_name: 'Ledgerly' },
    { deck_url: 'vir-store:runs/r/decks/links.json#deck-002' },
    { deck_url: 'vir-store:runs/r/decks/links.json#deck-003' },
  ]);
  expect(JSON.stringify(history)).not.toContain('https://decks.test');

  // deck-002: polled three times; deck-003: until the next wait would pass the 10-minute deadline.
  expect(polls.get('room-deck-002')).toBe(3);
  const deadlinePolls = polls.get('room-deck-003')!;
  expect(deadlinePolls).toBe(maxPolls(10 * 60_000));

  // The waits are durable timers, growing: 5 s, 10 s, 20 s, … (no activity holds a slot meanwhile).
  const timers = (history.events ?? [])
    .filter((e) => e.eventType === E.EVENT_TYPE_TIMER_STARTED)
    .map((e) => Number(e.timerStartedEventAttributes?.startToFireTimeout?.seconds ?? 0));
  expect(timers.filter((s) => s === pollWaitMs(0) / 1000).length).toBe(2);
  expect(Math.max(...timers)).toBeLessThanOrEqual(pollWaitMs(20) / 1000);
  expect(timers.length).toBe(3 + deadlinePolls);

  // What the model is built from.
  const built = kit.inputsOf('buildDeckTriage')[0] as { asked: DeckAsked[] };
  expect(built.asked.map((a) => [a.id, a.refs.length, a.status, a.timedOut, a.refused !== null])).toEqual([
    ['deck-001', 1, 'done', false, false],
    ['deck-002', 4, 'done', false, false],
    ['deck-003', 1 + deadlinePolls, 'running', true, false],
    ['deck-004', 0, null, false, true],
    ['deck-005', 0, null, false, true],
  ]);
  expect(built.asked[3]!.refused).toMatch(/budget/);

  // The phase counted the analyses as they went.
  const phases = kit.calls().map((c) => c.phase);
  expect(phases).toContain('analysing: 1 analysed, 2 running, 2 not analysed');
  expect(result.creditsSpent).toBe(9);
  // Partial, saying why: two decks past the budget, one still running at the deadline.
  expect(result.partial).toBe(true);
  expect(result.reasons).toEqual([
    `2 of 5 new decks not sent: ${built.asked[3]!.refused}`,
    '1 deck still being analysed at the 10m deadline (see the report)',
  ]);
}, 120_000);

test('a run with nothing new asks nothing and is not delivered unless the job says so', async () => {
  const job = parseDeckTriageJob({
    id: 'triage-quiet',
    kind: 'deck-triage',
    title: 'Triage quiet',
    decks: { urls: ['https://decks.test/a.pdf'] },
    budget: { credits: 9 },
    delivery: [{ webhook: { url: 'https://hooks.test/deals', format: 'json' } }],
  });
  const kit = deckKit([], {});
  const { result } = await runWith(kit, job);
  expect(kit.operations()).toEqual(['my_account']);
  expect(result.delivery).toEqual({
    status: 'skipped',
    reason: 'no new deck since the last run (deliverWhenQuiet: false)',
    outcomes: [],
  });
}, 120_000);
