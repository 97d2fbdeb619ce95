/**
 * The decisions of a paid call whose answer is lost after the service charged (the engine's
 * reconciliation, workflows/run-calls.ts `reconciledPaidCall`), on the time-skipping server with the
 * kinds' real workflows and plain-function activities: a fake service below keeps its own books
 * (a balance, the requests it saw, which it charged), the way the sandbox does, and loses the
 * answers the test says after charging for them.
 *
 * - a lost batch is asked again, and paid again, when the budget has room;
 * - a budget of exactly one batch: the lost batch is not asked again, the run fails saying so;
 * - an attempt the balance shows was not charged is asked again at its full price;
 * - at most three attempts, however large the budget;
 * - a lost brief is asked again as the service's free repeat even with no room left, and the
 *   brief's row says what it cost (the first charge).
 *
 * What only real servers prove (the sandbox's balance and request log under each fault mode, the
 * ledger, the reports) stays in the end-to-end files (test/jobs/<kind>/credits-faults.test.ts,
 * test/workflows/paid-calls.test.ts).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ApplicationFailure } from '@temporalio/common';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { CATALOG, creditsOf } from '../../../api/catalog.js';
import {
  ATTEMPTS_DETAIL,
  OUTCOME_UNKNOWN_FAILURE,
  type ApiCallInput,
  type ApiCallOutput,
  type RenderOutput,
  type RunStats,
} from '../../../shared/types.js';
import { parseFundMatchJob } from '../../../jobs/fund-match/index.js';
import { fundMatchWorkflow } from '../../../jobs/fund-match/workflow.js';
import { parseProspectListJob } from '../../../jobs/prospect-list/index.js';
import { prospectListWorkflow } from '../../../jobs/prospect-list/workflow.js';
import { skippingWorker, startTimeSkipping } from '../../helpers/time-skipping.js';

/** What the fake service does with a paid request: answer, or charge and lose the answer, or lose it uncharged. */
type Fate = 'answer' | 'lost-after-charge' | 'lost-uncharged';

interface Seen {
  operation: string;
  charged: number;
  fate: Fate;
}

/** A service with its own books: the witness of these tests, as the sandbox is of the end-to-end ones. */
class FakeService {
  balance = 1_000;
  readonly seen: Seen[] = [];
  /** The fates of the next paid requests, in order (then: answer). */
  fates: Fate[] = [];
  /** Params of the free-repeat operations already charged (asked again: free). */
  readonly #asked = new Set<string>();

  out(input: ApiCallInput, charged: number, records = 2): ApiCallOutput {
    return {
      ref: `${input.runKey}/${input.name}.json`,
      operation: input.operation,
      summary: 'ok',
      charged,
      remaining: this.balance,
      records,
      total: null,
      nextOffset: null,
      keys: Array.from({ length: records }, (_, i) => `${input.name}-${i}`),
      durationMs: 1,
      attempts: { sent: 1, failed: 0 },
    };
  }

  callApi = async (input: ApiCallInput): Promise<ApiCallOutput> => {
    const price = creditsOf(input.operation);
    if (price === 0) return this.out(input, 0);
    const fate = this.fates.shift() ?? 'answer';
    const params = `${input.operation} ${JSON.stringify(input.params)}`;
    const repeat = (CATALOG[input.operation] as { freeRepeat?: true }).freeRepeat
      ? this.#asked.has(params)
      : false;
    const charged = fate === 'lost-uncharged' || repeat ? 0 : price;
    this.balance -= charged;
    if (charged > 0) this.#asked.add(params);
    this.seen.push({ operation: input.operation, charged, fate });
    if (fate === 'answer') return this.out(input, charged);
    // As activities/api.ts fails a paid call sent without a readable answer.
    throw ApplicationFailure.create({
      message: 'socket hang up (the service may have charged for it)',
      type: OUTCOME_UNKNOWN_FAILURE,
      nonRetryable: true,
      details: [{ code: 'network' }, { kind: ATTEMPTS_DETAIL, sent: 1, failed: 1 }],
    });
  };

  paid(operation: string): Seen[] {
    return this.seen.filter((s) => s.operation === operation);
  }
}

const RENDER: RenderOutput = { outDir: '/nowhere', files: {}, charts: 0, pages: null };

/** The engine's activities as plain functions; what the run reported to its manifest is kept. */
function runActivities(service: FakeService, books: { stats?: RunStats; failed?: RunStats }) {
  return {
    callApi: service.callApi,
    checkJob: async () => undefined,
    reserveDayCalls: async () => null,
    releaseDayCalls: async () => undefined,
    settleAccountCredits: async () => undefined,
    reservationBalance: async () => null,
    readAccountBalance: async () => service.balance,
    finalizeRun: async (input: { stats: RunStats }) => {
      books.stats = input.stats;
      return { manifestPath: '/nowhere/manifest.json' };
    },
    recordFailedRun: async (input: { stats: RunStats }) => {
      books.failed = input.stats;
      return { manifestPath: null };
    },
  };
}

let env: TestWorkflowEnvironment;
beforeAll(async () => {
  env = await startTimeSkipping();
}, 120_000);
afterAll(async () => {
  await env?.teardown();
});

let seq = 0;

describe('a fund-match batch lost after the charge', () => {
  const FIND = 'find_startups_for_fund';

  async function run(budget: number, fates: Fate[]) {
    const service = new FakeService();
    service.fates = fates;
    const books: { stats?: RunStats; failed?: RunStats } = {};
    const taskQueue = `fund-${++seq}`;
    const worker = await skippingWorker(env, {
      taskQueue,
      activities: {
        ...runActivities(service, books),
        planFundProfiles: async () => ({ keys: ['s-1', 's-2'], batch: 2 }),
        buildFundDigest: async () => ({
          digestRef: 'digest.json',
          snapshotRef: 'snapshot.json',
          baseline: true,
          quiet: false,
          counts: { batch: 2, new: 2, changed: 0, dropped: 0, events: 0 },
        }),
        renderFundDigest: async () => RENDER,
      },
    });
    const before = service.balance;
    const job = parseFundMatchJob({
      id: `fund-${seq}`,
      kind: 'fund-match',
      title: 'Fund match',
      limit: 6,
      budget: { credits: budget },
    });
    let failure: string | null = null;
    let creditsSpent: number | null = null;
    try {
      const result = await worker.runUntil(
        env.client.workflow.execute(fundMatchWorkflow, {
          taskQueue,
          workflowId: `fund-${seq}`,
          args: [{ job, trigger: 'manual', apiTaskQueue: taskQueue }],
        }),
      );
      creditsSpent = result.creditsSpent;
    } catch (err) {
      failure = `${(err as Error).message} ${String(((err as Error).cause as Error | undefined)?.message)}`;
    }
    const stats = books.stats ?? books.failed!;
    return { service, paid: before - service.balance, failure, creditsSpent, stats };
  }

  test('is asked again within the budget, and paid again: the books say both charges', async () => {
    const r = await run(6, ['lost-after-charge']);
    expect(r.failure).toBeNull();
    expect(r.service.paid(FIND).map((s) => [s.fate, s.charged])).toEqual([
      ['lost-after-charge', 3],
      ['answer', 3],
    ]);
    expect(r.paid).toBe(6);
    expect(r.creditsSpent).toBe(6);
    expect(r.stats.creditsSpent).toBe(6);
    expect(r.stats.attempts![FIND]).toEqual({ attempted: 2, succeeded: 1, failed: 1 });
    expect(r.stats.callsByOperation.get_startup).toBe(2);
  });

  test('a budget of exactly one batch: not asked again; the run fails saying what the lost batch cost', async () => {
    const r = await run(3, ['lost-after-charge']);
    expect(r.service.paid(FIND)).toHaveLength(1);
    expect(r.paid).toBe(3);
    expect(r.stats.creditsSpent).toBe(3);
    expect(r.stats.callsByOperation.get_startup).toBeUndefined();
    expect(r.failure).toMatch(/no batch this run \(3 credits spent\)/);
    expect(r.failure).toMatch(/the service charged 3 credits for an answer that was lost; not asked again/);
    expect(r.failure).toMatch(/credit budget of 3 reached/);
  });

  test('an attempt the balance shows uncharged is asked again at its price, and the run spent one batch', async () => {
    // Budget 3: the first attempt cost nothing, so the second fits.
    const r = await run(3, ['lost-uncharged']);
    expect(r.failure).toBeNull();
    expect(r.service.paid(FIND).map((s) => s.charged)).toEqual([0, 3]);
    expect(r.paid).toBe(3);
    expect(r.stats.creditsSpent).toBe(3);
  });

  test('three attempts at most, however large the budget: the run fails saying what all three cost', async () => {
    const r = await run(30, ['lost-after-charge', 'lost-after-charge', 'lost-after-charge', 'answer']);
    expect(r.service.paid(FIND)).toHaveLength(3);
    expect(r.paid).toBe(9);
    expect(r.stats.creditsSpent).toBe(9);
    expect(r.failure).toContain('no batch this run (9 credits spent)');
    expect(r.failure).toMatch(/for an answer that was lost; not asked again after 3 attempts/);
  });
});

describe('a prospect brief lost after the charge', () => {
  test('is asked again as the free repeat with no room left in the budget; its row says the 3 credits it cost', async () => {
    const service = new FakeService();
    service.fates = ['lost-after-charge'];
    const books: { stats?: RunStats } = {};
    let briefs: { charged: number; problem: string | null }[] = [];
    const taskQueue = `prospects-${++seq}`;
    const worker = await skippingWorker(env, {
      taskQueue,
      activities: {
        ...runActivities(service, books),
        mergeProspects: async () => ({
          rowChunks: [],
          suppressedChunks: [],
          enrichKeys: [],
          briefReturned: [2],
          counts: { merged: 2, listed: 2, sourceRecords: 2, suppressedByDomain: 0 },
        }),
        finishProspectList: async (input: { briefs: { charged: number; problem: string | null }[] }) => {
          briefs = input.briefs;
          return { snapshotRef: 'snapshot.json', listed: 2, netNew: 2 };
        },
        renderProspectList: async () => RENDER,
      },
    });
    const job = parseProspectListJob({
      id: 'prospects-lost-brief',
      kind: 'prospect-list',
      title: 'Prospects',
      briefs: [{ brief: 'Payroll software for seed-stage fintech companies', limit: 15 }],
      enrich: 0,
      // One brief's price: no room for a paid second ask.
      budget: { credits: 3 },
    });
    const before = service.balance;
    const result = await worker.runUntil(
      env.client.workflow.execute(prospectListWorkflow, {
        taskQueue,
        workflowId: `prospects-${seq}`,
        args: [{ job, trigger: 'manual', apiTaskQueue: taskQueue }],
      }),
    );
    expect(result.partial, result.reasons.join('; ')).toBe(false);
    expect(service.paid('find_customers').map((s) => [s.fate, s.charged])).toEqual([
      ['lost-after-charge', 3],
      ['answer', 0],
    ]);
    expect(before - service.balance).toBe(3);
    expect(books.stats!.creditsSpent).toBe(3);
    expect(briefs).toEqual([expect.objectContaining({ charged: 3, problem: null })]);
  });
});
