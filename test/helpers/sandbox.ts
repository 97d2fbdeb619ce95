/**
 * Test helpers for the sandbox: start one on port 0 with the shared cached database, and call
 * it over real HTTP.
 */
import { SANDBOX_TEST_AS_OF } from '../../sandbox/data/index.js';
import { SEEDED_KEYS, startSandbox } from '../../sandbox/index.js';
import type { Envelope, RunningSandbox, SandboxOptions } from '../../sandbox/index.js';

/** The seeded API keys (see docs/sandbox.md). */
export const KEYS = SEEDED_KEYS;

/**
 * Starts a sandbox on 127.0.0.1 and a free port, with the shared cached database (built once,
 * then reused by every test file) and today's as-of date unless `options` say otherwise.
 * Close it in `afterAll`.
 *
 * @example
 * const sandbox = await startTestSandbox({ rateLimitPerMinute: 5, minuteWindowMs: 1000 });
 * afterAll(() => sandbox.close());
 */
export async function startTestSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  return startSandbox({ ...options, port: 0, host: '127.0.0.1' });
}

/**
 * A sandbox on the fixed test date (`SANDBOX_TEST_AS_OF`: its data and its clock at noon UTC of
 * that day), rate limit lifted: runs over it give the same figures on any day. `options` add
 * others (e.g. `trustedCa` for a test's deck server).
 */
export async function startFixedDateSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  return startTestSandbox({
    ...options,
    rateLimitPerMinute: 10_000,
    asOf: SANDBOX_TEST_AS_OF,
    now: () => new Date(`${SANDBOX_TEST_AS_OF}T12:00:00Z`),
  });
}

export interface CallOptions {
  /** API key; sent as `Authorization: Bearer <key>`. Omit for no header. */
  key?: string;
  /** A raw Authorization header value (wins over key). */
  authorization?: string;
  /** Parameters: the JSON body of a POST, the query of a GET. Default {}. */
  params?: Record<string, unknown>;
  /** HTTP method; default POST. */
  method?: string;
  /** A raw request body (wins over params for POST); null sends no body at all. */
  body?: string | null;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface CallResult {
  status: number;
  headers: Headers;
  /** The parsed envelope (undefined when the body is not JSON). */
  body: Envelope;
  text: string;
}

/** Encodes GET parameters: arrays as repeated parameters. */
export function toQuery(params: Record<string, unknown>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    for (const v of Array.isArray(value) ? value : [value]) query.append(name, String(v));
  }
  const text = query.toString();
  return text ? `?${text}` : '';
}

/**
 * Calls an operation of a sandbox over HTTP.
 *
 * @example
 * const r = await callSandbox(sandbox, 'my_account', { key: KEYS.vc });
 * expect(r.status).toBe(200);
 */
export async function callSandbox(
  target: RunningSandbox | string,
  operation: string,
  options: CallOptions = {},
): Promise<CallResult> {
  const base = typeof target === 'string' ? target : target.url;
  const method = options.method ?? 'POST';
  const headers: Record<string, string> = { ...options.headers };
  const authorization =
    options.authorization ?? (options.key === undefined ? undefined : `Bearer ${options.key}`);
  if (authorization !== undefined) headers.authorization = authorization;
  let url = `${base}/v1/${operation}`;
  let body: string | undefined;
  if (method === 'GET' || method === 'HEAD') {
    url += toQuery(options.params ?? {});
  } else if (options.body !== null) {
    body = options.body ?? JSON.stringify(options.params ?? {});
    headers['content-type'] ??= 'application/json';
  }
  const init: RequestInit = { method, headers };
  if (body !== undefined) init.body = body;
  if (options.signal) init.signal = options.signal;
  const response = await fetch(url, init);
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, body: parsed as Envelope, text };
}
