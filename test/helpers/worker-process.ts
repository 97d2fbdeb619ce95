/**
 * Workers as separate OS processes: `cli/vir.sh worker` in its own process group, with the
 * settings given as environment variables, killed as a group (SIGKILL for a crash).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Settings } from '../../config/settings.js';

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
  const force = setTimeout(() => killGroup(child, 'SIGKILL'), graceMs);
  await exited;
  clearTimeout(force);
}
