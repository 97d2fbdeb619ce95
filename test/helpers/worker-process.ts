/**
 * Workers as separate OS processes: `cli/vir.sh worker` in its own process group, with the
 * settings given as environment variables, killed as a group (SIGKILL for a crash); and the test
 * bed their tests share (queues and folders of their own, a client).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, Connection } from '@temporalio/client';
import { loadSettings, type Settings } from '../../config/settings.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The environment a worker process of `settings` runs with (and `extra`). */
export function workerEnv(
  settings: Settings,
  key: string,
  extra: Record<string, string> = {},
): NodeJS.ProcessEnv {
  return {
    ...process.env,
    VIS_BASE_URL: settings.visBaseUrl,
    VIS_API_KEY: key,
    TEMPORAL_ADDRESS: settings.temporalAddress,
    VIR_TASK_QUEUE: settings.taskQueue,
    VIR_API_TASK_QUEUE: settings.apiTaskQueue,
    VIR_ACCOUNT_TASK_QUEUE: settings.accountTaskQueue,
    VIR_RATE_LIMIT_PER_MINUTE: String(settings.rateLimitPerMinute),
    VIR_RATE_LIMIT_PER_DAY: String(settings.rateLimitPerDay),
    VIR_STORE_DIR: settings.storeDir,
    VIR_REPORTS_DIR: settings.reportsDir,
    VIR_LOG_LEVEL: 'info',
    ...extra,
  };
}

/** Starts `vir worker`; resolves once it says its workers run, with everything it printed so far. */
export function startWorkerProcess(env: NodeJS.ProcessEnv): Promise<ChildProcess & { output: () => string }> {
  const child = spawn(join(root, 'cli/vir.sh'), ['worker'], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  let output = '';
  const withOutput = Object.assign(child, { output: () => output });
  return new Promise((resolve, reject) => {
    const onData = (c: Buffer) => {
      output += c.toString();
      if (/workers running/.test(output)) resolve(withOutput);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`worker exited (${code}) before running:\n${output}`)));
  });
}

/** Sends a signal to the worker's whole process group (the shell and node). */
export function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // already gone
  }
}

/** Stops a worker process (SIGTERM, then SIGKILL after `graceMs`) and waits for its exit. */
export async function stopWorkerProcess(child: ChildProcess, graceMs = 40_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  killGroup(child, 'SIGTERM');
  const force = setTimeout(() => killGroup(child, 'SIGKILL'), graceMs); // a stop that outlives its grace
  await exited;
  clearTimeout(force);
}

/** What a test of worker processes runs against: its own queues and folders, a client, its workers. */
export interface WorkerTestBed {
  settings: Settings;
  client: Client;
  /** The folder of the store and the reports (removed by `close`). */
  dir: string;
  /** Every worker process started through `startWorker`. */
  workers: ChildProcess[];
  /** Starts `vir worker` with the bed's settings; resolves once it runs. */
  startWorker(): Promise<ChildProcess>;
  /**
   * Stops the workers still running (SIGTERM, SIGKILL after `graceMs`; 0: SIGKILL at once),
   * closes the client's connection and removes the folder.
   */
  close(graceMs?: number): Promise<void>;
}

/**
 * Settings of queues and folders of their own for a test (`name` in the queue names), a Temporal
 * client, and worker processes started with those settings and `key`.
 *
 * @example
 * const bed = await workerTestBed({ name: 'kill', serviceUrl: sandbox.url, key, temporalAddress: inject('temporalAddress') });
 * const worker = await bed.startWorker();
 */
export async function workerTestBed(opts: {
  name: string;
  serviceUrl: string;
  key: string;
  temporalAddress: string;
  rateLimitPerMinute?: number;
  /** Extra settings (environment variables) of the bed and its workers. */
  env?: Record<string, string>;
}): Promise<WorkerTestBed> {
  const dir = mkdtempSync(join(tmpdir(), `vir-${opts.name}-`));
  const suffix = `${opts.name}-${process.pid}`;
  const settings = loadSettings({
    VIS_BASE_URL: opts.serviceUrl,
    VIS_API_KEY: opts.key,
    TEMPORAL_ADDRESS: opts.temporalAddress,
    VIR_TASK_QUEUE: `jobs-${suffix}`,
    VIR_API_TASK_QUEUE: `api-${suffix}`,
    VIR_ACCOUNT_TASK_QUEUE: `accounts-${suffix}`,
    VIR_RATE_LIMIT_PER_MINUTE: String(opts.rateLimitPerMinute ?? 6000),
    VIR_STORE_DIR: join(dir, 'store'),
    VIR_REPORTS_DIR: join(dir, 'reports'),
    ...opts.env,
  });
  const connection = await Connection.connect({ address: settings.temporalAddress });
  const client = new Client({ connection, namespace: settings.temporalNamespace });
  const workers: ChildProcess[] = [];
  return {
    settings,
    client,
    dir,
    workers,
    async startWorker() {
      // Their log level stays info: startWorkerProcess waits for their "workers running" line.
      const child = await startWorkerProcess(
        workerEnv(settings, opts.key, { ...opts.env, VIR_LOG_LEVEL: 'info' }),
      );
      workers.push(child);
      return child;
    },
    async close(graceMs = 40_000) {
      await Promise.all(
        workers.map((w) =>
          graceMs > 0
            ? stopWorkerProcess(w, graceMs).catch(() => killGroup(w, 'SIGKILL'))
            : Promise.resolve(killGroup(w, 'SIGKILL')),
        ),
      );
      await connection.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
