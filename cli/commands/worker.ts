/**
 * `vir worker`: runs the workflow worker and the rate-limited API worker against
 * TEMPORAL_ADDRESS / TEMPORAL_NAMESPACE until SIGINT or SIGTERM, then shuts them down cleanly.
 */
import { hostname } from 'node:os';
import type { Command } from 'commander';
import type { Settings } from '../../config/settings.js';
import type { CliContext } from '../context.js';
import { onShutdownSignal, type ShutdownSignal } from '../signals.js';

/** Workers started by {@link startWorkersFor}: their run promise and a stop that waits for it. */
export interface WorkersHandle {
  running: Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts the workers (runtime/workers.ts) and registers their shutdown with the
 * context, so they stop before anything registered earlier (sandbox, Temporal).
 */
export async function startWorkersFor(ctx: CliContext, settings: Settings): Promise<WorkersHandle> {
  const { startWorkers } = await import('../../runtime/workers.js');
  const workers = await startWorkers(settings, { logger: ctx.logger() });
  const q = workers.queueRateLimit;
  const rate = (rps: number) => `${(rps * 60).toFixed(1)} calls a minute`;
  ctx
    .logger()
    .info(
      { queue: settings.apiTaskQueue, requestsPerSecond: q.requestsPerSecond, previous: q.previous },
      (q.changed
        ? `API queue rate limit (a backstop) set to ${rate(q.requestsPerSecond)} (was ${q.previous === null ? 'the server default' : rate(q.previous)})`
        : `API queue rate limit (a backstop) ${rate(q.requestsPerSecond)}, as already set`) +
        "; calls are paced by the account workflow from the service's rate-limit headers",
    );
  const running = workers.run();
  let stopped: Promise<void> | null = null;
  const stop = () => {
    stopped ??= (async () => {
      await workers.shutdown();
      // A failure of the run is reported by the command itself, not again while closing.
      await running.catch(() => {});
    })();
    return stopped;
  };
  ctx.defer(stop);
  return { running, stop };
}

/**
 * Installs the SIGINT/SIGTERM handlers for a long-running command. Call it first, so the
 * handlers go away last (after every closer): a second signal then still forces the exit.
 */
export function shutdownSignalFor(ctx: CliContext): ShutdownSignal {
  const signal = onShutdownSignal((s) => ctx.io.err(`${s} received: stopping (again to force)`));
  ctx.defer(() => signal.dispose());
  return signal;
}

/**
 * Waits for the first shutdown signal, or for the workers to stop on their own (error or not).
 * The wait itself keeps the process alive: signal handlers do not, and a command may have
 * nothing else running (`vir dev --reuse-temporal --no-sandbox --no-worker`).
 */
export async function untilShutdown(signal: ShutdownSignal, running: Promise<unknown> | null): Promise<void> {
  const keepAlive = setInterval(() => {}, 1 << 30);
  try {
    await Promise.race([signal.received, ...(running ? [running] : [])]);
  } finally {
    clearInterval(keepAlive);
  }
}

/** Adds `worker` to the program. */
export function registerWorker(program: Command, ctx: CliContext): void {
  program
    .command('worker')
    .description('run the workers (workflows + rate-limited API activities) until Ctrl-C or SIGTERM')
    .action(async () => {
      const settings = ctx.settings();
      const log = ctx.logger();
      const signal = shutdownSignalFor(ctx);
      const { running } = await startWorkersFor(ctx, settings);
      log.info(
        {
          temporal: settings.temporalAddress,
          namespace: settings.temporalNamespace,
          queues: [settings.taskQueue, settings.apiTaskQueue, settings.accountTaskQueue],
          // The SDK's default worker identity, as workflow histories name the worker of each task.
          identity: `${process.pid}@${hostname()}`,
        },
        'workers running',
      );
      ctx.io.err(
        `workers polling ${settings.taskQueue}, ${settings.apiTaskQueue} and ${settings.accountTaskQueue} on ${settings.temporalAddress} (namespace ${settings.temporalNamespace}); Ctrl-C to stop`,
      );
      await untilShutdown(signal, running);
    });
}
