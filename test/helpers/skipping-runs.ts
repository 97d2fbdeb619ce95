/**
 * Job runs on the time-skipping server: the kind's real workflow and the real run activities
 * (a store and a reports folder under /tmp), the API activity the real one against a sandbox
 * over HTTP (no account link, no rate gate) wrapped in a plain function that may refuse a call
 * with the daily limit before it is sent. The refusal's reset is hours away on the server's
 * clock, so the run's durable wait is a real one that the server skips; the sandbox's request
 * log still witnesses every call that reached the service.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import type { WorkflowHandle } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { createApiActivities } from '../../activities/api.js';
import { LocalStore } from '../../activities/store.js';
import {
  DAILY_LIMIT_FAILURE,
  type ApiCallInput,
  type ApiCallOutput,
  type DailyLimitDetails,
} from '../../shared/types.js';
import { VisClient } from '../../api/client.js';
import { startJobRun } from '../../cli/run-job.js';
import type { AnyJob } from '../../jobs/registry.js';
import { jobActivities } from '../../runtime/workers.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { skippingWorker } from './time-skipping.js';

/** One call the API activity was asked for: when (the server's clock) and whether it was refused. */
export interface SkippingCall {
  input: ApiCallInput;
  at: number;
  refusedUntil: number | null;
}

export interface SkippingRunBed {
  /** The folder of the store and the reports (under `dir`). */
  dir: string;
  /** Every call the API activity was asked for, in order. */
  calls: SkippingCall[];
  /** Starts a run of `job` on the server (not waiting for it). */
  start(job: AnyJob): Promise<WorkflowHandle>;
  /** Runs `scenario` with the workers polling (the jobs queue and the API queue). */
  running<T>(scenario: () => Promise<T>): Promise<T>;
  close(): void;
}

export interface SkippingRunOptions {
  sandbox: RunningSandbox;
  key: string;
  /**
   * Whether to refuse this call with the daily limit (the activity's failure, the call not
   * sent), and for how long on the server's clock: ms, or null to send it.
   */
  refuse?: (input: ApiCallInput, previous: readonly SkippingCall[]) => number | null;
  /** The run activity that reserves the day's calls (default: granted, as with no account link). */
  reserveDayCalls?: (input: {
    runId: string;
    calls: number;
  }) => Promise<{ retryAt: string; left: number } | null>;
  /** The queues' names (unique per test: workers of one file share the server). */
  name: string;
}

/** Workers and a client on `env` to run jobs of any kind; see the file's comment. */
export async function skippingRunBed(
  env: TestWorkflowEnvironment,
  opts: SkippingRunOptions,
): Promise<SkippingRunBed> {
  const dir = mkdtempSync(join(tmpdir(), `vir-skip-${opts.name}-`));
  const store = new LocalStore(join(dir, 'store'));
  const client = new VisClient({ baseUrl: opts.sandbox.url, apiKey: opts.key });
  const api = createApiActivities({ client, store });
  const calls: SkippingCall[] = [];
  const taskQueue = `jobs-${opts.name}`;
  const apiTaskQueue = `api-${opts.name}`;
  const callApi = async (input: ApiCallInput): Promise<ApiCallOutput> => {
    const at = await env.currentTimeMs();
    const refuseMs = opts.refuse?.(input, calls) ?? null;
    const call: SkippingCall = { input, at, refusedUntil: refuseMs === null ? null : at + refuseMs };
    calls.push(call);
    if (call.refusedUntil !== null) {
      const details: DailyLimitDetails = {
        resetAt: new Date(call.refusedUntil).toISOString(),
        operation: input.operation,
      };
      throw ApplicationFailure.create({
        type: DAILY_LIMIT_FAILURE,
        message: `${input.operation} not sent: the daily limit is reached`,
        nonRetryable: true,
        details: [details],
      });
    }
    return api.callApi(input);
  };
  const jobs = await skippingWorker(env, {
    taskQueue,
    activities: {
      ...jobActivities({ store, reportsDir: join(dir, 'reports') }),
      ...(opts.reserveDayCalls ? { reserveDayCalls: opts.reserveDayCalls } : {}),
    },
  });
  const apiWorker = await skippingWorker(env, { taskQueue: apiTaskQueue, activities: { callApi } });
  return {
    dir,
    calls,
    start: (job) => startJobRun(env.client, { taskQueue, apiTaskQueue }, job),
    running: (scenario) => jobs.runUntil(apiWorker.runUntil(scenario())),
    close() {
      void client.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Asks `read` every 20 ms (real time; the server's clock does not move meanwhile) until it gives a value. */
export async function until<T>(
  read: () => Promise<T | null | undefined>,
  what: string,
  ms = 20_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read().catch(() => null);
    if (value !== null && value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`no ${what} within ${ms / 1000} s`);
    // A poll interval, not a stand-in for the event: the loop ends on the value itself.
    await new Promise((r) => setTimeout(r, 20));
  }
}
