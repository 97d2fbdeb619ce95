/**
 * Delivery to a chat or HTTP webhook: a Slack-compatible incoming-webhook message, or plain JSON
 * of the run's manifest with its summary, POSTed once per run and destination. This file makes
 * one activity attempt of a delivery an outcome, or a retry for Temporal ({@link deliverWebhook});
 * the destination and its secret are in webhook-destination.ts, the message in webhook-body.ts,
 * the signature in webhook-signing.ts, the POST in webhook-post.ts, the errors in
 * webhook-errors.ts.
 *
 * - Signed, Stripe/Slack style: `X-Vir-Timestamp: <unix seconds>` and
 *   `X-Vir-Signature: v1=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>`; a receiver checks it
 *   with {@link verifyWebhookSignature} (constant-time, with a tolerance on the timestamp).
 * - `Idempotency-Key` is derived from the run id and the destination id, the same on every
 *   attempt, so a receiver can drop a copy it already accepted.
 * - One POST per activity attempt. 5xx, 408, 429, timeouts and dropped connections are retried by
 *   Temporal (the delivery workflow's retry policy, DELIVERY_MAX_ATTEMPTS attempts), after the
 *   receiver's Retry-After when it sent one; never other 4xx. Each attempt is signed afresh.
 * - The signing secret comes from the environment (or a secrets file named by `<NAME>_FILE`),
 *   never from the job file; it never enters an error, a result or a log line.
 *
 * @example
 * const dest = parseWebhookDestination({ url: 'https://hooks.example.com/vir', format: 'slack' });
 * const outcome = await deliverWebhook(dest, summary, { destinationId: 'webhook-1', attempt: 1 });
 */
import { ApplicationFailure } from '@temporalio/activity';
import type { Dispatcher } from 'undici';
import { WEBHOOK_DEFAULTS, webhookUrlProblem } from '../../config/destinations.js';
import type { WebhookDestination } from '../../config/destinations.js';
import type { DeliveryOutcome, DeliverySummary } from '../../shared/delivery.js';
import { DELIVERY_MAX_ATTEMPTS } from '../../shared/types.js';
import { buildWebhookBody } from './webhook-body.js';
import { webhookSecretFromEnv, webhookTarget } from './webhook-destination.js';
import { WebhookConfigError, WebhookRejectedError, WebhookUnavailableError } from './webhook-errors.js';
import { postWebhook, type WebhookLog } from './webhook-post.js';
import { webhookIdempotencyKey } from './webhook-signing.js';

/** Options of {@link deliverWebhook}. */
export interface DeliverWebhookOptions {
  /** The destination's id in the job (`webhook-1`). */
  destinationId: string;
  /** The activity's attempt (1 the first, DELIVERY_MAX_ATTEMPTS the last): one POST each. */
  attempt?: number;
  manifest?: unknown;
  env?: NodeJS.ProcessEnv;
  dispatcher?: Dispatcher;
  signal?: AbortSignal;
  log?: WebhookLog;
}

/**
 * One attempt of a delivery: reads the secret, builds the message, POSTs it once and reports a
 * DeliveryOutcome. A failure another attempt may mend (5xx, 408, 429, a timeout, a dropped
 * connection) is thrown as a retryable ApplicationFailure for Temporal to try again, after the
 * receiver's Retry-After when it sent one; on the last attempt, or when the Retry-After is longer
 * than a delivery waits (WEBHOOK_DEFAULTS.maxRetryAfterMs), it is the outcome, `ok: false` with
 * the error's code in `detail`, as a refusal (4xx) is at once. Configuration errors and a missing
 * secret throw (nothing was sent).
 */
export async function deliverWebhook(
  dest: WebhookDestination,
  summary: DeliverySummary,
  opts: DeliverWebhookOptions,
): Promise<DeliveryOutcome> {
  // A destination validated before `insecure` existed is checked again: nothing goes out in clear text.
  const insecure = webhookUrlProblem(dest);
  if (insecure) throw new WebhookConfigError('url', insecure);
  const secret = webhookSecretFromEnv(dest, opts.env ?? process.env);
  const body = buildWebhookBody(dest, summary, opts.manifest);
  const attempt = opts.attempt ?? 1;
  const failed = (detail: string): DeliveryOutcome => ({
    destination: opts.destinationId,
    kind: 'webhook',
    ok: false,
    detail,
    attempts: attempt,
  });
  try {
    const r = await postWebhook(dest, body, {
      secret,
      idempotencyKey: webhookIdempotencyKey(summary.runId, opts.destinationId),
      attempt,
      ...(opts.dispatcher ? { dispatcher: opts.dispatcher } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
      ...(opts.log ? { log: opts.log } : {}),
    });
    return {
      destination: opts.destinationId,
      kind: 'webhook',
      ok: true,
      detail: `${dest.format} message accepted by ${webhookTarget(dest)} (HTTP ${r.status}${attempt > 1 ? `, attempt ${attempt}` : ''})`,
      attempts: attempt,
      deliveredAt: r.deliveredAt,
    };
  } catch (err) {
    if (err instanceof WebhookUnavailableError) {
      const why = whyNotRetried(err, attempt);
      if (why === null) throw retryOf(err);
      return failed(`${err.code}: ${err.message}; ${why}`);
    }
    if (err instanceof WebhookRejectedError) return failed(`${err.code}: ${err.message}`);
    throw err;
  }
}

/**
 * Why a POST another attempt may deliver is not tried again: the attempts are spent, or the
 * receiver asks to wait longer than a delivery waits; null when it is retried.
 */
function whyNotRetried(err: WebhookUnavailableError, attempt: number): string | null {
  if (attempt >= DELIVERY_MAX_ATTEMPTS) return `not delivered after ${attempt} attempts`;
  const max = WEBHOOK_DEFAULTS.maxRetryAfterMs;
  if (err.retryAfterMs !== null && err.retryAfterMs > max) {
    return `it asks to retry after ${Math.ceil(err.retryAfterMs / 1000)} s, longer than a delivery waits (${max / 1000} s)`;
  }
  return null;
}

/**
 * The retry Temporal makes of an attempt: after the receiver's Retry-After when it asked for a
 * wait, else after the workflow's backoff. Its message goes into the workflow's history: the
 * error's, which names the destination by its origin and holds no secret.
 */
function retryOf(err: WebhookUnavailableError): ApplicationFailure {
  return ApplicationFailure.create({
    message: err.message,
    type: 'WebhookUnavailableError',
    nonRetryable: false,
    ...(err.retryAfterMs ? { nextRetryDelay: err.retryAfterMs } : {}),
  });
}
