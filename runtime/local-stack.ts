/**
 * The whole system on one machine: the embedded Temporal dev server (or one already running),
 * optionally the sandbox service, `vir dev`'s delivery servers (mail catcher, S3) and the
 * workers. `vir dev`, `vir demo` and the benchmarks start it here; `close()` stops what was
 * started in the reverse order (workers, delivery servers, sandbox, Temporal), and a start that
 * fails half way stops what it had started.
 */
import type { Logger } from 'pino';
import type { Settings } from '../config/settings.js';
import type * as SandboxModule from '../sandbox/index.js';
import { startDevDelivery, type DevDelivery, type DevDeliveryOptions } from './dev-delivery.js';
import { startTemporalDevServer, temporalAnswers, type TemporalServerOptions } from './temporal-server.js';
import { installRuntimeLogger, startWorkers, type RunningWorkers, type WorkerTuning } from './workers.js';

/** Key the workers use against the sandbox when VIS_API_KEY is not set (a seeded sandbox key). */
export const SANDBOX_DEFAULT_KEY = 'vis_live_sandbox_vc';

export interface LocalStackOptions {
  /**
   * The embedded Temporal server to start (port 0: a free one), or `{ reuse: address }`: a
   * server already running there, which is used as it is and never stopped.
   */
  temporal: Omit<TemporalServerOptions, 'namespace'> | { reuse: string };
  /**
   * Start the sandbox on this port (0: a free one), or not at all (false). With `stateFile` its
   * state (balances, rate-limit windows, rooms...) persists there across restarts (`state`:
   * `persist` by default, `reset` to start over); without, it starts fresh.
   */
  sandbox:
    | {
        port: number;
        stateFile?: string;
        state?: 'persist' | 'reset';
        /** The seeded key the workers use when VIS_API_KEY is not set (default {@link SANDBOX_DEFAULT_KEY}). */
        key?: string;
        /** Size of its generated data (the sandbox option `scale`; default 1). */
        scale?: number;
      }
    | false;
  /**
   * Start the mail catcher and the S3 server before the workers, and point the delivery settings
   * at them where the user has set none (runtime/dev-delivery.ts), in `env` (default
   * process.env), which the workers' deliveries then read; default none.
   */
  delivery?: DevDeliveryOptions | false;
  /** Start the workers (with this tuning), or not (false). */
  workers: WorkerTuning | false;
  /** Where the workers' Temporal SDK logs go (redacted); default the SDK's own. */
  logger?: Logger;
}

/** What the demo may do with the in-process sandbox beside serving the interface. */
export interface LocalSandbox {
  /**
   * Moves the sandbox's market on by a simulated week of news about the fund thesis of the key's
   * account (sandbox/market-week.ts); returns the week and its description in one line.
   */
  simulateMarketWeek(options?: SandboxModule.MarketWeekOptions & { key?: string }): {
    week: SandboxModule.MarketWeek;
    description: string;
  };
}

/** What {@link startLocalStack} started. */
export interface LocalStack {
  temporalAddress: string;
  namespace: string;
  uiUrl: string | null;
  sandboxUrl: string | null;
  /** The in-process sandbox's demo controls (null when the stack started no sandbox). */
  sandbox: LocalSandbox | null;
  /** The delivery servers started and the settings written for them (null: none asked for). */
  delivery: DevDelivery | null;
  /** Settings the workers run with (VIS_BASE_URL pointed at the sandbox when it runs). */
  settings: Settings;
  workers: RunningWorkers | null;
  /** Resolves when the workers stop (null without workers). */
  running: Promise<void> | null;
  /** Stops the workers, then the delivery servers, the sandbox, Temporal (unless reused). Idempotent. */
  close(): Promise<void>;
}

/**
 * Starts Temporal, then the sandbox, the delivery servers, the workers.
 *
 * @example
 * const stack = await startLocalStack(loadSettings(), { temporal: { port: 0 }, sandbox: { port: 0 }, workers: {} });
 * try { ... } finally { await stack.close(); }
 */
export async function startLocalStack(base: Settings, options: LocalStackOptions): Promise<LocalStack> {
  const closers: (() => Promise<void>)[] = [];
  let closing: Promise<void> | null = null;
  const close = () => {
    closing ??= (async () => {
      for (const c of closers.reverse()) await c().catch(() => undefined);
    })();
    return closing;
  };
  try {
    const server =
      'reuse' in options.temporal
        ? await existingTemporal(options.temporal.reuse, base.temporalNamespace)
        : await startTemporalDevServer({ ...options.temporal, namespace: base.temporalNamespace });
    if ('close' in server) closers.push(() => server.close());
    let settings: Settings = { ...base, temporalAddress: server.address };

    let sandboxUrl: string | null = null;
    let localSandbox: LocalSandbox | null = null;
    if (options.sandbox) {
      const { sandbox, describeMarketWeek } = await startSandboxPackage(options.sandbox);
      closers.push(() => sandbox.close());
      sandboxUrl = sandbox.url;
      localSandbox = {
        simulateMarketWeek: (weekOptions) => {
          const week = sandbox.simulateMarketWeek(weekOptions);
          return { week, description: describeMarketWeek(week) };
        },
      };
      settings = {
        ...settings,
        visBaseUrl: sandbox.url,
        visApiKey: base.visApiKey ?? options.sandbox.key ?? SANDBOX_DEFAULT_KEY,
      };
    }

    let delivery: DevDelivery | null = null;
    if (options.delivery) {
      const started = await startDevDelivery(options.delivery);
      closers.push(() => started.close());
      delivery = started;
    }

    let workers: RunningWorkers | null = null;
    let running: Promise<void> | null = null;
    if (options.workers) {
      if (options.logger) installRuntimeLogger(options.logger);
      // The deliveries read the environment the delivery settings were written to.
      const env = options.delivery ? options.delivery.env : undefined;
      const started = await startWorkers(settings, env ? { ...options.workers, env } : options.workers);
      workers = started;
      running = started.run();
      // A failure of the run is reported by whoever awaits `running`, not again while closing.
      closers.push(async () => {
        await started.shutdown();
        await running?.catch(() => undefined);
      });
    }
    return {
      temporalAddress: server.address,
      namespace: server.namespace,
      uiUrl: server.uiUrl,
      sandboxUrl,
      sandbox: localSandbox,
      delivery,
      settings,
      workers,
      running,
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

/** A Temporal server that runs already: checked to answer at `address`, not stopped by the stack. */
async function existingTemporal(
  address: string,
  namespace: string,
): Promise<{ address: string; namespace: string; uiUrl: null }> {
  try {
    await temporalAnswers(address, 5000);
  } catch (err) {
    throw new Error(`no Temporal server answers at ${address}: ${(err as Error).message}`, { cause: err });
  }
  return { address, namespace, uiUrl: null };
}

/** Starts the sandbox, a workspace package of its own that a production install leaves out. */
async function startSandboxPackage(options: Exclude<LocalStackOptions['sandbox'], false>): Promise<{
  sandbox: SandboxModule.RunningSandbox;
  describeMarketWeek: typeof SandboxModule.describeMarketWeek;
}> {
  let mod: typeof SandboxModule;
  try {
    mod = await import('../sandbox/index.js');
  } catch (err) {
    throw new Error(
      `the sandbox is not installed here (${(err as Error).message.split('\n')[0]}); ` +
        'install the development dependencies (npm ci) or point VIS_BASE_URL at the service and pass --no-sandbox',
      { cause: err },
    );
  }
  const { port, stateFile, state, scale } = options;
  const sandbox = await mod.startSandbox({
    port,
    ...(stateFile === undefined ? {} : { stateFile, state: state ?? 'persist' }),
    ...(scale === undefined ? {} : { scale }),
  });
  return { sandbox, describeMarketWeek: mod.describeMarketWeek };
}
