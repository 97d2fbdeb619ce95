/**
 * How workflows call the service: through the API activity on the rate-limited task queue,
 * waiting durably when the daily limit is reached. Whether a failure is retried was decided
 * once, in the activity, from the client's error class (`nonRetryable` on the failure); the
 * workflow only reads the failure's type and message.
 */
import {
  ActivityFailure,
  ApplicationFailure,
  proxyActivities,
  sleep,
  type ActivityOptions,
} from '@temporalio/workflow';
import type { OperationName, ParamsIn } from '../api/operations.js';
import type { ApiActivities } from '../activities/api.js';
import { DAILY_LIMIT_FAILURE, type ApiCallOutput, type DailyLimitDetails } from '../activities/types.js';

export const DEFAULT_API_TASK_QUEUE = 'vir-api';

/**
 * Failures after which a run cannot go on: a key the service refuses refuses every later call
 * too, and parameters the client refuses are a fault of the job, not of the service.
 */
export const RUN_STOPPING_FAILURES: readonly string[] = ['unauthorized', 'invalid_params'];

export function apiActivityOptions(taskQueue: string): ActivityOptions {
  return {
    taskQueue,
    // ask and analyze_deck may take about 90 s on the service side.
    startToCloseTimeout: '150 seconds',
    // Waiting for rate-limit tokens counts here; the daily limit is waited out in the workflow.
    scheduleToCloseTimeout: '2 hours',
    retry: {
      initialInterval: '1 second',
      backoffCoefficient: 2,
      maximumInterval: '1 minute',
      maximumAttempts: 12,
    },
  };
}

export interface CallHooks {
  /** Called before a durable wait for the daily limit, with the reset time (ISO), and with null after it. */
  onWait?: (until: string | null) => void;
}

/** The failure type of an activity failure (the client's error code), or null. */
export function failureType(err: unknown): string | null {
  if (err instanceof ActivityFailure && err.cause instanceof ApplicationFailure)
    return err.cause.type ?? null;
  if (err instanceof ApplicationFailure) return err.type ?? null;
  return null;
}

/** The message of the activity's own failure (not the wrapper's). */
export function failureMessage(err: unknown): string {
  if (err instanceof ActivityFailure && err.cause) return err.cause.message;
  return err instanceof Error ? err.message : String(err);
}

/** Whether a failed call must stop the run rather than make it partial. */
export function stopsRun(err: unknown): boolean {
  const type = failureType(err);
  return type !== null && RUN_STOPPING_FAILURES.includes(type);
}

/** A typed call of one operation: its parameters are the operation's own. */
export type Call = <N extends OperationName>(
  operation: N,
  params: ParamsIn<N>,
  runKey: string,
  name: string,
) => Promise<ApiCallOutput>;

/**
 * Creates a `call` function bound to the API task queue.
 *
 * @example
 * const call = createCaller('vir-api');
 * const out = await call('country_overview', { country: 'Germany' }, runKey, 'overview/germany');
 */
export function createCaller(taskQueue: string, hooks: CallHooks = {}): Call {
  const { callApi } = proxyActivities<ApiActivities>(apiActivityOptions(taskQueue));
  return async function call(operation, params, runKey, name) {
    for (;;) {
      try {
        return await callApi({ operation, params, runKey, name });
      } catch (err) {
        if (failureType(err) !== DAILY_LIMIT_FAILURE) throw err;
        const cause = (err as ActivityFailure).cause as ApplicationFailure;
        const details = (cause.details?.[0] ?? null) as DailyLimitDetails | null;
        const until = details?.resetAt ?? null;
        const waitMs = until ? Math.max(1000, Date.parse(until) - Date.now() + 1000) : 60_000;
        hooks.onWait?.(until);
        await sleep(waitMs);
        hooks.onWait?.(null);
      }
    }
  };
}
