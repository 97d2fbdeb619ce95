/**
 * The worker process: one worker on the jobs task queue (every kind's workflow, the shared run
 * activities and each kind's own activities, all from the registry) and one on the API task
 * queue (the service calls). The API task queue carries a queue-wide rate limit derived from
 * the key's limit, set on the server and sent by every worker alike, so all workers together
 * stay under it.
 */
import {
  DefaultLogger,
  makeTelemetryFilterString,
  NativeConnection,
  Runtime,
  Worker,
  type LogLevel,
} from '@temporalio/worker';
import type { Logger } from 'pino';
import proto from '@temporalio/proto';
import { createApiActivities, type ApiCaller } from '../activities/api.js';
import { createCheckActivities } from '../jobs/check.js';
import { withHeartbeats } from '../activities/heartbeat.js';
import { createDeliveryActivities } from '../activities/delivery/deliver.js';
import { createRunActivities } from '../activities/run.js';
import { createRerenderActivities } from '../activities/rerender.js';
import { S3Store } from '../activities/s3-store.js';
import { LocalStore, type Store } from '../activities/store.js';
import { deckTrustedCa, requireApiKey, type Settings } from '../config/settings.js';
import { Client } from '@temporalio/client';
import {
  ACCOUNT_MAX_IN_FLIGHT,
  ACCOUNT_PERMITS,
  AccountLink,
  accountIdOf,
  type AccountPermits,
} from '../activities/account.js';
import type { KindActivities, KindActivityDeps } from '../jobs/kind.js';
import { JOB_KINDS } from '../jobs/registry.js';
import { serviceClient } from './service.js';
import { workflowCode } from './workflow-bundle.js';

/** Tuning of the workers beyond the settings (tests and benchmarks set these). */
export interface WorkerTuning {
  /** Concurrent API calls per worker (default 16). */
  maxConcurrentApiCalls?: number;
  /**
   * Updates of the account workflow this process sends at a time (default
   * VIR_ACCOUNT_MAX_IN_FLIGHT, else 8; the server admits 10 a workflow unless raised).
   */
  accountMaxInFlight?: number;
  /** How long one update of the account workflow may go unanswered before it is sent again (default 30 s). */
  accountUpdateDeadlineMs?: number;
  /** A 429 whose reset is further away than this is waited out durably by the workflow (default 120 s). */
  dailyLimitThresholdMs?: number;
  /** Other real dependencies (tests): a client and a store. */
  client?: ApiCaller & { close?: () => Promise<void> };
  store?: Store;
  /** Where the deliveries read SMTP settings, webhook secrets and S3 keys (default process.env). */
  env?: NodeJS.ProcessEnv;
  /**
   * The project's logger for the Temporal SDK's own logs ({@link installRuntimeLogger}), installed
   * before the first connection or worker exists: a worker created first would make the SDK's
   * default runtime, which prints its notices raw to the console (and can no longer be replaced).
   */
  logger?: Logger;
}

/**
 * The claim-check store the settings name (VIR_STORE_URL): the local folder, or the S3 bucket
 * with the S3 delivery's keys and endpoint from `env`.
 */
export function storeOf(settings: Pick<Settings, 'store'>, env: NodeJS.ProcessEnv = process.env): Store {
  const s = settings.store;
  return s.kind === 's3'
    ? S3Store.fromEnv({ bucket: s.bucket, prefix: s.prefix, region: s.region }, env)
    : new LocalStore(s.dir);
}

/**
 * How the process's calls get their permits from VIR_ACCOUNT_PERMITS: `block` (the default), or
 * `call` (one account update per call, the design before blocks; the benchmark compares them).
 */
export function accountPermitsOf(env: NodeJS.ProcessEnv): AccountPermits {
  const raw = env.VIR_ACCOUNT_PERMITS?.trim();
  if (!raw) return 'block';
  if (!(ACCOUNT_PERMITS as readonly string[]).includes(raw))
    throw new Error(`VIR_ACCOUNT_PERMITS must be one of ${ACCOUNT_PERMITS.join(', ')}, got '${raw}'`);
  return raw as AccountPermits;
}

/**
 * The account updates a process sends at a time from VIR_ACCOUNT_MAX_IN_FLIGHT (a whole number
 * >= 1), or {@link ACCOUNT_MAX_IN_FLIGHT}.
 */
export function accountMaxInFlightOf(env: NodeJS.ProcessEnv): number {
  const raw = env.VIR_ACCOUNT_MAX_IN_FLIGHT?.trim();
  if (!raw) return ACCOUNT_MAX_IN_FLIGHT;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`VIR_ACCOUNT_MAX_IN_FLIGHT must be a whole number >= 1, got '${raw}'`);
  return n;
}

/** How long a stopping worker lets its activities in flight finish before it cancels them. */
export const SHUTDOWN_GRACE = '30 seconds';

let runtimeInstalled = false;

/** Reasons the SDK's warnings are held back now (see {@link quietTemporalWarnings}), and how many were. */
const quiet = { holds: 0, held: 0 };

/**
 * Holds back the Temporal SDK's warnings (the workers' connection retries: hundreds a minute)
 * while the server is known to be down and being restarted, e.g. by `vir dev`'s supervisor,
 * which says so in one line instead. Errors still go through. Returns the release, which
 * resolves how many warnings were held back since this hold began.
 *
 * @example
 * const release = quietTemporalWarnings();
 * // ... restart the server ...
 * log.info(`server back (${release()} retry warnings not shown)`);
 */
export function quietTemporalWarnings(): () => number {
  quiet.holds += 1;
  const start = quiet.held;
  let released = false;
  return () => {
    if (!released) {
      released = true;
      quiet.holds -= 1;
    }
    return quiet.held - start;
  };
}

/**
 * Sends the Temporal SDK's own logs (worker states, bundling, activity failures, and the native
 * core's: connection retries, pollers) to the project's logger, which redacts keys. The SDK's
 * informational chatter is shown only at debug and trace; warnings and errors always. Once per
 * process; later calls do nothing.
 */
export function installRuntimeLogger(logger: Logger): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  const verbose = logger.level === 'debug' || logger.level === 'trace';
  const level: LogLevel = verbose ? 'DEBUG' : 'WARN';
  Runtime.install({
    // The native core's own logs (gRPC retries while the server is down, worker states) come
    // through the same logger instead of being printed to stderr as raw text.
    telemetryOptions: {
      logging: { filter: makeTelemetryFilterString({ core: level, other: level }), forward: {} },
    },
    logger: new DefaultLogger(level, (entry) => {
      const meta = { ...entry.meta, component: 'temporal' };
      // The API worker has no workflows, the account worker no activities and the jobs worker no
      // Nexus services, by design.
      const expected = /^No (workflows|activities|Nexus services) registered/.test(entry.message);
      if (entry.level === 'ERROR') logger.error(meta, entry.message);
      else if (entry.level === 'WARN' && !expected && quiet.holds > 0) {
        quiet.held += 1;
        logger.debug(meta, entry.message);
      } else if (entry.level === 'WARN' && !expected) logger.warn(meta, entry.message);
      else logger.debug(meta, entry.message);
    }),
  });
}

/**
 * Every activity of the jobs task queue: the shared run activities (the job's checks among them)
 * and each kind's own.
 * Two activities of one name would shadow each other, so that is an error naming both owners.
 */
export function jobActivities(deps: KindActivityDeps & { env?: NodeJS.ProcessEnv }): KindActivities {
  const all: KindActivities = {
    ...createRunActivities(deps),
    ...createDeliveryActivities(deps),
    ...createCheckActivities(JOB_KINDS),
    ...createRerenderActivities(deps),
  };
  const owner = new Map(Object.keys(all).map((name) => [name, 'the run engine']));
  for (const kind of JOB_KINDS) {
    for (const [name, fn] of Object.entries(kind.activities(deps))) {
      const taken = owner.get(name);
      if (taken) throw new Error(`activity ${name} of job kind ${kind.kind} is also defined by ${taken}`);
      owner.set(name, `job kind ${kind.kind}`);
      all[name] = fn;
    }
  }
  return all;
}

/**
 * Requests per second the API task queue may dispatch: a backstop of one window's calls a
 * second. The account workflow paces the calls themselves (as fast as the service's window
 * allows), so the queue must let a window's calls through at once.
 */
export function apiQueueRate(rateLimitPerMinute: number): number {
  return rateLimitPerMinute;
}

/** The API queue's rate limit on the server, and whether this worker set it. */
export interface QueueRateLimit {
  requestsPerSecond: number;
  /** What the server had before (null: the system default). */
  previous: number | null;
  /** True when this worker changed it (the first worker of these settings, or new settings). */
  changed: boolean;
}

/**
 * Makes the queue-wide rate limit of the API task queue on the server (UpdateTaskQueueConfig)
 * what the settings say, independent of which workers poll it. It is written only when it
 * differs: workers of the same settings leave it as the first one set it, and a worker of other
 * settings says what it replaced. A server that refuses is an error, not a silent fallback.
 */
export async function ensureApiQueueRateLimit(
  connection: NativeConnection,
  namespace: string,
  taskQueue: string,
  requestsPerSecond: number,
): Promise<QueueRateLimit> {
  const service = connection.workflowService;
  const described = await service.describeTaskQueue({
    namespace,
    taskQueue: { name: taskQueue, kind: proto.temporal.api.enums.v1.TaskQueueKind.TASK_QUEUE_KIND_NORMAL },
    taskQueueType: proto.temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY,
    reportConfig: true,
  });
  const current = described.config?.queueRateLimit?.rateLimit?.requestsPerSecond ?? null;
  if (current !== null && Math.abs(current - requestsPerSecond) < 1e-6) {
    return { requestsPerSecond, previous: current, changed: false };
  }
  await service.updateTaskQueueConfig({
    namespace,
    identity: 'vir-worker',
    taskQueue,
    taskQueueType: proto.temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY,
    updateQueueRateLimit: { rateLimit: { requestsPerSecond }, reason: 'service rate limit of the API key' },
  });
  return { requestsPerSecond, previous: current, changed: true };
}

export interface RunningWorkers {
  /** Runs both workers until shutdown() (or a fatal error). */
  run(): Promise<void>;
  shutdown(): Promise<void>;
  /** The API queue's rate limit on the server (set from the settings when it differed). */
  queueRateLimit: QueueRateLimit;
  apiQueueRps: number;
}

/**
 * Creates both workers. Pass `client`/`store` to use other real dependencies (tests).
 *
 * @example
 * const workers = await startWorkers(config);
 * process.once('SIGINT', () => void workers.shutdown());
 * await workers.run();
 */
export async function startWorkers(settings: Settings, tuning: WorkerTuning = {}): Promise<RunningWorkers> {
  if (tuning.logger) installRuntimeLogger(tuning.logger);
  // Bundled once per process for both workers that run workflows (and any later startWorkers).
  const code = await workflowCode(settings.workflowsModule);
  const connection = await NativeConnection.connect({ address: settings.temporalAddress });
  const ownClient = tuning.client ? null : serviceClient(settings);
  const client = tuning.client ?? ownClient!;
  const ownStore = tuning.store ? null : storeOf(settings, tuning.env ?? process.env);
  const store = tuning.store ?? ownStore!;
  const rps = apiQueueRate(settings.rateLimitPerMinute);
  const namespace = settings.temporalNamespace;
  let queueRateLimit: QueueRateLimit;
  try {
    queueRateLimit = await ensureApiQueueRateLimit(connection, namespace, settings.apiTaskQueue, rps);
  } catch (err) {
    await connection.close();
    throw new Error(
      `the API task queue's rate limit (${rps.toFixed(3)} calls a second, from VIR_RATE_LIMIT_PER_MINUTE) could not be set on the Temporal server: ${err instanceof Error ? err.message : String(err)}`,
      { cause: err },
    );
  }

  const account = new AccountLink({
    client: new Client({ connection, namespace }),
    taskQueue: settings.accountTaskQueue,
    accountId: accountIdOf(settings.visBaseUrl, requireApiKey(settings)),
    perMinute: settings.rateLimitPerMinute,
    perDay: settings.rateLimitPerDay,
    caps: settings.creditCaps,
    maxInFlight: tuning.accountMaxInFlight ?? accountMaxInFlightOf(tuning.env ?? process.env),
    permits: accountPermitsOf(tuning.env ?? process.env),
    ...(tuning.accountUpdateDeadlineMs ? { updateDeadlineMs: tuning.accountUpdateDeadlineMs } : {}),
  });
  const apiWorker = await Worker.create({
    connection,
    namespace,
    taskQueue: settings.apiTaskQueue,
    activities: createApiActivities({
      client,
      store,
      account,
      options: { dailyLimitThresholdMs: tuning.dailyLimitThresholdMs },
    }),
    maxTaskQueueActivitiesPerSecond: rps,
    maxConcurrentActivityTaskExecutions: tuning.maxConcurrentApiCalls ?? 16,
    // An API call records in a heartbeat the moment it sends its request (what its retries
    // count as sent), so heartbeats go out as they come, not throttled.
    maxHeartbeatThrottleInterval: '1 ms',
    // A graceful stop lets the calls in flight finish and report, so none is left started on
    // the server until its start-to-close timeout.
    shutdownGraceTime: SHUTDOWN_GRACE,
  });
  const jobWorker = await Worker.create({
    connection,
    namespace,
    taskQueue: settings.taskQueue,
    ...code,
    // Every job activity heartbeats, so a worker that dies while building or rendering is seen
    // within the heartbeat timeout of the workflows' options (JOB_ACTIVITY_OPTIONS).
    activities: withHeartbeats(
      jobActivities({
        store,
        reportsDir: settings.reportsDir,
        destinationRoots: settings.destinationRoots,
        reportNotice: settings.reportNotice,
        trustedCa: deckTrustedCa(settings),
        serviceLinks: { baseUrl: settings.visBaseUrl, publicUrl: settings.visPublicUrl },
        account,
        ...(tuning.env ? { env: tuning.env } : {}),
      }),
    ),
    maxConcurrentActivityTaskExecutions: 4,
    shutdownGraceTime: SHUTDOWN_GRACE,
  });
  // The account workflows (ledger and pacing) are served by every worker, whatever its queues.
  const accountWorker = await Worker.create({
    connection,
    namespace,
    taskQueue: settings.accountTaskQueue,
    ...code,
    shutdownGraceTime: SHUTDOWN_GRACE,
  });
  const all = [apiWorker, jobWorker, accountWorker];
  let stopped = false;
  const shutdown = async () => {
    if (stopped) return;
    stopped = true;
    for (const w of all) {
      if (w.getState() === 'RUNNING') w.shutdown();
    }
  };
  return {
    queueRateLimit,
    apiQueueRps: rps,
    shutdown,
    async run() {
      try {
        // When one worker stops (shutdown or a fatal error), stop the other too.
        const runs = all.map((w) =>
          w.run().finally(() => {
            void shutdown();
          }),
        );
        await Promise.all(runs);
      } finally {
        // The calls let through have answered (the API worker drains them): what they said, and
        // the permits never used, go to the ledger now rather than when their leases expire.
        await account.blocks?.close().catch((err: unknown) => {
          Runtime.instance().logger.warn(
            `the account's permits could not be reported at shutdown: ${(err as Error).message}`,
          );
        });
        await ownClient?.close();
        if (ownStore instanceof S3Store) ownStore.close();
        await connection.close();
      }
    },
  };
}
