/**
 * The retry policy of webhook delivery: how many attempts, the backoff between them (exponential,
 * with jitter, bounded), a receiver's Retry-After. Which failures without an answer are worth
 * another attempt is network-errors.ts's to say.
 */
import { WEBHOOK_DEFAULTS } from '../../config/destinations.js';
import { WebhookConfigError } from './webhook-errors.js';

/** Retry options: attempts in all, backoff from baseMs doubling up to maxMs. */
export interface WebhookRetryOptions {
  attempts: number;
  baseMs: number;
  maxMs: number;
}

/** The retry options with defaults, checked; a bad one is a WebhookConfigError naming it. */
export function resolveRetries(r: WebhookRetryOptions | undefined): WebhookRetryOptions {
  const out = { ...WEBHOOK_DEFAULTS.retries, ...r };
  const bad = (field: string, rule: string) => new WebhookConfigError(`retries.${field}`, rule);
  if (!Number.isInteger(out.attempts) || out.attempts < 1 || out.attempts > 20)
    throw bad('attempts', 'must be a whole number from 1 to 20');
  if (!Number.isFinite(out.baseMs) || out.baseMs < 0) throw bad('baseMs', 'must be at least 0');
  if (!Number.isFinite(out.maxMs) || out.maxMs < out.baseMs) throw bad('maxMs', 'must be at least baseMs');
  return out;
}

/** Retry-After in milliseconds (seconds or an HTTP date), or null. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | null {
  const v = Array.isArray(value) ? value[0] : value;
  if (v === undefined || v.trim() === '') return null;
  if (/^\d+$/.test(v.trim())) return Number(v.trim()) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** Exponential backoff with equal jitter: half fixed, half random. */
export function backoffMs(attempt: number, r: WebhookRetryOptions): number {
  const ceiling = Math.min(r.maxMs, r.baseMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
}

/** Waits `ms`; rejects at once when the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Error('aborted'));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
