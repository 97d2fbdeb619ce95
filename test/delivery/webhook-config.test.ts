/**
 * Webhook secrets and configuration: no secret anywhere (errors, results, log lines), the secret
 * read from the environment or a file, and config errors that name the field or variable.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { ApplicationFailure } from '@temporalio/common';
import { describe, expect, test } from 'vitest';
import {
  deliverWebhook,
  parseWebhookDestination,
  postWebhook,
  WebhookConfigError,
  WebhookRejectedError,
  webhookSecretFromEnv,
  WebhookSecretError,
  WebhookUnavailableError,
} from '../../activities/delivery/index.js';
import { SECRET, summary, useWebhookBed } from '../helpers/webhook-delivery.js';

const bed = useWebhookBed();

describe('secrets', () => {
  test('never in thrown errors, retries, results or log lines, even when the receiver echoes it', async () => {
    const echo = `bad signature for secret ${SECRET}`;
    const hook = await bed.start([
      { status: 500, body: echo },
      { status: 401, body: echo },
    ]);
    const dest = parseWebhookDestination({ url: hook.url, timeoutMs: 200 });
    const post = (attempt: number) =>
      postWebhook(dest, '{}', {
        secret: SECRET,
        idempotencyKey: 'k-secret',
        attempt,
        dispatcher: bed.agent,
        log: bed.log,
      }).catch((e: unknown) => e);
    const shown = (e: unknown) => [inspect(e, { depth: 8 }), JSON.stringify(e), String((e as Error).stack)];

    const failed = await post(1);
    expect(failed).toBeInstanceOf(WebhookUnavailableError);
    const err = await post(2);
    expect(err).toBeInstanceOf(WebhookRejectedError);
    for (const text of [...shown(failed), ...shown(err), ...bed.logs]) expect(text).not.toContain(SECRET);
    expect((err as WebhookRejectedError).excerpt).toBe('bad signature for secret [redacted]');

    hook.script(503, 'destroy', 'hang');
    const down = [await post(1), await post(2), await post(3)];
    expect(down.map((e) => e instanceof WebhookUnavailableError && e.reason)).toEqual([
      'status',
      'network',
      'timeout',
    ]);
    expect((down[2] as Error).message).toMatch(/: attempt 3 not delivered \(no answer within 200 ms\)$/);
    for (const text of [...down.flatMap(shown), ...bed.logs]) expect(text).not.toContain(SECRET);

    // The retry an attempt asks Temporal for goes into the workflow's history.
    hook.script({ status: 503, body: echo });
    const retry = await deliverWebhook(dest, summary, {
      destinationId: 'webhook-1',
      env: { VIR_WEBHOOK_SECRET: SECRET },
      dispatcher: bed.agent,
      log: bed.log,
    }).catch((e: unknown) => e);
    expect(retry).toBeInstanceOf(ApplicationFailure);
    for (const text of [...shown(retry), ...bed.logs]) expect(text).not.toContain(SECRET);

    const ok = await postWebhook({ url: hook.url, timeoutMs: 1_000 }, '{}', {
      secret: SECRET,
      idempotencyKey: 'k-secret-3',
      dispatcher: bed.agent,
      log: bed.log,
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
