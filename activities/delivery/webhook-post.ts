/**
 * Posting a message to a webhook, once: one signed POST with the delivery's Idempotency-Key, and
 * what came of it. Another attempt is the activity's to make, by Temporal's retry policy
 * (webhook.ts decides which failures ask for one); the receiver's Retry-After is read with the
 * API client's parser (api/rate-limit.ts).
 */
import { request, type Dispatcher } from 'undici';
import { headerValue, parseRateLimitReset, type HeaderBag } from '../../api/rate-limit.js';
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
import { signWebhookBody, WEBHOOK_HEADERS } from './webhook-signing.js';

/** What the requests say they are. */
export const WEBHOOK_USER_AGENT = 'venture-intelligence-runner/0.1 (webhook delivery)';

/** A line the module logs (never a secret, never the URL's path). */
export type WebhookLog = (level: 'info' | 'warn', message: string, fields: Record<string, unknown>) => void;

/** Options of {@link postWebhook}. */
export interface PostWebhookOptions {
  /** The signing secret; without it the request is sent unsigned. */
  secret?: string;
  /** The delivery's key, the same on each of its attempts. */
  idempotencyKey: string;
  /** Which attempt of the delivery this POST is (1 the first), for errors and log lines. */
  attempt?: number;
  /** undici dispatcher (default: the global one). */
  dispatcher?: Dispatcher;
  /** Cancels the POST in flight. */
  signal?: AbortSignal;
  log?: WebhookLog;
  /** Clock, for tests (milliseconds). */
  now?: () => number;
}

/** What a POST the receiver accepted reports. */
export interface WebhookResult {
  ok: true;
  status: number;
  deliveredAt: string;
  /** How long the POST took. */
  ms: number;
}

/** What one call of {@link postWebhook} works with. */
interface PostContext {
  url: string;
  target: string;
  payload: string;
  timeoutMs: number;
  attempt: number;
  secrets: string[];
  now: () => number;
  log: WebhookLog;
  opts: PostWebhookOptions;
}

/** Why the POST did not deliver, in words, with the error behind it when there was one. */
interface AttemptFailure {
  reason: WebhookUnavailableReason;
  detail: string;
  cause?: unknown;
}

/** What the POST got: the answer's status (null: none), excerpt and Retry-After, or why there was none. */
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
 * POSTs a message to a webhook once, signed with the clock's current second and carrying the
 * delivery's Idempotency-Key: the result when the receiver accepted it (2xx).
 *
 * @throws WebhookUnavailableError (5xx, 408, 429, a timeout, a dropped connection: another
 *   attempt may deliver; `retryAfterMs` is the receiver's Retry-After when it sent one),
 *   WebhookRejectedError (other 4xx, and 3xx: redirects are not followed; another attempt will
 *   not help), WebhookAbortedError (the signal), WebhookError (anything else, not retried)
 */
export async function postWebhook(
  dest: Pick<WebhookDestination, 'url' | 'timeoutMs'>,
  body: unknown,
  opts: PostWebhookOptions,
): Promise<WebhookResult> {
  const ctx = postContext(dest, body, opts);
  if (opts.signal?.aborted) {
    throw new WebhookAbortedError(`webhook ${ctx.target}: aborted before attempt ${ctx.attempt}`, {
      attempts: ctx.attempt - 1,
    });
  }
  const started = ctx.now();
  const answer = await sendOnce(ctx, attemptHeaders(ctx));
  const failure = answer.failure ?? judgeStatus(ctx, answer.status!, answer.excerpt);
  if (failure === null) return delivered(ctx, answer.status!, ctx.now() - started);
  throw unavailable(ctx, answer, failure);
}

function postContext(
  dest: Pick<WebhookDestination, 'url' | 'timeoutMs'>,
  body: unknown,
  opts: PostWebhookOptions,
): PostContext {
  return {
    attempt: opts.attempt ?? 1,
    secrets: opts.secret ? [opts.secret] : [],
    now: opts.now ?? Date.now,
    log: opts.log ?? (() => undefined),
    url: dest.url,
    target: webhookTarget(dest),
    payload: typeof body === 'string' ? body : JSON.stringify(body),
    timeoutMs: dest.timeoutMs ?? WEBHOOK_DEFAULTS.timeoutMs,
    opts,
  };
}

/** The request's headers, signed with the clock's current second. */
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

/** A Retry-After in milliseconds from `now` (seconds or a date, read as the API client reads it), or null. */
function retryAfterOf(headers: HeaderBag, now: number): number | null {
  const at = parseRateLimitReset(headerValue(headers, 'retry-after'), new Date(now));
  return at === null ? null : Math.max(0, at.getTime() - now);
}

/**
 * One POST, bounded by the destination's timeout and the caller's signal: the answer, or why
 * there was none (a timeout or a dropped connection). Anything else throws: WebhookAbortedError
 * when the signal aborted, else a WebhookError that is not retried.
 */
async function sendOnce(ctx: PostContext, headers: Record<string, string>): Promise<AttemptAnswer> {
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
    answer.retryAfter = retryAfterOf(res.headers, ctx.now());
    answer.excerpt = await excerptOf(res.body);
  } catch (err) {
    if (signal?.aborted) {
      throw new WebhookAbortedError(`webhook ${ctx.target}: aborted during attempt ${ctx.attempt}`, {
        attempts: ctx.attempt,
        status: answer.status,
        cause: err,
        secrets: ctx.secrets,
      });
    }
    // An answer whose body broke off or stalled: the status decides (a 2xx was accepted).
    if (answer.status !== null) answer.excerpt = '';
    else answer.failure = failureWithoutAnswer(ctx, err, timedOut);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
  return answer;
}

/** Why the POST got no answer: a timeout or a dropped connection (retryable); anything else throws. */
function failureWithoutAnswer(ctx: PostContext, err: unknown, timedOut: boolean): AttemptFailure {
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
    { attempts: ctx.attempt, cause: err, secrets: ctx.secrets },
  );
}

/**
 * What an answer's status means: null when it is a 2xx (delivered), the failure another attempt
 * may mend on 5xx, 408 and 429; any other status throws WebhookRejectedError (not retried).
 */
function judgeStatus(ctx: PostContext, status: number, excerpt: string): AttemptFailure | null {
  if (status >= 200 && status < 300) return null;
  const retryable = status >= 500 || status === 408 || status === 429;
  if (!retryable) {
    ctx.log('warn', `webhook ${ctx.target}: refused with HTTP ${status}; not retried`, {
      target: ctx.target,
      status,
      attempt: ctx.attempt,
    });
    throw new WebhookRejectedError(ctx.target, status, excerpt, {
      attempts: ctx.attempt,
      secrets: ctx.secrets,
    });
  }
  return { reason: status === 429 ? 'rate_limited' : 'status', detail: `HTTP ${status}` };
}

/** The result of the POST the receiver accepted. */
function delivered(ctx: PostContext, status: number, ms: number): WebhookResult {
  ctx.log('info', `webhook ${ctx.target}: delivered (HTTP ${status}) on attempt ${ctx.attempt}`, {
    target: ctx.target,
    status,
    attempt: ctx.attempt,
  });
  return { ok: true, status, deliveredAt: new Date(ctx.now()).toISOString(), ms };
}

/** The error of a POST another attempt may deliver: the failure in words, the receiver's Retry-After. */
function unavailable(ctx: PostContext, answer: AttemptAnswer, f: AttemptFailure): WebhookUnavailableError {
  const { target, attempt } = ctx;
  ctx.log('warn', `webhook ${target}: attempt ${attempt} not delivered (${f.detail})`, {
    target,
    attempt,
    reason: f.reason,
    status: answer.status,
    ...(answer.retryAfter === null ? {} : { retryAfterMs: answer.retryAfter }),
  });
  return new WebhookUnavailableError(
    f.reason,
    `webhook ${target}: attempt ${attempt} not delivered (${f.detail})`,
    { attempts: attempt, status: answer.status, cause: f.cause, secrets: ctx.secrets },
    answer.retryAfter,
  );
}
