/**
 * `vir dev`: the whole system on one machine: the embedded Temporal dev server (SQLite file in
 * VIR_DATA_DIR, web UI), the sandbox service and the workers. Ctrl-C or SIGTERM stops them in
 * order: workers, then the sandbox, then Temporal; a second signal forces the exit.
 */
import { join } from 'node:path';
import type { Command } from 'commander';
import { startTemporalDevServer } from '../../scripts/temporal-server.js';
import type { Settings } from '../../config/settings.js';
import type { CliContext } from '../context.js';
import { CliError } from '../errors.js';
import { splitHostPort } from '../options.js';
import { shutdownSignalFor, startWorkersFor, untilShutdown } from './worker.js';

/** Key the workers use against the sandbox when VIS_API_KEY is not set (a seeded sandbox key). */
export const SANDBOX_DEFAULT_KEY = 'vis_live_sandbox_vc';

export interface DevOptions {
  sandbox: boolean;
  worker: boolean;
  headless: boolean;
}

/** What `vir dev` started. */
export interface DevEnvironment {
  temporalAddress: string;
  namespace: string;
  uiUrl: string | null;
  sandboxUrl: string | null;
  /** Settings the workers run with (VIS_BASE_URL pointed at the sandbox when it runs). */
  settings: Settings;
  /** Resolves when the workers stop (null without workers). */
  running: Promise<void> | null;
}

/**
 * Starts Temporal, the sandbox and the workers, registering their closers with the context in
 * the reverse of the stop order.
 */
export async function startDev(ctx: CliContext, options: DevOptions): Promise<DevEnvironment> {
  const base = ctx.settings();
  const { host, port } = splitHostPort(base.temporalAddress);
  const server = await startTemporalDevServer({
    ip: host,
    port,
    uiPort: base.temporalUiPort,
    headless: options.headless,
    dbFile: join(base.dataDir, 'temporal.sqlite'),
    namespace: base.temporalNamespace,
  });
  ctx.defer(() => server.close());
  let settings: Settings = { ...base, temporalAddress: server.address };

  let sandboxUrl: string | null = null;
  if (options.sandbox) {
    const { startSandbox } = await import('../../sandbox/index.js');
    const sandbox = await startSandbox({ port: base.sandboxPort });
    ctx.defer(() => sandbox.close());
    sandboxUrl = sandbox.url;
    settings = { ...settings, visBaseUrl: sandbox.url, visApiKey: base.visApiKey ?? SANDBOX_DEFAULT_KEY };
  }
  ctx.useSettings(settings);

  let running: Promise<void> | null = null;
  if (options.worker) {
    if (!settings.visApiKey) {
      throw new CliError(
        'VIS_API_KEY is not set: the workers need a key for VIS_BASE_URL (or run without --no-sandbox)',
      );
    }
    running = (await startWorkersFor(ctx, settings)).running;
  }
  return {
    temporalAddress: server.address,
    namespace: server.namespace,
    uiUrl: server.uiUrl,
    sandboxUrl,
    settings,
    running,
  };
}

/** Adds `dev` to the program. */
export function registerDev(program: Command, ctx: CliContext): void {
  program
    .command('dev')
    .description('run Temporal (embedded), the sandbox and the workers together until Ctrl-C')
    .option('--no-sandbox', 'do not start the sandbox (the workers use VIS_BASE_URL and VIS_API_KEY)')
    .option('--no-worker', 'do not start the workers')
    .option('--headless', 'no Temporal web UI')
    .action(async (opts: { sandbox: boolean; worker: boolean; headless?: boolean }) => {
      const signal = shutdownSignalFor(ctx);
      const env = await startDev(ctx, {
        sandbox: opts.sandbox,
        worker: opts.worker,
        headless: opts.headless === true,
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
    });
}
