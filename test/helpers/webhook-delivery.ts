/**
 * What the webhook delivery tests share: the signing secret, a run's summary full
 * of strings that need escaping, a receiver's check of a request's signature, and per test a
 * real receiver (webhook-server.ts), an undici agent and the lines the module logged.
 *
 * @example
 * const bed = useWebhookBed();
 * test('...', async () => {
 *   const hook = await bed.start([500, 200]);
 *   await postWebhook({ url: hook.url }, '{}', { secret: SECRET, idempotencyKey: 'k', dispatcher: bed.agent });
 * });
 */
import { Agent } from 'undici';
import { afterEach, beforeEach } from 'vitest';
import {
  verifyWebhookSignature,
  type DeliverySummary,
  type WebhookLog,
} from '../../activities/delivery/index.js';
import {
  startWebhookServer,
  type WebhookAnswer,
  type WebhookRequest,
  type WebhookServer,
} from './webhook-server.js';

export const SECRET = 'whsec_test_5f2c9a1e7b3d4c6a8e0f';

export const summary: DeliverySummary = {
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

/** A request's header (the first value when repeated). */
export const header = (r: WebhookRequest, name: string) => {
  const v = r.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/** Whether a receiver with `secret` accepts the request's signature at `now`. */
export const verifies = (r: WebhookRequest, secret = SECRET, body = r.body, now = r.at) =>
  verifyWebhookSignature(secret, header(r, 'x-vir-timestamp'), body, header(r, 'x-vir-signature'), { now });

export interface WebhookBed {
  /** The agent of the test's requests (closed after it). */
  readonly agent: Agent;
  /** The lines logged through `log` in this test, as JSON. */
  readonly logs: string[];
  log: WebhookLog;
  /** Starts a receiver answering `answers` in order (closed after the test). */
  start(answers?: WebhookAnswer[]): Promise<WebhookServer>;
}

/** A fresh agent and log for each test of the file, and the receivers it starts closed after it. */
export function useWebhookBed(): WebhookBed {
  let agent: Agent;
  let logs: string[] = [];
  const hooks: WebhookServer[] = [];
  beforeEach(() => {
    agent = new Agent({ keepAliveTimeout: 1_000 });
    logs = [];
  });
  afterEach(async () => {
    await agent.close();
    for (const hook of hooks.splice(0)) await hook.close();
  });
  return {
    get agent() {
      return agent;
    },
    get logs() {
      return logs;
    },
    log: (level, message, fields) => logs.push(JSON.stringify({ level, message, fields })),
    async start(answers = []) {
      const hook = await startWebhookServer(answers);
      hooks.push(hook);
      return hook;
    },
  };
}
