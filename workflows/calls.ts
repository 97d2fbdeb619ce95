/**
 * How workflows call the service: through the API activity on the rate-limited task queue,
 * waiting durably when the daily limit is reached. Whether a failure is retried was decided
 * once, in the activity, from the client's error class (`nonRetryable` on the failure); the
 * workflow only reads the failure's type and message.
 */
import {
  ActivityFailure,
  ApplicationFailure,
  ChildWorkflowFailure,
  proxyActivities,
  sleep,
  TimeoutFailure,
  type ActivityOptions,
} from '@temporalio/workflow';
import { answerTimeoutMsOf } from '../api/catalog.js';
import type { OperationName, ParamsIn } from '../api/operations.js';
import type { ApiActivities } from '../activities/api.js';
import {
  ATTEMPTS_DETAIL,
  DAILY_LIMIT_FAILURE,
  OUTCOME_UNKNOWN_FAILURE,
  type ApiCallOutput,
  type CallAttempts,
  type DailyLimitDetails,
  type PaidCallAccount,
  type RateLimitedDetails,
} from '../shared/types.js';

export const DEFAULT_API_TASK_QUEUE = 'vir-api';

/**
 * Failures after which a run cannot go on: a key the service refuses refuses every later call
 * too, and parameters the client refuses are a fault of the job, not of the service.
 */
export const RUN_STOPPING_FAILURES: readonly string[] = ['unauthorized', 'invalid_params'];

/**
 * Options of the activities on the jobs task queue (building models, rendering, the manifest):
 * they heartbeat while they run, so a worker that dies is seen within seconds, not after the
 * start-to-close timeout.
 */
export const JOB_ACTIVITY_OPTIONS: ActivityOptions = {
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '15 seconds',
  retry: { initialInterval: '2 seconds', maximumAttempts: 3 },
};

/** The longest an API activity waits for its turn (pacing) before its request goes out. */
const PACING_WAIT_MS = 130_000;

/**
 * Options of the API activity for an operation (all of them when absent): its start-to-close
 * timeout is the operation's answer time (a few seconds for reads, analyze_deck's 90 s wait)
 * plus the longest wait for its turn; a dead worker is seen by the heartbeat timeout.
 */
export function apiActivityOptions(taskQueue: string, operation?: OperationName): ActivityOptions {
  const answerMs = operation ? answerTimeoutMsOf(operation) : answerTimeoutMsOf('analyze_deck');
  return {
    taskQueue,
    startToCloseTimeout: answerMs + PACING_WAIT_MS + 10_000,
    // The activity heartbeats while it waits and calls: a worker that dies is seen in 20 s.
    heartbeatTimeout: '20 seconds',
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

/**
 * A paid call is made once per activity: a failure whose outcome is unknown (and a worker that
 * died with the call in flight, seen within the heartbeat timeout) comes back to the workflow,
 * which reconciles with the balance before it asks again. Rate-limited answers (known not
 * charged) are waited out and asked again by the workflow too.
 */
export function paidApiActivityOptions(taskQueue: string, operation?: OperationName): ActivityOptions {
  const base = apiActivityOptions(taskQueue, operation);
  return { ...base, retry: { ...base.retry, maximumAttempts: 1 } };
}

export interface CallHooks {
  /** Called before a durable wait for the daily limit, with the reset time (ISO), and with null after it. */
  onWait?: (until: string | null) => void;
  /** Called after each activity of a call with the requests it sent (retries included). */
  onAttempts?: (operation: OperationName, attempts: CallAttempts) => void;
}

function countOf(value: unknown): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : 0;
}

/**
 * The requests a failed API call sent, read from the failure or its causes (an activity
 * failure, a child workflow's failure): the activity's own account in the failure's details, or,
 * when its last attempt timed out (its worker died), the last heartbeat's account (an attempt
 * records itself there when it sends). Null when the failure says nothing.
 */
export function attemptsOfFailure(err: unknown): CallAttempts | null {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 6; depth += 1) {
    if (e instanceof ApplicationFailure) {
      for (const d of e.details ?? []) {
        if (d && typeof d === 'object' && (d as { kind?: unknown }).kind === ATTEMPTS_DETAIL) {
          const a = d as CallAttempts;
          return { sent: countOf(a.sent), failed: countOf(a.failed) };
        }
      }
    }
    if (e instanceof TimeoutFailure) {
      // The attempt recorded itself in a heartbeat when it sent its request.
      const last = (e.lastHeartbeatDetails ?? {}) as { sent?: unknown };
      const sent = countOf(last.sent);
      return { sent, failed: sent };
    }
    e = e.cause;
  }
  return null;
}

/** The failure type of an activity failure (the client's error code), or null. */
export function failureType(err: unknown): string | null {
  if (err instanceof ActivityFailure && err.cause instanceof ApplicationFailure)
    return err.cause.type ?? null;
  if (err instanceof ApplicationFailure) return err.type ?? null;
  return null;
}

/**
 * Whether a failed paid call may have been carried out by the service: the activity said so,
 * or it ended without an answer of its own (a timeout: its worker died, or it hung).
 */
export function outcomeUnknown(err: unknown): boolean {
  if (failureType(err) === OUTCOME_UNKNOWN_FAILURE) return true;
  return err instanceof ActivityFailure && !(err.cause instanceof ApplicationFailure);
}

/** How long a rate-limited failure asks to wait (ms), or null when it is another failure. */
export function rateLimitedWait(err: unknown): number | null {
  if (failureType(err) !== 'rate_limited') return null;
  const cause = (err as ActivityFailure).cause as ApplicationFailure;
  const details = (cause.details?.[0] ?? null) as RateLimitedDetails | null;
  return details?.retryAfterMs ?? 2000;
}

/**
 * The message of the failure's origin, not its wrappers': an activity's own failure, also
 * inside a child workflow's failure ("Child Workflow execution failed" says nothing).
 */
export function failureMessage(err: unknown): string {
  let e: unknown = err;
  for (
    let depth = 0;
    depth < 6 && (e instanceof ActivityFailure || e instanceof ChildWorkflowFailure);
    depth++
  ) {
    if (!e.cause) break;
    e = e.cause;
  }
  return e instanceof Error ? e.message : String(e);
}

/** The failure that stops a run after `err` (see {@link stopsRun}): the call's own type and message. */
export function runStoppingFailure(err: unknown): ApplicationFailure {
  return ApplicationFailure.create({
    message: failureMessage(err),
    type: failureType(err) ?? 'failed',
    nonRetryable: true,
  });
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
  account?: PaidCallAccount,
  /** Credits earlier attempts of this paid call were charged, their answers lost. */
  chargedBefore?: number,
) => Promise<ApiCallOutput>;

/**
 * Creates a `call` function bound to the API task queue.
 *
 * @example
 * const call = createCaller('vir-api');
 * const out = await call('country_overview', { country: 'Germany' }, runKey, 'overview/germany');
 */
export function createCaller(
  taskQueue: string,
  hooks: CallHooks = {},
  options: { paid?: boolean } = {},
): Call {
  const proxies = new Map<OperationName, ApiActivities['callApi']>();
  /** The activity with the operation's timeouts. */
  const callApiFor = (operation: OperationName) => {
    let callApi = proxies.get(operation);
    if (!callApi) {
      callApi = proxyActivities<ApiActivities>(
        options.paid
          ? paidApiActivityOptions(taskQueue, operation)
          : apiActivityOptions(taskQueue, operation),
      ).callApi;
      proxies.set(operation, callApi);
    }
    return callApi;
  };
  return async function call(operation, params, runKey, name, account, chargedBefore) {
    const callApi = callApiFor(operation);
    for (;;) {
      try {
        const out = await callApi({
          operation,
          params,
          runKey,
          name,
          ...(account ? { account } : {}),
          ...(chargedBefore ? { chargedBefore } : {}),
        });
        // Outputs recorded before attempts were counted stand for one request.
        hooks.onAttempts?.(operation, out.attempts ?? { sent: 1, failed: 0 });
        return out;
      } catch (err) {
        hooks.onAttempts?.(operation, attemptsOfFailure(err) ?? { sent: 1, failed: 1 });
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
