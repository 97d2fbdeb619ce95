/**
 * Sending the run's email over SMTP: the outcome (recipients accepted and refused), and a failure
 * classified for the engine's retry policy (a transient refusal is retried, a permanent one is
 * not), never with the SMTP credentials in it.
 */
import { redactText } from '../../api/redact.js';
import { oneLine } from './email-body.js';
import { EmailRejectedError, EmailTransientError } from './email-errors.js';
import type { EmailError } from './email-errors.js';
import type { RunEmail } from './email-message.js';
import { isConnectionFailure } from './network-errors.js';
import type { EmailTransport } from './smtp-transport.js';
import type { DeliveryOutcome } from '../../shared/delivery.js';

/** Options of {@link sendRunEmail}. */
export interface SendRunEmailOptions {
  /** The destination's id for the outcome (default `email`). */
  destination?: string;
  /** This attempt's number (Temporal's `Context.current().info.attempt`), default 1. */
  attempt?: number;
  /** Values to redact from errors and the outcome: `smtpSecrets(settings)`. */
  secrets?: readonly string[];
}

/** What sending did: a DeliveryOutcome with the recipients the server accepted and refused. */
export interface EmailOutcome extends DeliveryOutcome {
  kind: 'email';
  messageId: string;
  accepted: string[];
  rejected: string[];
}

interface SmtpErrorLike {
  message?: string;
  code?: string;
  responseCode?: number;
  response?: string;
  command?: string;
  rejected?: unknown;
  rejectedErrors?: SmtpErrorLike[];
}

/** A reply code nobody should retry: 5xx except 503 (bad sequence, a server's hiccup). */
function isPermanent(code: number): boolean {
  return code >= 500 && code !== 503;
}

function addressesOf(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.map((v) =>
    typeof v === 'string' ? v : typeof v === 'object' && v && 'address' in v ? String(v.address) : String(v),
  );
}

/**
 * Maps a nodemailer failure to {@link EmailTransientError} (4xx reply, connection refused or
 * dropped, timeout) or {@link EmailRejectedError} (5xx, credentials refused, TLS impossible,
 * anything unexpected); every recipient refused at RCPT TO is named in the message.
 */
export function classifySmtpError(
  err: unknown,
  runId: string | null,
  recipients: readonly string[],
  secrets: readonly string[] = [],
): EmailError {
  if (err instanceof EmailTransientError || err instanceof EmailRejectedError) return err;
  const e = (err ?? {}) as SmtpErrorLike;
  const code = typeof e.code === 'string' ? e.code : undefined;
  const reply = typeof e.responseCode === 'number' ? e.responseCode : null;
  const response = oneLine(e.response ?? e.message ?? String(err));
  const ctxBase = { runId, cause: err, secrets, command: e.command ?? null, responseCode: reply };

  // Every recipient refused: nodemailer gives one error per recipient.
  const perRecipient = Array.isArray(e.rejectedErrors) ? e.rejectedErrors : [];
  if (code === 'EENVELOPE' && perRecipient.length > 0) {
    const refused = addressesOf(e.rejected);
    const lines = perRecipient.map(
      (r, i) => `${refused[i] ?? '?'} (${oneLine(r.response ?? r.message ?? '')})`,
    );
    const codes = perRecipient.map((r) => r.responseCode ?? 0);
    const replyCode = codes[0] ?? reply;
    const detail = `the server refused ${refused.length === 1 ? 'the recipient' : `all ${refused.length} recipients`}: ${lines.join('; ')}`;
    const ctx = { ...ctxBase, recipients: refused, responseCode: replyCode, command: 'RCPT TO' };
    return codes.every(isPermanent)
      ? new EmailRejectedError('smtp_rejected', detail, ctx)
      : new EmailTransientError('smtp_transient', `${detail} (temporary)`, ctx);
  }
  const ctx = { ...ctxBase, recipients };
  if (code === 'EAUTH' || reply === 535 || reply === 534 || reply === 530)
    return new EmailRejectedError(
      'smtp_auth',
      `the SMTP server refused the login (check VIR_SMTP_USER and the password): ${response}`,
      ctx,
    );
  if (reply !== null) {
    if (isPermanent(reply))
      return new EmailRejectedError(
        'smtp_rejected',
        `the server refused the message for good (${recipients.join(', ')}): ${response}`,
        ctx,
      );
    return new EmailTransientError(
      'smtp_transient',
      `the server refused the message for now: ${response}`,
      ctx,
    );
  }
  if (code === 'ETLS')
    return new EmailRejectedError(
      'smtp_tls',
      `TLS with the SMTP server failed (check VIR_SMTP_SECURE and VIR_SMTP_STARTTLS): ${response}`,
      ctx,
    );
  const original = (err as { originalCode?: unknown } | null)?.originalCode;
  if (isConnectionFailure(code) || isConnectionFailure(original))
    return new EmailTransientError(
      'smtp_unavailable',
      `the SMTP server could not be reached (${code}): ${response}`,
      ctx,
    );
  return new EmailRejectedError('smtp_unexpected', response, ctx);
}

/**
 * Sends the run's email. Resolves with the outcome (the Message-ID, the recipients accepted and
 * those refused when the server took some of them; `ok` only when it took them all, since a
 * retry would send a duplicate to the others). Rejects with {@link EmailTransientError} (retry)
 * or {@link EmailRejectedError} (do not), messages free of the SMTP credentials.
 */
export async function sendRunEmail(
  transport: EmailTransport,
  email: RunEmail,
  opts: SendRunEmailOptions = {},
): Promise<EmailOutcome> {
  const secrets = opts.secrets ?? [];
  const recipients = email.plan.recipients;
  let info;
  try {
    info = await transport.sendMail(email.message);
  } catch (err) {
    throw classifySmtpError(err, email.runId, recipients, secrets);
  }
  const accepted = addressesOf(info.accepted);
  const rejected = addressesOf(info.rejected);
  const attached = Array.isArray(email.message.attachments) ? email.message.attachments.length : 0;
  const filesSaid =
    email.plan.files === 'attached'
      ? `${attached} file${attached === 1 ? '' : 's'} attached`
      : email.plan.files === 'linked'
        ? 'files linked'
        : 'files neither attached nor linked';
  const detail =
    rejected.length === 0
      ? `sent to ${accepted.length} recipient${accepted.length === 1 ? '' : 's'}, ${filesSaid}`
      : `sent to ${accepted.length} of ${accepted.length + rejected.length} recipients (refused: ${rejected.join(', ')}), ${filesSaid}`;
  return {
    destination: opts.destination ?? 'email',
    kind: 'email',
    ok: rejected.length === 0,
    detail: redactText(detail, secrets),
    attempts: opts.attempt ?? 1,
    deliveredAt: new Date().toISOString(),
    messageId: email.message.messageId,
    accepted,
    rejected,
  };
}
