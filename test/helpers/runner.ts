/**
 * Test harness for job runs: real workers on the embedded Temporal server (from the global
 * setup) against a real sandbox over HTTP, each test file on its own task queues and folders.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection, type WorkflowHandle } from '@temporalio/client';
import { DefaultLogger, Runtime, type LogEntry } from '@temporalio/worker';
import { afterAll, beforeAll, beforeEach, inject } from 'vitest';
import { loadSettings, type Settings } from '../../config/settings.js';
import { startWorkers, type RunningWorkers, type WorkerTuning } from '../../runtime/workers.js';
import { followRun } from '../../cli/run-job.js';
import type { JobRunResult } from '../../workflows/engine.js';
import { progressQuery, type RunProgress } from '../../workflows/index.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { startFixedDateSandbox, startTestSandbox } from './sandbox.js';

export interface RunnerHarness {
  settings: Settings;
  client: Client;
  workers: RunningWorkers;
  dir: string;
  /** Stops the workers and closes the connection; removes the folders. */
  close(): Promise<void>;
}

let seq = 0;

/** followRun options that print nothing (tests read the result, not the progress lines). */
export const QUIET = { tty: false, out: { write: () => true } as unknown as NodeJS.WriteStream };

/** Every log entry of the Temporal runtime (workers, activities) in this test process. */
export const capturedLogs: LogEntry[] = [];
let runtimeInstalled = false;

/** Sends the SDK's logs to `capturedLogs` (printing only errors), once per process. */
export function captureRuntimeLogs(): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  Runtime.install({
    logger: new DefaultLogger('DEBUG', (entry) => {
      capturedLogs.push(entry);
      if (entry.level === 'ERROR') console.error(`[temporal] ${entry.message}`, entry.meta ?? '');
    }),
  });
}

/**
 * Starts workers against the given sandbox URL and key.
 *
 * @example
 * const h = await startRunner({ baseUrl: sandbox.url, apiKey: 'vis_live_sandbox_vc' });
 */
export async function startRunner(opts: {
  baseUrl: string;
  apiKey: string;
  rateLimitPerMinute?: number;
  tuning?: WorkerTuning;
  name?: string;
  /** Extra environment settings (e.g. VIR_RATE_LIMIT_PER_MINUTE). */
  env?: Record<string, string>;
}): Promise<RunnerHarness> {
  captureRuntimeLogs();
  const dir = mkdtempSync(join(tmpdir(), 'vir-run-'));
  const suffix = `${opts.name ?? 'test'}-${process.pid}-${++seq}`;
  const settings = loadSettings({
    VIS_BASE_URL: opts.baseUrl,
    VIS_API_KEY: opts.apiKey,
    TEMPORAL_ADDRESS: inject('temporalAddress'),
    VIR_TASK_QUEUE: `jobs-${suffix}`,
    VIR_API_TASK_QUEUE: `api-${suffix}`,
    // The account workflows of this test process, served by any of its runners (not by other files').
    VIR_ACCOUNT_TASK_QUEUE: `accounts-${process.pid}`,
    VIR_RATE_LIMIT_PER_MINUTE: String(opts.rateLimitPerMinute ?? 6000),
    VIR_STORE_DIR: join(dir, 'store'),
    VIR_REPORTS_DIR: join(dir, 'reports'),
    VIR_LOG_LEVEL: 'warn',
    ...opts.env,
  });
  const workers = await startWorkers(settings, opts.tuning);
  const running = workers.run();
  const connection = await Connection.connect({ address: settings.temporalAddress });
  const client = new Client({ connection, namespace: settings.temporalNamespace });
  return {
    settings,
    client,
    workers,
    dir,
    async close() {
      await workers.shutdown();
      await running;
      await connection.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Follows a run to its end while asking its progress every 100 ms: the result and every
 * progress seen (a wait for the daily limit shows there).
 *
 * @example
 * const { result, seen } = await followWatching(handle);
 * expect(seen.some((p) => p.waitingUntil !== null)).toBe(true);
 */
export async function followWatching<R extends JobRunResult>(
  handle: WorkflowHandle,
): Promise<{ result: R; seen: RunProgress[] }> {
  const seen: RunProgress[] = [];
  const poll = setInterval(() => {
    handle.query(progressQuery).then(
      (p) => seen.push(p),
      () => undefined,
    );
  }, 100);
  try {
    return { result: await followRun<R>(handle, QUIET), seen };
  } finally {
    clearInterval(poll);
  }
}

/**
 * The bed of a file of tests of paid calls under faults: a sandbox (rate limit lifted) and a
 * runner on `key` whose HTTP timeout is 6 s (an answer that never finishes is given up; a real
 * answer on a loaded machine, a find_investors in a few seconds, is not), started
 * before the file's tests and closed after them, the sandbox's faults cleared before each test.
 * `set` hands both to the file once they run.
 *
 * @example
 * let sandbox: RunningSandbox; let h: RunnerHarness;
 * paidFaultsBed('paid', KEYS.vc, (s, r) => ((sandbox = s), (h = r)));
 */
export function paidFaultsBed(
  name: string,
  key: string,
  set: (sandbox: RunningSandbox, harness: RunnerHarness) => void,
): void {
  let sandbox: RunningSandbox | undefined;
  let harness: RunnerHarness | undefined;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ rateLimitPerMinute: 10_000 });
    harness = await startRunner({
      baseUrl: sandbox.url,
      apiKey: key,
      name,
      env: { VIR_HTTP_TIMEOUT_MS: '6000' },
    });
    set(sandbox, harness);
  });
  afterAll(async () => {
    await harness?.close();
    await sandbox?.close();
  });
  beforeEach(() => sandbox?.setFaults({}));
}

/**
 * The bed of a file of market report runs on the fixed test date: a sandbox of
 * {@link startFixedDateSandbox} and a runner on the VC key, started before the file's tests and
 * closed after them. `set` hands the runner to the file once it runs.
 *
 * @example
 * let h: RunnerHarness;
 * fixedDateBed('same-output', (r) => (h = r));
 */
export function fixedDateBed(name: string, set: (harness: RunnerHarness) => void): void {
  let sandbox: RunningSandbox | undefined;
  let harness: RunnerHarness | undefined;
  beforeAll(async () => {
    sandbox = await startFixedDateSandbox();
    harness = await startRunner({ baseUrl: sandbox.url, apiKey: 'vis_live_sandbox_vc', name });
    set(harness);
  });
  afterAll(async () => {
    await harness?.close();
    await sandbox?.close();
  });
}
