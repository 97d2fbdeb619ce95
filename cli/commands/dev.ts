/**
 * `vir dev`: the whole system on one machine: the embedded Temporal dev server (SQLite file in
 * VIR_DATA_DIR, web UI), the sandbox service, a mail catcher and an S3-compatible server for the
 * deliveries (runtime/dev-delivery.ts: what the recipients would get, saved in VIR_DATA_DIR), the
 * workers, and the report portal on 127.0.0.1:VIR_PORTAL_PORT (cli/commands/portal.ts). Ctrl-C or SIGTERM stops them in order: workers, then the S3 server and the mail
 * catcher, the sandbox, Temporal; a second signal forces the exit.
 *
 * It never leaves a server behind: the Temporal server runs in a process group of its own,
 * recorded in a pid file in VIR_DATA_DIR (runtime/dev-pid-file.ts) that is removed on stop. The
 * next `vir dev` on that data dir stops a server group that a killed `vir dev` left running,
 * refuses while the recorded `vir dev` is alive, and refuses ports taken by anything it did not
 * start (unless `--reuse-temporal`). Where Linux allows, the server also gets SIGTERM when its
 * `vir dev` dies (parent-death signal).
 *
 * It supervises what it started (runtime/supervisor.ts): a Temporal server, sandbox, mail catcher
 * or S3 server that exits on its own is said in one line and restarted on its port with its
 * files (the Temporal server keeps its SQLite file: runs and schedules survive; the pid file
 * names the new process), the workers staying up and reconnecting with their retry warnings held
 * back; one that cannot be restarted, or exits more than 3 times a minute, stops `vir dev`
 * cleanly with exit code 1.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Option, type Command } from 'commander';
import {
  claimDevPidFile,
  describeCleanup,
  DevAlreadyRunningError,
  type DevPidFile,
} from '../../runtime/dev-pid-file.js';
import { VERSITYGW_BUILD_SCRIPT, versitygwPath } from '../../runtime/dev-s3.js';
import { startLocalStack, type LocalStack } from '../../runtime/local-stack.js';
import { readProcess } from '../../runtime/processes.js';
import { portIsFree } from '../../runtime/temporal-server.js';
import type { CliContext } from '../context.js';
import { CliError } from '../errors.js';
import { SANDBOX_MAX_SCALE, sandboxScaleOption, splitHostPort } from '../options.js';
import { startPortalFor } from './portal.js';
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
  /** Start the mail catcher on VIR_DEV_SMTP_PORT (default true). */
  mail?: boolean;
  /** Start the S3 server on VIR_DEV_S3_PORT when versitygw is built (default true). */
  s3?: boolean;
  /** Start the report portal on 127.0.0.1:VIR_PORTAL_PORT (default false; `vir dev` passes true unless --no-portal). */
  portal?: boolean;
}

/** What `vir dev` started, and why a delivery server it was asked for is not running. */
export interface DevStack extends LocalStack {
  notStarted: { mail: string | null; s3: string | null; portal: string | null };
  /** The report portal's address (null: not started, `notStarted.portal` says why). */
  portalUrl: string | null;
  /**
   * Resolves when a server it started exited and could not be restarted (or exited too often):
   * `vir dev` then stops, exit code 1.
   */
  gaveUp: Promise<Error>;
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

/**
 * Starts Temporal, the sandbox, the mail catcher and the S3 server, and the workers; they stop
 * when the context closes. The delivery settings pointing at the two servers go into the
 * context's environment (process.env under `vir`) where the user has set none, before the
 * workers start.
 */
export async function startDev(ctx: CliContext, options: DevOptions): Promise<DevStack> {
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
  const notStarted = {
    mail: options.mail === false ? '--no-mail' : null,
    s3: options.s3 === false ? '--no-s3' : null,
    portal: options.portal === true ? null : '--no-portal',
  };
  const versitygw = versitygwPath(ctx.env);
  if (notStarted.s3 === null && !existsSync(versitygw)) {
    notStarted.s3 = `versitygw is not built; run bash ${VERSITYGW_BUILD_SCRIPT}`;
    log.warn(
      `versitygw is not built (${versitygw}): vir dev goes on without its S3 server; ` +
        `build it with bash ${VERSITYGW_BUILD_SCRIPT} (Go 1.25 or newer) or set VERSITYGW_PATH, or pass --no-s3`,
    );
  }
  const deliveryPorts = {
    mail: notStarted.mail === null ? base.devSmtpPort : null,
    s3: notStarted.s3 === null ? base.devS3Port : null,
  };
  const portalPort = notStarted.portal === null ? base.portalPort : null;
  const file = await claimPidFile(ctx, base.dataDir, ports, reuse);
  await refuseTakenPorts(base.dataDir, { ...ports, ...deliveryPorts, portal: portalPort }, reuse);
  let giveUp: (error: Error) => void = () => undefined;
  const gaveUp = new Promise<Error>((resolveGaveUp) => (giveUp = resolveGaveUp));

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
    delivery:
      deliveryPorts.mail === null && deliveryPorts.s3 === null
        ? false
        : {
            mail:
              deliveryPorts.mail === null
                ? false
                : {
                    port: deliveryPorts.mail,
                    dir: join(base.dataDir, 'mail'),
                    log: (line) => log.info(line),
                  },
            s3:
              deliveryPorts.s3 === null
                ? false
                : {
                    port: deliveryPorts.s3,
                    dataDir: base.dataDir,
                    dieWithParent: options.parentDeathSignal !== false,
                    executable: versitygw,
                  },
            env: ctx.env,
          },
    workers: options.worker ? {} : false,
    logger: log,
    // What exits on its own is said in one line and restarted; what cannot be, stops vir dev.
    supervise: { log: (line, level) => log[level](line), onGiveUp: (error) => giveUp(error) },
  });
  ctx.defer(() => stack.close());
  ctx.useSettings(stack.settings);
  if (stack.delivery) {
    const { set, kept } = stack.delivery.env;
    log.info(
      { set, kept },
      `delivery settings for the workers: set ${set.join(', ') || 'none'}; yours kept: ${kept.join(', ') || 'none'}`,
    );
  }
  if (stack.sandboxUrl) file.update({ ports: { sandbox: Number(new URL(stack.sandboxUrl).port) } });
  log.debug({ pidFile: file.path, record: file.record }, 'vir dev pid file written');
  // On this machine only: the portal reads the stack's settings through the context.
  const portal =
    portalPort === null ? null : await startPortalFor(ctx, { host: '127.0.0.1', port: portalPort });
  return { ...stack, notStarted, gaveUp, portalUrl: portal?.url ?? null };
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
  ports: {
    host: string;
    frontend: number;
    ui: number | null;
    sandbox: number | null;
    mail: number | null;
    s3: number | null;
    portal: number | null;
  },
  reuse: boolean,
): Promise<void> {
  const notOurs = `is already in use by a server this vir dev did not start (no live vir dev pid file in ${dataDir} records it)`;
  const checks: [number | null, string, string, string?][] = [
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
    // The delivery servers listen on 127.0.0.1 whatever TEMPORAL_ADDRESS's host.
    [
      ports.mail,
      'VIR_DEV_SMTP_PORT',
      'stop what listens there, set VIR_DEV_SMTP_PORT to a free port, or pass --no-mail',
      '127.0.0.1',
    ],
    [
      ports.s3,
      'VIR_DEV_S3_PORT',
      'stop what listens there, set VIR_DEV_S3_PORT to a free port, or pass --no-s3',
      '127.0.0.1',
    ],
    [
      ports.portal,
      'VIR_PORTAL_PORT',
      'stop what listens there, set VIR_PORTAL_PORT to a free port, or pass --no-portal',
      '127.0.0.1',
    ],
  ];
  for (const [port, variable, howTo, host = ports.host] of checks) {
    if (port === null || port === 0) continue;
    if (!(await portIsFree(host, port))) {
      throw new CliError(`${host}:${port} (${variable}) ${notOurs}: ${howTo}`);
    }
  }
}

/** Adds `dev` to the program. */
export function registerDev(program: Command, ctx: CliContext): void {
  program
    .command('dev')
    .description(
      'run Temporal (embedded), the sandbox, a mail catcher, an S3 server, the workers and the report portal together until Ctrl-C',
    )
    .option('--no-sandbox', 'do not start the sandbox (the workers use VIS_BASE_URL and VIS_API_KEY)')
    .option('--no-worker', 'do not start the workers')
    .option('--no-mail', 'do not start the mail catcher (email goes where the VIR_SMTP_* settings say)')
    .option('--no-s3', 'do not start the local S3 server (S3 deliveries go where the job and VIR_S3_* say)')
    .option('--no-portal', 'do not start the report portal (127.0.0.1:VIR_PORTAL_PORT)')
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
        mail: boolean;
        s3: boolean;
        portal: boolean;
      }) => {
        const signal = shutdownSignalFor(ctx);
        const env = await startDev(ctx, {
          sandbox: opts.sandbox,
          worker: opts.worker,
          headless: opts.headless === true,
          reuseTemporal: opts.reuseTemporal === true,
          parentDeathSignal: opts.parentDeathSignal,
          sandboxState: opts.sandboxState,
          mail: opts.mail,
          s3: opts.s3,
          portal: opts.portal,
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
        const { mail, s3 } = env.delivery ?? { mail: null, s3: null };
        ctx.io.out(
          `Mail catcher:     ${mail ? `${mail.url}, messages saved in ${mail.dir}` : `(not started: ${env.notStarted.mail})`}`,
        );
        ctx.io.out(
          `S3:               ${
            s3
              ? `${s3.endpoint} (bucket ${s3.bucket}, keys ${s3.accessKeyId} / ${s3.secretAccessKey}), objects in ${join(s3.dir, s3.bucket)}`
              : `(not started: ${env.notStarted.s3})`
          }`,
        );
        ctx.io.out(`Portal:           ${env.portalUrl ?? `(not started: ${env.notStarted.portal})`}`);
        ctx.io.out(
          `Workers:          ${env.running ? `polling ${env.settings.taskQueue} and ${env.settings.apiTaskQueue}` : '(not started)'}`,
        );
        ctx.io.out('Press Ctrl-C to stop.');
        let failure: Error | null = null;
        const gaveUp = env.gaveUp.then((error) => {
          failure = error;
        });
        await untilShutdown(signal, env.running ? Promise.race([env.running, gaveUp]) : gaveUp);
        if (failure !== null) {
          throw new CliError(`vir dev stops: ${(failure as Error).message.replace(/; vir dev stops$/, '')}`);
        }
      },
    );
}
