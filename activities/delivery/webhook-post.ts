/**
 * Posting a message to a webhook: one signed POST per attempt with the same Idempotency-Key,
 * retried by the policy of webhook-retry.ts, until the receiver accepts it, refuses it, or the
 * attempts run out; every attempt in the result's (or the error's) history.
 */
import { request, type Dispatcher } from 'undici';
import { WEBHOOK_DEFAULTS } from '../../config/destinations.js';
import type { WebhookDestination } from '../../config/destinations.js';
import { webhookTarget } from './webhook-destination.js';
import {
  WebhookAbortedError,
  WebhookError,
  WebhookRejectedError,
  WebhookUnavailableError,
  type WebhookUnavailableReason,
} from './webhook-errors.js';
import { errorCodes, NETWORK_ERROR_CODES, TIMEOUT_ERROR_CODES } from './network-errors.js';
import {
  backoffMs,
  parseRetryAfter,
  resolveRetries,
  sleep,
  type WebhookRetryOptions,
} from './webhook-retry.js';
import { signWebhookBody, WEBHOOK_HEADERS } from './webhook-signing.js';

/** What the requests say they are. */
export const WEBHOOK_USER_AGENT = 'venture-intelligence-runner/0.1 (webhook delivery)';

/** A line the module logs (never a secret, never the URL's path). */
export type WebhookLog = (level: 'info' | 'warn', message: string, fields: Record<string, unknown>) => void;

/** Options of {@link postWebhook}. */
export interface PostWebhookOptions {
  /** The signing secret; without it the request is sent unsigned. */
  secret?: string;
  idempotencyKey: string;
  retries?: WebhookRetryOptions;
  /** undici dispatcher (default: the global one). */
  dispatcher?: Dispatcher;
  /** Cancels waiting and the attempt in flight. */
  signal?: AbortSignal;
  log?: WebhookLog;
  /** Clock, for tests (milliseconds). */
  now?: () => number;
}

/** One attempt, as the result and errors describe it. */
export interface WebhookAttempt {
  status: number | null;
  /** `ok`, `status`, `timeout`, `network`. */
  outcome: 'ok' | 'status' | 'timeout' | 'network';
  ms: number;
}

/** What a delivered webhook reports (fits DeliveryOutcome). */
export interface WebhookResult {
  ok: true;
  status: number;
  attempts: number;
  deliveredAt: string;
  history: WebhookAttempt[];
}

/** What one call of {@link postWebhook} works with, attempt after attempt. */
interface PostContext {
  url: string;
  target: string;
  payload: string;
  timeoutMs: number;
  retries: WebhookRetryOptions;
  secrets: string[];
  now: () => number;
  log: WebhookLog;
  opts: PostWebhookOptions;
  history: WebhookAttempt[];
}

/** Why an attempt did not deliver, in words, with the error behind it when there was one. */
interface AttemptFailure {
  reason: WebhookUnavailableReason;
  detail: string;
  cause?: unknown;
}

/** What one attempt got: the answer's status (null: none), excerpt and Retry-After, or why there was none. */
interface AttemptAnswer {
  status: number | null;
  excerpt: string;
  retryAfter: number | null;
  failure: AttemptFailure | null;
}

/** Reads at most `max` characters of a body, then lets the rest go. */
async function excerptOf(body: Dispatcher.ResponseData['body'], max = 2048): Promise<string> {
  let text = '';
  for await (const chunk of body as AsyncIterable<Buffer>) {
    text += chunk.toString('utf8');
    if (text.length >= max) {
      body.destroy();
      break;
    }
  }
  return text.slice(0, max);
}

/**
 * POSTs a message to a webhook, signed, with retries: 5xx, 408, 429 (after its Retry-After),
 * timeouts and dropped connections are retried with exponential backoff and jitter; other 4xx
 * (and 3xx: redirects are not followed) throw WebhookRejectedError at once. Every attempt is
 * signed with a fresh timestamp and carries the same Idempotency-Key.
 *
 * @throws WebhookRejectedError (4xx), WebhookUnavailableError (attempts spent, or a Retry-After
 *   longer than `retries.maxMs`), WebhookAbortedError (the signal), WebhookConfigError (options)
 */
export async function postWebhook(
  dest: Pick<WebhookDestination, 'url' | 'timeoutMs'>,
  body: unknown,
  opts: PostWebhookOptions,
): Promise<WebhookResult> {
  const ctx = postContext(dest, body, opts);
  for (let attempt = 1; ; attempt++) {
    if (opts.signal?.aborted) {
      throw new WebhookAbortedError(`webhook ${ctx.target}: aborted before attempt ${attempt}`, {
        attempts: attempt - 1,
      });
    }
    const headers = attemptHeaders(ctx);
    const started = ctx.now();
    const answer = await sendOnce(ctx, attempt, headers);
    const ms = ctx.now() - started;
    const failure = answer.failure ?? judgeStatus(ctx, attempt, answer.status!, answer.excerpt, ms);
    if (failure === null) return delivered(ctx, attempt, answer.status!, ms);
    ctx.history.push({ status: answer.status, outcome: outcomeOf(failure), ms });
    const delay = retryDelay(ctx, attempt, answer, failure);
    await waitToRetry(ctx, attempt, answer.status, failure, delay);
  }
}

function postContext(
  dest: Pick<WebhookDestination, 'url' | 'timeoutMs'>,
  body: unknown,
  opts: PostWebhookOptions,
): PostContext {
  return {
    retries: resolveRetries(opts.retries),
    secrets: opts.secret ? [opts.secret] : [],
    now: opts.now ?? Date.now,
    log: opts.log ?? (() => undefined),
    url: dest.url,
    target: webhookTarget(dest),
    payload: typeof body === 'string' ? body : JSON.stringify(body),
    timeoutMs: dest.timeoutMs ?? WEBHOOK_DEFAULTS.timeoutMs,
    opts,
    history: [],
  };
}

/** The request's headers for one attempt, signed afresh with the clock's current second. */
function attemptHeaders(ctx: PostContext): Record<string, string> {
  const timestamp = Math.floor(ctx.now() / 1000);
  const headers: Record<string, string> = {
    'content-type': 'application/json; charset=utf-8',
    'user-agent': WEBHOOK_USER_AGENT,
    [WEBHOOK_HEADERS.idempotencyKey]: ctx.opts.idempotencyKey,
    [WEBHOOK_HEADERS.timestamp]: String(timestamp),
  };
  if (ctx.opts.secret)
    headers[WEBHOOK_HEADERS.signature] = signWebhookBody(ctx.opts.secret, timestamp, ctx.payload);
  return headers;
}

/**
 * One POST, bounded by the destination's timeout and the caller's signal: the answer, or why
 * there was none (a timeout or a dropped connection). Anything else throws: WebhookAbortedError
 * when the signal aborted, else a WebhookError that is not retried.
 */
async function sendOnce(
  ctx: PostContext,
  attempt: number,
  headers: Record<string, string>,
): Promise<AttemptAnswer> {
  const { signal, dispatcher } = ctx.opts;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, ctx.timeoutMs);
  const onAbort = () => controller.abort();
  signal?.addEventListener('abort', onAbort, { once: true });

  const answer: AttemptAnswer = { status: null, excerpt: '', retryAfter: null, failure: null };
  try {
    const res = await request(ctx.url, {
      method: 'POST',
      headers,
      body: ctx.payload,
      signal: controller.signal,
      headersTimeout: ctx.timeoutMs,
      bodyTimeout: ctx.timeoutMs,
      ...(dispatcher ? { dispatcher } : {}),
    });
    answer.status = res.statusCode;
    answer.retryAfter = parseRetryAfter(res.headers['retry-after'], ctx.now());
    answer.excerpt = await excerptOf(res.body);
  } catch (err) {
    if (signal?.aborted) {
      throw new WebhookAbortedError(`webhook ${ctx.target}: aborted during attempt ${attempt}`, {
        attempts: attempt,
        status: answer.status,
        cause: err,
        secrets: ctx.secrets,
      });
    }
    // An answer whose body broke off or stalled: the status decides (a 2xx was accepted).
    if (answer.status !== null) answer.excerpt = '';
    else answer.failure = failureWithoutAnswer(ctx, attempt, err, timedOut);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
  return answer;
}

/** Why an attempt got no answer: a timeout or a dropped connection (retried); anything else throws. */
function failureWithoutAnswer(
  ctx: PostContext,
  attempt: number,
  err: unknown,
  timedOut: boolean,
): AttemptFailure {
  const codes = errorCodes(err);
  if (timedOut || codes.some((c) => TIMEOUT_ERROR_CODES.has(c))) {
    return { reason: 'timeout', detail: `no answer within ${ctx.timeoutMs} ms`, cause: err };
  }
  const code = codes.find((c) => NETWORK_ERROR_CODES.has(c));
  if (code !== undefined) return { reason: 'network', detail: `connection failed (${code})`, cause: err };
  throw new WebhookError(
    'webhook_failed',
    `webhook ${ctx.target}: ${err instanceof Error ? err.message : String(err)}`,
    false,
    { attempts: attempt, cause: err, secrets: ctx.secrets },
  );
}

/**
 * What an answer's status means: null when it is a 2xx (delivered), the failure to retry on 5xx,
 * 408 and 429; any other status throws WebhookRejectedError (not retried).
 */
function judgeStatus(
  ctx: PostContext,
  attempt: number,
  status: number,
  excerpt: string,
  ms: number,
): AttemptFailure | null {
  if (status >= 200 && status < 300) return null;
  const retryable = status >= 500 || status === 408 || status === 429;
  if (!retryable) {
    ctx.history.push({ status, outcome: 'status', ms });
    ctx.log('warn', `webhook ${ctx.target}: refused with HTTP ${status}; not retried`, {
      target: ctx.target,
      status,
      attempt,
    });
    throw new WebhookRejectedError(ctx.target, status, excerpt, { attempts: attempt, secrets: ctx.secrets });
  }
  return { reason: status === 429 ? 'rate_limited' : 'status', detail: `HTTP ${status}` };
}

/** The result of the attempt the receiver accepted. */
function delivered(ctx: PostContext, attempt: number, status: number, ms: number): WebhookResult {
  ctx.history.push({ status, outcome: 'ok', ms });
  ctx.log('info', `webhook ${ctx.target}: delivered (HTTP ${status}) on attempt ${attempt}`, {
    target: ctx.target,
    status,
    attempt,
  });
  return {
    ok: true,
    status,
    attempts: attempt,
    deliveredAt: new Date(ctx.now()).toISOString(),
    history: ctx.history,
  };
}

function outcomeOf(f: AttemptFailure): WebhookAttempt['outcome'] {
  return f.reason === 'timeout' ? 'timeout' : f.reason === 'network' ? 'network' : 'status';
}

/** The attempts so far in words: `HTTP 500, dropped, timeout`. */
function historyText(history: readonly WebhookAttempt[]): string {
  return history
    .map((h) =>
      h.outcome === 'timeout' ? 'timeout' : h.outcome === 'network' ? 'dropped' : `HTTP ${h.status}`,
    )
    .join(', ');
}

/**
 * How long to wait before the next attempt: the backoff, or the receiver's Retry-After when it
 * asked for one. Throws WebhookUnavailableError when the attempts are spent or the Retry-After is
 * longer than `retries.maxMs`.
 */
function retryDelay(ctx: PostContext, attempt: number, answer: AttemptAnswer, f: AttemptFailure): number {
  const { target, retries, secrets } = ctx;
  const { status, retryAfter } = answer;
  if (attempt >= retries.attempts) {
    const summary = historyText(ctx.history);
    ctx.log('warn', `webhook ${target}: gave up after ${attempt} attempts (${summary})`, {
      target,
      attempt,
      reason: f.reason,
    });
    throw new WebhookUnavailableError(
      f.reason,
      `webhook ${target}: not delivered after ${attempt} attempt${attempt === 1 ? '' : 's'} (${summary})`,
      { attempts: attempt, status, cause: f.cause, secrets },
      retryAfter,
    );
  }
  const delay = backoffMs(attempt, retries);
  if (retryAfter === null) return delay;
  if (retryAfter > retries.maxMs) {
    ctx.log('warn', `webhook ${target}: asked to wait ${retryAfter} ms, longer than ${retries.maxMs} ms`, {
      target,
      attempt,
      retryAfterMs: retryAfter,
    });
    throw new WebhookUnavailableError(
      f.reason,
      `webhook ${target}: HTTP ${status} asks to retry after ${Math.ceil(retryAfter / 1000)} s, longer than the backoff allows (${retries.maxMs} ms)`,
      { attempts: attempt, status, secrets },
      retryAfter,
    );
  }
  return Math.max(retryAfter, Math.min(delay, retries.maxMs));
}

/** Says why the attempt is retried, then waits; the caller's signal ends the wait (WebhookAbortedError). */
async function waitToRetry(
  ctx: PostContext,
  attempt: number,
  status: number | null,
  f: AttemptFailure,
  delay: number,
): Promise<void> {
  ctx.log(
    'warn',
    `webhook ${ctx.target}: attempt ${attempt}/${ctx.retries.attempts} ${f.detail}; retrying in ${delay} ms`,
    {
      target: ctx.target,
      attempt,
      reason: f.reason,
      status,
      delayMs: delay,
    },
  );
  try {
    await sleep(delay, ctx.opts.signal);
  } catch {
    throw new WebhookAbortedError(`webhook ${ctx.target}: aborted while waiting to retry`, {
      attempts: attempt,
      status,
    });
  }
}
