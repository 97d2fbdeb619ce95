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
import { answerTimeoutMsOf, creditsOf } from '../api/catalog.js';
import {
  isVisError,
  MalformedResponseError,
  RateLimitedError,
  requestReachedService,
  ServiceUnavailableError,
  type VisError,
} from '../api/errors.js';
import type { OperationName } from '../api/operations.js';
import { readField } from '../api/read.js';
import { ANSWER_FIELDS, DECK_FIELDS } from '../api/read-answers.js';
import { recordKey } from '../api/read-keys.js';
import { readPage } from '../api/read-page.js';
import type { RateLimitInfo } from '../api/rate-limit.js';
import { randomUUID } from 'node:crypto';
import type { AccountLink } from './account.js';
import type { CreditDecision } from '../shared/account.js';
import type { Permit, PermitBlocks } from './permits.js';
import { AttemptTally } from './attempts.js';
import { heartbeatNow, heartbeatWhile } from './heartbeat.js';
import type { Store } from './store.js';
import { STORED_PARAM_PREFIX } from '../shared/stored-params.js';
import {
  ACCOUNT_CAP_FAILURE,
  ACCOUNT_RESERVATION_TTL_MS,
  DAILY_LIMIT_FAILURE,
  OUTCOME_UNKNOWN_FAILURE,
  type ApiCallInput,
  type ApiCallOutput,
  type DailyLimitDetails,
  type RateLimitedDetails,
  type StoredCall,
} from '../shared/types.js';

/** The part of the client the activity needs. */
export type ApiCaller = Pick<VisClient, 'callDetailed'>;

export interface ApiActivityOptions {
  /** A 429 whose reset is further away than this is treated as the daily limit (default 120 s). */
  dailyLimitThresholdMs?: number;
  now?: () => Date;
  /**
   * A test seam: each operation's answer time (api/catalog's answerTimeoutMsOf) is multiplied
   * by this (default 1), so a test sees a read's own 20 s as 1 s. Workers never set it.
   */
  answerTimeoutScale?: number;
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

/** A warning in the activity's log (the console outside an activity). */
function logWarn(message: string): void {
  try {
    Context.current().log.warn(message);
  } catch {
    console.warn(message);
  }
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

/** The activity's failure with what its attempts sent appended to its details. */
function withAttempts(err: unknown, tally: AttemptTally): ApplicationFailure {
  const base =
    err instanceof ApplicationFailure
      ? err
      : ApplicationFailure.create({
          // As Temporal names a plain error's failure: by its class, retryable.
          message: err instanceof Error ? err.message : String(err),
          type: err instanceof Error ? err.name : 'Error',
          nonRetryable: false,
        });
  return ApplicationFailure.create({
    message: base.message,
    type: base.type ?? 'unexpected_error',
    nonRetryable: base.nonRetryable === true,
    ...(base.nextRetryDelay == null ? {} : { nextRetryDelay: base.nextRetryDelay }),
    details: [...(base.details ?? []), tally.failed()],
  });
}

/** A call let through: how it tells its answer's headers and, for a paid call, what it cost. */
interface Admission {
  done(info: RateLimitInfo | null | undefined, counted: boolean): Promise<void>;
  settle(charged: number, remaining?: number | null): Promise<void>;
}

/** What the account workflow learns of an answer's rate-limit headers. */
function callReport(info: RateLimitInfo | null | undefined) {
  if (!info) return null;
  return {
    limit: info.limit,
    remaining: info.remaining,
    resetAt: info.resetAt?.getTime() ?? null,
    dayRemaining: info.dayRemaining ?? null,
    dayResetAt: info.dayResetAt?.getTime() ?? null,
  };
}

/** The params with every stored parameter read from the store (others as they are). */
async function resolveStoredParams<P>(store: Store, params: P): Promise<P> {
  const entries = Object.entries(params as Record<string, unknown>);
  if (!entries.some(([, v]) => typeof v === 'string' && v.startsWith(STORED_PARAM_PREFIX))) return params;
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries) {
    if (typeof v !== 'string' || !v.startsWith(STORED_PARAM_PREFIX)) {
      out[k] = v;
      continue;
    }
    const [ref, field] = v.slice(STORED_PARAM_PREFIX.length).split('#') as [string, string | undefined];
    const doc = await store.getJson<Record<string, unknown>>(ref);
    const value = field === undefined ? undefined : doc[field];
    if (typeof value !== 'string')
      throw ApplicationFailure.create({
        message: `parameter ${k}: the store's ${ref} holds no text at ${field ?? '(no field named)'}`,
        type: 'stored_param_missing',
        nonRetryable: true,
      });
    out[k] = value;
  }
  return out as P;
}

/**
 * Creates the API activities with real dependencies (a client holding the key, a store, and
 * the link to the account workflow that paces calls and holds the credit ledger). Workers always
 * have the link; without it (a test of the activity alone) nothing paces the calls.
 *
 * @example
 * const acts = createApiActivities({ client: serviceClient(settings), store: new LocalStore('.data/store'), account });
 */
export function createApiActivities(deps: {
  client: ApiCaller;
  store: Store;
  account?: AccountLink;
  options?: ApiActivityOptions;
}) {
  const threshold = deps.options?.dailyLimitThresholdMs ?? 120_000;
  const now = deps.options?.now ?? (() => new Date());
  const link = deps.account ?? null;
  const answerTimeoutScale = deps.options?.answerTimeoutScale ?? 1;
  /** The paid call's account record, or null for a free call. */
  const paidOf = (input: ApiCallInput) => (input.account && input.account.credits > 0 ? input.account : null);

  /**
   * Waits until the account's window lets the call through (returns its grant id); a wait
   * further off than the daily-limit threshold is waited out by the workflow on a durable timer.
   */
  async function pace(input: ApiCallInput): Promise<string | null> {
    if (!link) return null;
    const grantId = randomUUID();
    for (;;) {
      const d = await link.acquireCall({ grantId, runId: input.runKey });
      if (d.granted) return grantId;
      await waitForWindow(input, d);
    }
  }

  /**
   * Waits until `retryAt`, when the window (or the day) has room again; a wait further off than
   * the daily-limit threshold is not waited here but thrown for the workflow's durable timer.
   */
  async function waitForWindow(input: ApiCallInput, d: { retryAt: number; dayLimit: boolean }) {
    const wait = d.retryAt - now().getTime();
    if (wait > threshold) {
      const what = d.dayLimit ? "the service's daily limit is" : 'the rate-limit window is';
      throw dailyLimitFailure(
        `${input.operation} not sent: ${what} used up until ${new Date(d.retryAt).toISOString()}`,
        new Date(d.retryAt),
        input.operation,
      );
    }
    await new Promise((r) => setTimeout(r, Math.max(10, wait)));
  }

  /**
   * A credit reservation not granted: waits out a busy one (another paid call of the account in
   * flight), and fails the call unsent when the account's cap refuses it.
   */
  async function waitOrRefuse(input: ApiCallInput, d: Exclude<CreditDecision, { granted: true }>) {
    if ('busy' in d) {
      await new Promise((r) => setTimeout(r, Math.max(20, d.retryAt - now().getTime())));
      return;
    }
    throw ApplicationFailure.create({
      message: `${input.operation} not sent: ${d.reason}`,
      type: ACCOUNT_CAP_FAILURE,
      nonRetryable: true,
      details: [{ period: d.period }],
    });
  }

  /** Tells the account what the answer said of the window. */
  async function done(grantId: string | null, info: RateLimitInfo | null | undefined, counted: boolean) {
    if (!link) return;
    await link.callDone({ grantId: grantId ?? '', report: callReport(info), counted });
  }

  /**
   * Reserves a paid call's credits against the account's caps, waiting while another paid call of
   * the account is in flight (they go one at a time); a refusal fails the call unsent.
   */
  async function reserve(input: ApiCallInput): Promise<void> {
    const paid = paidOf(input);
    if (!link || !paid) return;
    for (;;) {
      const d = await link.reserveCredits({
        id: paid.reservationId,
        jobId: paid.jobId,
        runId: input.runKey,
        credits: paid.credits,
        caps: paid.caps,
        ttlMs: ACCOUNT_RESERVATION_TTL_MS,
      });
      if (d.granted) return;
      await waitOrRefuse(input, d);
    }
  }

  /** Settles a paid call's reservation with what was charged (known: an answer or a refusal) and the balance after. */
  async function settle(
    input: ApiCallInput,
    charged: number,
    remaining: number | null = null,
  ): Promise<void> {
    const paid = paidOf(input);
    if (!link || !paid) return;
    await link.settleCredits({ id: paid.reservationId, jobId: paid.jobId, credits: charged, remaining });
  }

  /**
   * A permit from the worker's blocks (with the credit reservation for a paid call): waits while
   * the window is used up or another paid call of the account is in flight; a wait further off
   * than the daily-limit threshold is waited out by the workflow; a refused reservation fails the
   * call unsent.
   */
  async function admitInBlocks(blocks: PermitBlocks, input: ApiCallInput): Promise<Permit> {
    const paid = paidOf(input);
    for (;;) {
      const d = paid
        ? await blocks.takePaid(input.runKey, {
            id: paid.reservationId,
            jobId: paid.jobId,
            credits: paid.credits,
            caps: paid.caps ?? {},
            ttlMs: ACCOUNT_RESERVATION_TTL_MS,
          })
        : await blocks.take(input.runKey);
      if ('leaseId' in d) return d;
      if ('credits' in d) {
        await waitOrRefuse(input, d.credits);
        continue;
      }
      try {
        await waitForWindow(input, d);
      } catch (err) {
        // Not sent: the reservation granted with the refused permit is freed.
        if (paid) blocks.settle({ id: paid.reservationId, jobId: paid.jobId, credits: 0 });
        throw err;
      }
    }
  }

  /** How a call is let through and accounted for: by the worker's blocks, or one update per call. */
  async function admit(input: ApiCallInput): Promise<Admission> {
    const blocks = link?.blocks;
    if (blocks) {
      const permit = await admitInBlocks(blocks, input);
      const paid = paidOf(input);
      return {
        done: async (info, counted) => blocks.done(permit, callReport(info), counted),
        settle: async (charged, remaining = null) => {
          if (paid) blocks.settle({ id: paid.reservationId, jobId: paid.jobId, credits: charged, remaining });
        },
      };
    }
    await reserve(input);
    let grantId: string | null;
    try {
      grantId = await pace(input);
    } catch (err) {
      await settle(input, 0);
      throw err;
    }
    return {
      done: (info, counted) => done(grantId, info, counted),
      settle: (charged, remaining) => settle(input, charged, remaining),
    };
  }

  async function callOnce(input: ApiCallInput, tally: AttemptTally): Promise<ApiCallOutput> {
    let res: Awaited<ReturnType<ApiCaller['callDetailed']>>;
    const admission = await admit(input);
    try {
      tally.sending();
      // A hung answer fails in the operation's time, not the client's longest one.
      res = await deps.client.callDetailed(
        input.operation,
        await resolveStoredParams(deps.store, input.params),
        {
          signal: AbortSignal.timeout(answerTimeoutMsOf(input.operation) * answerTimeoutScale),
        },
      );
    } catch (err) {
      tally.reached(requestReachedService(err));
      const failure = toActivityFailure(err, input.operation, now(), threshold);
      // The call's own failure is what the workflow must see, whatever happens to the bookkeeping.
      try {
        await admission.done(isVisError(err) ? err.rateLimit : null, !(err instanceof RateLimitedError));
        // An unknown outcome keeps its reservation: the workflow settles it once the balance shows.
        if (failure.type !== OUTCOME_UNKNOWN_FAILURE) await admission.settle(0);
      } catch (bookkeeping) {
        logWarn(`account bookkeeping after ${input.operation} failed: ${(bookkeeping as Error).message}`);
      }
      throw failure;
    }
    try {
      await admission.done(res.rateLimit, true);
      // Without credits.charged in the envelope, the price is what counts against the caps.
      await admission.settle(
        res.result.credits?.charged ?? creditsOf(input.operation),
        res.result.credits?.remaining ?? null,
      );
    } catch (err) {
      // The answer came and is kept; the account hears of it again by the reservation's expiry.
      logWarn(`account bookkeeping after ${input.operation} failed: ${(err as Error).message}`);
    }
    const { result } = res;
    // Stored as it came, before anything reads it: nothing charged for is ever thrown away.
    const stored: StoredCall = {
      operation: input.operation,
      params: input.params,
      fetchedAt: now().toISOString(),
      status: res.status,
      result,
      ...(input.chargedBefore ? { chargedBefore: input.chargedBefore } : {}),
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
    if (input.operation === 'analyze_deck' || input.operation === 'get_deck_analysis') {
      const id = readField(result.data, DECK_FIELDS.room_id);
      const status = readField(result.data, DECK_FIELDS.status);
      const retry = readField(result.data, DECK_FIELDS.retry_after_seconds);
      out.room = {
        id: typeof id === 'string' ? id : null,
        status: typeof status === 'string' ? status.toLowerCase() : null,
        retryAfterSeconds: typeof retry === 'number' && Number.isFinite(retry) ? retry : null,
      };
    }
    out.attempts = tally.succeeded();
    return out;
  }

  return {
    /**
     * One call of the service; the result is stored and summarised. What its attempts sent goes
     * with the output, or with the failure (its details' last element).
     */
    async callApi(input: ApiCallInput): Promise<ApiCallOutput> {
      const tally = AttemptTally.current();
      try {
        return await heartbeatWhile(callOnce(input, tally), () => tally.heartbeatDetails());
      } catch (err) {
        heartbeatNow(tally.detailsAfterFailure());
        throw withAttempts(err, tally);
      }
    },
  };
}

export type ApiActivities = ReturnType<typeof createApiActivities>;
