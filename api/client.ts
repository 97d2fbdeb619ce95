/**
 * The typed client of the Venture Intelligence Service: one undici Pool with keep-alive,
 * parameters validated before anything is sent, the response's envelope checked (and nothing
 * inside `data`: api/read.ts reads that tolerantly), every failure classified once into a
 * VisError (api/errors.ts).
 */
import { inspect } from 'node:util';
import { Pool } from 'undici';
import { z } from 'zod';
import { ERROR_CODES, ErrorBodySchema, ResultSchema, type ErrorBody, type Result } from './envelope.js';
import {
  ClientClosedError,
  classifyError,
  errorFromResponse,
  InvalidClientOptionsError,
  MalformedResponseError,
  MethodNotAllowedError,
  ParamValidationError,
} from './errors.js';
import {
  FREE_OPERATIONS,
  isOperationName,
  OPERATIONS,
  type OperationName,
  type ParamsIn,
} from './operations.js';
import { readRateLimit, type RateLimitInfo } from './rate-limit.js';
import { validateParams, type ParamIssue } from './validate.js';

/** Options of {@link VisClient}, as a caller passes them. */
export interface VisClientOptions {
  /** Base URL of the service, e.g. `http://127.0.0.1:8787` (a path prefix is kept). */
  baseUrl: string;
  /** The API key; sent only as `Authorization: Bearer <key>`, never logged or shown in errors. */
  apiKey: string;
  /** Time to establish a connection (ms). Default 10 000. */
  connectTimeoutMs?: number;
  /** Time to receive the response headers (ms). Default 120 000: analyze_deck may wait ~90 s. */
  headersTimeoutMs?: number;
  /** Longest pause between body chunks (ms). Default 120 000. */
  bodyTimeoutMs?: number;
  /** Connections of the pool. Default 8. */
  connections?: number;
  /** User-Agent header. Default `venture-intelligence-runner/<version>`. */
  userAgent?: string;
}

/** The one defaults constant of the options pipeline. */
export const CLIENT_DEFAULTS = {
  connectTimeoutMs: 10_000,
  headersTimeoutMs: 120_000,
  bodyTimeoutMs: 120_000,
  connections: 8,
  userAgent: 'venture-intelligence-runner/0.1.0',
} as const satisfies Required<Omit<VisClientOptions, 'baseUrl' | 'apiKey'>>;

const positiveMs = (field: string, dflt: number) =>
  z
    .number({ message: `${field} must be a whole number of milliseconds` })
    .int({ message: `${field} must be a whole number of milliseconds` })
    .min(1, { message: `${field} must be at least 1 ms` })
    .max(86_400_000, { message: `${field} must be at most 86 400 000 ms (one day)` })
    .default(dflt);

function baseUrlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'baseUrl must be an absolute http(s) URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'baseUrl must use http or https';
  if (url.username !== '' || url.password !== '') return 'baseUrl must not carry credentials (use apiKey)';
  if (url.search !== '' || url.hash !== '') return 'baseUrl must not have a query or fragment';
  return null;
}

/** zod schema of the client options (strict: an unknown option is an error naming it). */
export const VisClientOptionsSchema = z
  .object({
    baseUrl: z.string({ message: 'baseUrl is required (an http(s) URL)' }).superRefine((value, ctx) => {
      const problem = baseUrlProblem(value);
      if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
    }),
    apiKey: z
      .string({ message: 'apiKey is required' })
      .min(1, { message: 'apiKey is required' })
      .regex(/^[\x21-\x7e]*$/, { message: 'apiKey must be printable ASCII without spaces' }),
    connectTimeoutMs: positiveMs('connectTimeoutMs', CLIENT_DEFAULTS.connectTimeoutMs),
    headersTimeoutMs: positiveMs('headersTimeoutMs', CLIENT_DEFAULTS.headersTimeoutMs),
    bodyTimeoutMs: positiveMs('bodyTimeoutMs', CLIENT_DEFAULTS.bodyTimeoutMs),
    connections: z
      .number({ message: 'connections must be an integer from 1 to 256' })
      .int({ message: 'connections must be an integer from 1 to 256' })
      .min(1, { message: 'connections must be at least 1 (1 to 256)' })
      .max(256, { message: 'connections must be at most 256 (1 to 256)' })
      .default(CLIENT_DEFAULTS.connections),
    userAgent: z
      .string({ message: 'userAgent must be a string' })
      .regex(/^[\x20-\x7e]+$/, { message: 'userAgent must be non-empty printable ASCII' })
      .default(CLIENT_DEFAULTS.userAgent),
  })
  .strict();

/** Options after defaults and validation, without the key. */
export type ResolvedClientOptions = Omit<z.output<typeof VisClientOptionsSchema>, 'apiKey'>;

/**
 * Options pipeline: public options -> defaults -> validate -> resolved. Throws
 * InvalidClientOptionsError naming each bad field (the key's value is never echoed).
 */
export function resolveClientOptions(options: VisClientOptions): {
  resolved: ResolvedClientOptions;
  apiKey: string;
} {
  const parsed = VisClientOptionsSchema.safeParse(options ?? {});
  if (!parsed.success) {
    const issues: ParamIssue[] = parsed.error.issues.map((issue) => {
      if (issue.code === 'unrecognized_keys') {
        return { field: issue.keys[0] ?? '(options)', message: `unknown option ${issue.keys.join(', ')}` };
      }
      const field = issue.path.map(String).join('.') || '(options)';
      const message = issue.message.startsWith(field) ? issue.message : `${field}: ${issue.message}`;
      return { field, message };
    });
    throw new InvalidClientOptionsError(issues);
  }
  const { apiKey, ...resolved } = parsed.data;
  return { resolved, apiKey };
}

/** Per-call options. */
export interface CallOptions {
  /** POST (default) or GET; GET only for 0-credit operations. */
  method?: 'POST' | 'GET';
  /** Aborts the call (RequestAbortedError; an `AbortSignal.timeout` gives a timeout). */
  signal?: AbortSignal;
}

/** What {@link VisClient.callDetailed} returns: the result and the response's metadata. */
export interface CallDetails {
  /** The answer as the service sent it: the envelope checked, `data` and charts untouched. */
  result: Result;
  /** HTTP status of the response. */
  status: number;
  /** X-RateLimit-* headers of the response. */
  rateLimit: RateLimitInfo;
  /** Time from sending to the end of the body, in milliseconds. */
  durationMs: number;
}

const FREE = new Set<string>(FREE_OPERATIONS);
const EXCERPT = 200;

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** The service's error object: `error: { code, message }` of the envelope, or a bare `{ code, message }`. */
function errorBodyOf(json: unknown): ErrorBody | null {
  if (json === null || typeof json !== 'object') return null;
  const nested = ErrorBodySchema.safeParse((json as { error?: unknown }).error);
  if (nested.success) return nested.data;
  const bare = ErrorBodySchema.safeParse(json);
  return bare.success ? bare.data : null;
}

function zodIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`)
    .join('; ');
}

/** Query string of a GET: arrays as repeated parameters (`countries=France&countries=Spain`). */
export function encodeQuery(params: Record<string, unknown>): string {
  const query = new URLSearchParams();
  const scalar = (value: unknown): string =>
    typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
      ? String(value)
      : JSON.stringify(value);
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value) query.append(name, scalar(item));
    else query.append(name, scalar(value));
  }
  const text = query.toString();
  return text === '' ? '' : `?${text}`;
}

/**
 * The typed client of the service.
 *
 * @example
 * const client = new VisClient({ baseUrl: 'http://127.0.0.1:8787', apiKey: process.env.VIS_API_KEY! });
 * try {
 *   const { data } = await client.call('search_investors', { country: 'France', limit: 50 });
 *   console.log(readPage('search_investors', data).items.length);
 * } finally {
 *   await client.close();
 * }
 */
export class VisClient {
  /** Resolved options (defaults applied), without the key. */
  readonly options: Readonly<ResolvedClientOptions>;
  readonly #apiKey: string;
  readonly #pool: Pool;
  readonly #basePath: string;
  #closed = false;

  constructor(options: VisClientOptions) {
    const { resolved, apiKey } = resolveClientOptions(options);
    this.options = Object.freeze(resolved);
    this.#apiKey = apiKey;
    const url = new URL(resolved.baseUrl);
    this.#basePath = url.pathname.replace(/\/+$/, '');
    this.#pool = new Pool(url.origin, {
      connections: resolved.connections,
      connectTimeout: resolved.connectTimeoutMs,
      headersTimeout: resolved.headersTimeoutMs,
      bodyTimeout: resolved.bodyTimeoutMs,
      keepAliveTimeout: 10_000,
    });
  }

  /** Calls an operation and returns its Result; throws a VisError on any failure. */
  async call<N extends OperationName>(
    operation: N,
    params: ParamsIn<N>,
    opts: CallOptions = {},
  ): Promise<Result> {
    return (await this.callDetailed(operation, params, opts)).result;
  }

  /**
   * Like {@link VisClient.call}, with the HTTP status, the rate-limit headers and the duration.
   * Validation happens before sending: a ParamValidationError means no request was made.
   */
  async callDetailed<N extends OperationName>(
    operation: N,
    params: ParamsIn<N>,
    opts: CallOptions = {},
  ): Promise<CallDetails> {
    const secrets = [this.#apiKey];
    const name: string = operation;
    if (this.#closed)
      throw new ClientClosedError('client closed: the client was closed before the call', {
        operation: name,
      });
    if (!isOperationName(name)) {
      throw new ParamValidationError([{ field: 'operation', message: `unknown operation ${name}` }], {
        operation: name,
        secrets,
      });
    }
    const method = opts.method ?? 'POST';
    if (method !== 'POST' && method !== 'GET') {
      throw new MethodNotAllowedError(`method ${String(method)} is not supported: use POST or GET`, {
        operation: name,
      });
    }
    if (method === 'GET' && !FREE.has(name)) {
      throw new MethodNotAllowedError(
        `GET is only for 0-credit operations; ${name} costs ${OPERATIONS[operation].credits} credits: use POST`,
        { operation: name },
      );
    }
    const validated = validateParams(operation, (params as unknown) ?? {});
    if (!validated.ok) throw new ParamValidationError(validated.issues, { operation: name, secrets });
    const values = validated.value as Record<string, unknown>;

    const headers: Record<string, string> = {
      authorization: `Bearer ${this.#apiKey}`,
      accept: 'application/json',
      'user-agent': this.options.userAgent,
    };
    let path = `${this.#basePath}${OPERATIONS[operation].path}`;
    let body: string | undefined;
    if (method === 'GET') {
      path += encodeQuery(values);
    } else {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(values);
    }

    const classifyOpts = { operation: name, secrets, timeouts: this.options };
    const started = performance.now();
    let status: number;
    let responseHeaders: Record<string, string | string[] | undefined>;
    let text: string;
    try {
      const response = await this.#pool.request({ method, path, headers, body, signal: opts.signal });
      status = response.statusCode;
      responseHeaders = response.headers;
      text = await response.body.text();
    } catch (err) {
      throw classifyError(err, classifyOpts);
    }
    const durationMs = performance.now() - started;
    const rateLimit = readRateLimit(responseHeaders, new Date());
    const ctx = { operation: name, status, rateLimit, secrets };
    const json = parseJson(text);

    if (status < 200 || status > 299) {
      throw errorFromResponse({ ...ctx, body: json.ok ? errorBodyOf(json.value) : null, text });
    }
    if (!json.ok) {
      throw new MalformedResponseError('body is not JSON', text.slice(0, EXCERPT), ctx);
    }
    const envelope = ResultSchema.safeParse(json.value);
    if (!envelope.success) {
      throw new MalformedResponseError(
        `body is not the Result envelope (${zodIssues(envelope.error)})`,
        text.slice(0, EXCERPT),
        ctx,
      );
    }
    if (!envelope.data.success) {
      const errorBody = errorBodyOf(json.value);
      const code = errorBody?.code;
      const classStatus =
        code !== undefined && Object.hasOwn(ERROR_CODES, code)
          ? ERROR_CODES[code as keyof typeof ERROR_CODES]
          : 0;
      throw errorFromResponse({ ...ctx, body: errorBody, text }, classStatus);
    }
    // The raw answer, not the parsed copy: what the service charged for is kept as it came.
    const result = json.value as Result;
    return { result, status, rateLimit, durationMs };
  }

  /** Whether {@link VisClient.close} was called. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Closes the pool after in-flight calls finish. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#pool.close();
  }

  /** What logging the client shows: the resolved options, never the key. */
  toJSON(): Record<string, unknown> {
    return { baseUrl: this.options.baseUrl, options: this.options, closed: this.#closed };
  }

  [inspect.custom](): string {
    return `VisClient ${inspect(this.toJSON())}`;
  }
}

/** Creates a {@link VisClient}; same as `new VisClient(options)`. */
export function createClient(options: VisClientOptions): VisClient {
  return new VisClient(options);
}
