/**
 * Delivery to a chat or HTTP webhook: a Slack-compatible incoming-webhook message, or plain JSON
 * of the run's manifest with its summary, POSTed once per run and destination. This file makes
 * one delivery an outcome ({@link deliverWebhook}); the destination and its secret are in
 * webhook-destination.ts, the message in webhook-body.ts, the signature in webhook-signing.ts, the
 * retry policy in webhook-retry.ts, the POST and its retries in webhook-post.ts, the errors in
 * webhook-errors.ts.
 *
 * - Signed, Stripe/Slack style: `X-Vir-Timestamp: <unix seconds>` and
 *   `X-Vir-Signature: v1=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>`; a receiver checks it
 *   with {@link verifyWebhookSignature} (constant-time, with a tolerance on the timestamp).
 * - `Idempotency-Key` is derived from the run id and the destination id, the same on every
 *   attempt, so a receiver can drop a copy it already accepted.
 * - Retried with exponential backoff and jitter on 5xx, 408, 429 (honouring Retry-After),
 *   timeouts and dropped connections; never on other 4xx. Each attempt is signed afresh.
 * - The signing secret comes from the environment (or a secrets file named by `<NAME>_FILE`),
 *   never from the job file; it never enters an error, a result or a log line.
 *
 * @example
 * const dest = parseWebhookDestination({ url: 'https://hooks.example.com/vir', format: 'slack' });
 * const secret = webhookSecretFromEnv(dest, process.env);
 * const body = buildWebhookBody(dest, summary);
 * const result = await postWebhook(dest, body, {
 *   secret,
 *   idempotencyKey: webhookIdempotencyKey(summary.runId, 'webhook-1'),
 * });
 */
import type { Dispatcher } from 'undici';
import { webhookUrlProblem } from '../../config/destinations.js';
import type { WebhookDestination } from '../../config/destinations.js';
import type { DeliveryOutcome, DeliverySummary } from '../../shared/delivery.js';
import { buildWebhookBody } from './webhook-body.js';
import { webhookSecretFromEnv, webhookTarget } from './webhook-destination.js';
import { WebhookConfigError, WebhookRejectedError, WebhookUnavailableError } from './webhook-errors.js';
import { postWebhook, type WebhookLog } from './webhook-post.js';
import type { WebhookRetryOptions } from './webhook-retry.js';
import { webhookIdempotencyKey } from './webhook-signing.js';

/** Options of {@link deliverWebhook}. */
export interface DeliverWebhookOptions {
  /** The destination's id in the job (`webhook-1`). */
  destinationId: string;
  manifest?: unknown;
  env?: NodeJS.ProcessEnv;
  retries?: WebhookRetryOptions;
  dispatcher?: Dispatcher;
  signal?: AbortSignal;
  log?: WebhookLog;
}

/**
 * Reads the secret, builds the message, posts it and reports a DeliveryOutcome. Configuration
 * errors and a missing secret throw (nothing was sent); a refused or undeliverable message is an
 * outcome with `ok: false` and the error's code in `detail`.
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
  try {
    const r = await postWebhook(dest, body, {
      secret,
      idempotencyKey: webhookIdempotencyKey(summary.runId, opts.destinationId),
      ...(opts.retries ? { retries: opts.retries } : {}),
      ...(opts.dispatcher ? { dispatcher: opts.dispatcher } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
      ...(opts.log ? { log: opts.log } : {}),
    });
    return {
      destination: opts.destinationId,
      kind: 'webhook',
      ok: true,
      detail: `${dest.format} message accepted by ${webhookTarget(dest)} (HTTP ${r.status}${r.attempts > 1 ? `, attempt ${r.attempts}` : ''})`,
      attempts: r.attempts,
      deliveredAt: r.deliveredAt,
    };
  } catch (err) {
    if (!(err instanceof WebhookRejectedError || err instanceof WebhookUnavailableError)) throw err;
    return {
      destination: opts.destinationId,
      kind: 'webhook',
      ok: false,
      detail: `${err.code}: ${err.message}`,
      attempts: err.attempts,
    };
  }
}
