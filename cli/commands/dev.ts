/**
 * `vir dev`: the whole system on one machine: the embedded Temporal dev server (SQLite file in
 * VIR_DATA_DIR, web UI), the sandbox service and the workers. Ctrl-C or SIGTERM stops them in
 * order: workers, then the sandbox, then Temporal; a second signal forces the exit.
 */
import { join } from 'node:path';
import { Option, type Command } from 'commander';
import { startLocalStack, type LocalStack } from '../../runtime/local-stack.js';
import type { CliContext } from '../context.js';
import { CliError } from '../errors.js';
import { splitHostPort } from '../options.js';
import { shutdownSignalFor, untilShutdown } from './worker.js';

export interface DevOptions {
  sandbox: boolean;
  worker: boolean;
  headless: boolean;
  /** The sandbox's state: kept in <VIR_DATA_DIR>/sandbox-state.sqlite (persist, reset) or not (memory). */
  sandboxState?: DevSandboxState;
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
): { port: number; stateFile?: string; state?: 'persist' | 'reset' } {
  return state === 'memory' ? { port } : { port, stateFile: join(dataDir, DEV_SANDBOX_STATE_FILE), state };
}

/** Starts Temporal, the sandbox and the workers; they stop when the context closes. */
export async function startDev(ctx: CliContext, options: DevOptions): Promise<LocalStack> {
  const base = ctx.settings();
  if (options.worker && !options.sandbox && !base.visApiKey) {
    throw new CliError(
      'VIS_API_KEY is not set: the workers need a key for VIS_BASE_URL (or run without --no-sandbox)',
    );
  }
  const { host, port } = splitHostPort(base.temporalAddress);
  const stack = await startLocalStack(base, {
    temporal: {
      ip: host,
      port,
      uiPort: base.temporalUiPort,
      headless: options.headless,
      dbFile: join(base.dataDir, 'temporal.sqlite'),
    },
    sandbox: options.sandbox ? devSandbox(base.sandboxPort, base.dataDir, options.sandboxState) : false,
    workers: options.worker ? {} : false,
    logger: ctx.logger(),
  });
  ctx.defer(() => stack.close());
  ctx.useSettings(stack.settings);
  return stack;
}

/** Adds `dev` to the program. */
export function registerDev(program: Command, ctx: CliContext): void {
  program
    .command('dev')
    .description('run Temporal (embedded), the sandbox and the workers together until Ctrl-C')
    .option('--no-sandbox', 'do not start the sandbox (the workers use VIS_BASE_URL and VIS_API_KEY)')
    .option('--no-worker', 'do not start the workers')
    .option('--headless', 'no Temporal web UI')
    .addOption(
      new Option(
        '--sandbox-state <mode>',
        `the sandbox's balances, rate-limit windows, rooms...: persist (in <VIR_DATA_DIR>/${DEV_SANDBOX_STATE_FILE}), reset (start over, then persist) or memory (fresh, nothing written)`,
      )
        .choices(DEV_SANDBOX_STATES)
        .default('persist'),
    )
    .action(
      async (opts: {
        sandbox: boolean;
        worker: boolean;
        headless?: boolean;
        sandboxState: DevSandboxState;
      }) => {
        const signal = shutdownSignalFor(ctx);
        const env = await startDev(ctx, {
          sandbox: opts.sandbox,
          worker: opts.worker,
          headless: opts.headless === true,
          sandboxState: opts.sandboxState,
        });
        ctx.io.out(`Temporal UI:      ${env.uiUrl ?? '(headless)'}`);
        ctx.io.out(`Temporal address: ${env.temporalAddress} (namespace ${env.namespace})`);
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
