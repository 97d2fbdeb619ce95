/**
 * Plain-function activities for workflow-decision tests on the time-skipping server
 * (test/helpers/time-skipping.ts): every activity the product's workflows schedule (the API
 * call, the run's generic activities, the job check, delivery, and each registered kind's own,
 * from its case in test/jobs/<kind>/kind-case.ts), answering plausibly and recording what they
 * were asked, in order, with the run's phase at that moment as `progressQuery` tells it. A test
 * overrides the few it cares about.
 *
 * What these stubs prove is only what the workflows decide; what the real activities and the
 * real service do is proven by their own tests and by the end-to-end runs.
 *
 * @example
 * const stubs = await stubWorker(env); // one worker per test file (beforeAll)
 * const kit = stubs.use({ api: { get_startup: () => { throw apiFailure('gone', 'not_found'); } } });
 * const result = await (await kit.start(smokeWorkflow, job)).result();
 * expect(kit.names().slice(0, 3)).toEqual(['checkJob', 'reserveDayCalls', 'callApi:my_account']);
 */
import { ApplicationFailure } from '@temporalio/common';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { CATALOG, creditsOf, type PagedOperation } from '../../api/catalog.js';
import type { OperationName } from '../../api/operations.js';
import {
  ATTEMPTS_DETAIL,
  type ApiCallInput,
  type ApiCallOutput,
  type RenderOutput,
} from '../../shared/types.js';
import type { DeliveryOutcome } from '../../shared/delivery.js';
import { runDeliveryOf } from '../../activities/delivery/deliver.js';
import { progressQuery, type RunProgress } from '../../workflows/progress.js';
import type { JobRunInput, JobRunResult } from '../../workflows/engine.js';
import { afterAll, beforeAll } from 'vitest';
import { kindActivityStubs } from './kind-cases.js';
import { skippingWorker, startTimeSkipping } from './time-skipping.js';

// Activities are called by name with whatever the workflow passes: the stubs read only what they need.
export type StubFn = (input: any) => unknown;

/** One activity the workflow scheduled: its name, input and the run's phase when it started. */
export interface Recorded {
  activity: string;
  input: any;
  /** The run's phase (`progressQuery`) as the activity started; null when it was not asked. */
  phase: string | null;
  /** For callApi: the operation. */
  operation?: OperationName;
}

/** How the fake service answers one operation: a partial output, or a function of the call. */
export type Answer = Partial<ApiCallOutput> | ((input: ApiCallInput, nth: number) => unknown);

export interface StubOptions {
  /** Answers per operation (default: plausible answers, paged searches of `total` records). */
  api?: Partial<Record<OperationName, Answer>>;
  /** Records a paged search reports in all (default 50: one page). */
  total?: number;
  /** The account's balance my_account reports (default 1000); paid calls lower it. */
  balance?: number;
  /** Activities replaced by the test (any name: the run's, delivery, a kind's). */
  overrides?: Record<string, StubFn>;
  /** Ask the run's progress at each activity (default true). */
  probe?: boolean;
}

let seq = 0;

/** A non-retryable failure of a stub activity (`type`: its failure type). */
export function failure(message: string, type = 'failed', nonRetryable = true): ApplicationFailure {
  return ApplicationFailure.create({ message, type, nonRetryable });
}

/**
 * A failed API call as the real callApi throws it (activities/api.ts): the client's error code
 * as its type, and what its attempts sent appended to its details (one request, failed).
 */
export function apiFailure(message: string, type: string, nonRetryable = true): ApplicationFailure {
  return ApplicationFailure.create({
    message,
    type,
    nonRetryable,
    details: [{ kind: ATTEMPTS_DETAIL, sent: 1, failed: 1 }],
  });
}

/** A render's output, its files in `outDir`. */
export function rendered(outDir: string, formats: readonly string[]): RenderOutput {
  return {
    outDir,
    files: Object.fromEntries(formats.map((f) => [f, `${outDir}/report.${f}`])),
    charts: 0,
    pages: null,
  };
}

/** The output folder the stubs give a run of this job and date. */
export const outDirOf = (input: { job: { id: string }; date: string }) =>
  `/stub/out/${input.job.id}/${input.date}`;

/**
 * The stub activities of one test (`options`), on `taskQueue`: the engine's, delivery's, and
 * `kinds`, each registered kind's own (test/helpers/kind-cases.ts).
 */
export function stubKit(
  env: TestWorkflowEnvironment,
  options: StubOptions = {},
  taskQueue = `stub-${process.pid}-${++seq}`,
  kinds: Record<string, StubFn> = {},
) {
  const runSeq = ++seq;
  const log: Recorded[] = [];
  const perOperation = new Map<OperationName, number>();
  let balance = options.balance ?? 1000;
  const total = options.total ?? 50;
  /** The run whose progress the probes ask (set by `execute`). */
  let watched: string | null = null;

  const phaseNow = async (): Promise<string | null> => {
    if (watched === null || options.probe === false) return null;
    const p: RunProgress = await env.client.workflow.getHandle(watched).query(progressQuery);
    return p.phase;
  };

  const defaultAnswer = (input: ApiCallInput): ApiCallOutput => {
    const base: ApiCallOutput = {
      ref: `${input.runKey}/${input.name}.json`,
      operation: input.operation,
      summary: 'stub',
      charged: 0,
      remaining: null,
      records: 1,
      total: null,
      nextOffset: null,
      keys: [],
      durationMs: 1,
    };
    const facts = CATALOG[input.operation] as { paged?: boolean; maxLimit?: number };
    if (input.operation === 'my_account') return { ...base, records: 0, remaining: balance };
    if (facts.paged) {
      const { offset = 0, limit = 100 } = input.params as { offset?: number; limit?: number };
      const records = Math.max(0, Math.min(limit, total - offset));
      return {
        ...base,
        records,
        total,
        nextOffset: offset + records < total ? offset + records : null,
        keys: Array.from({ length: records }, (_, i) => `${input.operation}-${offset + i}`),
      };
    }
    const price = creditsOf(input.operation);
    if (price > 0) {
      balance -= price;
      return {
        ...base,
        charged: price,
        remaining: balance,
        records: 5,
        ...(input.operation === 'ask' ? { mapped: true } : {}),
      };
    }
    return base;
  };

  async function callApi(input: ApiCallInput): Promise<ApiCallOutput> {
    const nth = (perOperation.get(input.operation) ?? 0) + 1;
    perOperation.set(input.operation, nth);
    const entry: Recorded = { activity: 'callApi', operation: input.operation, input, phase: null };
    log.push(entry);
    entry.phase = await phaseNow();
    const answer = options.api?.[input.operation];
    const base = defaultAnswer(input);
    if (answer === undefined) return base;
    if (typeof answer === 'function') {
      const out = await answer(input, nth);
      return { ...base, ...(out as Partial<ApiCallOutput>) };
    }
    return { ...base, ...answer };
  }

  const defaults: Record<string, StubFn> = {
    // The run's generic activities (activities/run.ts).
    selectTop: ({ refs, n }: { refs: string[]; n: number }) =>
      Array.from({ length: Math.min(n, refs.length * 3) }, (_, i) => `top-${i}`),
    reserveDayCalls: () => null,
    releaseDayCalls: () => undefined,
    settleAccountCredits: () => undefined,
    reservationBalance: () => null,
    readAccountBalance: () => balance,
    prepareOutputFolder: (input: { job: { id: string }; date: string }) => outDirOf(input),
    previousSnapshot: () => null,
    recordFailedRun: (input: { stats: { workflowId: string } }) => ({
      manifestPath: `/stub/failed/${input.stats.workflowId}/manifest.json`,
    }),
    finalizeRun: (input: { render: RenderOutput }) => ({
      manifestPath: `${input.render.outDir}/manifest.json`,
    }),
    // The job's checks (jobs/check.ts).
    checkJob: () => undefined,
    // Delivery (activities/delivery/deliver.ts): every destination accepts.
    deliverToDestination: ({ destination }: { destination: string }): DeliveryOutcome => ({
      destination,
      kind: destination.startsWith('s3') ? 's3' : destination.startsWith('email') ? 'email' : 'webhook',
      ok: true,
      detail: 'stub: delivered',
      attempts: 1,
    }),
    recordDeliveries: ({ outcomes, skipped }: { outcomes: DeliveryOutcome[]; skipped?: string }) =>
      runDeliveryOf(outcomes, skipped),
    deliveryState: () => [],
    // Each registered kind's own.
    ...kinds,
  };

  const activities: Record<string, (input: any) => Promise<unknown>> = { callApi };
  for (const [name, fn] of Object.entries({ ...defaults, ...options.overrides })) {
    activities[name] = async (input: any) => {
      const entry: Recorded = { activity: name, input, phase: null };
      log.push(entry);
      entry.phase = await phaseNow();
      return fn(input);
    };
  }

  return {
    taskQueue,
    activities,
    /** Every activity started, in order. */
    log,
    /** The API calls, in order. */
    calls: () => log.filter((r) => r.activity === 'callApi'),
    /** Operations called, in order. */
    operations: () => log.flatMap((r) => (r.operation ? [r.operation] : [])),
    /** The inputs of one activity, in order. */
    inputsOf: (activity: string) => log.filter((r) => r.activity === activity).map((r) => r.input),
    /** Each activity (or `callApi:<operation>`) in order. */
    names: () => log.map((r) => (r.operation ? `callApi:${r.operation}` : r.activity)),
    /** The account's balance now (paid calls lowered it). */
    balance: () => balance,
    /** Starts a job workflow on the kit's queue (API calls on the same queue); its progress is probed. */
    start<J>(
      workflow: (input: JobRunInput<J>) => Promise<JobRunResult>,
      job: J,
      workflowId = `${taskQueue}-run-${runSeq}`,
    ) {
      watched = workflowId;
      return env.client.workflow.start(workflow, {
        taskQueue,
        workflowId,
        args: [{ job, trigger: 'manual', apiTaskQueue: taskQueue }],
      });
    },
  };
}

export type StubKit = ReturnType<typeof stubKit>;

/**
 * One worker for a test file, its activities those of the kit `use` made last (tests of a file
 * run one at a time): a worker is created once, not per test.
 *
 * @example
 * const stubs = await stubWorker(env); // in beforeAll; stubs.close() in afterAll
 * const kit = stubs.use({ total: 130 });
 * const result = await (await kit.start(smokeWorkflow, job)).result();
 */
export async function stubWorker(env: TestWorkflowEnvironment) {
  const taskQueue = `stub-${process.pid}-${++seq}`;
  let current: StubKit | null = null;
  const kinds = await kindActivityStubs();
  const names = Object.keys(stubKit(env, {}, taskQueue, kinds).activities);
  const activities = Object.fromEntries(
    names.map((name) => [
      name,
      (input: any) => {
        if (!current) throw new Error(`no stub kit in use for ${name}`);
        return current.activities[name]!(input);
      },
    ]),
  );
  const worker = await skippingWorker(env, { taskQueue, activities });
  const running = worker.run();
  return {
    taskQueue,
    /** A fresh kit whose activities the worker runs from now on. */
    use(options: StubOptions = {}): StubKit {
      current = stubKit(env, options, taskQueue, kinds);
      return current;
    },
    async close(): Promise<void> {
      worker.shutdown();
      await running;
    },
  };
}

/** Whether an operation pages. */
export function paged(operation: OperationName): operation is PagedOperation {
  return (CATALOG[operation] as { paged?: boolean }).paged === true;
}

/**
 * A test file's time-skipping server and stub worker, started before its tests and closed after
 * them: `env` for the server's client, `use` for a fresh kit (as `stubWorker`'s).
 *
 * @example
 * const stubs = stubBed();
 * const kit = stubs.use({ total: 130 });
 */
export function stubBed() {
  let env: TestWorkflowEnvironment | undefined;
  let stubs: Awaited<ReturnType<typeof stubWorker>> | undefined;
  beforeAll(async () => {
    env = await startTimeSkipping();
    stubs = await stubWorker(env);
    // The timeout covers the Java test server's start (a JVM) and the worker's, on a busy machine.
  }, 120_000);
  afterAll(async () => {
    await stubs?.close();
    await env?.teardown();
  });
  return {
    get env(): TestWorkflowEnvironment {
      return env!;
    },
    use(options: StubOptions = {}): StubKit {
      return stubs!.use(options);
    },
  };
}
