/**
 * An update of the account workflow that gets no answer is given up at its deadline and sent
 * again, on the real embedded Temporal server: with no worker serving the account's task queue
 * (the state a hung request leaves the run in: nothing answers), the link fails after its
 * attempts with an error naming the queue, instead of holding the run's first activity until
 * its workers stop (seen once in CI); and when a worker starts polling after a send was given
 * up, the next send is answered.
 */
import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { afterAll, beforeAll, expect, inject, test, vi } from 'vitest';
import { AccountLink } from '../../activities/account.js';
import { workflowCode } from '../../runtime/workflow-bundle.js';

let connection: Connection;
let client: Client;

beforeAll(async () => {
  connection = await Connection.connect({ address: inject('temporalAddress') });
  client = new Client({ connection });
});

afterAll(async () => {
  await connection?.close();
});

function link(taskQueue: string) {
  return new AccountLink({
    client,
    taskQueue,
    accountId: `vir-account-deadline-${randomUUID()}`,
    perMinute: 60,
    perDay: 5000,
    caps: {},
    updateDeadlineMs: 400,
  });
}

/** Settles with the promise, or with 'still waiting' after `ms` (a hang shows as that). */
function within<T>(promise: Promise<T>, ms: number): Promise<T | 'still waiting'> {
  return Promise.race([
    promise,
    // What did not happen within `ms`: a time is the point, no event can say it.
    new Promise<'still waiting'>((r) => setTimeout(() => r('still waiting'), ms)),
  ]);
}

test('an update nobody answers is given up at its deadline, sent again, then fails naming the queue', async () => {
  const queue = `accounts-nobody-${randomUUID()}`;
  const l = link(queue);
  const outcome = await within(
    l.reserveDayCalls({ runId: 'r1', calls: 3, ttlMs: 60_000 }).then(
      () => 'answered',
      (err: unknown) => err,
    ),
    20_000,
  );
  expect(outcome).toBeInstanceOf(Error);
  expect((outcome as Error).message).toMatch(
    new RegExp(`answered no update within 0\\.4 s, 6 times: is a worker polling task queue ${queue}\\?`),
  );
  expect(l.hungUpdates).toBe(6);
});

test('an update given up at its deadline is answered once a worker polls the queue', async () => {
  const queue = `accounts-late-${randomUUID()}`;
  const l = link(queue);
  const decision = l.reserveDayCalls({ runId: 'r2', calls: 3, ttlMs: 60_000 });
  // The first send has hung (no worker); now a worker comes.
  await vi.waitFor(() => expect(l.hungUpdates).toBeGreaterThanOrEqual(1), { timeout: 10_000, interval: 50 });
  const native = await NativeConnection.connect({ address: inject('temporalAddress') });
  const worker = await Worker.create({ connection: native, taskQueue: queue, ...(await workflowCode()) });
  const running = worker.run();
  try {
    await expect(decision).resolves.toMatchObject({ granted: true });
  } finally {
    worker.shutdown();
    await running;
    await native.close();
  }
}, 60_000);
