/**
 * Error classes of the client, in the style of undici's `lib/core/errors.js` and ky's
 * `HTTPError`: a stable `code`, the operation, the HTTP status, the service's parsed error
 * body, whether a retry can help, a message that names the call, `{ cause }` when wrapping.
 *
 * Secrets never reach an error: every message, body and cause passes through the redactor
 * (the client hands over its key; bearer tokens and service keys are caught by pattern too).
 */
import { inspect } from 'node:util';
import type { ErrorBody } from './envelope.js';
import type { RateLimitInfo } from './rate-limit.js';
import { redactDeep, redactText } from './redact.js';
import type { ParamIssue } from './validate.js';

/** Context every error constructor takes. `secrets` are only used to redact, never stored. */
export interface VisErrorContext {
  /** The operation that was called (null when the error is not about a call). */
  operation?: string | null;
  /** HTTP status of the response, null when there was none. */
  status?: number | null;
  /** The service's parsed error object, when the body had one. */
  body?: ErrorBody | null;
  /** Rate-limit headers of the response, when there was one. */
  rateLimit?: RateLimitInfo | null;
  /** The error being wrapped. */
  cause?: unknown;
  /** Values to redact (the API key). */
  secrets?: readonly string[];
  /** Replaces the message's head (`<operation> failed: <status> <code>`). */
  head?: string;
}

/** A serialisable summary of a cause (never the cause object itself). */
interface CauseSummary {
  name: string;
  message: string;
  code?: string;
}

function causeCode(err: unknown): string | undefined {
  if (err === null || typeof err !== 'object') return undefined;
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Keeps a cause as it is unless its printed form contains a secret; then replaces it by a plain
 * Error with the same name, code and redacted message and stack.
 */
function sanitizeCause(cause: unknown, secrets: readonly string[]): unknown {
  if (cause === undefined || cause === null) return undefined;
  if (typeof cause === 'string') return redactText(cause, secrets);
  let printed: string;
  try {
    printed = inspect(cause, { depth: 6, showHidden: false });
  } catch {
    printed = '';
  }
  if (printed !== '' && redactText(printed, secrets) === printed) return cause;
  if (cause instanceof Error) {
    const copy = new Error(redactText(cause.message, secrets));
    copy.name = cause.name;
    const code = causeCode(cause);
    if (code !== undefined) Object.assign(copy, { code });
    copy.stack = redactText(cause.stack ?? `${cause.name}: ${cause.message}`, secrets);
    if (cause.cause !== undefined) Object.assign(copy, { cause: sanitizeCause(cause.cause, secrets) });
    return copy;
  }
  return redactText(printed, secrets);
}

/** Base class of every error the client throws. */
export class VisError extends Error {
  /** Stable machine-readable code (see docs/client.md for the table). */
  readonly code: string;
  /** The operation called, or null. */
  readonly operation: string | null;
  /** HTTP status of the response, or null when none was received (or none was sent). */
  readonly status: number | null;
  /** The service's error object `{ code, message }` (redacted), or null. */
  readonly body: ErrorBody | null;
  /** Whether the same call may succeed if repeated later. */
  readonly retryable: boolean;
  /** Rate-limit headers of the response, when there was one. */
  readonly rateLimit: RateLimitInfo | null;

  /**
   * @param code stable code of the error
   * @param detail what went wrong, without the operation (it is prefixed)
   * @param retryable whether a retry can help
   */
  constructor(code: string, detail: string, retryable: boolean, ctx: VisErrorContext = {}) {
    const secrets = ctx.secrets ?? [];
    const operation = ctx.operation ?? null;
    const status = ctx.status ?? null;
    const body = ctx.body ? redactDeep(ctx.body, secrets) : null;
    const shownCode = body?.code ?? code;
    const head =
      ctx.head ?? `${operation ?? 'request'} failed: ${status === null ? '' : `${status} `}${shownCode}`;
    const cause = sanitizeCause(ctx.cause, secrets);
    super(redactText(`${head}: ${detail}`, secrets), cause === undefined ? undefined : { cause });
    this.name = new.target.name;
    this.code = code;
    this.operation = operation;
    this.status = status;
    this.body = body;
    this.retryable = retryable;
    this.rateLimit = ctx.rateLimit ?? null;
  }

  /** A plain, secret-free object for logs and workflow results. */
  toJSON(): Record<string, unknown> {
    const cause = this.cause;
    let causeSummary: CauseSummary | string | undefined;
    if (cause instanceof Error) {
      const code = causeCode(cause);
      causeSummary = { name: cause.name, message: cause.message, ...(code === undefined ? {} : { code }) };
    } else if (cause !== undefined) {
      causeSummary = typeof cause === 'string' ? cause : inspect(cause);
    }
    return {
      name: this.name,
      code: this.code,
      message: this.message,
      operation: this.operation,
      status: this.status,
      retryable: this.retryable,
      body: this.body,
      rateLimit: this.rateLimit && {
        limit: this.rateLimit.limit,
        remaining: this.rateLimit.remaining,
        resetAt: this.rateLimit.resetAt?.toISOString() ?? null,
      },
      ...(causeSummary === undefined ? {} : { cause: causeSummary }),
    };
  }
}

/** Parameters failed validation on the client; nothing was sent. */
export class ParamValidationError extends VisError {
  /** Each failing parameter with a message naming it and its bound. */
  readonly issues: ParamIssue[];
  constructor(issues: ParamIssue[], ctx: VisErrorContext = {}) {
    const secrets = ctx.secrets ?? [];
    const clean = issues.map((i) => ({
      field: redactText(i.field, secrets),
      message: redactText(i.message, secrets),
    }));
    super('invalid_params', clean.map((i) => i.message).join('; '), false, ctx);
    this.issues = clean;
  }
  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), issues: this.issues };
  }
}

/** GET was asked for an operation that costs credits (only 0-credit operations accept GET); nothing was sent. */
export class MethodNotAllowedError extends VisError {
  constructor(detail: string, ctx: VisErrorContext = {}) {
    super('method_not_allowed', detail, false, ctx);
  }
}

/** A client option is missing or out of range. */
export class InvalidClientOptionsError extends VisError {
  /** Each failing option with a message naming it. */
  readonly issues: ParamIssue[];
  constructor(issues: ParamIssue[]) {
    super('invalid_options', issues.map((i) => i.message).join('; '), false, {
      head: 'invalid VisClient options',
    });
    this.issues = issues;
  }
  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), issues: this.issues };
  }
}

/** 400: the service refused the input. */
export class InvalidInputError extends VisError {
  constructor(detail: string, ctx: VisErrorContext = {}) {
    super('invalid_input', detail, false, ctx);
  }
}

/** 401: the key is missing, wrong or revoked. */
export class UnauthorizedError extends VisError {
  constructor(detail: string, ctx: VisErrorContext = {}) {
    super('unauthorized', detail, false, ctx);
  }
}

/** 402 upgrade_required: the operation needs a paid plan. */
export class UpgradeRequiredError extends VisError {
  constructor(detail: string, ctx: VisErrorContext = {}) {
    super('upgrade_required', detail, false, ctx);
  }
}

/** 402 insufficient_credits (and any other 402): the credit balance is too low. */
export class InsufficientCreditsError extends VisError {
  constructor(detail: string, ctx: VisErrorContext = {}) {
    super('insufficient_credits', detail, false, ctx);
  }
}

/** 403: the key lacks the scope, or a plan or account type is required; `code` is the service's. */
export class ForbiddenError extends VisError {
  constructor(detail: string, ctx: VisErrorContext = {}) {
    super(ctx.body?.code ?? 'forbidden', detail, false, ctx);
  }
}

/** 404: no such investor, startup, data room or path. */
export class NotFoundError extends VisError {
  constructor(detail: string, ctx: VisErrorContext = {}) {
    super('not_found', detail, false, ctx);
  }
}

/** 429: rate limit exceeded; retry after `resetAt`. */
export class RateLimitedError extends VisError {
  /** When the limit resets (X-RateLimit-Reset, else Retry-After), or null if not given. */
  readonly resetAt: Date | null;
  constructor(detail: string, ctx: VisErrorContext = {}) {
    super('rate_limited', detail, true, ctx);
    this.resetAt = ctx.rateLimit?.resetAt ?? null;
  }
  /** Milliseconds from `now` until the reset (0 if already past), or null when unknown. */
  retryAfterMs(now: Date = new Date()): number | null {
    return this.resetAt === null ? null : Math.max(0, this.resetAt.getTime() - now.getTime());
  }
  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), resetAt: this.resetAt?.toISOString() ?? null };
  }
}

/** Why the service could not be reached or did not answer in time. */
export type UnavailableReason = 'status' | 'network' | 'timeout';

/** 5xx, a dropped or refused connection, or a timeout: retryable. */
export class ServiceUnavailableError extends VisError {
  /** 'status': a 5xx answer; 'network': connection refused, reset or closed; 'timeout': no answer in time. */
  readonly reason: UnavailableReason;
  constructor(reason: UnavailableReason, detail: string, ctx: VisErrorContext = {}) {
    super('service_unavailable', detail, true, ctx);
    this.reason = reason;
  }
  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), reason: this.reason };
  }
}

/** A 2xx (or 4xx) body that is not JSON, not the Result envelope, or whose data does not fit the operation. */
export class MalformedResponseError extends VisError {
  /** The first 200 characters of the body (redacted), for diagnosis. */
  readonly excerpt: string;
  constructor(detail: string, excerpt: string, ctx: VisErrorContext = {}) {
    super('malformed_response', detail, false, ctx);
    this.excerpt = redactText(excerpt.slice(0, 200), ctx.secrets ?? []);
  }
  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), excerpt: this.excerpt };
  }
}

/** A status the spec does not describe (3xx, 405, 409, ...). */
export class UnexpectedStatusError extends VisError {
  constructor(detail: string, ctx: VisErrorContext = {}) {
    super('unexpected_status', detail, false, ctx);
  }
}

/** The caller's AbortSignal aborted the call. */
export class RequestAbortedError extends VisError {
  constructor(detail: string, ctx: VisErrorContext = {}) {
    super('aborted', detail, false, ctx);
  }
}

/** The client was closed before or during the call. */
export class ClientClosedError extends VisError {
  constructor(detail: string, ctx: VisErrorContext = {}) {
    super('client_closed', detail, false, ctx);
  }
}

/**
 * Type guard: is this one of the client's errors?
 *
 * @example
 * try { await client.call('my_account', {}); } catch (e) { if (isVisError(e) && e.retryable) ... }
 */
export function isVisError(err: unknown): err is VisError {
  return err instanceof VisError;
}

/** What the client knows about a response that was not a success. */
export interface ResponseErrorInput {
  operation: string;
  status: number;
  /** The parsed error object, when the body was an error envelope. */
  body: ErrorBody | null;
  rateLimit: RateLimitInfo | null;
  /** Raw body text (for the excerpt of HTML error pages). */
  text: string;
  secrets?: readonly string[];
}

/**
 * Maps a non-success response to its error class: by status, and for 402 by the service's code.
 * A 2xx with `success: false` is classified by the code's usual status (ERROR_CODES).
 */
export function errorFromResponse(
  input: ResponseErrorInput,
  statusForClass: number = input.status,
): VisError {
  const { operation, status, body, rateLimit, secrets } = input;
  const ctx: VisErrorContext = { operation, status, body, rateLimit, secrets: secrets ?? [] };
  const detail = body?.message ?? (body === null ? describeBody(input.text) : 'no message');
  switch (statusForClass) {
    case 400:
    case 422:
      return new InvalidInputError(detail, ctx);
    case 401:
      return new UnauthorizedError(detail, ctx);
    case 402:
      return body?.code === 'upgrade_required'
        ? new UpgradeRequiredError(detail, ctx)
        : new InsufficientCreditsError(detail, ctx);
    case 403:
      return new ForbiddenError(detail, ctx);
    case 404:
      return new NotFoundError(detail, ctx);
    case 408:
      return new ServiceUnavailableError('timeout', detail, ctx);
    case 429:
      return new RateLimitedError(detail, ctx);
    default:
      if (statusForClass >= 500) return new ServiceUnavailableError('status', detail, ctx);
      return new UnexpectedStatusError(detail, ctx);
  }
}

function describeBody(text: string): string {
  const t = text.trim();
  if (t === '') return 'empty body';
  if (/^<(!doctype|html)/i.test(t)) return 'HTML page instead of a JSON envelope';
  return 'body is not a JSON error envelope';
}

const TIMEOUT_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
]);
/** Network failures before a connection was made: the request never reached the service. */
const CONNECT_FAILURE_CODES = [
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
] as const;
const NETWORK_CODES = new Set<string>([
  ...CONNECT_FAILURE_CODES,
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
  'UND_ERR_REQ_CONTENT_LENGTH_MISMATCH',
  'UND_ERR_INFO',
]);
const ABORT_CODES = new Set(['UND_ERR_ABORTED', 'UND_ERR_ABORT', 'ABORT_ERR']);
const CLOSED_CODES = new Set(['UND_ERR_CLOSED', 'UND_ERR_DESTROYED']);

/** Codes found on an error, its cause chain and an AggregateError's members (depth-limited). */
function codesOf(err: unknown, depth = 0): string[] {
  if (depth > 5 || err === null || typeof err !== 'object') return [];
  const out: string[] = [];
  const code = causeCode(err);
  if (code !== undefined) out.push(code);
  // llhttp parser errors (a garbled response) count as a broken connection.
  if (code?.startsWith('HPE_')) out.push('UND_ERR_SOCKET');
  const name = (err as { name?: unknown }).name;
  if (name === 'AbortError') out.push('ABORT_ERR');
  if (name === 'TimeoutError') out.push('ETIMEDOUT');
  const errors = (err as { errors?: unknown }).errors;
  if (Array.isArray(errors)) for (const e of errors) out.push(...codesOf(e, depth + 1));
  out.push(...codesOf((err as { cause?: unknown }).cause, depth + 1));
  return out;
}

/** Options of {@link classifyError}. */
export interface ClassifyOptions {
  operation?: string | null;
  secrets?: readonly string[];
  /** Configured timeouts, named in timeout messages. */
  timeouts?: { connectTimeoutMs?: number; headersTimeoutMs?: number; bodyTimeoutMs?: number };
}

function timeoutDetail(code: string, timeouts: ClassifyOptions['timeouts']): string {
  switch (code) {
    case 'UND_ERR_CONNECT_TIMEOUT':
      return `timeout: no connection within ${timeouts?.connectTimeoutMs ?? '?'} ms`;
    case 'UND_ERR_HEADERS_TIMEOUT':
      return `timeout: no response headers within ${timeouts?.headersTimeoutMs ?? '?'} ms`;
    case 'UND_ERR_BODY_TIMEOUT':
      return `timeout: response body stalled for ${timeouts?.bodyTimeoutMs ?? '?'} ms`;
    default:
      return 'timeout';
  }
}

/**
 * Maps anything thrown to a VisError: VisErrors pass through; timeouts and network failures
 * (ECONNRESET, ECONNREFUSED, socket closed, ...) become a retryable ServiceUnavailableError;
 * an abort becomes RequestAbortedError; a closed client ClientClosedError; anything else a
 * non-retryable VisError with code `unexpected_error`. The original is kept as `cause`
 * (redacted if it carries a secret).
 */
export function classifyError(err: unknown, options: ClassifyOptions = {}): VisError {
  if (err instanceof VisError) return err;
  const ctx: VisErrorContext = {
    operation: options.operation ?? null,
    cause: err,
    secrets: options.secrets ?? [],
  };
  const message = err instanceof Error ? err.message : String(err);
  const codes = codesOf(err);
  const timeout = codes.find((c) => TIMEOUT_CODES.has(c));
  if (timeout !== undefined) {
    return new ServiceUnavailableError(
      'timeout',
      `${timeoutDetail(timeout, options.timeouts)} (${timeout})`,
      ctx,
    );
  }
  if (codes.some((c) => ABORT_CODES.has(c))) return new RequestAbortedError(`aborted: ${message}`, ctx);
  if (codes.some((c) => CLOSED_CODES.has(c))) return new ClientClosedError(`client closed: ${message}`, ctx);
  const network = codes.find((c) => NETWORK_CODES.has(c));
  if (network !== undefined)
    return new ServiceUnavailableError('network', `network error (${network}): ${message}`, ctx);
  return new VisError('unexpected_error', message, false, ctx);
}

/** Failures that happen before the request reaches the service (no connection was made). */
const NOT_CONNECTED_CODES = new Set<string>([...CONNECT_FAILURE_CODES, 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * Whether a failed call's request may have reached the service: it answered (any status), or
 * the connection broke or timed out after it was made. Refused by the client (invalid
 * parameters, a GET for a paid operation, a closed client) or a connection never made (refused,
 * unknown host, connect timeout): no.
 *
 * @example
 * requestReachedService(err) // false for ECONNREFUSED: the service never saw the call
 */
export function requestReachedService(err: unknown): boolean {
  if (!(err instanceof VisError)) return true;
  if (err.status !== null) return true;
  if (
    err instanceof ParamValidationError ||
    err instanceof MethodNotAllowedError ||
    err instanceof InvalidClientOptionsError ||
    err instanceof ClientClosedError
  )
    return false;
  return !codesOf(err.cause).some((c) => NOT_CONNECTED_CODES.has(c));
}
