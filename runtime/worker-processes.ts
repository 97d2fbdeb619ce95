/**
 * Workers as real OS processes, each on a working directory of its own: `vir worker` started
 * the way `npm run worker` starts it (`bash cli/vir.sh worker`: the project's Node and tsx), in
 * a process group of its own, with an explicit environment (nothing of this process's `VIR_*`,
 * `VIS_*`, `TEMPORAL_*` or `AWS_*` variables leaks in), its log (stdout and stderr) written to a
 * file. The cluster tests and the scale-out benchmarks start, kill (SIGKILL to the whole group,
 * a crash) and stop (SIGTERM, the worker drains) them.
 *
 * Each worker gets a fresh temporary folder: its working directory, `VIR_DATA_DIR`
 * (`<dir>/data`: the local store and reports folders below it), `TMPDIR` (`<dir>/tmp`: the
 * generated workflow bundle entry too) and the log (`<dir>/worker.log`). Workers therefore share
 * no folder; with `store` given they share only the S3 bucket.
 *
 * @example
 * const w = await startWorkerProcess({
 *   name: 'a',
 *   temporalAddress: cluster.address,
 *   serviceUrl: sandbox.url,
 *   apiKey: 'vis_live_sandbox_vc',
 *   store: { url: 's3://vir-store/run1', endpoint: s3.endpoint, accessKeyId, secretAccessKey },
 *   rateLimitPerMinute: 600,
 * });
 * // w.pid (process group), w.nodePid (the Temporal worker identity `<nodePid>@<host>`), w.logFile
 * await w.kill9();   // or: await w.stop();
 * await w.remove();  // its folder
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The entry `npm run worker` uses: `bash cli/vir.sh worker`. */
export const VIR_SCRIPT = join(root, 'cli/vir.sh');

/** Variables of this process a worker inherits (the machine's, never the runner's settings). */
const INHERITED = ['PATH', 'HOME', 'USER', 'LOGNAME', 'LANG', 'LC_ALL', 'TZ', 'SHELL', 'TERM'] as const;

/** The S3 store the workers share (VIR_STORE_URL and the S3 client's settings). */
export interface WorkerStoreSettings {
  /** `s3://bucket/prefix` */
  url: string;
  /** VIR_STORE_S3_ENDPOINT, e.g. versitygw's `http://127.0.0.1:<port>`. */
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** AWS_REGION (default us-east-1). */
  region?: string;
}

export interface WorkerProcessOptions {
  /** A label for the folder, the log and messages (default `worker`). */
  name?: string;
  /** TEMPORAL_ADDRESS */
  temporalAddress: string;
  /** TEMPORAL_NAMESPACE (default `default`). */
  namespace?: string;
  /** VIS_BASE_URL */
  serviceUrl: string;
  /** VIS_API_KEY */
  apiKey: string;
  /** VIR_TASK_QUEUE, VIR_API_TASK_QUEUE, VIR_ACCOUNT_TASK_QUEUE (default: the settings' defaults). */
  queues?: { jobs?: string; api?: string; accounts?: string };
  /** VIR_RATE_LIMIT_PER_MINUTE / _PER_DAY (every worker of a key must have the same). */
  rateLimitPerMinute?: number;
  rateLimitPerDay?: number;
  /** The shared S3 store; without it the worker's store is the local folder in its own data dir. */
  store?: WorkerStoreSettings;
  /** VIR_LOG_LEVEL (default info: the readiness line is an info line). */
  logLevel?: string;
  /** More variables (win over everything above). */
  env?: Record<string, string>;
  /** The working directory (created when missing); default a fresh temporary folder. */
  dir?: string;
  /** How long to wait for the worker to poll (ms); default 180 s (bundling the workflows on a busy machine). */
  readyTimeoutMs?: number;
}

export interface WorkerProcess {
  name: string;
  /** Its working directory (VIR_DATA_DIR is `<dir>/data`). */
  dir: string;
  /** Its stdout and stderr. */
  logFile: string;
  /** The process group (the shell's pid). */
  pid: number;
  /** The Node process that runs the workers (from its identity). */
  nodePid: number | null;
  /** The Temporal worker identity (`<nodePid>@<hostname>`, from its `workers running` line), or null when not logged. */
  identity: string | null;
  /** The environment it was started with. */
  env: NodeJS.ProcessEnv;
  /** Milliseconds from spawn to polling. */
  startMs: number;
  /** What it has logged so far. */
  log(): string;
  /** Whether the process group's leader still runs. */
  running(): boolean;
  /** Resolves when the leader exits: its code or signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILL to the whole process group (a crash: nothing drains); resolves once the leader is gone. */
  kill9(): Promise<void>;
  /** SIGTERM to the group (the worker drains), SIGKILL after `graceMs` (default 45 s); resolves on exit. */
  stop(graceMs?: number): Promise<void>;
  /** Removes its folder (stop or kill it first). */
  remove(): void;
}

/** The worker exited or stayed silent before it polled. */
export class WorkerProcessStartError extends Error {
  readonly code = 'worker_process_start_failed';
  constructor(
    readonly worker: string,
    readonly reason: string,
    readonly log: string,
  ) {
    super(`worker ${worker} did not start polling: ${reason}\n--- its log (tail) ---\n${log.slice(-8000)}`);
    this.name = 'WorkerProcessStartError';
  }
}

/** The environment of a worker process: the machine's basics, then the options' settings. */
export function workerProcessEnv(options: WorkerProcessOptions, dir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of INHERITED) if (process.env[name] !== undefined) env[name] = process.env[name];
  Object.assign(env, {
    TMPDIR: join(dir, 'tmp'),
    VIR_DATA_DIR: join(dir, 'data'),
    TEMPORAL_ADDRESS: options.temporalAddress,
    TEMPORAL_NAMESPACE: options.namespace ?? 'default',
    VIS_BASE_URL: options.serviceUrl,
    VIS_API_KEY: options.apiKey,
    VIR_LOG_LEVEL: options.logLevel ?? 'info',
  });
  if (options.queues?.jobs) env.VIR_TASK_QUEUE = options.queues.jobs;
  if (options.queues?.api) env.VIR_API_TASK_QUEUE = options.queues.api;
  if (options.queues?.accounts) env.VIR_ACCOUNT_TASK_QUEUE = options.queues.accounts;
  if (options.rateLimitPerMinute !== undefined)
    env.VIR_RATE_LIMIT_PER_MINUTE = String(options.rateLimitPerMinute);
  if (options.rateLimitPerDay !== undefined) env.VIR_RATE_LIMIT_PER_DAY = String(options.rateLimitPerDay);
  const store = options.store;
  if (store) {
    env.VIR_STORE_URL = store.url;
    if (store.endpoint) env.VIR_STORE_S3_ENDPOINT = store.endpoint;
    if (store.accessKeyId) env.VIR_STORE_S3_ACCESS_KEY_ID = store.accessKeyId;
    if (store.secretAccessKey) env.VIR_STORE_S3_SECRET_ACCESS_KEY = store.secretAccessKey;
    env.AWS_REGION = store.region ?? 'us-east-1';
  }
  return { ...env, ...options.env };
}

/**
 * The Temporal worker identity of the `workers running` log line (`<pid>@<host>`: the SDK's
 * default, as histories name the worker of each task); null when the line does not carry it (a
 * pretty line); undefined while there is no such line.
 */
export function runningLineIdentity(log: string): string | null | undefined {
  for (const line of log.split('\n')) {
    if (!line.includes('workers running')) continue;
    try {
      const identity = (JSON.parse(line) as { identity?: unknown }).identity;
      return typeof identity === 'string' ? identity : null;
    } catch {
      return null;
    }
  }
  return undefined;
}

const live = new Set<{ pid: number; isRunning: () => boolean }>();
let exitHookInstalled = false;

/** Out of the terminal's process group a worker hears no Ctrl-C: if this process exits, kill them. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const w of live) {
      if (!w.isRunning()) continue;
      try {
        process.kill(-w.pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
  });
}

/**
 * Starts `vir worker` as its own process group in its own folder; resolves once it polls (its
 * `workers running` line), with the handle. A worker that exits first, or says nothing within
 * `readyTimeoutMs`, is killed and the error carries its log.
 */
export async function startWorkerProcess(options: WorkerProcessOptions): Promise<WorkerProcess> {
  const name = options.name ?? 'worker';
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), `vir-worker-${name.replace(/[^\w-]/g, '_')}-`));
  mkdirSync(join(dir, 'tmp'), { recursive: true });
  mkdirSync(join(dir, 'data'), { recursive: true });
  const logFile = join(dir, 'worker.log');
  const env = workerProcessEnv(options, dir);
  const fd = openSync(logFile, 'a');
  const started = Date.now();
  let child;
  try {
    child = spawn('bash', [VIR_SCRIPT, 'worker'], {
      cwd: dir,
      env,
      detached: true,
      stdio: ['ignore', fd, fd],
    });
  } finally {
    closeSync(fd);
  }
  const pid = child.pid;
  if (pid === undefined) throw new WorkerProcessStartError(name, 'spawn gave no pid', '');
  let exitState: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    child.once('exit', (code, signal) => {
      exitState = { code, signal };
      r(exitState);
    }),
  );
  const isRunning = () => exitState === null;
  const entry = { pid, isRunning };
  live.add(entry);
  installExitHook();
  void exited.then(() => live.delete(entry));

  const log = () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : '');
  const signal = (s: NodeJS.Signals) => {
    if (!isRunning()) return;
    try {
      process.kill(-pid, s);
    } catch {
      // already gone
    }
  };
  const kill9 = async () => {
    signal('SIGKILL');
    await exited;
  };
  const stop = async (graceMs = 45_000) => {
    if (!isRunning()) return;
    signal('SIGTERM');
    const force = setTimeout(() => signal('SIGKILL'), graceMs);
    await exited;
    clearTimeout(force);
  };

  const deadline = started + (options.readyTimeoutMs ?? 180_000);
  let identity: string | null | undefined;
  while ((identity = runningLineIdentity(log())) === undefined) {
    if (!isRunning()) {
      const state = exitState as { code: number | null; signal: NodeJS.Signals | null } | null;
      throw new WorkerProcessStartError(
        name,
        `it exited (${state?.signal ?? `code ${state?.code}`}) before polling`,
        log(),
      );
    }
    if (Date.now() > deadline) {
      await kill9();
      throw new WorkerProcessStartError(
        name,
        `no "workers running" line within ${deadline - started} ms`,
        log(),
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    name,
    dir,
    logFile,
    pid,
    nodePid: identity ? Number(identity.split('@')[0]) : null,
    identity,
    env,
    startMs: Date.now() - started,
    log,
    running: isRunning,
    exited,
    kill9,
    stop,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
