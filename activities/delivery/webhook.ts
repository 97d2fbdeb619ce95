/**
 * Delivery to a chat or HTTP webhook: a Slack-compatible incoming-webhook message, or plain JSON
 * of the run's manifest with its summary, POSTed once per run and destination.
 *
 * - Signed, Stripe/Slack style: `X-Vir-Timestamp: <unix seconds>` and
 *   `X-Vir-Signature: v1=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>`; a receiver checks it
 *   with {@link verifyWebhookSignature} (constant-time, with a tolerance on the timestamp).
 * - `Idempotency-Key` is derived from the run id and the destination id, the same on every
 *   attempt, so a receiver can drop a copy it already accepted.
 * - Retried with exponential backoff and jitter on 5xx, 408, 429 (honouring Retry-After),
 *   timeouts and dropped connections; never on other 4xx. Each attempt is signed afresh.
 * - The signing secret comes from the environment (or a secrets file named by `<NAME>_FILE`),
 *   never from the job file; it never enters an error, a result or a log line.
 *
 * @example
 * const dest = parseWebhookDestination({ url: 'https://hooks.example.com/vir', format: 'slack' });
 * const secret = webhookSecretFromEnv(dest, process.env);
 * const body = buildWebhookBody(dest, summary);
 * const result = await postWebhook(dest, body, {
 *   secret,
 *   idempotencyKey: webhookIdempotencyKey(summary.runId, 'webhook-1'),
 * });
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request, type Dispatcher } from 'undici';
import { redactText } from '../../api/redact.js';
import {
  DEFAULT_WEBHOOK_SECRET_ENV,
  httpUrl,
  WEBHOOK_DEFAULTS,
  WebhookDestinationSchema,
  webhookUrlProblem,
} from '../../config/destinations.js';
import type { WebhookDestination, WebhookDestinationInput } from '../../config/destinations.js';
import type { DeliveryFigure, DeliveryOutcome, DeliverySummary } from '../../shared/delivery.js';

export { DEFAULT_WEBHOOK_SECRET_ENV, WEBHOOK_DEFAULTS, WebhookDestinationSchema };
export type { WebhookDestination, WebhookDestinationInput };

// ---------------------------------------------------------------------------------------------
// Defaults
// ---------------------------------------------------------------------------------------------

/** What the requests say they are. */
export const WEBHOOK_USER_AGENT = 'venture-intelligence-runner/0.1 (webhook delivery)';

/** Header names of the signing scheme. */
export const WEBHOOK_HEADERS = {
  timestamp: 'x-vir-timestamp',
  signature: 'x-vir-signature',
  idempotencyKey: 'idempotency-key',
} as const;

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

/** Context of a webhook error. `secrets` are only used to redact, never stored. */
export interface WebhookErrorContext {
  /** HTTP status of the last answer, null when there was none. */
  status?: number | null;
  /** Attempts made (0 when nothing was sent). */
  attempts?: number;
  cause?: unknown;
  secrets?: readonly string[];
}

/** Base class of every error this module throws: a stable `code`, never a secret. */
export class WebhookError extends Error {
  readonly code: string;
  readonly status: number | null;
  readonly attempts: number;
  readonly retryable: boolean;

  constructor(code: string, message: string, retryable: boolean, ctx: WebhookErrorContext = {}) {
    const secrets = ctx.secrets ?? [];
    const cause = ctx.cause === undefined ? undefined : sanitizeCause(ctx.cause, secrets);
    super(redactText(message, secrets), cause === undefined ? undefined : { cause });
    this.name = new.target.name;
    this.code = code;
    this.status = ctx.status ?? null;
    this.attempts = ctx.attempts ?? 0;
    this.retryable = retryable;
  }

  /** A plain, secret-free object for logs and workflow results. */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      code: this.code,
      message: this.message,
      status: this.status,
      attempts: this.attempts,
      retryable: this.retryable,
    };
  }
}

/** The destination in the job file is wrong; `field` names it (`url`, `secretEnv`, ...). */
export class WebhookConfigError extends WebhookError {
  constructor(
    readonly field: string,
    detail: string,
  ) {
    super('invalid_webhook_config', `webhook ${field}: ${detail}`, false);
  }
  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), field: this.field };
  }
}

/** The signing secret is missing or unreadable; `variable` names where it was looked for. */
export class WebhookSecretError extends WebhookError {
  constructor(
    readonly variable: string,
    detail: string,
    cause?: unknown,
  ) {
    super('webhook_secret_unavailable', `${variable}: ${detail}`, false, { cause });
  }
  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), variable: this.variable };
  }
}

/** The receiver refused the message (4xx other than 408 and 429, or a 3xx): retrying will not help. */
export class WebhookRejectedError extends WebhookError {
  /** The first 200 characters of the answer's body (redacted). */
  readonly excerpt: string;
  constructor(target: string, status: number, excerpt: string, ctx: WebhookErrorContext = {}) {
    const clean = redactText(excerpt.replace(/\s+/g, ' ').trim().slice(0, 200), ctx.secrets ?? []);
    super(
      'webhook_rejected',
      `webhook ${target} refused the message: HTTP ${status}${clean ? ` ${JSON.stringify(clean)}` : ''}`,
      false,
      { ...ctx, status },
    );
    this.excerpt = clean;
  }
  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), excerpt: this.excerpt };
  }
}

/** Why the last attempt failed when the receiver could not be reached or kept failing. */
export type WebhookUnavailableReason = 'status' | 'rate_limited' | 'timeout' | 'network';

/**
 * 5xx, 408, 429, timeouts or dropped connections until the attempts ran out (or a Retry-After
 * longer than the backoff allows): retryable later, e.g. by the activity's own retry.
 */
export class WebhookUnavailableError extends WebhookError {
  constructor(
    readonly reason: WebhookUnavailableReason,
    message: string,
    ctx: WebhookErrorContext = {},
    /** What the receiver asked for with Retry-After, when it did. */
    readonly retryAfterMs: number | null = null,
  ) {
    super('webhook_unavailable', message, true, ctx);
  }
  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), reason: this.reason, retryAfterMs: this.retryAfterMs };
  }
}

/** The caller's signal aborted the delivery (the activity was cancelled). */
export class WebhookAbortedError extends WebhookError {
  constructor(message: string, ctx: WebhookErrorContext = {}) {
    super('webhook_aborted', message, false, ctx);
  }
}

/** A cause without secrets: kept as is when clean, else a plain Error with a redacted message. */
function sanitizeCause(cause: unknown, secrets: readonly string[]): unknown {
  if (!(cause instanceof Error)) return typeof cause === 'string' ? redactText(cause, secrets) : undefined;
  const text = `${cause.message}\n${cause.stack ?? ''}`;
  if (redactText(text, secrets) === text) return cause;
  const copy = new Error(redactText(cause.message, secrets));
  copy.name = cause.name;
  copy.stack = redactText(cause.stack ?? '', secrets);
  const code = (cause as { code?: unknown }).code;
  if (typeof code === 'string') Object.assign(copy, { code });
  return copy;
}

// ---------------------------------------------------------------------------------------------
// The destination in the job file
// ---------------------------------------------------------------------------------------------

/**
 * Validates a destination; a bad one is a WebhookConfigError naming the field.
 *
 * @example
 * parseWebhookDestination({ url: 'ftp://x' }); // throws: webhook url: must be an http or https URL ...
 */
export function parseWebhookDestination(input: unknown): WebhookDestination {
  const parsed = WebhookDestinationSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field =
    issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : String(p))).join('.') || '(webhook)';
  const message =
    issue.code === 'invalid_type' && issue.path.length === 0
      ? 'must be a mapping of fields (url, format, secretEnv, timeoutMs)'
      : issue.message;
  throw new WebhookConfigError(field, message);
}

/** Where a message goes, as errors and logs name it: the origin only (a path may hold a token). */
export function webhookTarget(dest: Pick<WebhookDestination, 'url'>): string {
  try {
    return new URL(dest.url).origin;
  } catch {
    return '(invalid url)';
  }
}

// ---------------------------------------------------------------------------------------------
// The secret
// ---------------------------------------------------------------------------------------------

/**
 * The destination's signing secret: the variable `secretEnv` names, or the file its `<NAME>_FILE`
 * variable names (a Docker/Kubernetes secret; a trailing newline is dropped). Errors name the
 * variable, never the value.
 *
 * @example
 * webhookSecretFromEnv({ secretEnv: 'VIR_WEBHOOK_SECRET' }, process.env)
 */
export function webhookSecretFromEnv(
  dest: Pick<WebhookDestination, 'secretEnv'>,
  env: NodeJS.ProcessEnv = process.env,
): string {
  const name = dest.secretEnv;
  const fileVar = `${name}_FILE`;
  const direct = env[name];
  const file = env[fileVar];
  const hasDirect = direct !== undefined && direct.trim() !== '';
  const hasFile = file !== undefined && file.trim() !== '';
  if (hasDirect && hasFile) {
    throw new WebhookSecretError(name, `set either ${name} or ${fileVar}, not both`);
  }
  if (hasDirect) return direct.trim();
  if (hasFile) {
    let text: string;
    try {
      text = readFileSync(file.trim(), 'utf8');
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      throw new WebhookSecretError(
        fileVar,
        `cannot read the secrets file it names${typeof code === 'string' ? ` (${code})` : ''}`,
        err,
      );
    }
    const secret = text.replace(/\r?\n$/, '').trim();
    if (secret === '') throw new WebhookSecretError(fileVar, 'the secrets file it names is empty');
    return secret;
  }
  throw new WebhookSecretError(
    name,
    `is not set: the webhook's signing secret comes from ${name} or from a file named by ${fileVar}`,
  );
}

// ---------------------------------------------------------------------------------------------
// The message
// ---------------------------------------------------------------------------------------------

/** Escapes the three characters Slack's mrkdwn (and plain text) gives meaning to. */
export function escapeSlack(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A link target safe inside `<url|name>`: http(s) only, with `|`, `<`, `>` percent-encoded. */
function slackUrl(url: string): string | null {
  if (!httpUrl(url)) return null;
  return new URL(url).href
    .replace(/\|/g, '%7C')
    .replace(/</g, '%3C')
    .replace(/>/g, '%3E')
    .replace(/&/g, '&amp;');
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function statusLine(summary: DeliverySummary): string {
  if (summary.status === 'complete') return 'complete';
  return summary.reasons.length === 0 ? 'partial' : `partial: ${summary.reasons.join('; ')}`;
}

function figureText(f: DeliveryFigure): string {
  return `*${escapeSlack(f.label)}*\n${escapeSlack(f.value)}${f.note ? ` _(${escapeSlack(f.note)})_` : ''}`;
}

/** A Slack Block Kit block (the subset used here). */
export type SlackBlock = Record<string, unknown>;

/** A Slack-compatible incoming-webhook message. */
export interface SlackWebhookBody {
  text: string;
  blocks: SlackBlock[];
}

/** The `json` format: the run's summary and manifest. */
export interface JsonWebhookBody {
  type: 'vir.run.delivered';
  version: 1;
  job: { id: string; title: string; kind: string };
  run: { id: string; date: string };
  status: DeliverySummary['status'];
  reasons: string[];
  headline: string | null;
  figures: DeliveryFigure[];
  links: { name: string; url: string }[];
  manifest: unknown;
}

function slackBody(summary: DeliverySummary): SlackWebhookBody {
  const title = escapeSlack(summary.jobTitle);
  const status = statusLine(summary);
  const blocks: SlackBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: cut(title, 150), emoji: false } },
    {
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: cut(
          `*Status:* ${summary.status === 'complete' ? ':white_check_mark:' : ':warning:'} ${escapeSlack(status)}`,
          3000,
        ),
      },
    },
  ];
  if (summary.headline) {
    blocks.push({
      type: 'section',
      text: { type: 'mrkdwn', text: cut(escapeSlack(summary.headline), 3000) },
    });
  }
  // Slack takes at most 10 fields a section, 2000 characters each.
  for (let i = 0; i < summary.figures.length; i += 10) {
    blocks.push({
      type: 'section',
      fields: summary.figures
        .slice(i, i + 10)
        .map((f) => ({ type: 'mrkdwn', text: cut(figureText(f), 2000) })),
    });
  }
  const links = (summary.links ?? [])
    .map((l) => {
      const url = slackUrl(l.url);
      return url === null ? null : `<${url}|${escapeSlack(l.name)}>`;
    })
    .filter((l): l is string => l !== null);
  if (links.length > 0) {
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: cut(links.join(' · '), 3000) } });
  }
  blocks.push({
    type: 'context',
    elements: [
      {
        type: 'mrkdwn',
        text: cut(
          `${escapeSlack(summary.kind)} · job \`${escapeSlack(summary.jobId)}\` · ${escapeSlack(summary.date)} · run \`${escapeSlack(summary.runId)}\``,
          3000,
        ),
      },
    ],
  });
  return {
    text: cut(`${title} (${escapeSlack(summary.date)}): ${escapeSlack(status)}`, 3000),
    blocks,
  };
}

/**
 * The message for a destination: Slack's `{ text, blocks }` (header with the job's title, the
 * status and why, the key figures as fields, the links as `<url|name>`, every string from the
 * service escaped for mrkdwn), or the JSON document `{ type: 'vir.run.delivered', version: 1,
 * job, run, status, reasons, figures, links, manifest }`.
 */
export function buildWebhookBody(
  dest: Pick<WebhookDestination, 'format'>,
  summary: DeliverySummary,
  manifest?: unknown,
): SlackWebhookBody | JsonWebhookBody {
  if (dest.format === 'slack') return slackBody(summary);
  return {
    type: 'vir.run.delivered',
    version: 1,
    job: { id: summary.jobId, title: summary.jobTitle, kind: summary.kind },
    run: { id: summary.runId, date: summary.date },
    status: summary.status,
    reasons: summary.reasons,
    headline: summary.headline ?? null,
    figures: summary.figures,
    links: summary.links ?? [],
    manifest: manifest ?? null,
  };
}

// ---------------------------------------------------------------------------------------------
// Signing
// ---------------------------------------------------------------------------------------------

/**
 * The signature header's value: `v1=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>`.
 *
 * @example
 * signWebhookBody('s3cret', 1700000000, '{"a":1}') // 'v1=5c1…'
 */
export function signWebhookBody(secret: string, timestamp: number | string, body: string | Buffer): string {
  const mac = createHmac('sha256', secret);
  mac.update(`${timestamp}.`);
  mac.update(body);
  return `v1=${mac.digest('hex')}`;
}

/** Options of {@link verifyWebhookSignature}. */
export interface VerifyOptions {
  /** How far the timestamp may be from `now` (default 300 s). */
  toleranceSeconds?: number;
  /** The receiver's clock in milliseconds (default Date.now()). */
  now?: number;
}

/**
 * A receiver's check: the timestamp is an integer within the tolerance of `now`, and one of the
 * header's `v1=` values (several may be listed, comma-separated, while a secret rotates) equals
 * the HMAC of `"<timestamp>.<raw body>"`, compared in constant time.
 *
 * @example
 * verifyWebhookSignature(secret, req.headers['x-vir-timestamp'], rawBody, req.headers['x-vir-signature'])
 */
export function verifyWebhookSignature(
  secret: string,
  timestamp: string | number | undefined | null,
  body: string | Buffer,
  header: string | string[] | undefined | null,
  options: VerifyOptions = {},
): boolean {
  if (!secret || timestamp === undefined || timestamp === null || !header) return false;
  const ts = String(timestamp);
  if (!/^\d{1,12}$/.test(ts)) return false;
  const tolerance = options.toleranceSeconds ?? WEBHOOK_DEFAULTS.toleranceSeconds;
  const nowSeconds = Math.floor((options.now ?? Date.now()) / 1000);
  if (Math.abs(nowSeconds - Number(ts)) > tolerance) return false;
  const expected = Buffer.from(signWebhookBody(secret, ts, body).slice(3), 'hex');
  const values = (Array.isArray(header) ? header.join(',') : header).split(',');
  let ok = false;
  for (const raw of values) {
    const v = raw.trim();
    if (!v.startsWith('v1=')) continue;
    const hex = v.slice(3);
    if (!/^[0-9a-f]{64}$/i.test(hex)) continue;
    // No early return: every listed value is compared.
    if (timingSafeEqual(Buffer.from(hex, 'hex'), expected)) ok = true;
  }
  return ok;
}

/**
 * The Idempotency-Key of a run's delivery to one destination: the same on every attempt and
 * every activity retry, different for each run and destination.
 *
 * @example
 * webhookIdempotencyKey('weekly-dach-2026-11-23', 'webhook-1') // 'vir-3f1c…' (40 hex)
 */
export function webhookIdempotencyKey(runId: string, destinationId: string): string {
  return `vir-${createHash('sha256').update(`${runId}\n${destinationId}`).digest('hex').slice(0, 40)}`;
}

// ---------------------------------------------------------------------------------------------
// Posting
// ---------------------------------------------------------------------------------------------

/** Retry options: attempts in all, backoff from baseMs doubling up to maxMs. */
export interface WebhookRetryOptions {
  attempts: number;
  baseMs: number;
  maxMs: number;
}

/** A line the module logs (never a secret, never the URL's path). */
export type WebhookLog = (level: 'info' | 'warn', message: string, fields: Record<string, unknown>) => void;

/** Options of {@link postWebhook}. */
export interface PostWebhookOptions {
  /** The signing secret; without it the request is sent unsigned. */
  secret?: string;
  idempotencyKey: string;
  retries?: WebhookRetryOptions;
  /** undici dispatcher (default: the global one). */
  dispatcher?: Dispatcher;
  /** Cancels waiting and the attempt in flight. */
  signal?: AbortSignal;
  log?: WebhookLog;
  /** Clock, for tests (milliseconds). */
  now?: () => number;
}

/** One attempt, as the result and errors describe it. */
export interface WebhookAttempt {
  status: number | null;
  /** `ok`, `status`, `timeout`, `network`. */
  outcome: 'ok' | 'status' | 'timeout' | 'network';
  ms: number;
}

/** What a delivered webhook reports (fits DeliveryOutcome). */
export interface WebhookResult {
  ok: true;
  status: number;
  attempts: number;
  deliveredAt: string;
  history: WebhookAttempt[];
}

function resolveRetries(r: WebhookRetryOptions | undefined): WebhookRetryOptions {
  const out = { ...WEBHOOK_DEFAULTS.retries, ...r };
  const bad = (field: string, rule: string) => new WebhookConfigError(`retries.${field}`, rule);
  if (!Number.isInteger(out.attempts) || out.attempts < 1 || out.attempts > 20)
    throw bad('attempts', 'must be a whole number from 1 to 20');
  if (!Number.isFinite(out.baseMs) || out.baseMs < 0) throw bad('baseMs', 'must be at least 0');
  if (!Number.isFinite(out.maxMs) || out.maxMs < out.baseMs) throw bad('maxMs', 'must be at least baseMs');
  return out;
}

/** Retry-After in milliseconds (seconds or an HTTP date), or null. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | null {
  const v = Array.isArray(value) ? value[0] : value;
  if (v === undefined || v.trim() === '') return null;
  if (/^\d+$/.test(v.trim())) return Number(v.trim()) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** Exponential backoff with equal jitter: half fixed, half random. */
function backoffMs(attempt: number, r: WebhookRetryOptions): number {
  const ceiling = Math.min(r.maxMs, r.baseMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
}

const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
]);
const TIMEOUT_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
]);

function codesOf(err: unknown, depth = 0): string[] {
  if (depth > 5 || err === null || typeof err !== 'object') return [];
  const code = (err as { code?: unknown }).code;
  const out = typeof code === 'string' ? [code] : [];
  if (typeof code === 'string' && code.startsWith('HPE_')) out.push('UND_ERR_SOCKET');
  const errors = (err as { errors?: unknown }).errors;
  if (Array.isArray(errors)) for (const e of errors) out.push(...codesOf(e, depth + 1));
  return [...out, ...codesOf((err as { cause?: unknown }).cause, depth + 1)];
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Error('aborted'));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Reads at most `max` characters of a body, then lets the rest go. */
async function excerptOf(body: Dispatcher.ResponseData['body'], max = 2048): Promise<string> {
  let text = '';
  for await (const chunk of body as AsyncIterable<Buffer>) {
    text += chunk.toString('utf8');
    if (text.length >= max) {
      body.destroy();
      break;
    }
  }
  return text.slice(0, max);
}

/**
 * POSTs a message to a webhook, signed, with retries: 5xx, 408, 429 (after its Retry-After),
 * timeouts and dropped connections are retried with exponential backoff and jitter; other 4xx
 * (and 3xx: redirects are not followed) throw WebhookRejectedError at once. Every attempt is
 * signed with a fresh timestamp and carries the same Idempotency-Key.
 *
 * @throws WebhookRejectedError (4xx), WebhookUnavailableError (attempts spent, or a Retry-After
 *   longer than `retries.maxMs`), WebhookAbortedError (the signal), WebhookConfigError (options)
 */
export async function postWebhook(
  dest: Pick<WebhookDestination, 'url' | 'timeoutMs'>,
  body: unknown,
  opts: PostWebhookOptions,
): Promise<WebhookResult> {
  const retries = resolveRetries(opts.retries);
  const secrets = opts.secret ? [opts.secret] : [];
  const now = opts.now ?? Date.now;
  const log = opts.log ?? (() => undefined);
  const target = webhookTarget(dest);
  const payload = typeof body === 'string' ? body : JSON.stringify(body);
  const timeoutMs = dest.timeoutMs ?? WEBHOOK_DEFAULTS.timeoutMs;
  const history: WebhookAttempt[] = [];

  for (let attempt = 1; ; attempt++) {
    if (opts.signal?.aborted) {
      throw new WebhookAbortedError(`webhook ${target}: aborted before attempt ${attempt}`, {
        attempts: attempt - 1,
      });
    }
    const timestamp = Math.floor(now() / 1000);
    const headers: Record<string, string> = {
      'content-type': 'application/json; charset=utf-8',
      'user-agent': WEBHOOK_USER_AGENT,
      [WEBHOOK_HEADERS.idempotencyKey]: opts.idempotencyKey,
      [WEBHOOK_HEADERS.timestamp]: String(timestamp),
    };
    if (opts.secret) headers[WEBHOOK_HEADERS.signature] = signWebhookBody(opts.secret, timestamp, payload);

    const started = now();
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onAbort = () => controller.abort();
    opts.signal?.addEventListener('abort', onAbort, { once: true });

    let status: number | null = null;
    let excerpt = '';
    let retryAfter: number | null = null;
    let failure: { reason: WebhookUnavailableReason; detail: string; cause?: unknown } | null = null;
    try {
      const res = await request(dest.url, {
        method: 'POST',
        headers,
        body: payload,
        signal: controller.signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        ...(opts.dispatcher ? { dispatcher: opts.dispatcher } : {}),
      });
      status = res.statusCode;
      retryAfter = parseRetryAfter(res.headers['retry-after'], now());
      excerpt = await excerptOf(res.body);
    } catch (err) {
      if (opts.signal?.aborted) {
        throw new WebhookAbortedError(`webhook ${target}: aborted during attempt ${attempt}`, {
          attempts: attempt,
          status,
          cause: err,
          secrets,
        });
      }
      // An answer whose body broke off or stalled: the status decides (a 2xx was accepted).
      if (status !== null) excerpt = '';
      const codes = status === null ? codesOf(err) : [];
      const timeoutCode = codes.find((c) => TIMEOUT_CODES.has(c));
      if (status !== null) {
        // fall through to the status below
      } else if (timedOut || timeoutCode !== undefined) {
        failure = { reason: 'timeout', detail: `no answer within ${timeoutMs} ms`, cause: err };
      } else if (codes.some((c) => NETWORK_CODES.has(c))) {
        const code = codes.find((c) => NETWORK_CODES.has(c))!;
        failure = { reason: 'network', detail: `connection failed (${code})`, cause: err };
      } else {
        throw new WebhookError(
          'webhook_failed',
          `webhook ${target}: ${err instanceof Error ? err.message : String(err)}`,
          false,
          { attempts: attempt, cause: err, secrets },
        );
      }
    } finally {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
    }
    const ms = now() - started;

    if (failure === null && status !== null && status >= 200 && status < 300) {
      history.push({ status, outcome: 'ok', ms });
      log('info', `webhook ${target}: delivered (HTTP ${status}) on attempt ${attempt}`, {
        target,
        status,
        attempt,
      });
      return { ok: true, status, attempts: attempt, deliveredAt: new Date(now()).toISOString(), history };
    }
    if (failure === null && status !== null) {
      const retryable = status >= 500 || status === 408 || status === 429;
      if (!retryable) {
        history.push({ status, outcome: 'status', ms });
        log('warn', `webhook ${target}: refused with HTTP ${status}; not retried`, {
          target,
          status,
          attempt,
        });
        throw new WebhookRejectedError(target, status, excerpt, { attempts: attempt, secrets });
      }
      failure = {
        reason: status === 429 ? 'rate_limited' : 'status',
        detail: `HTTP ${status}`,
      };
    }
    const f = failure!;
    history.push({
      status,
      outcome: f.reason === 'timeout' ? 'timeout' : f.reason === 'network' ? 'network' : 'status',
      ms,
    });
    const summary = history
      .map((h) =>
        h.outcome === 'timeout' ? 'timeout' : h.outcome === 'network' ? 'dropped' : `HTTP ${h.status}`,
      )
      .join(', ');
    if (attempt >= retries.attempts) {
      log('warn', `webhook ${target}: gave up after ${attempt} attempts (${summary})`, {
        target,
        attempt,
        reason: f.reason,
      });
      throw new WebhookUnavailableError(
        f.reason,
        `webhook ${target}: not delivered after ${attempt} attempt${attempt === 1 ? '' : 's'} (${summary})`,
        { attempts: attempt, status, cause: f.cause, secrets },
        retryAfter,
      );
    }
    let delay = backoffMs(attempt, retries);
    if (retryAfter !== null) {
      if (retryAfter > retries.maxMs) {
        log('warn', `webhook ${target}: asked to wait ${retryAfter} ms, longer than ${retries.maxMs} ms`, {
          target,
          attempt,
          retryAfterMs: retryAfter,
        });
        throw new WebhookUnavailableError(
          f.reason,
          `webhook ${target}: HTTP ${status} asks to retry after ${Math.ceil(retryAfter / 1000)} s, longer than the backoff allows (${retries.maxMs} ms)`,
          { attempts: attempt, status, secrets },
          retryAfter,
        );
      }
      delay = Math.max(retryAfter, Math.min(delay, retries.maxMs));
    }
    log(
      'warn',
      `webhook ${target}: attempt ${attempt}/${retries.attempts} ${f.detail}; retrying in ${delay} ms`,
      {
        target,
        attempt,
        reason: f.reason,
        status,
        delayMs: delay,
      },
    );
    try {
      await sleep(delay, opts.signal);
    } catch {
      throw new WebhookAbortedError(`webhook ${target}: aborted while waiting to retry`, {
        attempts: attempt,
        status,
      });
    }
  }
}

// ---------------------------------------------------------------------------------------------
// One delivery, as an outcome
// ---------------------------------------------------------------------------------------------

/** Options of {@link deliverWebhook}. */
export interface DeliverWebhookOptions {
  /** The destination's id in the job (`webhook-1`). */
  destinationId: string;
  manifest?: unknown;
  env?: NodeJS.ProcessEnv;
  retries?: WebhookRetryOptions;
  dispatcher?: Dispatcher;
  signal?: AbortSignal;
  log?: WebhookLog;
}

/**
 * Reads the secret, builds the message, posts it and reports a DeliveryOutcome. Configuration
 * errors and a missing secret throw (nothing was sent); a refused or undeliverable message is an
 * outcome with `ok: false` and the error's code in `detail`.
 */
export async function deliverWebhook(
  dest: WebhookDestination,
  summary: DeliverySummary,
  opts: DeliverWebhookOptions,
): Promise<DeliveryOutcome> {
  // A destination validated before `insecure` existed is checked again: nothing goes out in clear text.
  const insecure = webhookUrlProblem(dest);
  if (insecure) throw new WebhookConfigError('url', insecure);
  const secret = webhookSecretFromEnv(dest, opts.env ?? process.env);
  const body = buildWebhookBody(dest, summary, opts.manifest);
  try {
    const r = await postWebhook(dest, body, {
      secret,
      idempotencyKey: webhookIdempotencyKey(summary.runId, opts.destinationId),
      ...(opts.retries ? { retries: opts.retries } : {}),
      ...(opts.dispatcher ? { dispatcher: opts.dispatcher } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
      ...(opts.log ? { log: opts.log } : {}),
    });
    return {
      destination: opts.destinationId,
      kind: 'webhook',
      ok: true,
      detail: `${dest.format} message accepted by ${webhookTarget(dest)} (HTTP ${r.status}${r.attempts > 1 ? `, attempt ${r.attempts}` : ''})`,
      attempts: r.attempts,
      deliveredAt: r.deliveredAt,
    };
  } catch (err) {
    if (!(err instanceof WebhookRejectedError || err instanceof WebhookUnavailableError)) throw err;
    return {
      destination: opts.destinationId,
      kind: 'webhook',
      ok: false,
      detail: `${err.code}: ${err.message}`,
      attempts: err.attempts,
    };
  }
}
