/**
 * Webhook delivery against a real receiver on 127.0.0.1 (port 0): the message in both formats,
 * its signature as a receiver checks it, retries under faults (500, hang, dropped connection,
 * 429) with exactly one accepted copy, no retry on 4xx, no secret anywhere, config errors that
 * name the field or variable.
 */
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { Agent } from 'undici';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  buildWebhookBody,
  deliverWebhook,
  parseWebhookDestination,
  postWebhook,
  verifyWebhookSignature,
  WebhookAbortedError,
  WebhookConfigError,
  webhookIdempotencyKey,
  WebhookRejectedError,
  webhookSecretFromEnv,
  WebhookSecretError,
  WebhookUnavailableError,
  type DeliverySummary,
  type WebhookLog,
} from '../../activities/delivery/index.js';
import { startWebhookServer, type WebhookRequest, type WebhookServer } from '../helpers/webhook-server.js';

const SECRET = 'whsec_test_5f2c9a1e7b3d4c6a8e0f';
const FAST = { attempts: 4, baseMs: 10, maxMs: 2_000 };

const summary: DeliverySummary = {
  jobId: 'weekly-dach',
  jobTitle: 'Weekly DACH <script>alert(1)</script> & <!channel>',
  kind: 'market-report',
  runId: 'weekly-dach-2026-11-23',
  date: '2026-11-23',
  status: 'partial',
  reasons: ['Austria: 2 pages could not be read', 'budget reached after 480 credits'],
  figures: [
    { label: 'Investors', value: '1,204' },
    { label: 'New this week', value: '37', note: 'vs 29 <last week>' },
  ],
  headline: 'Seed rounds in Berlin doubled.',
  links: [
    { name: 'weekly-dach-2026-11-23.pdf', url: 'https://store.example.com/r/w.pdf?X-Amz-Expires=3600&a=1' },
    { name: 'evil', url: 'javascript:alert(1)' },
  ],
};

let hook: WebhookServer;
let agent: Agent;
let logs: string[];
const log: WebhookLog = (level, message, fields) => logs.push(JSON.stringify({ level, message, fields }));

beforeEach(() => {
  agent = new Agent({ keepAliveTimeout: 1_000 });
  logs = [];
});
afterEach(async () => {
  await agent.close();
  await hook?.close();
});

const header = (r: WebhookRequest, name: string) => {
  const v = r.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

const verifies = (r: WebhookRequest, secret = SECRET, body = r.body, now = r.at) =>
  verifyWebhookSignature(secret, header(r, 'x-vir-timestamp'), body, header(r, 'x-vir-signature'), { now });

describe('the message and its signature', () => {
  test('JSON: the receiver verifies it; another secret, a changed body or an old timestamp fail', async () => {
    hook = await startWebhookServer();
    const dest = parseWebhookDestination({ url: hook.url });
    expect(dest.format).toBe('json');
    const manifest = { files: [{ name: 'weekly-dach-2026-11-23.pdf', bytes: 1234 }] };
    const result = await postWebhook(dest, buildWebhookBody(dest, summary, manifest), {
      secret: SECRET,
      idempotencyKey: webhookIdempotencyKey(summary.runId, 'webhook-1'),
      dispatcher: agent,
    });
    expect(result).toMatchObject({ ok: true, status: 200, attempts: 1 });
    expect(Date.parse(result.deliveredAt)).toBeGreaterThan(Date.now() - 10_000);

    const [r] = hook.requests;
    expect(r!.method).toBe('POST');
    expect(header(r!, 'content-type')).toBe('application/json; charset=utf-8');
    expect(header(r!, 'user-agent')).toMatch(/^venture-intelligence-runner\//);
    expect(header(r!, 'x-vir-signature')).toMatch(/^v1=[0-9a-f]{64}$/);
    expect(verifies(r!)).toBe(true);
    expect(verifies(r!, 'another-secret-of-the-same-size')).toBe(false);
    expect(verifies(r!, SECRET, r!.body.replace('partial', 'complete'))).toBe(false);
    expect(verifies(r!, SECRET, r!.body, r!.at + 301_000)).toBe(false);
    expect(verifies(r!, SECRET, r!.body, r!.at + 299_000)).toBe(true);
    // The documented scheme, computed here without the module: v1=HMAC-SHA256("<timestamp>.<body>").
    const ts = header(r!, 'x-vir-timestamp')!;
    expect(Math.abs(Number(ts) - r!.at / 1000)).toBeLessThan(5);
    expect(header(r!, 'x-vir-signature')).toBe(
      `v1=${createHmac('sha256', SECRET).update(`${ts}.${r!.body}`).digest('hex')}`,
    );
    // A replay with a fresh timestamp and the captured signature fails.
    expect(
      verifyWebhookSignature(SECRET, String(Number(ts) + 60), r!.body, header(r!, 'x-vir-signature'), {
        now: r!.at + 60_000,
      }),
    ).toBe(false);

    const body = JSON.parse(r!.body) as Record<string, unknown>;
    expect(body).toEqual({
      type: 'vir.run.delivered',
      version: 1,
      job: { id: 'weekly-dach', title: summary.jobTitle, kind: 'market-report' },
      run: { id: 'weekly-dach-2026-11-23', date: '2026-11-23' },
      status: 'partial',
      reasons: summary.reasons,
      headline: summary.headline,
      figures: summary.figures,
      links: summary.links,
      manifest,
    });
  });

  test('Slack: header, status and why, figures as fields, links as <url|name>, everything escaped', async () => {
    hook = await startWebhookServer();
    const dest = parseWebhookDestination({ url: hook.url, format: 'slack' });
    await postWebhook(dest, buildWebhookBody(dest, summary), {
      secret: SECRET,
      idempotencyKey: 'k-slack',
      dispatcher: agent,
    });
    const [r] = hook.requests;
    expect(verifies(r!)).toBe(true);
    // Nothing the service or the job file wrote reaches Slack unescaped.
    expect(r!.body).not.toContain('<script>');
    expect(r!.body).not.toContain('<!channel>');
    expect(r!.body).not.toContain('javascript:');
    const body = JSON.parse(r!.body) as { text: string; blocks: Record<string, unknown>[] };
    const title = 'Weekly DACH &lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;!channel&gt;';
    expect(body.text).toBe(
      `${title} (2026-11-23): partial: Austria: 2 pages could not be read; budget reached after 480 credits`,
    );
    expect(body.blocks[0]).toEqual({
      type: 'header',
      text: { type: 'plain_text', text: title, emoji: false },
    });
    expect(body.blocks[1]).toEqual({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: '*Status:* :warning: partial: Austria: 2 pages could not be read; budget reached after 480 credits',
      },
    });
    expect(body.blocks[3]).toEqual({
      type: 'section',
      fields: [
        { type: 'mrkdwn', text: '*Investors*\n1,204' },
        { type: 'mrkdwn', text: '*New this week*\n37 _(vs 29 &lt;last week&gt;)_' },
      ],
    });
    expect(body.blocks[4]).toEqual({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: '<https://store.example.com/r/w.pdf?X-Amz-Expires=3600&amp;a=1|weekly-dach-2026-11-23.pdf>',
      },
    });
    expect(JSON.stringify(body.blocks.at(-1))).toContain('weekly-dach-2026-11-23');
  });

  test('a complete run says complete, without reasons', () => {
    const dest = parseWebhookDestination({ url: 'https://hooks.example.com/x', format: 'slack' });
    const body = buildWebhookBody(dest, { ...summary, status: 'complete', reasons: [] }) as {
      text: string;
    };
    expect(body.text).toMatch(/: complete$/);
  });
});

describe('under faults', () => {
  test('500 twice then 200: three requests, each signed afresh, one key, exactly one accepted copy', async () => {
    hook = await startWebhookServer([500, 500, 200]);
    const dest = parseWebhookDestination({ url: hook.url, format: 'slack' });
    let clock = Date.now();
    const key = webhookIdempotencyKey(summary.runId, 'webhook-1');
    const result = await postWebhook(dest, buildWebhookBody(dest, summary), {
      secret: SECRET,
      idempotencyKey: key,
      retries: FAST,
      dispatcher: agent,
      log,
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
    expect(logs.filter((l) => l.includes('retrying'))).toHaveLength(2);
  });

  test('a hang longer than timeoutMs then 200: retried, one accepted copy', async () => {
    hook = await startWebhookServer(['hang', 200]);
    const dest = parseWebhookDestination({ url: hook.url, timeoutMs: 300 });
    const started = Date.now();
    const result = await postWebhook(dest, buildWebhookBody(dest, summary), {
      secret: SECRET,
      idempotencyKey: 'k-hang',
      retries: FAST,
      dispatcher: agent,
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(result.attempts).toBe(2);
    expect(result.history.map((h) => h.outcome)).toEqual(['timeout', 'ok']);
    expect(hook.requests).toHaveLength(2);
    expect(hook.accepted('k-hang')).toBe(1);
  });

  test('an answer slower than timeoutMs: the receiver sees the same key twice and can drop the copy', async () => {
    hook = await startWebhookServer([{ status: 200, delayMs: 500 }, 200]);
    const dest = parseWebhookDestination({ url: hook.url, timeoutMs: 200 });
    const result = await postWebhook(dest, '{"x":1}', {
      secret: SECRET,
      idempotencyKey: 'k-slow',
      retries: FAST,
      dispatcher: agent,
    });
    expect(result.attempts).toBe(2);
    expect(new Set(hook.requests.map((r) => header(r, 'idempotency-key')))).toEqual(new Set(['k-slow']));
  });

  test('a 2xx whose body stalls is delivered, not sent again', async () => {
    hook = await startWebhookServer([{ status: 202, stallBody: true }, 200]);
    const dest = parseWebhookDestination({ url: hook.url, timeoutMs: 300 });
    const result = await postWebhook(dest, '{}', {
      secret: SECRET,
      idempotencyKey: 'k-stall',
      retries: FAST,
      dispatcher: agent,
    });
    expect(result).toMatchObject({ status: 202, attempts: 1 });
    expect(hook.requests).toHaveLength(1);
    expect(hook.accepted('k-stall')).toBe(1);
  });

  test('a dropped connection then 200: one accepted copy', async () => {
    hook = await startWebhookServer(['destroy', 200]);
    const dest = parseWebhookDestination({ url: hook.url });
    const result = await postWebhook(dest, buildWebhookBody(dest, summary), {
      secret: SECRET,
      idempotencyKey: 'k-drop',
      retries: FAST,
      dispatcher: agent,
    });
    expect(result.history.map((h) => h.outcome)).toEqual(['network', 'ok']);
    expect(hook.requests).toHaveLength(2);
    expect(hook.accepted('k-drop')).toBe(1);
  });

  test('400: not retried, one request, WebhookRejectedError with the status and an excerpt', async () => {
    hook = await startWebhookServer([{ status: 400, body: 'invalid_payload: missing "text"' }, 200]);
    const dest = parseWebhookDestination({ url: hook.url });
    const err = await postWebhook(dest, buildWebhookBody(dest, summary), {
      secret: SECRET,
      idempotencyKey: 'k-400',
      retries: FAST,
      dispatcher: agent,
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
    hook = await startWebhookServer([{ status: 429, headers: { 'retry-after': '1' } }, 200]);
    const dest = parseWebhookDestination({ url: hook.url });
    const result = await postWebhook(dest, buildWebhookBody(dest, summary), {
      secret: SECRET,
      idempotencyKey: 'k-429',
      retries: FAST,
      dispatcher: agent,
    });
    expect(result.attempts).toBe(2);
    const waited = hook.requests[1]!.at - hook.requests[0]!.at;
    expect(waited).toBeGreaterThanOrEqual(950);
    expect(waited).toBeLessThan(2_500);
    expect(hook.accepted('k-429')).toBe(1);
  });

  test('429 asking for longer than maxMs: no wait, WebhookUnavailableError with retryAfterMs', async () => {
    hook = await startWebhookServer([{ status: 429, headers: { 'retry-after': '120' } }]);
    const err = await postWebhook({ url: hook.url, timeoutMs: 1_000 }, '{}', {
      secret: SECRET,
      idempotencyKey: 'k-429-long',
      retries: FAST,
      dispatcher: agent,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WebhookUnavailableError);
    expect(err).toMatchObject({ reason: 'rate_limited', status: 429, attempts: 1, retryAfterMs: 120_000 });
    expect(hook.requests).toHaveLength(1);
  });

  test('the signal cancels an attempt in flight', async () => {
    hook = await startWebhookServer(['hang']);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100); // the caller gives up while the endpoint hangs
    const err = await postWebhook({ url: hook.url, timeoutMs: 5_000 }, '{}', {
      secret: SECRET,
      idempotencyKey: 'k-abort',
      retries: FAST,
      dispatcher: agent,
      signal: controller.signal,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WebhookAbortedError);
    expect(err).toMatchObject({ code: 'webhook_aborted', attempts: 1, retryable: false });
    expect(hook.requests).toHaveLength(1);
  });

  test('500 every time: WebhookUnavailableError after the attempts, retryable, naming each failure', async () => {
    hook = await startWebhookServer([500, 503, 502]);
    const dest = parseWebhookDestination({ url: hook.url });
    const err = await postWebhook(dest, '{}', {
      secret: SECRET,
      idempotencyKey: 'k-5xx',
      retries: { ...FAST, attempts: 3 },
      dispatcher: agent,
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

describe('secrets', () => {
  test('never in thrown errors, results or log lines, even when the receiver echoes it', async () => {
    hook = await startWebhookServer([500, { status: 401, body: `bad signature for secret ${SECRET}` }]);
    const dest = parseWebhookDestination({ url: hook.url });
    const err = await postWebhook(dest, '{}', {
      secret: SECRET,
      idempotencyKey: 'k-secret',
      retries: FAST,
      dispatcher: agent,
      log,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WebhookRejectedError);
    const seen = [inspect(err, { depth: 8 }), JSON.stringify(err), String((err as Error).stack), ...logs];
    for (const text of seen) expect(text).not.toContain(SECRET);
    expect((err as WebhookRejectedError).excerpt).toBe('bad signature for secret [redacted]');

    hook.script(503, 'destroy', 'hang');
    const down = await postWebhook({ url: hook.url, timeoutMs: 200 }, '{}', {
      secret: SECRET,
      idempotencyKey: 'k-secret-2',
      retries: { ...FAST, attempts: 3 },
      dispatcher: agent,
      log,
    }).catch((e: unknown) => e);
    expect(down).toBeInstanceOf(WebhookUnavailableError);
    expect((down as Error).message).toMatch(/\(HTTP 503, dropped, timeout\)$/);
    for (const text of [inspect(down, { depth: 8 }), JSON.stringify(down), ...logs]) {
      expect(text).not.toContain(SECRET);
    }

    const ok = await postWebhook({ url: hook.url, timeoutMs: 1_000 }, '{}', {
      secret: SECRET,
      idempotencyKey: 'k-secret-3',
      dispatcher: agent,
      log,
    });
    expect(JSON.stringify(ok)).not.toContain(SECRET);
    // The only place the secret is used: the signature, which does not reveal it.
    for (const r of hook.requests) expect(JSON.stringify(r.headers) + r.body).not.toContain(SECRET);
  });

  test('read from the named variable or from <NAME>_FILE; errors name the variable, never the value', () => {
    const dest = parseWebhookDestination({
      url: 'https://hooks.example.com/x',
      secretEnv: 'ACME_HOOK_SECRET',
    });
    expect(webhookSecretFromEnv(dest, { ACME_HOOK_SECRET: ` ${SECRET}\n` })).toBe(SECRET);

    const dir = mkdtempSync(join(tmpdir(), 'vir-webhook-'));
    try {
      const file = join(dir, 'secret');
      writeFileSync(file, `${SECRET}\n`);
      expect(webhookSecretFromEnv(dest, { ACME_HOOK_SECRET_FILE: file })).toBe(SECRET);

      const missing = (() => {
        try {
          return webhookSecretFromEnv(dest, {});
        } catch (e) {
          return e;
        }
      })();
      expect(missing).toBeInstanceOf(WebhookSecretError);
      expect(missing).toMatchObject({ code: 'webhook_secret_unavailable', variable: 'ACME_HOOK_SECRET' });
      expect((missing as Error).message).toBe(
        "ACME_HOOK_SECRET: is not set: the webhook's signing secret comes from ACME_HOOK_SECRET or from a file named by ACME_HOOK_SECRET_FILE",
      );

      const both = () =>
        webhookSecretFromEnv(dest, { ACME_HOOK_SECRET: SECRET, ACME_HOOK_SECRET_FILE: file });
      expect(both).toThrow(
        'ACME_HOOK_SECRET: set either ACME_HOOK_SECRET or ACME_HOOK_SECRET_FILE, not both',
      );
      try {
        both();
      } catch (e) {
        expect(inspect(e, { depth: 8 })).not.toContain(SECRET);
      }

      expect(() => webhookSecretFromEnv(dest, { ACME_HOOK_SECRET_FILE: join(dir, 'nope') })).toThrow(
        'ACME_HOOK_SECRET_FILE: cannot read the secrets file it names (ENOENT)',
      );
      writeFileSync(file, '\n');
      expect(() => webhookSecretFromEnv(dest, { ACME_HOOK_SECRET_FILE: file })).toThrow(
        'ACME_HOOK_SECRET_FILE: the secrets file it names is empty',
      );
      expect(() => webhookSecretFromEnv(parseWebhookDestination({ url: 'https://h.example' }), {})).toThrow(
        /^VIR_WEBHOOK_SECRET: is not set/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the destination in the job file', () => {
  const configError = (input: unknown) => {
    try {
      parseWebhookDestination(input);
    } catch (e) {
      expect(e).toBeInstanceOf(WebhookConfigError);
      return e as WebhookConfigError;
    }
    throw new Error('no error');
  };

  test('defaults', () => {
    expect(parseWebhookDestination({ url: 'https://hooks.example.com/vir' })).toEqual({
      url: 'https://hooks.example.com/vir',
      format: 'json',
      secretEnv: 'VIR_WEBHOOK_SECRET',
      timeoutMs: 10_000,
    });
  });

  test('errors name the field', () => {
    expect(configError({ url: 'ftp://files.example.com/x' })).toMatchObject({
      code: 'invalid_webhook_config',
      field: 'url',
      message: 'webhook url: must be an http or https URL (like https://hooks.example.com/vir)',
    });
    expect(configError({ format: 'json' }).message).toBe(
      'webhook url: is required: the http or https URL to POST to',
    );
    expect(configError({ url: 'https://u:p@hooks.example.com/' }).field).toBe('url');
    expect(configError({ url: 'https://h.example', format: 'xml' }).message).toBe(
      'webhook format: must be "slack" or "json"',
    );
    expect(configError({ url: 'https://h.example', timeoutMs: 5 }).message).toBe(
      'webhook timeoutMs: must be at least 100',
    );
    expect(configError({ url: 'https://h.example', retry: 3 }).message).toMatch(
      /^webhook retry: unknown field/,
    );
    expect(configError('https://h.example').message).toBe(
      'webhook (webhook): must be a mapping of fields (url, format, secretEnv, timeoutMs)',
    );
  });

  test('a secret in the job file is refused with a clear message, without repeating it', () => {
    for (const field of ['secret', 'signingSecret', 'token', 'hmacKey']) {
      const e = configError({ url: 'https://h.example', [field]: SECRET });
      expect(e.field).toBe(field);
      expect(e.message).toBe(
        `webhook ${field}: a secret never goes in the job file: put it in the environment variable named by secretEnv (default VIR_WEBHOOK_SECRET) or in a file named by <NAME>_FILE`,
      );
    }
    const e = configError({ url: 'https://h.example', secretEnv: SECRET.replace(/_/g, '-') });
    expect(e.field).toBe('secretEnv');
    expect(e.message).toBe(
      'webhook secretEnv: must be the NAME of an environment variable (like VIR_WEBHOOK_SECRET), not the secret itself',
    );
    expect(e.message).not.toContain('5f2c9a1e');
  });
});

test('deliverWebhook: an outcome per destination; a refusal is ok: false with the code', async () => {
  hook = await startWebhookServer([503, 200, 404]);
  const dest = parseWebhookDestination({ url: hook.url, format: 'slack', secretEnv: 'T_HOOK_SECRET' });
  const env = { T_HOOK_SECRET: SECRET };
  const outcome = await deliverWebhook(dest, summary, {
    destinationId: 'webhook-1',
    env,
    retries: FAST,
    dispatcher: agent,
  });
  expect(outcome).toMatchObject({ destination: 'webhook-1', kind: 'webhook', ok: true, attempts: 2 });
  expect(outcome.detail).toBe(`slack message accepted by ${new URL(hook.url).origin} (HTTP 200, attempt 2)`);
  expect(hook.accepted(webhookIdempotencyKey(summary.runId, 'webhook-1'))).toBe(1);

  const refused = await deliverWebhook(dest, summary, {
    destinationId: 'webhook-1',
    env,
    retries: FAST,
    dispatcher: agent,
  });
  expect(refused).toMatchObject({ ok: false, attempts: 1 });
  expect(refused.detail).toMatch(
    /^webhook_rejected: webhook http:\/\/127\.0\.0\.1:\d+ refused the message: HTTP 404/,
  );
  expect(refused.deliveredAt).toBeUndefined();
});
