/**
 * `vir dev`: the whole system on one machine: the embedded Temporal dev server (SQLite file in
 * VIR_DATA_DIR, web UI), the sandbox service and the workers. Ctrl-C or SIGTERM stops them in
 * order: workers, then the sandbox, then Temporal; a second signal forces the exit.
 *
 * It never leaves a server behind: the Temporal server runs in a process group of its own,
 * recorded in a pid file in VIR_DATA_DIR (runtime/dev-pid-file.ts) that is removed on stop. The
 * next `vir dev` on that data dir stops a server group that a killed `vir dev` left running,
 * refuses while the recorded `vir dev` is alive, and refuses ports taken by anything it did not
 * start (unless `--reuse-temporal`). Where Linux allows, the server also gets SIGTERM when its
 * `vir dev` dies (parent-death signal).
 */
import { join } from 'node:path';
import { Option, type Command } from 'commander';
import {
  claimDevPidFile,
  describeCleanup,
  DevAlreadyRunningError,
  type DevPidFile,
} from '../../runtime/dev-pid-file.js';
import { startLocalStack, type LocalStack } from '../../runtime/local-stack.js';
import { readProcess } from '../../runtime/processes.js';
import { portIsFree } from '../../runtime/temporal-server.js';
import type { CliContext } from '../context.js';
import { CliError } from '../errors.js';
import { SANDBOX_MAX_SCALE, sandboxScaleOption, splitHostPort } from '../options.js';
import { shutdownSignalFor, untilShutdown } from './worker.js';

export interface DevOptions {
  sandbox: boolean;
  worker: boolean;
  headless: boolean;
  /** Use the Temporal server already at TEMPORAL_ADDRESS instead of starting one; it is never stopped. */
  reuseTemporal?: boolean;
  /** Have Linux stop the server when this process dies (parent-death signal). Default true. */
  parentDeathSignal?: boolean;
  /** The sandbox's state: kept in <VIR_DATA_DIR>/sandbox-state.sqlite (persist, reset) or not (memory). */
  sandboxState?: DevSandboxState;
  /** Size of the sandbox's generated data (its option `scale`; default 1). */
  sandboxScale?: number;
}

/** Values of `vir dev --sandbox-state`. */
export const DEV_SANDBOX_STATES = ['persist', 'reset', 'memory'] as const;
export type DevSandboxState = (typeof DEV_SANDBOX_STATES)[number];

/** The sandbox's state file under `vir dev`, beside Temporal's. */
export const DEV_SANDBOX_STATE_FILE = 'sandbox-state.sqlite';

/** The sandbox of `vir dev`: its state persists beside Temporal's unless `memory` is asked for. */
function devSandbox(
  port: number,
  dataDir: string,
  state: DevSandboxState = 'persist',
  scale?: number,
): { port: number; stateFile?: string; state?: 'persist' | 'reset'; scale?: number } {
  const sized = scale === undefined ? { port } : { port, scale };
  return state === 'memory' ? sized : { ...sized, stateFile: join(dataDir, DEV_SANDBOX_STATE_FILE), state };
}

/** Starts Temporal, the sandbox and the workers; they stop when the context closes. */
export async function startDev(ctx: CliContext, options: DevOptions): Promise<LocalStack> {
  const base = ctx.settings();
  if (options.worker && !options.sandbox && !base.visApiKey) {
    throw new CliError(
      'VIS_API_KEY is not set: the workers need a key for VIS_BASE_URL (or run without --no-sandbox)',
    );
  }
  const log = ctx.logger();
  const reuse = options.reuseTemporal === true;
  const { host, port } = splitHostPort(base.temporalAddress);
  const ports = {
    host,
    frontend: port,
    ui: reuse || options.headless ? null : base.temporalUiPort,
    sandbox: options.sandbox ? base.sandboxPort : null,
  };
  const file = await claimPidFile(ctx, base.dataDir, ports, reuse);
  await refuseTakenPorts(base.dataDir, ports, reuse);

  const stack = await startLocalStack(base, {
    temporal: reuse
      ? { reuse: base.temporalAddress }
      : {
          ip: host,
          port,
          uiPort: base.temporalUiPort,
          headless: options.headless,
          dbFile: join(base.dataDir, 'temporal.sqlite'),
          processGroup: true,
          dieWithParent: options.parentDeathSignal !== false,
          onSpawn: (server) =>
            file.update({
              temporal: {
                pid: server.pid,
                pgid: server.pgid,
                startTime: readProcess(server.pid)?.startTime ?? null,
                argv: server.argv,
              },
              ports: { frontend: server.port, ui: server.uiPort },
            }),
        },
    sandbox: options.sandbox
      ? devSandbox(base.sandboxPort, base.dataDir, options.sandboxState, options.sandboxScale)
      : false,
    workers: options.worker ? {} : false,
    logger: log,
  });
  ctx.defer(() => stack.close());
  ctx.useSettings(stack.settings);
  if (stack.sandboxUrl) file.update({ ports: { sandbox: Number(new URL(stack.sandboxUrl).port) } });
  log.debug({ pidFile: file.path, record: file.record }, 'vir dev pid file written');
  return stack;
}

/**
 * Takes the data dir's pid file (removed again when the context closes), cleaning up after a
 * `vir dev` that died; refuses while another `vir dev` runs there.
 */
async function claimPidFile(
  ctx: CliContext,
  dataDir: string,
  ports: Parameters<typeof claimDevPidFile>[1],
  reusedTemporal: boolean,
): Promise<DevPidFile> {
  let claimed: Awaited<ReturnType<typeof claimDevPidFile>>;
  try {
    claimed = await claimDevPidFile(dataDir, ports, { reusedTemporal });
  } catch (err) {
    if (err instanceof DevAlreadyRunningError) {
      throw new CliError(
        `vir dev is already running (pid ${err.pid}) on the data dir ${dataDir}: stop it first ` +
          `(Ctrl-C in its terminal, or kill -TERM ${err.pid}), or start this one with another VIR_DATA_DIR`,
      );
    }
    throw err;
  }
  const { file, cleaned } = claimed;
  ctx.defer(() => file.release());
  if (cleaned) {
    ctx.logger().warn(
      {
        pidFile: cleaned.file,
        previous: cleaned.record && { vir: cleaned.record.vir.pid, temporal: cleaned.record.temporal?.pid },
        stopped: cleaned.stopped,
        busyPorts: cleaned.busyPorts,
      },
      describeCleanup(cleaned),
    );
  }
  return file;
}

/** Refuses ports already taken: by now none of them can be a server a `vir dev` of this data dir started. */
async function refuseTakenPorts(
  dataDir: string,
  ports: { host: string; frontend: number; ui: number | null; sandbox: number | null },
  reuse: boolean,
): Promise<void> {
  const notOurs = `is already in use by a server this vir dev did not start (no live vir dev pid file in ${dataDir} records it)`;
  const checks: [number | null, string, string][] = [
    [
      reuse ? null : ports.frontend,
      'TEMPORAL_ADDRESS',
      'stop what listens there, set TEMPORAL_ADDRESS to a free port, or pass --reuse-temporal to use the Temporal server there (vir dev will not stop it)',
    ],
    [
      ports.ui,
      'VIR_TEMPORAL_UI_PORT',
      'stop what listens there, set VIR_TEMPORAL_UI_PORT to a free port, or pass --headless',
    ],
    [
      ports.sandbox,
      'VIR_SANDBOX_PORT',
      'stop what listens there, set VIR_SANDBOX_PORT to a free port, or pass --no-sandbox',
    ],
  ];
  for (const [port, variable, howTo] of checks) {
    if (port === null || port === 0) continue;
    if (!(await portIsFree(ports.host, port))) {
      throw new CliError(`${ports.host}:${port} (${variable}) ${notOurs}: ${howTo}`);
    }
  }
}

/** Adds `dev` to the program. */
export function registerDev(program: Command, ctx: CliContext): void {
  program
    .command('dev')
    .description('run Temporal (embedded), the sandbox and the workers together until Ctrl-C')
    .option('--no-sandbox', 'do not start the sandbox (the workers use VIS_BASE_URL and VIS_API_KEY)')
    .option('--no-worker', 'do not start the workers')
    .option('--headless', 'no Temporal web UI')
    .option(
      '--reuse-temporal',
      'use the Temporal server already listening at TEMPORAL_ADDRESS instead of starting one (never stopped by vir dev)',
    )
    // For the tests: a Temporal server that outlives a killed `vir dev`, as where Linux's
    // parent-death signal is not available, to prove the next `vir dev` cleans it up.
    .addOption(new Option('--no-parent-death-signal').hideHelp())
    .addOption(
      new Option(
        '--sandbox-state <mode>',
        `the sandbox's balances, rate-limit windows, rooms...: persist (in <VIR_DATA_DIR>/${DEV_SANDBOX_STATE_FILE}), reset (start over, then persist) or memory (fresh, nothing written)`,
      )
        .choices(DEV_SANDBOX_STATES)
        .default('persist'),
    )
    .option(
      '--sandbox-scale <n>',
      `size of the sandbox's generated data: n times 21,000 startups and 5,400 investors, 1 to ${SANDBOX_MAX_SCALE} (default 1; 5 builds in about 20 s once, then is cached)`,
      sandboxScaleOption,
    )
    .action(
      async (opts: {
        sandbox: boolean;
        worker: boolean;
        headless?: boolean;
        reuseTemporal?: boolean;
        parentDeathSignal: boolean;
        sandboxState: DevSandboxState;
        sandboxScale?: number;
      }) => {
        const signal = shutdownSignalFor(ctx);
        const env = await startDev(ctx, {
          sandbox: opts.sandbox,
          worker: opts.worker,
          headless: opts.headless === true,
          reuseTemporal: opts.reuseTemporal === true,
          parentDeathSignal: opts.parentDeathSignal,
          sandboxState: opts.sandboxState,
          ...(opts.sandboxScale === undefined ? {} : { sandboxScale: opts.sandboxScale }),
        });
        const reused = opts.reuseTemporal === true;
        ctx.io.out(`Temporal UI:      ${env.uiUrl ?? (reused ? '(not started by vir dev)' : '(headless)')}`);
        ctx.io.out(
          `Temporal address: ${env.temporalAddress} (namespace ${env.namespace}${reused ? '; reused, not stopped by vir dev' : ''})`,
        );
        ctx.io.out(
          `Sandbox:          ${env.sandboxUrl ?? `(not started; service at ${env.settings.visBaseUrl})`}`,
        );
        ctx.io.out(
          `Workers:          ${env.running ? `polling ${env.settings.taskQueue} and ${env.settings.apiTaskQueue}` : '(not started)'}`,
        );
        ctx.io.out('Press Ctrl-C to stop.');
        await untilShutdown(signal, env.running);
      },
    );
}
