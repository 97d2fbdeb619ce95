/**
 * Webhook delivery against a real receiver under faults (500, hang, dropped connection, 429):
 * retries with exactly one accepted copy, no retry on 4xx, and deliverWebhook's outcome.
 */
import { describe, expect, test } from 'vitest';
import {
  buildWebhookBody,
  deliverWebhook,
  parseWebhookDestination,
  postWebhook,
  WebhookAbortedError,
  webhookIdempotencyKey,
  WebhookRejectedError,
  WebhookUnavailableError,
} from '../../activities/delivery/index.js';
import { FAST, header, SECRET, summary, useWebhookBed, verifies } from '../helpers/webhook-delivery.js';

const bed = useWebhookBed();

describe('under faults', () => {
  test('500 twice then 200: three requests, each signed afresh, one key, exactly one accepted copy', async () => {
    const hook = await bed.start([500, 500, 200]);
    const dest = parseWebhookDestination({ url: hook.url, format: 'slack' });
    let clock = Date.now();
    const key = webhookIdempotencyKey(summary.runId, 'webhook-1');
    const result = await postWebhook(dest, buildWebhookBody(dest, summary), {
      secret: SECRET,
      idempotencyKey: key,
      retries: FAST,
      dispatcher: bed.agent,
      log: bed.log,
      // A clock a second further on each reading: every attempt has its own timestamp.
      now: () => (clock += 1_000),
    });
    expect(result.attempts).toBe(3);
    expect(result.history.map((h) => h.status)).toEqual([500, 500, 200]);
    expect(hook.requests).toHaveLength(3);
    expect(hook.accepted(key)).toBe(1);
    expect(hook.accepted()).toBe(1);
    const stamps = hook.requests.map((r) => header(r, 'x-vir-timestamp'));
    expect(new Set(stamps).size).toBe(3);
    expect(new Set(hook.requests.map((r) => header(r, 'x-vir-signature'))).size).toBe(3);
    expect(new Set(hook.requests.map((r) => header(r, 'idempotency-key')))).toEqual(new Set([key]));
    for (const r of hook.requests)
      expect(verifies(r, SECRET, r.body, Number(header(r, 'x-vir-timestamp')) * 1000)).toBe(true);
    expect(bed.logs.filter((l) => l.includes('retrying'))).toHaveLength(2);
  });

  test('a hang longer than timeoutMs then 200: retried, one accepted copy', async () => {
    const hook = await bed.start(['hang', 200]);
    const dest = parseWebhookDestination({ url: hook.url, timeoutMs: 300 });
    const started = Date.now();
    const result = await postWebhook(dest, buildWebhookBody(dest, summary), {
      secret: SECRET,
      idempotencyKey: 'k-hang',
      retries: FAST,
      dispatcher: bed.agent,
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(result.attempts).toBe(2);
    expect(result.history.map((h) => h.outcome)).toEqual(['timeout', 'ok']);
    expect(hook.requests).toHaveLength(2);
    expect(hook.accepted('k-hang')).toBe(1);
  });

  test('an answer slower than timeoutMs: the receiver sees the same key twice and can drop the copy', async () => {
    const hook = await bed.start([{ status: 200, delayMs: 500 }, 200]);
    const dest = parseWebhookDestination({ url: hook.url, timeoutMs: 200 });
    const result = await postWebhook(dest, '{"x":1}', {
      secret: SECRET,
      idempotencyKey: 'k-slow',
      retries: FAST,
      dispatcher: bed.agent,
    });
    expect(result.attempts).toBe(2);
    expect(new Set(hook.requests.map((r) => header(r, 'idempotency-key')))).toEqual(new Set(['k-slow']));
  });

  test('a 2xx whose body stalls is delivered, not sent again', async () => {
    const hook = await bed.start([{ status: 202, stallBody: true }, 200]);
    const dest = parseWebhookDestination({ url: hook.url, timeoutMs: 300 });
    const result = await postWebhook(dest, '{}', {
      secret: SECRET,
      idempotencyKey: 'k-stall',
      retries: FAST,
      dispatcher: bed.agent,
    });
    expect(result).toMatchObject({ status: 202, attempts: 1 });
    expect(hook.requests).toHaveLength(1);
    expect(hook.accepted('k-stall')).toBe(1);
  });

  test('a dropped connection then 200: one accepted copy', async () => {
    const hook = await bed.start(['destroy', 200]);
    const dest = parseWebhookDestination({ url: hook.url });
    const result = await postWebhook(dest, buildWebhookBody(dest, summary), {
      secret: SECRET,
      idempotencyKey: 'k-drop',
      retries: FAST,
      dispatcher: bed.agent,
    });
    expect(result.history.map((h) => h.outcome)).toEqual(['network', 'ok']);
    expect(hook.requests).toHaveLength(2);
    expect(hook.accepted('k-drop')).toBe(1);
  });

  test('400: not retried, one request, WebhookRejectedError with the status and an excerpt', async () => {
    const hook = await bed.start([{ status: 400, body: 'invalid_payload: missing "text"' }, 200]);
    const dest = parseWebhookDestination({ url: hook.url });
    const err = await postWebhook(dest, buildWebhookBody(dest, summary), {
      secret: SECRET,
      idempotencyKey: 'k-400',
      retries: FAST,
      dispatcher: bed.agent,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WebhookRejectedError);
    const e = err as WebhookRejectedError;
    expect(e.code).toBe('webhook_rejected');
    expect(e.status).toBe(400);
    expect(e.retryable).toBe(false);
    expect(e.attempts).toBe(1);
    expect(e.message).toBe(
      `webhook ${new URL(hook.url).origin} refused the message: HTTP 400 "invalid_payload: missing \\"text\\""`,
    );
    expect(hook.requests).toHaveLength(1);
    expect(hook.accepted()).toBe(0);
  });

  test('429 with Retry-After: 1 then 200: waits about a second', async () => {
    const hook = await bed.start([{ status: 429, headers: { 'retry-after': '1' } }, 200]);
    const dest = parseWebhookDestination({ url: hook.url });
    const result = await postWebhook(dest, buildWebhookBody(dest, summary), {
      secret: SECRET,
      idempotencyKey: 'k-429',
      retries: FAST,
      dispatcher: bed.agent,
    });
    expect(result.attempts).toBe(2);
    const waited = hook.requests[1]!.at - hook.requests[0]!.at;
    expect(waited).toBeGreaterThanOrEqual(950);
    expect(waited).toBeLessThan(2_500);
    expect(hook.accepted('k-429')).toBe(1);
  });

  test('429 asking for longer than maxMs: no wait, WebhookUnavailableError with retryAfterMs', async () => {
    const hook = await bed.start([{ status: 429, headers: { 'retry-after': '120' } }]);
    const err = await postWebhook({ url: hook.url, timeoutMs: 1_000 }, '{}', {
      secret: SECRET,
      idempotencyKey: 'k-429-long',
      retries: FAST,
      dispatcher: bed.agent,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WebhookUnavailableError);
    expect(err).toMatchObject({ reason: 'rate_limited', status: 429, attempts: 1, retryAfterMs: 120_000 });
    expect(hook.requests).toHaveLength(1);
  });

  test('the signal cancels an attempt in flight', async () => {
    const hook = await bed.start(['hang']);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100); // the caller gives up while the endpoint hangs
    const err = await postWebhook({ url: hook.url, timeoutMs: 5_000 }, '{}', {
      secret: SECRET,
      idempotencyKey: 'k-abort',
      retries: FAST,
      dispatcher: bed.agent,
      signal: controller.signal,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WebhookAbortedError);
    expect(err).toMatchObject({ code: 'webhook_aborted', attempts: 1, retryable: false });
    expect(hook.requests).toHaveLength(1);
  });

  test('500 every time: WebhookUnavailableError after the attempts, retryable, naming each failure', async () => {
    const hook = await bed.start([500, 503, 502]);
    const dest = parseWebhookDestination({ url: hook.url });
    const err = await postWebhook(dest, '{}', {
      secret: SECRET,
      idempotencyKey: 'k-5xx',
      retries: { ...FAST, attempts: 3 },
      dispatcher: bed.agent,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WebhookUnavailableError);
    expect(err).toMatchObject({
      code: 'webhook_unavailable',
      reason: 'status',
      status: 502,
      attempts: 3,
      retryable: true,
    });
    expect((err as Error).message).toBe(
      `webhook ${new URL(hook.url).origin}: not delivered after 3 attempts (HTTP 500, HTTP 503, HTTP 502)`,
    );
    expect(hook.requests).toHaveLength(3);
  });
});

test('deliverWebhook: an outcome per destination; a refusal is ok: false with the code', async () => {
  const hook = await bed.start([503, 200, 404]);
  const dest = parseWebhookDestination({ url: hook.url, format: 'slack', secretEnv: 'T_HOOK_SECRET' });
  const env = { T_HOOK_SECRET: SECRET };
  const outcome = await deliverWebhook(dest, summary, {
    destinationId: 'webhook-1',
    env,
    retries: FAST,
    dispatcher: bed.agent,
  });
  expect(outcome).toMatchObject({ destination: 'webhook-1', kind: 'webhook', ok: true, attempts: 2 });
  expect(outcome.detail).toBe(`slack message accepted by ${new URL(hook.url).origin} (HTTP 200, attempt 2)`);
  expect(hook.accepted(webhookIdempotencyKey(summary.runId, 'webhook-1'))).toBe(1);

  const refused = await deliverWebhook(dest, summary, {
    destinationId: 'webhook-1',
    env,
    retries: FAST,
    dispatcher: bed.agent,
  });
  expect(refused).toMatchObject({ ok: false, attempts: 1 });
  expect(refused.detail).toMatch(
    /^webhook_rejected: webhook http:\/\/127\.0\.0\.1:\d+ refused the message: HTTP 404/,
  );
  expect(refused.deliveredAt).toBeUndefined();
});
