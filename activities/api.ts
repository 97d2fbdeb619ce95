/**
 * The API activity: one call of the service per activity execution. The full result goes to
 * the store (claim check); the workflow gets a small summary. Failures are classified once:
 * invalid input, auth, plan, credit and not-found errors are not retried; rate limits retry
 * after X-RateLimit-Reset; a daily limit becomes a DailyLimitReached failure the workflow
 * waits out durably; 5xx, timeouts and dropped connections are retried with backoff.
 */
import { ApplicationFailure } from '@temporalio/common';
import type { OperationName } from '../api/operations.js';
import { RateGate, type RateWindow } from './rate-gate.js';
import type { Store } from './store.js';
import {
  DAILY_LIMIT_FAILURE,
  type ApiCallInput,
  type ApiCallOutput,
  type DailyLimitDetails,
} from './types.js';

/** The part of the client the activity needs (VisClient implements it). */
export interface ApiCaller {
  callDetailed(
    operation: OperationName,
    params: Record<string, unknown>,
  ): Promise<{
    result: {
      summary?: string | null;
      data: unknown;
      credits?: { charged: number; remaining: number | null } | null;
    };
    rateLimit: { limit: number | null; remaining: number | null; resetAt: Date | null };
    durationMs: number;
  }>;
}

export interface ApiActivityOptions {
  /** Longest wait for the rate-limit window before a call (default 30 s); 0 turns the gate off. */
  maxGateWaitMs?: number;
  /** A 429 whose reset is further away than this is treated as the daily limit (default 120 s). */
  dailyLimitThresholdMs?: number;
  now?: () => Date;
}

const MAIN_ARRAYS = ['investors', 'startups', 'customers', 'rows', 'matches'] as const;

function mainArray(data: unknown): unknown[] {
  if (!data || typeof data !== 'object') return [];
  for (const k of MAIN_ARRAYS) {
    const v = (data as Record<string, unknown>)[k];
    if (Array.isArray(v)) return v;
  }
  return [];
}

function numberOrNull(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

interface ErrorLike {
  name?: string;
  code?: string;
  status?: number | null;
  message?: string;
  retryable?: boolean;
  resetAt?: Date | null;
  dailyLimit?: boolean;
}

/**
 * Converts a client error into the Temporal failure the retry policy understands.
 * The message is the client's, which never contains the key.
 */
export function toActivityFailure(
  err: unknown,
  operation: OperationName,
  now: Date,
  dailyLimitThresholdMs: number,
): ApplicationFailure {
  const e = (err ?? {}) as ErrorLike;
  const message = typeof e.message === 'string' ? e.message : String(err);
  const type = e.code ?? e.name ?? 'unknown_error';
  if (e.status === 429 || e.code === 'rate_limited') {
    const resetAt = e.resetAt instanceof Date ? e.resetAt : null;
    const waitMs = resetAt ? Math.max(0, resetAt.getTime() - now.getTime()) : 1000;
    if (e.dailyLimit === true || waitMs > dailyLimitThresholdMs) {
      const details: DailyLimitDetails = {
        resetAt: (resetAt ?? new Date(now.getTime() + waitMs)).toISOString(),
        operation,
      };
      return ApplicationFailure.create({
        message,
        type: DAILY_LIMIT_FAILURE,
        nonRetryable: true,
        details: [details],
      });
    }
    // Retry right after the reset, with a little spread so parallel calls do not stampede.
    const delay = waitMs + 250 + Math.floor(Math.random() * 500);
    return ApplicationFailure.create({ message, type, nonRetryable: false, nextRetryDelay: delay });
  }
  const retryable = e.retryable === true;
  return ApplicationFailure.create({ message, type, nonRetryable: !retryable });
}

/**
 * Creates the API activities with real dependencies (a client holding the key, a store).
 *
 * @example
 * const acts = createApiActivities({ client: new VisClient({ baseUrl, apiKey }), store: new LocalStore('.vir/store') });
 */
export function createApiActivities(deps: { client: ApiCaller; store: Store; options?: ApiActivityOptions }) {
  const threshold = deps.options?.dailyLimitThresholdMs ?? 120_000;
  const now = deps.options?.now ?? (() => new Date());
  const maxGateWait = deps.options?.maxGateWaitMs ?? 30_000;
  const gate = maxGateWait > 0 ? new RateGate(maxGateWait) : null;
  return {
    /** One call of the service; the result is stored and summarised. */
    async callApi(input: ApiCallInput): Promise<ApiCallOutput> {
      let res: Awaited<ReturnType<ApiCaller['callDetailed']>>;
      await gate?.acquire();
      try {
        res = await deps.client.callDetailed(input.operation, input.params);
        gate?.release(res.rateLimit);
      } catch (err) {
        gate?.release((err as { rateLimit?: RateWindow | null }).rateLimit ?? null);
        throw toActivityFailure(err, input.operation, now(), threshold);
      }
      const { result } = res;
      const ref = await deps.store.putJson(input.runKey, input.name, {
        operation: input.operation,
        params: input.params,
        fetchedAt: now().toISOString(),
        result,
      });
      const data = (result.data ?? {}) as Record<string, unknown>;
      const items = mainArray(data);
      const keys = items
        .map((it) => (it && typeof it === 'object' ? (it as Record<string, unknown>).key : undefined))
        .filter((k): k is string => typeof k === 'string')
        .slice(0, 200);
      const out: ApiCallOutput = {
        ref,
        operation: input.operation,
        summary: (result.summary ?? '').slice(0, 500),
        charged: result.credits?.charged ?? 0,
        remaining: result.credits?.remaining ?? null,
        records: items.length,
        total: numberOrNull(data.total),
        nextOffset: numberOrNull(data.next_offset),
        keys,
        durationMs: res.durationMs,
      };
      if (input.operation === 'ask') out.mapped = data.mapped !== false;
      return out;
    },
  };
}

export type ApiActivities = ReturnType<typeof createApiActivities>;
