/**
 * Error classes of email delivery, in the style of the client's (api/errors.ts): a stable `code`,
 * whether a retry can help, the SMTP reply code and command when the server answered, the
 * recipients concerned, a message that names the run and what went wrong. The engine's activity
 * retry policy reads `retryable` (a transient refusal is retried, a permanent one is not).
 *
 * Secrets never reach an error: the message and the summarised cause pass through the redactor
 * with the SMTP user and password (and their AUTH PLAIN form).
 */
import { redactText } from '../../api/redact.js';
import { causeSummary } from './network-errors.js';

/** Context every email error takes. `secrets` are only used to redact, never stored. */
export interface EmailErrorContext {
  /** The run the message is about. */
  runId?: string | null;
  /** The SMTP reply code (451, 550, ...), null when the server gave none. */
  responseCode?: number | null;
  /** The SMTP command that was refused (`RCPT TO`, `DATA`, `AUTH PLAIN`, ...). */
  command?: string | null;
  /** The recipients the error concerns. */
  recipients?: readonly string[];
  /** The error being wrapped (kept as a redacted summary). */
  cause?: unknown;
  /** Values to redact (SMTP user and password). */
  secrets?: readonly string[];
}

/** Base class of every error email delivery throws. */
export class EmailError extends Error {
  /** Stable machine-readable code (see docs/delivery.md). */
  readonly code: string;
  /** Whether sending the same message later may succeed. */
  readonly retryable: boolean;
  readonly runId: string | null;
  readonly responseCode: number | null;
  readonly command: string | null;
  readonly recipients: string[];

  constructor(code: string, detail: string, retryable: boolean, ctx: EmailErrorContext = {}) {
    const secrets = ctx.secrets ?? [];
    const runId = ctx.runId ?? null;
    const head = runId === null ? 'email failed' : `email for run ${runId} failed`;
    const cause = causeSummary(ctx.cause, secrets);
    super(redactText(`${head}: ${detail}`, secrets), cause === undefined ? undefined : { cause });
    this.name = new.target.name;
    this.code = code;
    this.retryable = retryable;
    this.runId = runId;
    this.responseCode = ctx.responseCode ?? null;
    this.command = ctx.command ? redactText(ctx.command, secrets) : null;
    this.recipients = [...(ctx.recipients ?? [])];
  }

  /** A plain, secret-free object for logs and workflow results. */
  toJSON(): Record<string, unknown> {
    const cause = this.cause instanceof Error ? this.cause : undefined;
    return {
      name: this.name,
      code: this.code,
      message: this.message,
      retryable: this.retryable,
      runId: this.runId,
      responseCode: this.responseCode,
      command: this.command,
      recipients: this.recipients,
      ...(cause === undefined ? {} : { cause: { name: cause.name, message: cause.message } }),
    };
  }
}

/**
 * The server (or the network) refused for now: a 4xx reply (451 local error, 452 mailbox full,
 * 421 closing), a dropped or refused connection, a timeout. Retry later; code `smtp_transient`
 * (a reply) or `smtp_unavailable` (no reply).
 */
export class EmailTransientError extends EmailError {
  constructor(code: 'smtp_transient' | 'smtp_unavailable', detail: string, ctx: EmailErrorContext = {}) {
    super(code, detail, true, ctx);
  }
}

/**
 * The server refused for good: a 5xx reply (550 no such user, 552 too large, 554 rejected),
 * credentials refused (`smtp_auth`), TLS impossible (`smtp_tls`), or an error nobody expected
 * (`smtp_unexpected`). The same message will fail again: not retried.
 */
export class EmailRejectedError extends EmailError {
  constructor(
    code: 'smtp_rejected' | 'smtp_auth' | 'smtp_tls' | 'smtp_unexpected',
    detail: string,
    ctx: EmailErrorContext = {},
  ) {
    super(code, detail, false, ctx);
  }
}

/** A destination in the job file that does not validate; names the field. */
export class EmailDestinationError extends Error {
  readonly code = 'invalid_email_destination';
  readonly retryable = false;
  constructor(
    /** Every problem, each `field: message` (`email.to[1]: "bob@" is not an email address`). */
    readonly issues: { field: string; message: string }[],
  ) {
    super(issues.map((i) => `${i.field}: ${i.message}`).join('; '));
    this.name = 'EmailDestinationError';
  }
}

/** Type guard: is this one of email delivery's errors? */
export function isEmailError(err: unknown): err is EmailError {
  return err instanceof EmailError;
}
