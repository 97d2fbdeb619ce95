/**
 * A runner for one benchmark scenario: workers of the real settings (their own job and API
 * queues, the account workflows on the bench's queue) against a given sandbox, a Temporal
 * client, and a scratch folder; everything is closed and removed afterwards.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { loadSettings, type Settings } from '../config/settings.js';
import { startLocalStack, type LocalStack } from '../runtime/local-stack.js';
import { startWorkers } from '../runtime/workers.js';

export interface BenchRunner {
  client: Client;
  settings: Settings;
  /** The scenario's scratch folder (store and reports). */
  dir: string;
}

let scenario = 0;

/**
 * Runs `fn` with workers and a client for a sandbox at `sandboxUrl`; `env` adds settings.
 *
 * @example
 * const log = await withBenchRunner(address, sandbox.url, 'key', {}, async ({ client, settings }) => ...);
 */
export async function withBenchRunner<T>(
  temporalAddress: string,
  sandboxUrl: string,
  apiKey: string,
  env: Record<string, string>,
  fn: (runner: BenchRunner) => Promise<T>,
): Promise<T> {
  const tag = `${process.pid}-${++scenario}`;
  const dir = mkdtempSync(join(tmpdir(), 'vir-bench-'));
  try {
    const settings = loadSettings({
      VIS_BASE_URL: sandboxUrl,
      VIS_API_KEY: apiKey,
      TEMPORAL_ADDRESS: temporalAddress,
      VIR_TASK_QUEUE: `bench-jobs-${tag}`,
      VIR_API_TASK_QUEUE: `bench-api-${tag}`,
      VIR_ACCOUNT_TASK_QUEUE: `bench-accounts-${process.pid}`,
      VIR_STORE_DIR: join(dir, 'store'),
      VIR_REPORTS_DIR: join(dir, 'reports'),
      VIR_LOG_LEVEL: 'warn',
      ...env,
    });
    // Worker-level variables (VIR_ACCOUNT_PERMITS, ...) are read from the tuning's environment.
    const workers = await startWorkers(settings, { env: { ...process.env, ...env } });
    const running = workers.run();
    let connection: Connection | undefined;
    try {
      connection = await Connection.connect({ address: temporalAddress });
      return await fn({
        client: new Client({ connection, namespace: settings.temporalNamespace }),
        settings,
        dir,
      });
    } finally {
      await workers.shutdown();
      await running;
      await connection?.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The benchmarks' Temporal: the SDK's runtime installed with its warnings counted, not shown
 * (activities failed by injected faults log them), errors shown; then the embedded dev server
 * alone (each scenario starts its own sandbox and workers).
 *
 * @example
 * const { stack, sdkWarnings } = await quietEmbeddedTemporal();
 */
export async function quietEmbeddedTemporal(): Promise<{ stack: LocalStack; sdkWarnings: () => number }> {
  let warnings = 0;
  Runtime.install({
    logger: new DefaultLogger('WARN', (entry) => {
      if (entry.level === 'ERROR') console.error(`[temporal] ${entry.message}`, entry.meta ?? '');
      else warnings += 1;
    }),
    telemetryOptions: { logging: { filter: { core: 'WARN', other: 'ERROR' }, forward: {} } },
  });
  const stack = await startLocalStack(loadSettings({}), {
    temporal: { port: 0, headless: true },
    sandbox: false,
    workers: false,
  });
  return { stack, sdkWarnings: () => warnings };
}
