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
import { describeExit, supervise, type SuperviseOptions, type Supervision } from './supervisor.js';
import {
  startTemporalDevServer,
  temporalAnswers,
  type RunningTemporalServer,
  type TemporalServerOptions,
} from './temporal-server.js';
import { quietTemporalWarnings, startWorkers, type RunningWorkers, type WorkerTuning } from './workers.js';

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
        /**
         * Further sandbox options (sandbox/types.ts), e.g. `trustedCa` and `deckWaitMs` from a
         * kind's demo (jobs/kind.ts `KindDemo`).
         */
        extra?: Omit<SandboxModule.SandboxOptions, 'port' | 'stateFile' | 'state' | 'scale'>;
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
  /**
   * Watch what the stack started (`vir dev`): a Temporal server, sandbox, mail catcher or S3
   * server that exits on its own is said in one line and restarted the same way (the Temporal
   * server on its port with its SQLite file, so runs and schedules survive; the workers keep
   * running and reconnect, their retry warnings held back meanwhile), or given up
   * (`onGiveUp`: the owner stops). Default: not watched.
   */
  supervise?: Pick<SuperviseOptions, 'log' | 'onGiveUp'>;
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
  /** Every operation call the sandbox answered so far, oldest first (what it was asked, not what the runner says). */
  requestLog(): SandboxModule.SandboxRequest[];
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
    if ('close' in server) {
      if (options.supervise && !('reuse' in options.temporal)) {
        const watched = superviseTemporal(
          server,
          { ...options.temporal, namespace: base.temporalNamespace },
          options.supervise,
        );
        closers.push(() => watched.stop());
      } else {
        closers.push(() => server.close());
      }
    }
    let settings: Settings = { ...base, temporalAddress: server.address };

    let sandboxUrl: string | null = null;
    let localSandbox: LocalSandbox | null = null;
    if (options.sandbox) {
      const sandboxOptions = options.sandbox;
      const { sandbox, describeMarketWeek } = await startSandboxPackage(sandboxOptions);
      let current = () => sandbox;
      if (options.supervise) {
        const watched = supervise(
          {
            name: 'the sandbox',
            start: async () => (await startSandboxPackage({ ...sandboxOptions, port: sandbox.port })).sandbox,
            // Its state file is written and closed before a new one opens it.
            exited: async (s) => {
              await s.stopped;
              await s.close();
              return `(${s.url}) stopped listening`;
            },
            close: (s) => s.close(),
            restartNote: sandboxOptions.stateFile
              ? `same port, state in ${sandboxOptions.stateFile}`
              : 'same port, fresh state',
          },
          sandbox,
          options.supervise,
        );
        current = () => watched.current();
        closers.push(() => watched.stop());
      } else {
        closers.push(() => sandbox.close());
      }
      sandboxUrl = sandbox.url;
      localSandbox = {
        simulateMarketWeek: (weekOptions) => {
          const week = current().simulateMarketWeek(weekOptions);
          return { week, description: describeMarketWeek(week) };
        },
        requestLog: () => current().requestLog(),
      };
      settings = {
        ...settings,
        visBaseUrl: sandbox.url,
        visApiKey: base.visApiKey ?? options.sandbox.key ?? SANDBOX_DEFAULT_KEY,
      };
    }

    let delivery: DevDelivery | null = null;
    if (options.delivery) {
      const started = await startDevDelivery(
        options.supervise ? { ...options.delivery, supervise: options.supervise } : options.delivery,
      );
      closers.push(() => started.close());
      delivery = started;
    }

    let workers: RunningWorkers | null = null;
    let running: Promise<void> | null = null;
    if (options.workers) {
      // The deliveries read the environment the delivery settings were written to.
      const env = options.delivery ? options.delivery.env : undefined;
      const started = await startWorkers(settings, {
        ...options.workers,
        ...(env ? { env } : {}),
        ...(options.logger ? { logger: options.logger } : {}),
      });
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

/**
 * Restarts the embedded Temporal server when it exits on its own: on the port and UI port it had,
 * with the same SQLite file (runs and schedules survive) and the same `onSpawn` (the pid file
 * names the new process). The workers stay up and reconnect by themselves; their connection-retry
 * warnings are held back from the exit until the server answers again.
 */
function superviseTemporal(
  first: RunningTemporalServer,
  options: Omit<TemporalServerOptions, 'namespace'> & { namespace: string },
  watch: Pick<SuperviseOptions, 'log' | 'onGiveUp'>,
): Supervision<RunningTemporalServer> {
  const port = Number(first.address.split(':').at(-1));
  const uiPort = first.uiUrl === null ? undefined : Number(new URL(first.uiUrl).port);
  let release: (() => number) | null = null;
  let held = 0;
  return supervise(
    {
      name: 'the Temporal dev server',
      start: () => startTemporalDevServer({ ...options, port, ...(uiPort === undefined ? {} : { uiPort }) }),
      exited: (server) =>
        new Promise<string>((resolveExit) => {
          const { process: child } = server;
          const how = () => `(pid ${child.pid}) ${describeExit(child.exitCode, child.signalCode)}`;
          if (child.exitCode !== null || child.signalCode !== null) resolveExit(how());
          else child.once('exit', () => resolveExit(how()));
        }),
      close: (server) => server.close(),
      restartNote: `on ${first.address}${options.dbFile ? `, same SQLite file ${options.dbFile}` : ', in memory: its runs are lost'}`,
      describe: (server) =>
        `pid ${server.process.pid}, answering on ${server.address}; the workers reconnect` +
        (held > 0 ? ` (${held} of their connection-retry warnings held back)` : ''),
    },
    first,
    {
      ...watch,
      onDown: () => {
        release ??= quietTemporalWarnings();
      },
      onUp: () => {
        held = release?.() ?? 0;
        release = null;
      },
      onGiveUp: (error) => {
        release?.();
        release = null;
        watch.onGiveUp(error);
      },
    },
  );
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
  const { port, stateFile, state, scale, extra } = options;
  const sandbox = await mod.startSandbox({
    ...extra,
    port,
    ...(stateFile === undefined ? {} : { stateFile, state: state ?? 'persist' }),
    ...(scale === undefined ? {} : { scale }),
  });
  return { sandbox, describeMarketWeek: mod.describeMarketWeek };
}
