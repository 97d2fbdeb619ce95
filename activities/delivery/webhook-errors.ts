/**
 * Error classes of webhook delivery: a stable `code`, the last HTTP status, the attempts made,
 * whether a retry can help; never a secret (messages and causes pass through the redactor).
 */
import { redactText } from '../../api/redact.js';
import { sanitizeCause } from './network-errors.js';

/** Context of a webhook error. `secrets` are only used to redact, never stored. */
export interface WebhookErrorContext {
  /** HTTP status of the last answer, null when there was none. */
  status?: number | null;
  /** Attempts made, this one included (0 when nothing was sent). */
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

/** Why an attempt failed when the receiver could not be reached or could not take the message. */
export type WebhookUnavailableReason = 'status' | 'rate_limited' | 'timeout' | 'network';

/**
 * An attempt got a 5xx, 408 or 429, or no answer (a timeout, a dropped connection): another
 * attempt may deliver (the activity's, by Temporal's retry policy).
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
