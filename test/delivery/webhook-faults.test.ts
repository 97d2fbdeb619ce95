/**
 * Webhook delivery against a real receiver under faults (500, hang, dropped connection, 429),
 * one POST per activity attempt: the real deliverToDestination run attempt after attempt as
 * Temporal runs it (test/helpers/webhook-attempts.ts), counted by what the receiver got and what
 * the delivery recorded; no retry on 4xx; a Retry-After as the retry's delay, or, longer than a
 * delivery waits, its end. Temporal's own retries are test/delivery/faults.test.ts's.
 */
import { afterEach, describe, expect, test } from 'vitest';
import {
  buildWebhookBody,
  deliverWebhook,
  parseWebhookDestination,
  postWebhook,
  WebhookAbortedError,
  WebhookRejectedError,
  WebhookUnavailableError,
} from '../../activities/delivery/index.js';
import { DELIVERY_MAX_ATTEMPTS } from '../../shared/types.js';
import { webhookRun, type WebhookRun } from '../helpers/webhook-attempts.js';
import { header, SECRET, summary, useWebhookBed, verifies } from '../helpers/webhook-delivery.js';

const bed = useWebhookBed();
const runs: WebhookRun[] = [];
afterEach(async () => {
  for (const run of runs.splice(0)) await run.close();
});

/** A run delivered to the receiver at `url`. */
async function runTo(url: string, fields: { timeoutMs?: number } = {}): Promise<WebhookRun> {
  const run = await webhookRun(url, fields);
  runs.push(run);
  return run;
}

describe('one POST per attempt, retried by Temporal', () => {
  test('500 twice then 200: three attempts, each signed afresh, one key, one copy, recorded once', async () => {
    const hook = await bed.start([500, 500, 200]);
    const run = await runTo(hook.url);
    // A second between attempts: every attempt has its own timestamp.
    const { outcome, retries, record } = await run.deliver({ backoffMs: 1_000 });
    expect(hook.requests).toHaveLength(3);
    expect(hook.accepted(run.key)).toBe(1);
    expect(hook.accepted()).toBe(1);
    expect(retries.map((r) => [r.type, r.nonRetryable, r.nextRetryDelay])).toEqual([
      ['WebhookUnavailableError', false, undefined],
      ['WebhookUnavailableError', false, undefined],
    ]);
    const origin = new URL(hook.url).origin;
    expect(retries[0]!.message).toBe(`webhook ${origin}: attempt 1 not delivered (HTTP 500)`);
    expect(outcome).toMatchObject({ destination: 'webhook-1', ok: true, attempts: 3 });
    expect(outcome.detail).toBe(`json message accepted by ${origin} (HTTP 200, attempt 3)`);
    expect(record).toMatchObject({ status: 'delivered', attempt: 3, outcome });
    const stamps = hook.requests.map((r) => header(r, 'x-vir-timestamp'));
    expect(new Set(stamps).size).toBe(3);
    expect(new Set(hook.requests.map((r) => header(r, 'x-vir-signature'))).size).toBe(3);
    expect(new Set(hook.requests.map((r) => header(r, 'idempotency-key')))).toEqual(new Set([run.key]));
    for (const r of hook.requests)
      expect(verifies(r, SECRET, r.body, Number(header(r, 'x-vir-timestamp')) * 1000)).toBe(true);

    // Delivered: another delivery of the run (a replay, a redelivery) sends nothing.
    const again = await run.deliver();
    expect(again.outcome).toMatchObject({ ok: true, attempts: 3, already: true });
    expect(hook.requests).toHaveLength(3);
  });

  test('a hang longer than timeoutMs then 200: a second attempt, one accepted copy', async () => {
    const hook = await bed.start(['hang', 200]);
    const run = await runTo(hook.url, { timeoutMs: 300 });
    const started = Date.now();
    const { outcome, retries } = await run.deliver();
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(retries.map((r) => r.message)).toEqual([
      `webhook ${new URL(hook.url).origin}: attempt 1 not delivered (no answer within 300 ms)`,
    ]);
    expect(outcome).toMatchObject({ ok: true, attempts: 2 });
    expect(hook.requests).toHaveLength(2);
    expect(hook.accepted(run.key)).toBe(1);
  });

  test('an answer slower than timeoutMs: the receiver sees the same key twice and can drop the copy', async () => {
    const hook = await bed.start([{ status: 200, delayMs: 500 }, 200]);
    const run = await runTo(hook.url, { timeoutMs: 200 });
    const { outcome } = await run.deliver();
    expect(outcome).toMatchObject({ ok: true, attempts: 2 });
    expect(hook.requests.map((r) => header(r, 'idempotency-key'))).toEqual([run.key, run.key]);
  });

  test('a 2xx whose body stalls is delivered, not sent again', async () => {
    const hook = await bed.start([{ status: 202, stallBody: true }, 200]);
    const run = await runTo(hook.url, { timeoutMs: 300 });
    const { outcome, retries } = await run.deliver();
    expect(outcome).toMatchObject({ ok: true, attempts: 1 });
    expect(outcome.detail).toMatch(/\(HTTP 202\)$/);
    expect(retries).toHaveLength(0);
    expect(hook.requests).toHaveLength(1);
    expect(hook.accepted(run.key)).toBe(1);
  });

  test('a dropped connection then 200: one accepted copy', async () => {
    const hook = await bed.start(['destroy', 200]);
    const run = await runTo(hook.url);
    const { outcome, retries } = await run.deliver();
    expect(retries).toHaveLength(1);
    expect(retries[0]!.message).toMatch(/: attempt 1 not delivered \(connection failed \([A-Z_]+\)\)$/);
    expect(outcome).toMatchObject({ ok: true, attempts: 2 });
    expect(hook.requests).toHaveLength(2);
    expect(hook.accepted(run.key)).toBe(1);
  });

  test('400: not retried; one request; the outcome says refused, with the status and an excerpt', async () => {
    const hook = await bed.start([{ status: 400, body: 'invalid_payload: missing "text"' }, 200]);
    const run = await runTo(hook.url);
    const { outcome, retries, record } = await run.deliver();
    expect(retries).toHaveLength(0);
    expect(outcome).toMatchObject({ ok: false, attempts: 1 });
    expect(outcome.detail).toBe(
      `webhook_rejected: webhook ${new URL(hook.url).origin} refused the message: HTTP 400 "invalid_payload: missing \\"text\\""`,
    );
    expect(record).toMatchObject({ status: 'failed', attempt: 1 });
    expect(hook.requests).toHaveLength(1);
    expect(hook.accepted()).toBe(0);

    // The error behind it, as postWebhook throws it.
    const other = await bed.start([400]);
    const err = await postWebhook({ url: other.url, timeoutMs: 1_000 }, '{}', {
      secret: SECRET,
      idempotencyKey: 'k-400',
      dispatcher: bed.agent,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WebhookRejectedError);
    expect(err).toMatchObject({ code: 'webhook_rejected', status: 400, retryable: false, attempts: 1 });
  });

  test('429 with Retry-After: 1, then 503 with a Retry-After date: each is the retry delay asked for', async () => {
    const at = new Date(Date.now() + 3_000).toUTCString();
    const hook = await bed.start([
      { status: 429, headers: { 'retry-after': '1' } },
      { status: 503, headers: { 'retry-after': at } },
      200,
    ]);
    const run = await runTo(hook.url);
    const { outcome, retries } = await run.deliver();
    expect(retries[0]!.nextRetryDelay).toBe(1_000);
    // An HTTP date, read by the API client's parser: up to 3 s from the answer (whole seconds).
    const fromDate = retries[1]!.nextRetryDelay as number;
    expect(fromDate).toBeGreaterThan(500);
    expect(fromDate).toBeLessThanOrEqual(3_000);
    const waited = hook.requests[1]!.at - hook.requests[0]!.at;
    expect(waited).toBeGreaterThanOrEqual(950);
    expect(waited).toBeLessThan(2_500);
    expect(outcome).toMatchObject({ ok: true, attempts: 3 });
    expect(hook.accepted(run.key)).toBe(1);
  });

  test('429 asking for longer than a delivery waits: no retry, the outcome says why', async () => {
    const hook = await bed.start([{ status: 429, headers: { 'retry-after': '120' } }]);
    const run = await runTo(hook.url, { timeoutMs: 1_000 });
    const { outcome, retries, record } = await run.deliver();
    expect(retries).toHaveLength(0);
    expect(outcome).toMatchObject({ ok: false, attempts: 1 });
    expect(outcome.detail).toBe(
      `webhook_unavailable: webhook ${new URL(hook.url).origin}: attempt 1 not delivered (HTTP 429); it asks to retry after 120 s, longer than a delivery waits (30 s)`,
    );
    expect(record.status).toBe('failed');
    expect(hook.requests).toHaveLength(1);
  });

  test('the signal cancels an attempt in flight', async () => {
    const hook = await bed.start(['hang']);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100); // the caller gives up while the endpoint hangs
    const err = await postWebhook({ url: hook.url, timeoutMs: 5_000 }, '{}', {
      secret: SECRET,
      idempotencyKey: 'k-abort',
      dispatcher: bed.agent,
      signal: controller.signal,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WebhookAbortedError);
    expect(err).toMatchObject({ code: 'webhook_aborted', attempts: 1, retryable: false });
    expect(hook.requests).toHaveLength(1);
  });

  test('5xx on every attempt: one request each, the last failure recorded; a redelivery sends again', async () => {
    const hook = await bed.start([500, 503, 502, 500]);
    const run = await runTo(hook.url);
    const { outcome, retries, record } = await run.deliver();
    expect(hook.requests).toHaveLength(DELIVERY_MAX_ATTEMPTS);
    expect(retries).toHaveLength(DELIVERY_MAX_ATTEMPTS - 1);
    expect(outcome).toMatchObject({ ok: false, attempts: DELIVERY_MAX_ATTEMPTS });
    expect(outcome.detail).toBe(
      `webhook_unavailable: webhook ${new URL(hook.url).origin}: attempt 4 not delivered (HTTP 500); not delivered after 4 attempts`,
    );
    expect(record).toMatchObject({ status: 'failed', attempt: DELIVERY_MAX_ATTEMPTS, outcome });
    expect(hook.accepted()).toBe(0);

    // Failed, not delivered: `vir runs redeliver` sends again, with the same key.
    const again = await run.deliver();
    expect(again.outcome).toMatchObject({ ok: true, attempts: 1 });
    expect(hook.requests).toHaveLength(DELIVERY_MAX_ATTEMPTS + 1);
    expect(hook.accepted(run.key)).toBe(1);
  });
});

test('deliverWebhook: one POST per attempt; a retry for Temporal, then an outcome; a refusal is ok: false', async () => {
  const hook = await bed.start([{ status: 503, headers: { 'retry-after': '2' } }, 200, 404]);
  const dest = parseWebhookDestination({ url: hook.url, format: 'slack', secretEnv: 'T_HOOK_SECRET' });
  const opts = { destinationId: 'webhook-1', env: { T_HOOK_SECRET: SECRET }, dispatcher: bed.agent };
  const retry = await deliverWebhook(dest, summary, { ...opts, attempt: 1 }).catch((e: unknown) => e);
  expect(retry).toMatchObject({
    type: 'WebhookUnavailableError',
    nonRetryable: false,
    nextRetryDelay: 2_000,
  });
  expect(hook.requests).toHaveLength(1);
  const outcome = await deliverWebhook(dest, summary, { ...opts, attempt: 2 });
  expect(outcome).toMatchObject({ destination: 'webhook-1', kind: 'webhook', ok: true, attempts: 2 });
  expect(outcome.detail).toBe(`slack message accepted by ${new URL(hook.url).origin} (HTTP 200, attempt 2)`);
  expect(hook.requests.map((r) => verifies(r))).toEqual([true, true]);

  const refused = await deliverWebhook(dest, summary, opts);
  expect(refused).toMatchObject({ ok: false, attempts: 1 });
  expect(refused.detail).toMatch(
    /^webhook_rejected: webhook http:\/\/127\.0\.0\.1:\d+ refused the message: HTTP 404/,
  );
  expect(refused.deliveredAt).toBeUndefined();

  // A POST on its own: one request, the failure another attempt may mend, its Retry-After.
  hook.script({ status: 503, headers: { 'retry-after': '7' } });
  const err = await postWebhook(dest, buildWebhookBody(dest, summary), {
    secret: SECRET,
    idempotencyKey: 'k-one',
    attempt: 3,
    dispatcher: bed.agent,
  }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(WebhookUnavailableError);
  expect(err).toMatchObject({
    reason: 'status',
    status: 503,
    attempts: 3,
    retryable: true,
    retryAfterMs: 7_000,
  });
  expect(hook.requests).toHaveLength(4);
});
