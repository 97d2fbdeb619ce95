/**
 * The local Temporal cluster (PostgreSQL and the Temporal server, scripts/cluster.sh) from
 * TypeScript: the cluster tests and the scale-out benchmarks bring it up, restart its server and
 * take it down through the script, on ports and a data folder of their own.
 *
 * @example
 * const ports = await findFreeClusterPorts();
 * const cluster = await clusterUp({ dir: mkdtempSync(join(tmpdir(), 'vir-cluster-')), ...ports });
 * // cluster.address = 127.0.0.1:<temporalPort>, namespace default
 * await restartClusterServer(cluster);  // the Temporal server only; PostgreSQL keeps running
 * await clusterDown(cluster, { purge: true });
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { portIsFree } from './temporal-server.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The script that runs the cluster. */
export const CLUSTER_SCRIPT = join(root, 'scripts/cluster.sh');

/** The script's defaults (the values of config/temporal/cluster.yaml). */
export const CLUSTER_DEFAULTS = {
  dir: join(root, '.data/cluster'),
  pgPort: 15432,
  temporalPort: 17233,
  namespace: 'default',
  /** Seconds the script waits for the frontend and the namespace. */
  startTimeoutS: 120,
  /** Seconds between the server's SIGTERM and SIGKILL. */
  stopTimeoutS: 30,
  /** Longest one script call may take (ms). */
  timeoutMs: 300_000,
} as const;

export interface ClusterOptions {
  /** Data folder (VIR_CLUSTER_DIR); default .data/cluster. */
  dir?: string;
  /** PostgreSQL's port on 127.0.0.1 (VIR_CLUSTER_PG_PORT); default 15432. */
  pgPort?: number;
  /** The frontend's port (VIR_CLUSTER_TEMPORAL_PORT); the server's other ports follow from it. Default 17233. */
  temporalPort?: number;
  /** The namespace `up` creates; default `default`. */
  namespace?: string;
  startTimeoutS?: number;
  stopTimeoutS?: number;
  /** Longest one script call may take (ms). */
  timeoutMs?: number;
  /** The environment the script runs in (default process.env); the options above override it. */
  env?: NodeJS.ProcessEnv;
}

export interface ResolvedClusterOptions extends Required<Omit<ClusterOptions, 'env'>> {
  env: NodeJS.ProcessEnv;
}

/** A running cluster as `up` or `restart-server` left it. */
export interface Cluster extends ResolvedClusterOptions {
  /** The frontend: `127.0.0.1:<temporalPort>`. */
  address: string;
  /** What the script printed (its steps and how long each took). */
  output: string;
  /** How long the script call took (ms). */
  ms: number;
}

/** The script failed: its command, exit code and output. */
export class ClusterScriptError extends Error {
  readonly code = 'cluster_script_failed';
  constructor(
    readonly command: string,
    readonly exitCode: number | string | null,
    readonly output: string,
    options?: { cause?: unknown },
  ) {
    super(`scripts/cluster.sh ${command} failed (exit ${exitCode ?? 'none'}):\n${output.trim()}`, options);
    this.name = 'ClusterScriptError';
  }
}

function port(field: string, value: number): number {
  if (!Number.isInteger(value) || value < 1 || value > 65535) {
    throw new RangeError(`cluster option ${field} must be a port (1..65535), got ${value}`);
  }
  return value;
}

function positive(field: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) {
    throw new RangeError(`cluster option ${field} must be a positive number, got ${value}`);
  }
  return value;
}

/** Options with their defaults, checked; a bad value is a RangeError naming the field. */
export function resolveClusterOptions(options: ClusterOptions = {}): ResolvedClusterOptions {
  const temporalPort = port('temporalPort', options.temporalPort ?? CLUSTER_DEFAULTS.temporalPort);
  if (temporalPort - 300 < 1024 || temporalPort + 10 > 65535) {
    throw new RangeError(
      `cluster option temporalPort ${temporalPort} leaves no room for the derived ports (${temporalPort - 300}..${temporalPort + 10} must lie in 1024..65535)`,
    );
  }
  const pgPort = port('pgPort', options.pgPort ?? CLUSTER_DEFAULTS.pgPort);
  if (clusterTemporalPorts(temporalPort).includes(pgPort)) {
    throw new RangeError(`cluster option pgPort ${pgPort} is one of the Temporal server's ports`);
  }
  return {
    dir: resolve(options.dir ?? CLUSTER_DEFAULTS.dir),
    pgPort,
    temporalPort,
    namespace: options.namespace ?? CLUSTER_DEFAULTS.namespace,
    startTimeoutS: positive('startTimeoutS', options.startTimeoutS ?? CLUSTER_DEFAULTS.startTimeoutS),
    stopTimeoutS: positive('stopTimeoutS', options.stopTimeoutS ?? CLUSTER_DEFAULTS.stopTimeoutS),
    timeoutMs: positive('timeoutMs', options.timeoutMs ?? CLUSTER_DEFAULTS.timeoutMs),
    env: options.env ?? process.env,
  };
}

/**
 * Every port the Temporal server listens on, from the frontend's, with the offsets of
 * config/temporal/cluster.yaml: frontend, history +1, matching +2, worker +6, frontend HTTP +10,
 * and the membership ports -300, -299, -298, -294.
 */
export function clusterTemporalPorts(temporalPort: number): number[] {
  return [0, 1, 2, 6, 10, -300, -299, -298, -294].map((offset) => temporalPort + offset);
}

/**
 * Ports for a cluster of one's own: PostgreSQL's and a frontend port whose derived ports are all
 * free now. Picked below Linux's ephemeral range (32768..), where outgoing connections take theirs.
 */
export async function findFreeClusterPorts(
  host = '127.0.0.1',
  range: [number, number] = [20_300, 32_000],
): Promise<{ pgPort: number; temporalPort: number }> {
  const [low, high] = range;
  const pick = () => low + Math.floor(Math.random() * (high - low));
  const allFree = async (ports: number[]) => {
    for (const p of ports) if (!(await portIsFree(host, p))) return false;
    return true;
  };
  for (let attempt = 0; attempt < 100; attempt++) {
    const temporalPort = pick();
    const pgPort = pick();
    const ports = clusterTemporalPorts(temporalPort);
    if (ports.includes(pgPort)) continue;
    if (await allFree([...ports, pgPort])) return { pgPort, temporalPort };
  }
  throw new Error(`no free ports for a cluster in ${low}..${high} after 100 tries`);
}

/** Runs `scripts/cluster.sh <args>` with the options' environment; resolves with its output. */
export function runClusterScript(
  options: ResolvedClusterOptions,
  args: string[],
): Promise<{ output: string; ms: number }> {
  const started = Date.now();
  const env: NodeJS.ProcessEnv = {
    ...options.env,
    VIR_CLUSTER_DIR: options.dir,
    VIR_CLUSTER_PG_PORT: String(options.pgPort),
    VIR_CLUSTER_TEMPORAL_PORT: String(options.temporalPort),
    VIR_CLUSTER_NAMESPACE: options.namespace,
    VIR_CLUSTER_START_TIMEOUT: String(Math.ceil(options.startTimeoutS)),
    VIR_CLUSTER_STOP_TIMEOUT: String(Math.ceil(options.stopTimeoutS)),
  };
  return new Promise((resolveRun, reject) => {
    execFile(
      'bash',
      [CLUSTER_SCRIPT, ...args],
      { env, cwd: root, timeout: options.timeoutMs, killSignal: 'SIGTERM', maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const output = `${stdout}${stderr}`;
        if (err) {
          const exitCode = (err as { code?: number | string }).code ?? (err.killed ? 'timeout' : null);
          reject(new ClusterScriptError(args.join(' '), exitCode, output, { cause: err }));
        } else {
          resolveRun({ output, ms: Date.now() - started });
        }
      },
    );
  });
}

function addressFrom(output: string, options: ResolvedClusterOptions): string {
  return /^TEMPORAL_ADDRESS=(\S+)$/m.exec(output)?.[1] ?? `127.0.0.1:${options.temporalPort}`;
}

/**
 * Brings the cluster up (`cluster.sh up`): initdb and schema the first time, PostgreSQL and the
 * Temporal server started when not running; resolves once the frontend serves the namespace.
 */
export async function clusterUp(options: ClusterOptions = {}): Promise<Cluster> {
  const resolved = resolveClusterOptions(options);
  const { output, ms } = await runClusterScript(resolved, ['up']);
  return { ...resolved, address: addressFrom(output, resolved), output, ms };
}

/**
 * Stops the Temporal server and starts it again (`cluster.sh restart-server`); PostgreSQL keeps
 * running. Resolves once the frontend serves the namespace again.
 */
export async function restartClusterServer(options: ClusterOptions = {}): Promise<Cluster> {
  const resolved = resolveClusterOptions(options);
  const { output, ms } = await runClusterScript(resolved, ['restart-server']);
  return { ...resolved, address: addressFrom(output, resolved), output, ms };
}

/** Stops the server and PostgreSQL (`cluster.sh down`); `purge` deletes the data folder too. */
export async function clusterDown(
  options: ClusterOptions = {},
  { purge = false }: { purge?: boolean } = {},
): Promise<{ output: string; ms: number }> {
  return runClusterScript(resolveClusterOptions(options), purge ? ['down', '--purge'] : ['down']);
}

/** Whether PostgreSQL runs and the frontend answers (`cluster.sh status`), and what it printed. */
export async function clusterStatus(options: ClusterOptions = {}): Promise<{ up: boolean; output: string }> {
  try {
    const { output } = await runClusterScript(resolveClusterOptions(options), ['status']);
    return { up: true, output };
  } catch (err) {
    if (err instanceof ClusterScriptError && err.exitCode === 1) return { up: false, output: err.output };
    throw err;
  }
}

/** psql of the PostgreSQL the cluster script uses: VIR_PG_BINDIR's, the newest Debian one, or `psql` on PATH. */
export function psqlPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.VIR_PG_BINDIR) return join(env.VIR_PG_BINDIR, 'psql');
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base)
    ? readdirSync(base)
        .filter((v) => existsSync(join(base, v, 'bin/psql')))
        .sort((a, b) => Number(a) - Number(b))
    : [];
  const newest = versions.at(-1);
  return newest ? join(base, newest, 'bin/psql') : 'psql';
}

/**
 * Runs one SQL statement in one of the cluster's databases (`temporal`, `temporal_visibility`)
 * as the `temporal` user; resolves with its rows, one string a row, columns joined by `|`.
 */
export function clusterSql(
  options: Pick<ClusterOptions, 'pgPort' | 'env'>,
  database: string,
  sql: string,
): Promise<string[]> {
  const pgPort = port('pgPort', options.pgPort ?? CLUSTER_DEFAULTS.pgPort);
  const env = options.env ?? process.env;
  const args = [
    '-X',
    '-q',
    '-A',
    '-t',
    '-h',
    '127.0.0.1',
    '-p',
    String(pgPort),
    '-U',
    'temporal',
    '-d',
    database,
  ];
  return new Promise((resolveRows, reject) => {
    execFile(psqlPath(env), [...args, '-c', sql], { env, timeout: 30_000 }, (err, stdout, stderr) => {
      if (err)
        reject(new Error(`psql on 127.0.0.1:${pgPort}/${database} failed: ${stderr.trim()}`, { cause: err }));
      else resolveRows(stdout.split('\n').filter((line) => line !== ''));
    });
  });
}
