/**
 * Starts the embedded Temporal dev server (the CLI built by scripts/build-temporal.sh) and
 * waits until its frontend answers. Used by `vir dev` and the test suite's global setup.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Connection } from '@temporalio/client';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Updates in flight (admitted, not completed) per workflow that the server accepts: the
 * server's default of 10 refuses the account workflow's grants when several worker processes
 * page at once (each asks it before every API call; activities/account.ts). The local cluster
 * has the same value in config/temporal/dynamicconfig/cluster.yaml.
 */
export const SERVER_MAX_IN_FLIGHT_UPDATES = 200;

/**
 * Reads a second of each history shard's transfer queue (the tasks that hand a scheduled
 * activity or workflow task to matching). The server's default of 20 spaces the reads 50 ms
 * apart once its burst is spent: measured on the dev server, every activity then waited 45 ms
 * from scheduled to started (1 ms for the first few seconds, until the burst ran out), and
 * every workflow task as long. The embedded server has one shard on SQLite, so the reads are
 * cheap; the local cluster has the same value in config/temporal/dynamicconfig/cluster.yaml.
 */
export const SERVER_TRANSFER_POLL_RPS = 1000;

export interface TemporalServerOptions {
  /** Path of the temporal binary; default $TEMPORAL_CLI_PATH or .tools/bin/temporal. */
  executable?: string;
  ip?: string;
  /** gRPC port; 0 picks a free one. Default 7233. */
  port?: number;
  /** Web UI port; 0 picks a free one. Ignored when headless. */
  uiPort?: number;
  headless?: boolean;
  /** SQLite file for persistence; omitted means in memory. */
  dbFile?: string;
  namespace?: string;
  /** Extra `--dynamic-config-value` entries, e.g. { 'limit.historyCount.suggestContinueAsNew': 40 }. */
  dynamicConfig?: Record<string, string | number | boolean>;
  /** How long to wait for the server to answer (ms). Default 60 s. */
  startTimeoutMs?: number;
  /** Where the server's own log goes: 'inherit' or 'ignore' (default). */
  stdio?: 'inherit' | 'ignore';
  /**
   * Run the server in a process group of its own (a new session), so that a terminal's Ctrl-C
   * reaches only its owner (who stops it in order) and `close()` stops the whole group.
   */
  processGroup?: boolean;
  /**
   * Have Linux send the server SIGTERM when this process dies, even by SIGKILL (the parent-death
   * signal, set by util-linux `setpriv --pdeathsig` before it executes the server). Ignored where
   * `setpriv` is not found.
   */
  dieWithParent?: boolean;
  /** Called as soon as the server process exists (before it answers), e.g. to record its pid. */
  onSpawn?: (spawned: SpawnedTemporalServer) => void;
}

/** The server process as started: its pid, and the command line it runs (argv[0] first). */
export interface SpawnedTemporalServer {
  pid: number;
  /** Process group id (the pid itself with `processGroup`, else this process's group). */
  pgid: number;
  /** The server's command line: the executable, then its arguments. */
  argv: string[];
  ip: string;
  port: number;
  uiPort: number | null;
}

/** A port that something else already listens on. */
export class PortInUseError extends Error {
  readonly code = 'port_in_use';
  constructor(
    readonly host: string,
    readonly port: number,
  ) {
    super(`${host}:${port} is already in use`);
    this.name = 'PortInUseError';
  }
}

export interface RunningTemporalServer {
  address: string;
  namespace: string;
  uiUrl: string | null;
  process: ChildProcess;
  close(): Promise<void>;
}

/** Resolves when a Temporal server answers at `address` (its system info), else rejects. */
export async function temporalAnswers(address: string, connectTimeoutMs: number): Promise<void> {
  const conn = await Connection.connect({ address, connectTimeout: connectTimeoutMs });
  try {
    await conn.workflowService.getSystemInfo({});
  } finally {
    await conn.close();
  }
}

/** The kernel's range of ephemeral ports (what listen(0) and outgoing connections take), or null. */
function ephemeralRange(): [number, number] | null {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
    return Number.isSafeInteger(low) && Number.isSafeInteger(high) ? [low!, high!] : null;
  } catch {
    return null;
  }
}

/** The lowest port {@link freePort} picks from. */
const PICK_FROM = 10_000;

/**
 * A free TCP port on the given host, for a process that binds it a moment later (the Temporal
 * CLI, versitygw, `vir dev`). Picked at random below the kernel's ephemeral range when there is
 * room (from 10000): a port listen(0) gives lies in that range, where any outgoing connection or
 * another listen(0) on the machine can take it before the process binds it. Four test files at
 * once hit that ("already in use" on a port found free a moment before).
 */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  const range = ephemeralRange();
  if (range && range[0] - PICK_FROM >= 1_000) {
    for (let i = 0; i < 50; i += 1) {
      const port = PICK_FROM + Math.floor(Math.random() * (range[0] - PICK_FROM));
      if (await portIsFree(host, port)) return port;
    }
  }
  return ephemeralPort(host);
}

/** A port the kernel gives to listen(0), closed again. */
function ephemeralPort(host: string): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, host, () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolvePort(port));
    });
  });
}

/**
 * Whether host:port can be listened on now (nothing listens there). Errors other than
 * EADDRINUSE (e.g. an address not of this machine) are thrown.
 */
export async function portIsFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolveFree, reject) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') resolveFree(false);
      else reject(err);
    });
    srv.listen({ host, port, exclusive: true }, () => srv.close(() => resolveFree(true)));
  });
}

/** The process group of a process (Linux /proc), or the pid itself where that cannot be read. */
function processGroupOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const pgrp = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
    return Number.isSafeInteger(pgrp) ? pgrp : pid;
  } catch {
    return pid;
  }
}

/** The util-linux `setpriv` that can set a parent-death signal, or null. */
export function findSetpriv(): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter).concat('/usr/bin', '/bin')) {
    if (!dir) continue;
    const candidate = join(dir, 'setpriv');
    if (existsSync(candidate)) return candidate;
  }
  return null;
}

export function temporalExecutable(): string {
  return process.env.TEMPORAL_CLI_PATH || resolve(root, '.tools/bin/temporal');
}

/**
 * Starts `temporal server start-dev` and resolves once the frontend accepts connections.
 *
 * @example
 * const server = await startTemporalDevServer({ port: 0, headless: true });
 * // ... use server.address ...
 * await server.close();
 */
export async function startTemporalDevServer(
  options: TemporalServerOptions = {},
): Promise<RunningTemporalServer> {
  const executable = options.executable ?? temporalExecutable();
  if (!existsSync(executable)) {
    throw new Error(
      `Temporal CLI not found at ${executable}: run \`npm run setup\` (it builds the CLI from its Go module)`,
    );
  }
  const ip = options.ip ?? '127.0.0.1';
  const port = options.port === 0 ? await freePort(ip) : (options.port ?? 7233);
  if (!(await portIsFree(ip, port))) throw new PortInUseError(ip, port);
  const namespace = options.namespace ?? 'default';
  const args = ['server', 'start-dev', '--ip', ip, '--port', String(port), '--namespace', namespace];
  args.push('--log-level', 'warn', '--log-format', 'pretty');
  let uiUrl: string | null = null;
  let uiPort: number | null = null;
  if (options.headless) {
    args.push('--headless');
  } else {
    uiPort = options.uiPort === 0 ? await freePort(ip) : (options.uiPort ?? port + 1000);
    if (!(await portIsFree(ip, uiPort))) throw new PortInUseError(ip, uiPort);
    args.push('--ui-port', String(uiPort));
    uiUrl = `http://${ip}:${uiPort}`;
  }
  if (options.dbFile) {
    mkdirSync(dirname(options.dbFile), { recursive: true });
    args.push('--db-filename', options.dbFile);
  }
  const dynamic = {
    'frontend.enableServerVersionCheck': false,
    'history.maxInFlightUpdates': SERVER_MAX_IN_FLIGHT_UPDATES,
    'history.transferProcessorMaxPollRPS': SERVER_TRANSFER_POLL_RPS,
    ...options.dynamicConfig,
  };
  for (const [k, v] of Object.entries(dynamic))
    args.push('--dynamic-config-value', `${k}=${JSON.stringify(v)}`);

  const setpriv = options.dieWithParent && process.platform === 'linux' ? findSetpriv() : null;
  const child = spawn(
    setpriv ?? executable,
    setpriv ? ['--pdeathsig', 'TERM', '--', executable, ...args] : args,
    {
      stdio: ['ignore', options.stdio ?? 'ignore', options.stdio ?? 'ignore'],
      detached: options.processGroup === true,
    },
  );
  let exited: string | null = null;
  child.once('exit', (code, signal) => {
    exited = `exited with ${signal ?? code}`;
  });
  // The whole group when the server has one of its own, else the process alone.
  const kill = (signal: NodeJS.Signals) => {
    try {
      if (options.processGroup && child.pid !== undefined) process.kill(-child.pid, signal);
      else child.kill(signal);
    } catch {
      // already gone
    }
  };
  if (options.processGroup) {
    // Out of the terminal's process group, the server hears no Ctrl-C: if this process exits
    // without close() (a forced exit, process.exit on an error), it still gets SIGTERM.
    const onExit = () => kill('SIGTERM');
    process.once('exit', onExit);
    child.once('exit', () => process.off('exit', onExit));
  }
  if (child.pid !== undefined && options.onSpawn) {
    try {
      options.onSpawn({
        pid: child.pid,
        pgid: options.processGroup ? child.pid : processGroupOf(process.pid),
        argv: [executable, ...args],
        ip,
        port,
        uiPort,
      });
    } catch (err) {
      kill('SIGKILL');
      throw err;
    }
  }
  const address = `${ip}:${port}`;
  const deadline = Date.now() + (options.startTimeoutMs ?? 60_000);
  for (;;) {
    if (exited) throw new Error(`Temporal dev server ${exited} before it answered on ${address}`);
    try {
      await temporalAnswers(address, 1000);
      break;
    } catch (err) {
      if (Date.now() > deadline) {
        kill('SIGKILL');
        throw new Error(`Temporal dev server did not answer on ${address} within the start timeout`, {
          cause: err,
        });
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  // What answered must be this server (it exits when its port was taken after the check).
  if (exited) throw new Error(`Temporal dev server ${exited} before it answered on ${address}`);
  return {
    address,
    namespace,
    uiUrl,
    process: child,
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const done = new Promise<void>((r) => child.once('exit', () => r()));
      kill('SIGTERM');
      const timer = setTimeout(() => kill('SIGKILL'), 10_000);
      await done;
      clearTimeout(timer);
    },
  };
}
