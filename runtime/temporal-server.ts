/**
 * Starts the embedded Temporal dev server (the CLI built by scripts/build-temporal.sh) and
 * waits until its frontend answers. Used by `vir dev` and the test suite's global setup.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Connection } from '@temporalio/client';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

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
}

export interface RunningTemporalServer {
  address: string;
  namespace: string;
  uiUrl: string | null;
  process: ChildProcess;
  close(): Promise<void>;
}

/** A free TCP port on the given host. */
export async function freePort(host = '127.0.0.1'): Promise<number> {
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
  const namespace = options.namespace ?? 'default';
  const args = ['server', 'start-dev', '--ip', ip, '--port', String(port), '--namespace', namespace];
  args.push('--log-level', 'warn', '--log-format', 'pretty');
  let uiUrl: string | null = null;
  if (options.headless) {
    args.push('--headless');
  } else {
    const uiPort = options.uiPort === 0 ? await freePort(ip) : (options.uiPort ?? port + 1000);
    args.push('--ui-port', String(uiPort));
    uiUrl = `http://${ip}:${uiPort}`;
  }
  if (options.dbFile) {
    mkdirSync(dirname(options.dbFile), { recursive: true });
    args.push('--db-filename', options.dbFile);
  }
  const dynamic = { 'frontend.enableServerVersionCheck': false, ...options.dynamicConfig };
  for (const [k, v] of Object.entries(dynamic))
    args.push('--dynamic-config-value', `${k}=${JSON.stringify(v)}`);

  const child = spawn(executable, args, {
    stdio: ['ignore', options.stdio ?? 'ignore', options.stdio ?? 'ignore'],
  });
  let exited: string | null = null;
  child.once('exit', (code, signal) => {
    exited = `exited with ${signal ?? code}`;
  });
  const address = `${ip}:${port}`;
  const deadline = Date.now() + (options.startTimeoutMs ?? 60_000);
  for (;;) {
    if (exited) throw new Error(`Temporal dev server ${exited} before it answered on ${address}`);
    try {
      const conn = await Connection.connect({ address, connectTimeout: 1000 });
      try {
        await conn.workflowService.getSystemInfo({});
      } finally {
        await conn.close();
      }
      break;
    } catch (err) {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`Temporal dev server did not answer on ${address} within the start timeout`, {
          cause: err,
        });
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  return {
    address,
    namespace,
    uiUrl,
    process: child,
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const done = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await done;
      clearTimeout(timer);
    },
  };
}
