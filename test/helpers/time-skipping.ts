/**
 * Temporal's time-skipping test environment for workflow decisions: the Java test server
 * (scripts/build-test-server.sh, fetched from the Maven registry) started by
 * @temporalio/testing, the project's workflow code bundled once (the global setup's bundle), and workers
 * whose activities are plain functions. Timers (the daily-limit wait, retry backoffs, the
 * account's windows) pass as soon as nothing else is running, so a test of a ten-hour wait
 * takes milliseconds. What only real servers prove (the sandbox's balance and request log, a
 * killed worker) stays in the end-to-end tests.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker, type WorkerOptions } from '@temporalio/worker';
import { workflowCode } from '../../runtime/workflow-bundle.js';
import { captureRuntimeLogs } from './runner.js';

const TEST_SERVER = fileURLToPath(new URL('../../.tools/bin/temporal-test-server', import.meta.url));

/**
 * Starts a time-skipping test server for one test file.
 *
 * @example
 * const env = await startTimeSkipping();
 * afterAll(() => env.teardown());
 */
export async function startTimeSkipping(): Promise<TestWorkflowEnvironment> {
  if (!existsSync(TEST_SERVER)) {
    throw new Error(`${TEST_SERVER} is missing: run bash scripts/build-test-server.sh (npm test runs it)`);
  }
  captureRuntimeLogs();
  return TestWorkflowEnvironment.createTimeSkipping({
    server: { executable: { type: 'existing-path', path: TEST_SERVER } },
  });
}

/**
 * A worker of the project's workflows on `taskQueue`, its activities plain functions.
 *
 * @example
 * const worker = await skippingWorker(env, { taskQueue: 'q', activities: { callApi: async () => out } });
 * await worker.runUntil(env.client.workflow.execute(...));
 */
export async function skippingWorker(
  env: TestWorkflowEnvironment,
  options: Pick<WorkerOptions, 'taskQueue'> &
    Partial<Omit<WorkerOptions, 'connection' | 'workflowBundle' | 'workflowsPath'>>,
): Promise<Worker> {
  return Worker.create({
    connection: env.nativeConnection,
    ...(await workflowCode()),
    ...options,
  });
}
