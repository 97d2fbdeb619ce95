/**
 * The API activity: one call of the service per activity execution. The full result goes to
 * the store (claim check); the workflow gets a small summary. Failures are classified once, by
 * the client's error classes: what they mark as not retryable (invalid input, auth, plan,
 * credits, not found, unreadable answers) fails at once; a rate limit retries after
 * X-RateLimit-Reset; a daily limit becomes a DailyLimitReached failure the workflow waits out
 * durably; 5xx, timeouts and dropped connections are retried with backoff.
 */
import { ApplicationFailure } from '@temporalio/common';
import type { VisClient } from '../api/client.js';
import { Context } from '@temporalio/activity';
import { creditsOf } from '../api/catalog.js';
import {
  isVisError,
  MalformedResponseError,
  RateLimitedError,
  ServiceUnavailableError,
  type VisError,
} from '../api/errors.js';
import type { OperationName } from '../api/operations.js';
import { ANSWER_FIELDS, readField, readPage, recordKey } from '../api/read.js';
import { LongWaitError, RateGate } from './rate-gate.js';
import type { Store } from './store.js';
import {
  DAILY_LIMIT_FAILURE,
  OUTCOME_UNKNOWN_FAILURE,
  type ApiCallInput,
  type ApiCallOutput,
  type DailyLimitDetails,
  type RateLimitedDetails,
  type StoredCall,
} from './types.js';

/** The part of the client the activity needs. */
export type ApiCaller = Pick<VisClient, 'callDetailed'>;

export interface ApiActivityOptions {
  /** false turns the worker's rate gate off (default on: calls wait for a used-up window's reset). */
  rateGate?: boolean;
  /** A 429 whose reset is further away than this is treated as the daily limit (default 120 s). */
  dailyLimitThresholdMs?: number;
  now?: () => Date;
}

/** The failure the workflow waits out durably until `resetAt` (the daily limit). */
function dailyLimitFailure(message: string, resetAt: Date, operation: OperationName): ApplicationFailure {
  const details: DailyLimitDetails = { resetAt: resetAt.toISOString(), operation };
  return ApplicationFailure.create({
    message,
    type: DAILY_LIMIT_FAILURE,
    nonRetryable: true,
    details: [details],
  });
}

/**
 * Whether a failed call may have been carried out (and charged) by the service: the request was
 * sent and no readable answer came back. Refusals (4xx with the service's error) were not.
 */
function mayHaveBeenCharged(err: VisError): boolean {
  return err instanceof ServiceUnavailableError || err instanceof MalformedResponseError;
}

/** Heartbeats while a call is in flight, when the activity has a heartbeat timeout. */
function heartbeatWhile<T>(work: Promise<T>): Promise<T> {
  let ctx: Context;
  try {
    ctx = Context.current();
  } catch {
    return work; // called outside an activity (unit tests)
  }
  const every = ctx.info.heartbeatTimeoutMs;
  if (!every) return work;
  const timer = setInterval(() => ctx.heartbeat(), Math.max(200, Math.floor(every / 3)));
  ctx.heartbeat();
  return work.finally(() => clearInterval(timer));
}

/**
 * Converts a client error into the Temporal failure the retry policy understands: its type is
 * the error's code, and it is retryable exactly when the client's class says so. The message
 * is the client's, which never contains the key.
 */
export function toActivityFailure(
  err: unknown,
  operation: OperationName,
  now: Date,
  dailyLimitThresholdMs: number,
): ApplicationFailure {
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof RateLimitedError) {
    const waitMs = err.retryAfterMs(now) ?? 1000;
    if (waitMs > dailyLimitThresholdMs) {
      return dailyLimitFailure(message, err.resetAt ?? new Date(now.getTime() + waitMs), operation);
    }
    // Retry right after the reset, with a little spread so parallel calls do not stampede.
    const delay = waitMs + 250 + Math.floor(Math.random() * 500);
    const details: RateLimitedDetails = { retryAfterMs: delay };
    return ApplicationFailure.create({
      message,
      type: err.code,
      nonRetryable: false,
      nextRetryDelay: delay,
      details: [details],
    });
  }
  if (isVisError(err) && creditsOf(operation) > 0 && mayHaveBeenCharged(err)) {
    return ApplicationFailure.create({
      message: `${message} (the service may have charged for it)`,
      type: OUTCOME_UNKNOWN_FAILURE,
      nonRetryable: true,
      details: [{ code: err.code }],
    });
  }
  if (isVisError(err)) {
    return ApplicationFailure.create({ message, type: err.code, nonRetryable: !err.retryable });
  }
  return ApplicationFailure.create({ message, type: 'unexpected_error', nonRetryable: true });
}

/**
 * Creates the API activities with real dependencies (a client holding the key, a store).
 *
 * @example
 * const acts = createApiActivities({ client: serviceClient(settings), store: new LocalStore('.data/store') });
 */
export function createApiActivities(deps: { client: ApiCaller; store: Store; options?: ApiActivityOptions }) {
  const threshold = deps.options?.dailyLimitThresholdMs ?? 120_000;
  const now = deps.options?.now ?? (() => new Date());
  const gate = deps.options?.rateGate === false ? null : new RateGate();
  async function callOnce(input: ApiCallInput): Promise<ApiCallOutput> {
    let res: Awaited<ReturnType<ApiCaller['callDetailed']>>;
    try {
      // Held until the window resets; a reset further off than the daily-limit threshold is
      // waited out by the workflow on a durable timer, not here.
      await gate?.acquire(threshold);
    } catch (err) {
      if (!(err instanceof LongWaitError)) throw err;
      throw dailyLimitFailure(`${input.operation} not sent: ${err.message}`, err.resetAt, input.operation);
    }
    try {
      res = await deps.client.callDetailed(input.operation, input.params);
      gate?.release(res.rateLimit);
    } catch (err) {
      gate?.release(isVisError(err) ? err.rateLimit : null);
      throw toActivityFailure(err, input.operation, now(), threshold);
    }
    const { result } = res;
    // Stored as it came, before anything reads it: nothing charged for is ever thrown away.
    const stored: StoredCall = {
      operation: input.operation,
      params: input.params,
      fetchedAt: now().toISOString(),
      result,
    };
    const ref = await deps.store.putJson(input.runKey, input.name, stored);
    const page = readPage(input.operation, result.data);
    const keys = page.items
      .map((it) => recordKey(input.operation, it))
      .filter((k): k is string => k !== null)
      .slice(0, 200);
    const out: ApiCallOutput = {
      ref,
      operation: input.operation,
      summary: (result.summary ?? '').slice(0, 500),
      charged: result.credits?.charged ?? 0,
      remaining: result.credits?.remaining ?? null,
      records: page.items.length,
      total: page.total,
      nextOffset: page.nextOffset,
      keys,
      durationMs: res.durationMs,
    };
    if (input.operation === 'ask') out.mapped = readField(result.data, ANSWER_FIELDS.mapped) !== false;
    return out;
  }

  return {
    /** One call of the service; the result is stored and summarised. */
    async callApi(input: ApiCallInput): Promise<ApiCallOutput> {
      return heartbeatWhile(callOnce(input));
    },
  };
}

export type ApiActivities = ReturnType<typeof createApiActivities>;
