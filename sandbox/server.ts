/**
 * The sandbox HTTP server (Fastify): REST routes over the pipeline, /openapi.json, /health,
 * fault injection on /v1, graceful shutdown.
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { DatabaseSync } from 'node:sqlite';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { OPERATIONS, isOperationName } from '../api/index.js';
import { buildOpenApiDocument } from './openapi.js';
import {
  addAccounts,
  createSandboxState,
  loadAccountsFile,
  mergeNewAccounts,
  seedAccounts,
  SEEDED_KEYS,
} from './accounts.js';
import { reviveRoom } from './decks/rooms.js';
import { FaultInjector } from './faults.js';
import { readJsonBody, readQueryParams } from './http-params.js';
import { insertStartup } from './insert-startup.js';
import { simulateMarketWeek } from './market-week.js';
import { registerMcp } from './mcp.js';
import { openSandboxDatabase } from './data/index.js';
import { resolveSandboxOptions, validateSandboxOptions } from './options.js';
import { createPipeline, unknownOperationMessage, type Pipeline } from './pipeline.js';
import { RateLimiter } from './rate-limit.js';
import { inThreadScorer, type Scorer } from './finders/scoring.js';
import { createScoringPool } from './scoring-pool.js';
import { openStateStore, type StateStore } from './state-store.js';
import { registerViews } from './views.js';
import type {
  ExecuteResponse,
  ResolvedSandboxOptions,
  RunningSandbox,
  SandboxOptions,
  SandboxRequest,
  SandboxState,
} from './types.js';

const JSON_TYPE = 'application/json; charset=utf-8';
const OTHER_METHODS = ['PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'TRACE', 'QUERY'] as const;
/** Largest POST body the /v1 routes read. */
const BODY_LIMIT = 1024 * 1024;

/** The operation a /v1/<operation> path names ('' for any other path). */
function operationOfPath(url: string): string {
  const path = url.split('?')[0] ?? '';
  return path.startsWith('/v1/') ? path.slice(4) : '';
}

/** The methods an operation's path answers: GET and POST for a 0-credit operation, POST otherwise. */
export function allowedMethods(operation: string): string {
  return isOperationName(operation) && OPERATIONS[operation].credits === 0 ? 'GET, POST' : 'POST';
}

/** Whether a Content-Type names JSON (application/json or a +json type), parameters aside. */
function isJsonType(contentType: string): boolean {
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || /^application\/[\w.+-]*\+json$/.test(type);
}

function send(reply: FastifyReply, response: ExecuteResponse): FastifyReply {
  return reply.code(response.status).headers(response.headers).type(JSON_TYPE).send(response.body);
}

function operationOf(request: FastifyRequest): string {
  return (request.params as { operation?: string }).operation ?? '';
}

function authorizationOf(request: FastifyRequest): string | undefined {
  const value = request.headers.authorization;
  return Array.isArray(value) ? value[0] : value;
}

/** The 404 answer for /v1/<operation> naming no operation of the service. */
function refuseUnknownOperation(
  pipeline: Pipeline,
  operation: string,
  request: FastifyRequest,
): ExecuteResponse {
  return pipeline.refuse(
    operation,
    404,
    'not_found',
    unknownOperationMessage(operation),
    authorizationOf(request),
  );
}

interface AppDeps {
  db: DatabaseSync;
  dbInfo: { hash: string; seed: number; asOf: string; scale: number };
  state: SandboxState;
  options: ResolvedSandboxOptions;
  pipeline: Pipeline;
  faults: FaultInjector;
  baseUrl: () => string;
  isClosing: () => boolean;
  /** Every operation call the pipeline or an injected fault answered, oldest first. */
  requestLog: SandboxRequest[];
}

/** The status an injected fault answers with (0: the connection was dropped or left hanging). */
function faultStatus(kind: string): number {
  const statuses: Record<string, number> = { error500: 500, error503: 503, burst429: 429, malformed: 200 };
  return statuses[kind] ?? 0;
}

/** Entries the request log keeps (the oldest go first). */
const REQUEST_LOG_MAX = 200_000;

/** Statuses of Node's HTTP parser errors (llhttp codes); any other is 400. */
const CLIENT_ERROR_STATUS: Record<string, number> = {
  HPE_HEADER_OVERFLOW: 431,
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 413,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
};

/** Method and path of the request line a parser error carries, when it can be read. */
function requestLineOf(raw: unknown): { method: string; path: string } | undefined {
  if (!Buffer.isBuffer(raw)) return undefined;
  const line = raw.subarray(0, 2048).toString('latin1').split('\r\n')[0] ?? '';
  const match = /^([A-Za-z-]+) (\S+)/.exec(line);
  return match?.[1] && match[2] ? { method: match[1].toUpperCase(), path: match[2] } : undefined;
}

/**
 * Answers an error of Node's HTTP parser (Fastify's clientErrorHandler) with the envelope, written
 * raw on the socket: 431 for headers (or a request line) too large, 408 for a request that took
 * too long, 405 with Allow for a method the parser does not know on an operation's path, 400 for
 * any other malformed request. The connection is closed after the answer.
 */
function answerClientError(
  error: Error & { code?: string; rawPacket?: unknown },
  socket: Socket,
  pipeline: Pipeline,
): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  let status = CLIENT_ERROR_STATUS[error.code ?? ''] ?? 400;
  let code = 'invalid_input';
  let message = `the request could not be read as HTTP (${error.code ?? 'parse error'})`;
  let operation = '';
  const extra: Record<string, string> = {};
  if (status === 431) message = 'the request line or headers are too large (limit 16 KiB)';
  if (status === 408) message = 'the request took too long to arrive';
  if (status === 413) message = 'a chunk extension of the request body is too large';
  const line = requestLineOf(error.rawPacket);
  if (error.code === 'HPE_INVALID_METHOD' && line) {
    operation = isOperationName(operationOfPath(line.path)) ? operationOfPath(line.path) : '';
    if (operation) {
      status = 405;
      code = 'method_not_allowed';
      extra.allow = allowedMethods(operation);
      message = `the method is not supported for /v1/${operation}; use ${extra.allow.replace(', ', ' or ')}`;
    } else message = 'the request method is not one HTTP knows';
  }
  const response = pipeline.refuse(operation, status, code, message, undefined);
  const body = JSON.stringify(response.body);
  const headers = {
    ...response.headers,
    ...extra,
    'content-type': JSON_TYPE,
    'content-length': String(Buffer.byteLength(body)),
    connection: 'close',
  };
  const head = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\r\n');
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n${head}\r\n\r\n${body}`);
}

/** Builds the Fastify app (routes only; listening is up to the caller). */
async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { pipeline, faults } = deps;
  const app = Fastify({
    logger: deps.options.logger ? { level: 'info' } : false,
    forceCloseConnections: 'idle',
    exposeHeadRoutes: false,
    bodyLimit: BODY_LIMIT,
    // Errors of Node's HTTP parser (a bad request line, headers too large, ...) come before any
    // route: they are answered with the envelope too.
    clientErrorHandler: (error, socket) => answerClientError(error, socket, pipeline),
    // A URL Fastify cannot decode (a broken percent-escape) is 400 in the envelope too.
    frameworkErrors: (error, request, reply) => {
      const message =
        error.code === 'FST_ERR_BAD_URL'
          ? 'the path has a broken percent-escape (%XX)'
          : 'the request could not be routed';
      const response = pipeline.refuse('', 400, 'invalid_input', message, authorizationOf(request));
      void send(reply, response);
    },
  });

  // While closing, every answer ends its connection, so keep-alive clients do not hold close() up.
  app.addHook('onSend', async (_request, reply, payload) => {
    if (deps.isClosing()) void reply.header('connection', 'close');
    return payload;
  });

  /** 405 for a method other than GET and POST on an operation's path, with the Allow header. */
  const refuseMethod = (request: FastifyRequest, reply: FastifyReply, operation: string) => {
    const allow = allowedMethods(operation);
    const message = `${request.method} is not supported for /v1/${operation}; use ${allow.replace(', ', ' or ')}`;
    void reply.header('allow', allow);
    return send(
      reply,
      pipeline.refuse(operation, 405, 'method_not_allowed', message, authorizationOf(request)),
    );
  };
  const isOtherMethodOnOperation = (request: FastifyRequest, operation: string) =>
    isOperationName(operation) && request.method !== 'GET' && request.method !== 'POST';

  app.setErrorHandler((error: { statusCode?: number; message: string }, request, reply) => {
    const path = operationOfPath(request.url);
    if (isOtherMethodOnOperation(request, path)) return refuseMethod(request, reply, path);
    const status =
      error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
    let code = status < 500 ? 'invalid_input' : 'internal_error';
    let message = error.message;
    if (status === 413) message = 'the request body is too large (limit 1 MiB)';
    if (status === 415) code = 'unsupported_media_type';
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    const response = pipeline.refuse(
      operationOf(request) || path,
      status,
      code,
      message,
      authorizationOf(request),
    );
    return send(reply, response);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const operation = operationOfPath(request.url);
    if (isOtherMethodOnOperation(request, operation)) return refuseMethod(request, reply, operation);
    if (operation) return send(reply, refuseUnknownOperation(pipeline, operation, request));
    const message = `no route ${request.method} ${path.slice(0, 200)}; operations are served at POST /v1/<operation>`;
    return send(reply, pipeline.refuse('', 404, 'not_found', message, authorizationOf(request)));
  });

  app.get('/health', async () => ({
    status: 'ok',
    operations: Object.keys(OPERATIONS).length,
    database: deps.dbInfo,
  }));

  app.get('/openapi.json', async (_request, reply) =>
    reply.type(JSON_TYPE).send(buildOpenApiDocument({ serverUrl: deps.baseUrl() })),
  );

  registerViews(app, { db: deps.db, state: deps.state, now: deps.options.now });
  registerMcp(app, { execute: pipeline.execute, state: deps.state });

  const logRequest = (entry: SandboxRequest) => {
    deps.requestLog.push(entry);
    if (deps.requestLog.length > REQUEST_LOG_MAX)
      deps.requestLog.splice(0, deps.requestLog.length - REQUEST_LOG_MAX);
  };

  await app.register(async (v1) => {
    // Bodies are read by the route, so a missing or broken body is an envelope answer, not Fastify's.
    // The body is JSON (the spec's rule 1): another declared type is 415; an empty body reaches
    // the route (400, the body is required), whatever its type.
    v1.removeAllContentTypeParsers();
    v1.addContentTypeParser('*', { parseAs: 'string' }, (request, body, done) => {
      const type = request.headers['content-type'];
      if (body !== '' && request.method === 'POST' && !(type && isJsonType(type))) {
        const error = new Error(
          type
            ? `the request body must be application/json, not ${type.slice(0, 80)}`
            : 'the request body must be application/json: send Content-Type: application/json',
        ) as Error & { statusCode: number };
        error.statusCode = 415;
        done(error, undefined);
        return;
      }
      done(null, body);
    });

    v1.route({
      method: ['GET', 'POST'],
      url: '/v1/:operation',
      handler: async (request, reply) => {
        const operation = operationOf(request);
        const action = faults.next();
        if (action.kind === 'hang' && deps.isClosing()) action.kind = 'drop';
        const headers = action.kind === 'none' ? {} : pipeline.peekHeaders(authorizationOf(request));
        const faultAt = Date.now();
        if (await faults.apply(action, operation, request, reply, headers)) {
          logRequest({ at: faultAt, operation, status: faultStatus(action.kind), fault: action.kind });
          return reply;
        }
        const method = request.method === 'GET' ? 'GET' : 'POST';
        let params: unknown;
        if (method === 'POST') params = readJsonBody(request.body);
        else if (isOperationName(operation))
          params = readQueryParams(
            operation,
            request.url.slice(request.url.indexOf('?') + 1 || request.url.length),
          );
        else params = {};
        const at = Date.now();
        const response = await pipeline.execute({
          operation,
          params,
          authorization: authorizationOf(request),
          method,
        });
        const entry: SandboxRequest = { at, operation, status: response.status };
        logRequest(entry);
        if (response.status === 405) void reply.header('allow', 'POST');
        const after = faults.nextAfterCharge(operation, response.body.credits?.charged ?? 0);
        if (await faults.apply(after, operation, request, reply, response.headers)) {
          // The service did the work (and charged); the caller got the fault instead of the answer.
          entry.status = faultStatus(after.kind);
          entry.fault = `after-charge ${after.kind}`;
          return reply;
        }
        return send(reply, response);
      },
    });

    v1.route({
      method: [...OTHER_METHODS],
      url: '/v1/:operation',
      handler: async (request, reply) => {
        const operation = operationOf(request);
        if (!isOperationName(operation))
          return send(reply, refuseUnknownOperation(pipeline, operation, request));
        return refuseMethod(request, reply, operation);
      },
    });
  });

  return app;
}

/** The accounts and keys a start brings: seeded, then from options, then from the accounts file. */
function startingAccounts(db: DatabaseSync, resolved: ResolvedSandboxOptions): SandboxState {
  const starting = createSandboxState();
  const seeded = seedAccounts(db);
  addAccounts(starting, seeded.accounts, seeded.keys, 'seeded accounts');
  if (resolved.accounts.length > 0 || resolved.keys.length > 0)
    addAccounts(starting, resolved.accounts, resolved.keys, 'sandbox option accounts/keys');
  if (resolved.accountsFile) {
    const fromFile = loadAccountsFile(resolved.accountsFile);
    addAccounts(starting, fromFile.accounts, fromFile.keys, `accounts file ${resolved.accountsFile}`);
  }
  return starting;
}

/**
 * Starts a sandbox: opens (or builds) the database, seeds accounts and keys (or reads them
 * back from its state file, see the `state` option), listens on host:port (port 0 picks a
 * free one).
 *
 * @example
 * const sandbox = await startSandbox({ port: 0 });
 * await fetch(`${sandbox.url}/v1/my_account`, { method: 'POST', headers: { authorization: 'Bearer vis_live_sandbox_vc' }, body: '{}' });
 * await sandbox.close();
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  validateSandboxOptions(options);
  const opened = openSandboxDatabase({
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
    ...(options.asOf === undefined ? {} : { asOf: options.asOf }),
    ...(options.scale === undefined ? {} : { scale: options.scale }),
  });
  const db = opened.db;
  let store: StateStore | undefined;
  let scoring: Scorer | undefined;
  try {
    const resolved = resolveSandboxOptions(options, opened);
    const starting = startingAccounts(db, resolved);
    let state = starting;
    if (resolved.stateFile !== null) {
      store = openStateStore({
        path: resolved.stateFile,
        reset: resolved.state === 'reset',
        reviveRoom: (into, record) => reviveRoom(into, record, db),
      });
      state = store.state;
      mergeNewAccounts(state, starting);
    }

    let url = '';
    let closing: Promise<void> | undefined;
    const baseUrl = () => url;
    const limiter = new RateLimiter(
      {
        perMinute: resolved.rateLimitPerMinute,
        perDay: resolved.rateLimitPerDay,
        minuteWindowMs: resolved.minuteWindowMs,
        dayWindowMs: resolved.dayWindowMs,
      },
      store?.rateLimits,
    );
    const faults = new FaultInjector(resolved.faults, resolved.seed, resolved.rateLimitPerMinute);
    const requestLog: SandboxRequest[] = [];
    const holder: { app?: FastifyInstance } = {};
    // The finders' scoring off the event loop; state (credits, repeats, match lists) stays here.
    const scorer =
      resolved.scoringThreads > 0
        ? createScoringPool({ db, size: resolved.scoringThreads })
        : inThreadScorer(db);
    scoring = scorer;
    const pipeline = createPipeline({
      db,
      state,
      options: resolved,
      limiter,
      baseUrl,
      handlers: resolved.handlers,
      scorer,
      onError: (operation, error) => holder.app?.log.error({ err: error, operation }, 'handler failed'),
    });
    const server = await buildApp({
      db,
      dbInfo: { hash: opened.hash, seed: opened.seed, asOf: opened.asOf, scale: opened.scale },
      state,
      options: resolved,
      pipeline,
      faults,
      baseUrl,
      isClosing: () => closing !== undefined,
      requestLog,
    });
    holder.app = server;
    await server.listen({ host: resolved.host, port: resolved.port });
    const stopped = new Promise<void>((resolveStopped) =>
      server.server.once('close', () => resolveStopped()),
    );
    const address = server.server.address();
    const port = typeof address === 'object' && address ? address.port : resolved.port;
    url = `http://${resolved.host.includes(':') ? `[${resolved.host}]` : resolved.host}:${port}`;

    return {
      url,
      port,
      state,
      stateFile: resolved.stateFile,
      db,
      setFaults: (next) => faults.set(next),
      afterChargeFaulted: () => faults.afterChargeFaulted,
      requestLog: () => [...requestLog],
      addAccount: (account, keys) => addAccounts(state, [account], keys),
      scoringThreads: () => scorer.threads(),
      stopped,
      insertStartup: (startup, rounds) => insertStartup(db, startup, rounds, resolved.now()),
      simulateMarketWeek: ({ key = SEEDED_KEYS.vc, ...week } = {}) => {
        const owner = state.accounts.get(state.keys.get(key)?.account_id ?? '');
        const thesis = owner?.thesis ?? state.accounts.get('acct_vc')?.thesis;
        if (!thesis)
          throw new Error("simulateMarketWeek: neither the key's account nor acct_vc has a fund thesis");
        return simulateMarketWeek(db, thesis, week);
      },
      close: () => {
        closing ??= (async () => {
          faults.destroyHanging();
          const force = setTimeout(() => {
            faults.destroyHanging();
            server.server.closeAllConnections();
          }, resolved.closeTimeoutMs);
          try {
            await server.close();
          } finally {
            clearTimeout(force);
            // After the server: calls still scoring got their answers; none can start now.
            await scorer.close();
            store?.close();
            db.close();
          }
        })();
        return closing;
      },
    };
  } catch (error) {
    await scoring?.close();
    store?.close();
    db.close();
    throw error;
  }
}
