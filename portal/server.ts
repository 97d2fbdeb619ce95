/**
 * The report portal (`vir portal`, and `vir dev`): a web app on Fastify whose pages are made on
 * the server from what Temporal (runs, schedules, progress queries), the store (manifests,
 * files, delivery records) and the account workflow (the ledger) say, through the CLI's own
 * functions and one long-lived CLI context (its settings and Temporal client). It listens on
 * 127.0.0.1 unless told otherwise; any other address needs VIR_PORTAL_TOKEN (portal/security.ts).
 *
 * @example
 * const portal = await startPortal({ ctx, port: 0 });
 * console.log(portal.url); // http://127.0.0.1:41234
 * await portal.close();
 */
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import formbody from '@fastify/formbody';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyError,
  type InjectOptions,
  type LightMyRequestResponse,
} from 'fastify';
import { redactText } from '../api/redact.js';
import type { CliContext } from '../cli/context.js';
import { CliError } from '../cli/errors.js';
import type { PortalDeps } from './deps.js';
import { sendProblem } from './deps.js';
import { portalJobFiles } from './jobs-data.js';
import { registerCreditsPage } from './pages/credits.js';
import { registerJobPages } from './pages/jobs.js';
import { registerReportPage } from './pages/report.js';
import { registerRunActions } from './pages/run-actions.js';
import { registerRunLive } from './pages/run-live.js';
import { registerRunPages } from './pages/runs.js';
import { registerSchedulePages } from './pages/schedules.js';
import { PortalStore } from './run-files.js';
import { handleLogin, installSecurity, isLoopbackHost } from './security.js';
import { registerStatic } from './static.js';

export interface PortalOptions {
  /** The context whose settings and Temporal client the portal uses as long as it runs. */
  ctx: CliContext;
  /** Where to listen (default 127.0.0.1); any other address needs a token. */
  host?: string;
  /** Port (default VIR_PORTAL_PORT; 0: a free one). */
  port?: number;
  /** The token other machines must give (default VIR_PORTAL_TOKEN); null: none. */
  token?: string | null;
  /** Job files to list besides those `vir run` searches (`vir portal --file`). */
  jobFiles?: readonly string[];
  /** How often a run's live progress asks the run (ms, default 1000). */
  liveIntervalMs?: number;
}

export interface RunningPortal {
  /** Where to open it: `http://127.0.0.1:8790` (the loopback address when listening on every address). */
  url: string;
  host: string;
  port: number;
  /** A request made in process, with the guards of a real one (Fastify's inject; tests set its remote address). */
  inject(options: InjectOptions): Promise<LightMyRequestResponse>;
  /** Ends the live streams, stops listening, closes the store. */
  close(): Promise<void>;
}

/** Every secret of the environment the portal could meet in a message: none may reach a page. */
export function portalSecrets(env: NodeJS.ProcessEnv): string[] {
  const out: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (!value || value.length < 8) continue;
    if (/^(VIS_API_KEY|VIR_PORTAL_TOKEN)$|PASSWORD|SECRET|_TOKEN$|ACCESS_KEY/.test(name)) out.push(value);
  }
  return out;
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * Starts the portal. Refuses (a CliError naming VIR_PORTAL_TOKEN) to listen on an address other
 * machines reach without a token.
 */
export async function startPortal(options: PortalOptions): Promise<RunningPortal> {
  const { ctx } = options;
  const settings = ctx.settings();
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? settings.portalPort;
  const token = options.token === undefined ? settings.portalToken : options.token;
  if (!isLoopbackHost(host) && !token) {
    throw new CliError(
      `the portal listens on ${host} only with a token: set VIR_PORTAL_TOKEN (at least 16 characters, e.g. openssl rand -hex 24), or leave --host at 127.0.0.1`,
    );
  }
  const secrets = [...new Set([...portalSecrets(ctx.env), ...(token ? [token] : [])])];
  const log = ctx.logger().child({ component: 'portal' });
  // Typed as Fastify's logger, so the app is the plain FastifyInstance the pages take.
  const loggerInstance: FastifyBaseLogger = log;
  const app = Fastify({
    loggerInstance,
    // No line per request: a request's URL may carry the token (`/login?token=…`).
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: false,
  });
  await app.register(formbody);
  installSecurity(app, {
    token: token ?? null,
    publicHost: settings.portalUrl ? new URL(settings.portalUrl).hostname : null,
    secrets,
  });
  const streams = new Set<ServerResponse>();
  const store = new PortalStore(() => ctx.settings(), ctx.env);
  const deps: PortalDeps = {
    ctx,
    jobFiles: () => portalJobFiles(options.jobFiles ?? []),
    store,
    liveIntervalMs: options.liveIntervalMs ?? 1000,
    streams,
    interactiveReport: true,
  };

  app.setErrorHandler((err: FastifyError, _request, reply) => {
    const message = redactText((err.message || String(err)).split('\n')[0] ?? 'unknown error', secrets);
    if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
      return sendProblem(reply, err.statusCode, 'Refused', message);
    }
    log.error({ err: message }, 'a portal page failed');
    return sendProblem(reply, 500, 'Something went wrong', message);
  });
  app.setNotFoundHandler((_request, reply) => sendProblem(reply, 404, 'Not found', 'There is no such page.'));

  registerStatic(app);
  app.get('/login', async (request, reply) => {
    const q = request.query as Record<string, unknown>;
    return handleLogin(request, reply, token ?? null, q.token, q.next);
  });
  app.post('/login', async (request, reply) => {
    const b = (request.body ?? {}) as Record<string, unknown>;
    return handleLogin(request, reply, token ?? null, b.token, b.next);
  });
  registerJobPages(app, deps);
  registerSchedulePages(app, deps);
  registerRunPages(app, deps);
  registerRunLive(app, deps);
  registerRunActions(app, deps);
  registerCreditsPage(app, deps);
  registerReportPage(app, deps);

  await app.listen({ host, port });
  const address = app.server.address() as AddressInfo;
  const url = `http://${urlHost(host)}:${address.port}`;
  log.info({ url, host, port: address.port, token: token ? '(set)' : '(none)' }, 'portal listening');
  let closed: Promise<void> | null = null;
  return {
    url,
    host,
    port: address.port,
    inject: (injected) => app.inject(injected),
    close() {
      closed ??= (async () => {
        for (const res of streams) res.end();
        streams.clear();
        await app.close();
        store.close();
      })();
      return closed;
    },
  };
}
