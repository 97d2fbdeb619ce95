/**
 * How workflows call the service: through the API activity on the rate-limited task queue,
 * waiting durably when the daily limit is reached.
 */
import {
  ActivityFailure,
  ApplicationFailure,
  proxyActivities,
  sleep,
  type ActivityOptions,
} from '@temporalio/workflow';
import type { OperationName } from '../api/operations.js';
import type { ApiActivities } from '../activities/api.js';
import { DAILY_LIMIT_FAILURE, type ApiCallOutput, type DailyLimitDetails } from '../activities/types.js';

/** Error codes of the client that are never worth retrying (classified once, in the activity). */
export const NON_RETRYABLE_CODES = [
  'invalid_params',
  'invalid_input',
  'unauthorized',
  'upgrade_required',
  'insufficient_credits',
  'forbidden',
  'insufficient_scope',
  'plan_required',
  'account_type_required',
  'not_found',
  'malformed_response',
  DAILY_LIMIT_FAILURE,
];

export const DEFAULT_API_TASK_QUEUE = 'vir-api';

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
      nonRetryableErrorTypes: NON_RETRYABLE_CODES,
    },
  };
}

export interface CallHooks {
  /** Called before a durable wait for the daily limit, with the reset time (ISO). */
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

/**
 * Creates a `call` function bound to the API task queue.
 *
 * @example
 * const call = createCaller('vir-api');
 * const out = await call('country_overview', { country: 'Germany' }, runKey, 'overview/germany');
 */
export function createCaller(taskQueue: string, hooks: CallHooks = {}) {
  const { callApi } = proxyActivities<ApiActivities>(apiActivityOptions(taskQueue));
  return async function call(
    operation: OperationName,
    params: Record<string, unknown>,
    runKey: string,
    name: string,
  ): Promise<ApiCallOutput> {
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

export type Caller = ReturnType<typeof createCaller>;
