/**
 * The signing scheme of webhook messages, Stripe/Slack style: the headers, the signature a
 * sender puts on a body, a receiver's constant-time check of it, and the Idempotency-Key of a
 * run's delivery to one destination.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { WEBHOOK_DEFAULTS } from '../../config/destinations.js';

/** Header names of the signing scheme. */
export const WEBHOOK_HEADERS = {
  timestamp: 'x-vir-timestamp',
  signature: 'x-vir-signature',
  idempotencyKey: 'idempotency-key',
} as const;

/**
 * The signature header's value: `v1=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>`.
 *
 * @example
 * signWebhookBody('s3cret', 1700000000, '{"a":1}') // 'v1=5c1…'
 */
export function signWebhookBody(secret: string, timestamp: number | string, body: string | Buffer): string {
  const mac = createHmac('sha256', secret);
  mac.update(`${timestamp}.`);
  mac.update(body);
  return `v1=${mac.digest('hex')}`;
}

/** Options of {@link verifyWebhookSignature}. */
export interface VerifyOptions {
  /** How far the timestamp may be from `now` (default 300 s). */
  toleranceSeconds?: number;
  /** The receiver's clock in milliseconds (default Date.now()). */
  now?: number;
}

/**
 * A receiver's check: the timestamp is an integer within the tolerance of `now`, and one of the
 * header's `v1=` values (several may be listed, comma-separated, while a secret rotates) equals
 * the HMAC of `"<timestamp>.<raw body>"`, compared in constant time.
 *
 * @example
 * verifyWebhookSignature(secret, req.headers['x-vir-timestamp'], rawBody, req.headers['x-vir-signature'])
 */
export function verifyWebhookSignature(
  secret: string,
  timestamp: string | number | undefined | null,
  body: string | Buffer,
  header: string | string[] | undefined | null,
  options: VerifyOptions = {},
): boolean {
  if (!secret || timestamp === undefined || timestamp === null || !header) return false;
  const ts = String(timestamp);
  if (!/^\d{1,12}$/.test(ts)) return false;
  const tolerance = options.toleranceSeconds ?? WEBHOOK_DEFAULTS.toleranceSeconds;
  const nowSeconds = Math.floor((options.now ?? Date.now()) / 1000);
  if (Math.abs(nowSeconds - Number(ts)) > tolerance) return false;
  const expected = Buffer.from(signWebhookBody(secret, ts, body).slice(3), 'hex');
  const values = (Array.isArray(header) ? header.join(',') : header).split(',');
  let ok = false;
  for (const raw of values) {
    const v = raw.trim();
    if (!v.startsWith('v1=')) continue;
    const hex = v.slice(3);
    if (!/^[0-9a-f]{64}$/i.test(hex)) continue;
    // No early return: every listed value is compared.
    if (timingSafeEqual(Buffer.from(hex, 'hex'), expected)) ok = true;
  }
  return ok;
}

/**
 * The Idempotency-Key of a run's delivery to one destination: the same on every attempt and
 * every activity retry, different for each run and destination.
 *
 * @example
 * webhookIdempotencyKey('weekly-dach-2026-11-23', 'webhook-1') // 'vir-3f1c…' (40 hex)
 */
export function webhookIdempotencyKey(runId: string, destinationId: string): string {
  return `vir-${createHash('sha256').update(`${runId}\n${destinationId}`).digest('hex').slice(0, 40)}`;
}
