/**
 * The API queue's rate limit is set on the Temporal server from the settings once: a worker of
 * the same settings leaves it as it is, one of other settings says what it replaced, and a
 * server that refuses makes the workers fail to start with a message that says why.
 */
import { NativeConnection } from '@temporalio/worker';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { loadSettings } from '../../config/settings.js';
import { ensureApiQueueRateLimit, startWorkers } from '../../runtime/workers.js';

let connection: NativeConnection;
const queue = `api-limit-${process.pid}`;

beforeAll(async () => {
  connection = await NativeConnection.connect({ address: inject('temporalAddress') });
});

afterAll(async () => {
  await connection?.close();
});

test('is written when it differs from the settings, and only then', async () => {
  const first = await ensureApiQueueRateLimit(connection, 'default', queue, 0.95);
  expect(first).toEqual({ requestsPerSecond: 0.95, previous: null, changed: true });
  const again = await ensureApiQueueRateLimit(connection, 'default', queue, 0.95);
  // The server keeps a 32-bit float.
  expect(again.changed).toBe(false);
  expect(again.previous).toBeCloseTo(0.95, 6);
  const other = await ensureApiQueueRateLimit(connection, 'default', queue, 0.5);
  expect(other.changed).toBe(true);
  expect(other.previous).toBeCloseTo(0.95, 6);
  // The server's own record, read back (it may take a moment to show).
  let rps: number | null | undefined = null;
  for (let i = 0; i < 50; i++) {
    const described = await connection.workflowService.describeTaskQueue({
      namespace: 'default',
      taskQueue: { name: queue, kind: 1 },
      taskQueueType: 2,
      reportConfig: true,
    });
    rps = described.config?.queueRateLimit?.rateLimit?.requestsPerSecond;
    if (rps !== undefined && rps !== null && Math.abs(rps - 0.5) < 1e-6) break;
    await new Promise((r) => setTimeout(r, 100)); // polls the server until the limit shows
  }
  expect(rps).toBeCloseTo(0.5, 6);
});

test('workers do not start when the server refuses it, and say why', async () => {
  const settings = loadSettings({
    VIS_BASE_URL: 'http://127.0.0.1:9',
    VIS_API_KEY: 'vis_live_unused',
    TEMPORAL_ADDRESS: inject('temporalAddress'),
    TEMPORAL_NAMESPACE: 'vir-no-such-namespace',
    VIR_TASK_QUEUE: `jobs-limit-${process.pid}`,
    VIR_API_TASK_QUEUE: queue,
  });
  await expect(startWorkers(settings)).rejects.toThrow(
    /the API task queue's rate limit \(60\.000 calls a second, from VIR_RATE_LIMIT_PER_MINUTE\) could not be set on the Temporal server: .*vir-no-such-namespace/,
  );
});
