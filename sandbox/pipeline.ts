/**
 * The one pipeline every call goes through, REST and MCP alike: operation, authentication,
 * rate limit, method, parameters, scope, plan and account type, credits, handler, debit.
 * Every answer is the Result envelope with the rate-limit headers.
 */
import { randomBytes } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import {
  FREE_OPERATIONS,
  OPERATIONS,
  OPERATION_NAMES,
  isOperationName,
  redactText,
  validateParams,
  type OperationName,
} from '../api/index.js';
import { decideAccess } from './access.js';
import type { Scorer } from './finders/scoring.js';
import { errorEnvelope, successEnvelope } from './envelope.js';
import { HANDLERS } from './operations/index.js';
import { QUOTES, type Quote } from './operations/quotes.js';
import { rateLimitHeaders, type RateLimiter, type RateLimitSnapshot } from './rate-limit.js';
import {
  SandboxError,
  type Account,
  type ApiKeyRecord,
  type ExecuteFn,
  type ExecuteRequest,
  type ExecuteResponse,
  type Handler,
  type HandlerContext,
  type HandlerMap,
  type HandlerResult,
  type ResolvedSandboxOptions,
  type SandboxState,
} from './types.js';

/** A request body that could not be read as JSON; the pipeline answers it with 400 invalid_input at the parameter step. */
export class InvalidBody {
  constructor(readonly message: string) {}
}

export interface PipelineDeps {
  db: DatabaseSync;
  state: SandboxState;
  options: ResolvedSandboxOptions;
  limiter: RateLimiter;
  /** Base URL of the running sandbox, without a trailing slash. */
  baseUrl: () => string;
  /** Handlers replacing the operations' own (default: none). */
  handlers?: HandlerMap;
  /** Where the paid finders' scoring runs (default: on the calling thread). */
  scorer?: Scorer;
  /** Called with unexpected handler errors (already redacted). */
  onError?: (operation: string, error: unknown) => void;
}

export interface Pipeline {
  execute: ExecuteFn;
  /** An error answer outside the pipeline (e.g. an unsupported HTTP method), with the same headers and credits. */
  refuse(
    operation: string,
    status: number,
    code: string,
    message: string,
    authorization: string | undefined,
  ): ExecuteResponse;
  /** The rate-limit headers of the caller's key (a fresh window without a valid key), without counting a call. */
  peekHeaders(authorization: string | undefined): Record<string, string>;
}

type Auth = { ok: true; key: ApiKeyRecord; account: Account } | { ok: false; message: string };

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/** Reads the Authorization header; messages never contain the key. */
function authenticate(state: SandboxState, authorization: string | undefined): Auth {
  if (authorization === undefined || authorization.trim() === '') {
    return { ok: false, message: 'missing API key: send the header Authorization: Bearer <API_KEY>' };
  }
  const match = BEARER.exec(authorization.trim());
  if (!match?.[1]) {
    return { ok: false, message: "malformed Authorization header: expected 'Bearer <API_KEY>'" };
  }
  const key = state.keys.get(match[1]);
  const account = key && state.accounts.get(key.account_id);
  if (!key || !account) return { ok: false, message: 'unknown API key: check the key on the developer page' };
  if (key.revoked)
    return { ok: false, message: 'this API key has been revoked: create a new key on the developer page' };
  return { ok: true, key, account };
}

const MAX_OPERATION_ECHO = 80;

/** The 404 message for an unknown operation: names it (shortened, redacted) and lists the valid ones. */
export function unknownOperationMessage(operation: string): string {
  const shown = redactText(
    operation.length > MAX_OPERATION_ECHO ? `${operation.slice(0, MAX_OPERATION_ECHO)}…` : operation,
  );
  return `unknown operation '${shown}'; valid operations: ${OPERATION_NAMES.join(', ')}`;
}

function newResultId(): string {
  return `r_${randomBytes(9).toString('base64url')}`;
}

/** Makes the handler's url absolute and, for /view/results/ links, returns the result id (generated when the link has none). */
function resolveUrl(
  url: string | null | undefined,
  baseUrl: string,
): { url: string | null; resultId?: string } {
  if (!url) return { url: null };
  let absolute = url.startsWith('/') ? `${baseUrl}${url}` : url;
  const match = /\/view\/results(?:\/([^/?#]*))?(?=[?#]|$)/.exec(absolute);
  if (!match) return { url: absolute };
  let id = match[1] ? decodeURIComponent(match[1]) : '';
  if (!id) {
    id = newResultId();
    absolute = absolute.replace(/\/view\/results\/?(?=[?#]|$)/, `/view/results/${id}`);
  }
  return { url: absolute, resultId: id };
}

/**
 * Creates the pipeline of a running sandbox.
 *
 * @example
 * const { execute } = createPipeline({ db, state, options, limiter, baseUrl: () => url });
 * const r = await execute({ operation: 'my_account', params: {}, authorization: 'Bearer vis_live_sandbox_vc', method: 'POST' });
 * // r.status === 200, r.body.success === true, r.headers['x-ratelimit-remaining'] === '59'
 */
export function createPipeline(deps: PipelineDeps): Pipeline {
  const { state, limiter } = deps;
  // Each handler gets the context of its own operation; the table is looked up by a checked name.
  const handlers = { ...HANDLERS, ...deps.handlers } as Record<OperationName, Handler>;

  /** Moves the account's balance by `delta`; setting it again writes it through when the state persists. */
  function adjustCredits(account: Account, delta: number): void {
    if (delta === 0) return;
    account.credits += delta;
    if (state.accounts.get(account.id) === account) state.accounts.set(account.id, account);
  }

  function creditsOf(account: Account | undefined): { charged: number; remaining: number | null } | null {
    return account ? { charged: 0, remaining: account.credits } : null;
  }

  function fail(
    operation: string,
    status: number,
    code: string,
    message: string,
    snapshot: RateLimitSnapshot,
    account: Account | undefined,
    refused = false,
  ): ExecuteResponse {
    return {
      status,
      headers: rateLimitHeaders(snapshot, Date.now(), refused),
      body: errorEnvelope(operation, code, message, creditsOf(account)),
    };
  }

  function refuse(
    operation: string,
    status: number,
    code: string,
    message: string,
    authorization: string | undefined,
  ): ExecuteResponse {
    const auth = authenticate(state, authorization);
    const snapshot = limiter.peek(auth.ok ? auth.key.key : undefined, Date.now());
    return fail(operation, status, code, message, snapshot, auth.ok ? auth.account : undefined);
  }

  function peekHeaders(authorization: string | undefined): Record<string, string> {
    const auth = authenticate(state, authorization);
    const now = Date.now();
    return rateLimitHeaders(limiter.peek(auth.ok ? auth.key.key : undefined, now), now);
  }

  async function execute(request: ExecuteRequest): Promise<ExecuteResponse> {
    const { operation, authorization, method } = request;
    const now = Date.now();

    // 1. Operation.
    if (!isOperationName(operation)) {
      return refuse(operation, 404, 'not_found', unknownOperationMessage(operation), authorization);
    }
    const def = OPERATIONS[operation];

    // 2. Authentication.
    const auth = authenticate(state, authorization);
    if (!auth.ok)
      return fail(operation, 401, 'unauthorized', auth.message, limiter.peek(undefined, now), undefined);
    const { key, account } = auth;

    // 3. Rate limit (only authenticated calls count; a refused call does not).
    const limit = limiter.consume(key.key, now);
    if (!limit.allowed) {
      const window =
        limit.snapshot.exceeded === 'day'
          ? `${limit.snapshot.limitDay} calls per day`
          : `${limit.snapshot.limit} calls per minute`;
      const message = `rate limit exceeded (${window} per key); retry after ${new Date(limit.snapshot.resetMs).toISOString()} (X-RateLimit-Reset)`;
      return fail(operation, 429, 'rate_limited', message, limit.snapshot, account, true);
    }
    const snapshot = limit.snapshot;

    // 4. Method.
    if (method === 'GET' && def.credits > 0) {
      const message = `${operation} costs ${def.credits} credit${def.credits === 1 ? '' : 's'} and must be called with POST /v1/${operation}; GET is only for 0-credit operations (${FREE_OPERATIONS.join(', ')})`;
      return fail(operation, 405, 'method_not_allowed', message, snapshot, account);
    }

    // 5. Parameters.
    const raw = request.params;
    if (raw instanceof InvalidBody)
      return fail(operation, 400, 'invalid_input', `${operation}: ${raw.message}`, snapshot, account);
    const validated = validateParams(
      operation,
      method === 'MCP' && (raw === undefined || raw === null) ? {} : raw,
    );
    if (!validated.ok) return fail(operation, 400, 'invalid_input', validated.message, snapshot, account);

    // 6-7. Scope, account type, plan.
    const access = decideAccess(account, key, operation);
    if (!access.allowed)
      return fail(operation, access.status, access.code, access.message, snapshot, account);

    // 8. Credits: the call's price (its quote where the call may be free) is reserved before the
    // handler runs, so parallel calls never overspend.
    const ctx: HandlerContext = {
      db: deps.db,
      account,
      key,
      params: validated.value,
      baseUrl: deps.baseUrl(),
      now: deps.options.now(),
      state,
      options: deps.options,
      ...(deps.scorer ? { scorer: deps.scorer } : {}),
    };
    const quote: Quote<OperationName> | undefined = QUOTES[operation];
    const price = quote ? quote(ctx, def.credits) : def.credits;
    if (account.credits < price) {
      const message = `${operation} costs ${price} credit${price === 1 ? '' : 's'}; the balance is ${account.credits}`;
      return fail(operation, 402, 'insufficient_credits', message, snapshot, account);
    }
    adjustCredits(account, -price);
    const reserved = price;

    // 9. Handler.
    let result: HandlerResult;
    try {
      result = await handlers[operation](ctx);
    } catch (error) {
      adjustCredits(account, reserved);
      if (error instanceof SandboxError) {
        return fail(
          operation,
          error.status,
          String(error.code),
          redactText(error.message, [key.key]),
          snapshot,
          account,
        );
      }
      deps.onError?.(operation, error);
      const message = `internal error in ${operation}: ${redactText(error instanceof Error ? error.message : String(error), [key.key])}`;
      return fail(operation, 500, 'internal_error', message, snapshot, account);
    }

    // 10. Debit: settle the reservation at the handler's charge (a free repeat costs 0).
    const wanted = result.charge === undefined ? price : Math.max(0, Math.round(result.charge));
    let charged: number;
    if (wanted <= reserved) {
      adjustCredits(account, reserved - wanted);
      charged = wanted;
    } else {
      const extra = Math.min(wanted - reserved, account.credits);
      adjustCredits(account, -extra);
      charged = reserved + extra;
    }

    const { url, resultId } = resolveUrl(result.url, deps.baseUrl());
    if (resultId) {
      state.results.set(resultId, {
        operation,
        account_id: account.id,
        summary: result.summary,
        data: result.data,
        created_at: new Date(now).toISOString(),
      });
    }
    return {
      status: 200,
      headers: rateLimitHeaders(snapshot, now),
      body: successEnvelope({
        operation,
        data: result.data,
        summary: result.summary,
        charts: result.charts,
        url,
        credits: { charged, remaining: account.credits },
      }),
    };
  }

  return { execute, refuse, peekHeaders };
}
