/**
 * A hung answer fails in the operation's own time (a read: 20 s), not the client's longest
 * timeout: the API activity gives each call a deadline from the operation, and the failure is a
 * retryable timeout whose request counts as sent (the sandbox saw it). The activity's test seam
 * `answerTimeoutScale` makes every operation's time a twentieth of itself (a read's 20 s is 1 s):
 * the deadline is still the operation's (answerTimeoutMsOf), against a client that waits 300 s.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createApiActivities } from '../../activities/api.js';
import { LocalStore } from '../../activities/store.js';
import { answerTimeoutMsOf } from '../../api/catalog.js';
import { VisClient } from '../../api/client.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { startTestSandbox } from '../helpers/sandbox.js';

/** A twentieth of each operation's answer time: a read's 20 s becomes 1 s. */
const SCALE = 1 / 20;
let sandbox: RunningSandbox;
let dir: string;

beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimitPerMinute: 10_000 });
  dir = mkdtempSync(join(tmpdir(), 'vir-answer-timeout-'));
});

afterAll(async () => {
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a read whose answer hangs fails after its own 20 s (scaled to 1 s), not the client five minutes', async () => {
  expect(answerTimeoutMsOf('get_startup')).toBe(20_000);
  expect(answerTimeoutMsOf('analyze_deck')).toBeGreaterThanOrEqual(90_000);
  const client = new VisClient({
    baseUrl: sandbox.url,
    apiKey: 'vis_live_sandbox_vc',
    headersTimeoutMs: 300_000,
    bodyTimeoutMs: 300_000,
  });
  const activities = createApiActivities({
    client,
    store: new LocalStore(join(dir, 'store')),
    options: { answerTimeoutScale: SCALE },
  });
  sandbox.setFaults({ hangRate: 1 });
  const from = sandbox.requestLog().length;
  const started = Date.now();
  try {
    const err = await activities
      .callApi({
        operation: 'get_startup',
        params: { key: 'anything' },
        runKey: 'timeout-run',
        name: 'startup',
      })
      .then(
        () => null,
        (e: unknown) => e,
      );
    const seconds = (Date.now() - started) / 1000;
    expect(err).toBeInstanceOf(ApplicationFailure);
    expect((err as ApplicationFailure).type).toBe('service_unavailable');
    expect((err as ApplicationFailure).nonRetryable).toBe(false);
    // Its own (scaled) time: 1 s, not less; far below the client's 300 s and the unscaled 20 s.
    const own = (answerTimeoutMsOf('get_startup') * SCALE) / 1000;
    expect(seconds).toBeGreaterThanOrEqual(own * 0.95);
    expect(seconds).toBeLessThan(10);
    // The request went out: the service's log has it, and the failure counts it as sent.
    expect(sandbox.requestLog().slice(from)).toHaveLength(1);
    expect((err as ApplicationFailure).details?.at(-1)).toMatchObject({ sent: 1, failed: 1 });
  } finally {
    sandbox.setFaults({});
    await client.close();
  }
  // The hang lasts the scaled 1 s; the rest is margin for a loaded machine.
}, 30_000);
