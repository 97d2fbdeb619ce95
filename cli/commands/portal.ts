/**
 * `vir portal`: the report portal in the browser (portal/server.ts): jobs, schedules, runs live,
 * every report to open or download, credits at a glance, and the few actions people take. It
 * listens on 127.0.0.1 unless `--host` says otherwise; any other address needs VIR_PORTAL_TOKEN.
 * Runs until Ctrl-C or SIGTERM.
 */
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { portOption } from '../options.js';
import { shutdownSignalFor, untilShutdown } from './worker.js';

export interface PortalCommandOptions {
  host?: string;
  port?: number;
  /** Job files listed besides those `vir run` searches. */
  file?: string[];
}

/**
 * Starts the portal on the context (closed with it) and resolves with its address.
 *
 * @example
 * const { url } = await startPortalFor(ctx, { port: 0 });
 */
export async function startPortalFor(ctx: CliContext, opts: PortalCommandOptions): Promise<{ url: string }> {
  const { startPortal } = await import('../../portal/server.js');
  const portal = await startPortal({
    ctx,
    ...(opts.host === undefined ? {} : { host: opts.host }),
    ...(opts.port === undefined ? {} : { port: opts.port }),
    jobFiles: opts.file ?? [],
  });
  ctx.defer(() => portal.close());
  return { url: portal.url };
}

/** Adds `portal` to the program. */
export function registerPortal(program: Command, ctx: CliContext): void {
  program
    .command('portal')
    .description(
      'the report portal in the browser: jobs, schedules, runs live, reports to open or download, credits, and the actions (run, cancel, redeliver, pause)',
    )
    .option(
      '--host <address>',
      'address to listen on (any but 127.0.0.1 needs VIR_PORTAL_TOKEN)',
      '127.0.0.1',
    )
    .option('--port <n>', 'port (default VIR_PORTAL_PORT, 8790; 0: a free one)', portOption)
    .option('-f, --file <path...>', 'job files to list besides config/jobs/*.yaml and the examples of jobs/')
    .action(async (opts: PortalCommandOptions) => {
      const signal = shutdownSignalFor(ctx);
      const { url } = await startPortalFor(ctx, opts);
      ctx.io.out(`Portal:           ${url}`);
      ctx.io.out('Press Ctrl-C to stop.');
      await untilShutdown(signal, null);
    });
}
