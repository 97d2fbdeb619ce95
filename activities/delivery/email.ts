/**
 * Email delivery of a run's reports: the destination's schema (what a job file says), the
 * message (subject from a template, a short text and HTML body with the run's key figures, the
 * files attached when they fit under a size limit, else links or a note), and sending it over
 * SMTP with errors classified for the engine's retry policy.
 *
 * The Message-ID is derived from the run and the recipients, so a duplicate sent in the
 * at-least-once window (an activity retried after the server accepted) carries the same id and
 * can be spotted (and is dropped by many mail systems).
 *
 * @example
 * const dest = parseEmailDestination(job.delivery.email);
 * const smtp = smtpSettingsFromEnv();
 * const message = await buildRunEmail(dest, summary, files, { from: smtp.from });
 * const outcome = await sendRunEmail(createSmtpTransport(smtp), message, { secrets: smtpSecrets(smtp) });
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import JSZip from 'jszip';
import type { SendMailOptions } from 'nodemailer';
import { fieldOf } from '../../lib/fields.js';
import { redactText } from '../../api/redact.js';
import { EmailDestinationError, EmailRejectedError, EmailTransientError } from './email-errors.js';
import type { EmailError } from './email-errors.js';
import {
  EMAIL_DEFAULTS,
  EmailDestinationSchema,
  MB,
  parseMailbox,
  SUBJECT_PLACEHOLDERS,
} from '../../config/destinations.js';
import type { EmailDestination } from '../../config/destinations.js';
import type { EmailTransport } from './smtp-settings.js';
import type { DeliveryFile, DeliveryOutcome, DeliverySummary } from '../../shared/delivery.js';

export { EMAIL_DEFAULTS, EmailDestinationSchema, MB, SUBJECT_PLACEHOLDERS };
export type { EmailDestination };

/**
 * Validates an email destination; a bad one is an `EmailDestinationError` naming each field
 * under `field` (`email.to[1]: "bob@" is not an email address`). Inside a job file the job's
 * own schema embeds {@link EmailDestinationSchema} and its loader words the same issues.
 */
export function parseEmailDestination(input: unknown, field = 'email'): EmailDestination {
  const parsed = EmailDestinationSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => {
    const at = fieldOf(i.path);
    const message =
      i.code === 'unrecognized_keys'
        ? `unknown field${i.keys.length === 1 ? '' : 's'} ${i.keys.map((k) => `"${k}"`).join(', ')}`
        : i.message;
    return { field: at === '' ? field : `${field}.${at}`, message };
  });
  throw new EmailDestinationError(issues);
}

/** Fills a subject template; line breaks from data become spaces. */
export function fillSubject(template: string, summary: DeliverySummary): string {
  const values: Record<(typeof SUBJECT_PLACEHOLDERS)[number], string> = {
    job: summary.jobId,
    title: summary.jobTitle,
    date: summary.date,
    status: summary.status,
  };
  const filled = template.replace(/\{(job|title|date|status)\}/g, (_, k: keyof typeof values) => values[k]);
  return filled
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/\s{2,}/g, ' ')
    .trim();
}

function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Addresses as the Message-ID hashes them: lower case, unique, sorted, joined by commas. */
export function recipientKey(recipients: readonly string[]): string {
  return [...new Set(recipients.map((r) => r.trim().toLowerCase()))].sort().join(',');
}

/**
 * The Message-ID of the run's email to these recipients: the same run and recipients (in any
 * order or case) give the same id, another run or another list a different one.
 *
 * @example
 * runMessageId('weekly-dach/2026-11-23', ['ann@example.com'], 'example.com')
 * // '<vir.3f0c…(16 hex).9a1b…(12 hex)@example.com>'
 */
export function runMessageId(runId: string, recipients: readonly string[], domain: string): string {
  return `<vir.${sha256Hex(runId).slice(0, 16)}.${sha256Hex(recipientKey(recipients)).slice(0, 12)}@${domain}>`;
}

/**
 * Size of `bytes` once base64-encoded for MIME: 4 characters for every 3 bytes, and a line
 * break (CRLF) after every 76 characters.
 */
export function base64Size(bytes: number): number {
  const chars = Math.ceil(bytes / 3) * 4;
  return chars + Math.ceil(chars / 76) * 2;
}

/** `34.2 MB` (decimal megabytes, as the limit), `812 KB`, `95 bytes`. */
export function formatSize(bytes: number): string {
  if (bytes >= MB) return `${(bytes / MB).toFixed(1)} MB`;
  if (bytes >= 1000) return `${Math.round(bytes / 1000)} KB`;
  return `${bytes} bytes`;
}

function isCsv(file: DeliveryFile): boolean {
  return file.contentType.toLowerCase().startsWith('text/csv') || /\.csv$/i.test(file.name);
}

/** A safe file name part from a job id or date. */
function namePart(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'run';
}

/** The zip the CSV files travel in: `<job>-<date>-csv.zip`. */
export function csvZipName(summary: Pick<DeliverySummary, 'jobId' | 'date'>): string {
  return `${namePart(summary.jobId)}-${namePart(summary.date)}-csv.zip`;
}

async function zipFiles(files: readonly DeliveryFile[]): Promise<Buffer> {
  const zip = new JSZip();
  const used = new Set<string>();
  for (const f of files) {
    let name = f.name;
    for (let n = 2; used.has(name); n++) name = f.name.replace(/(\.[^.]*)?$/, (ext) => `-${n}${ext}`);
    used.add(name);
    // A fixed date keeps the same files' zip byte-identical from one attempt to the next.
    zip.file(name, await readFile(f.path), { date: new Date(Date.UTC(2000, 0, 1)) });
  }
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level: 6 } });
}

/** Options of {@link buildRunEmail}. */
export interface RunEmailOptions {
  /** The From header (VIR_SMTP_FROM); its domain is the Message-ID's. */
  from: string;
  /** Send to this one address only (one message a recipient); default: `to` and `cc` together. */
  recipient?: string;
  /** Where the files can be fetched (pre-signed S3 links); default `summary.links`. */
  links?: { name: string; url: string }[];
  /** Where the files are, for the note when they are neither attached nor linked (default: the run's report folder). */
  where?: string;
}

/** What {@link buildRunEmail} decided, besides the message. */
export interface RunEmailPlan {
  /** `attached`: files on the message; `linked`: links in the body; `note`: neither (too large or no links). */
  files: 'attached' | 'linked' | 'note';
  /** Size of the attachments after encoding (what the limit is compared with). */
  encodedBytes: number;
  limitBytes: number;
  recipients: string[];
}

/** The message to send: nodemailer's options, the plan behind them, and the run for errors. */
export interface RunEmail {
  message: SendMailOptions & { messageId: string; subject: string; text: string; html: string };
  plan: RunEmailPlan;
  runId: string;
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for HTML element content and quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/** Only http(s) links become anchors; anything else is shown as text. */
function safeUrl(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : null;
  } catch {
    return null;
  }
}

/** One line of plain text from data: no line breaks or control characters. */
function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
}

/**
 * Builds the run's email: From, To/Cc, the filled subject, the derived Message-ID, `X-Vir-*`
 * headers (run, job, status; never a secret), a short text and HTML body (every string from the
 * service or the job escaped) with the status, the key figures and the files; the files attached
 * when their encoded size is under the destination's limit (CSV files zipped with `zipCsv`),
 * else the links, else a note saying how large they are and where they are.
 */
export async function buildRunEmail(
  dest: EmailDestination,
  summary: DeliverySummary,
  files: readonly DeliveryFile[],
  opts: RunEmailOptions,
): Promise<RunEmail> {
  const from = parseMailbox(opts.from);
  if (from === null)
    throw new EmailDestinationError([
      { field: 'from', message: `${JSON.stringify(opts.from)} is not an email address` },
    ]);
  const to = opts.recipient !== undefined ? [opts.recipient] : [...dest.to];
  const cc = opts.recipient !== undefined ? [] : [...(dest.cc ?? [])];
  for (const [i, r] of to.entries())
    if (parseMailbox(r) === null)
      throw new EmailDestinationError([
        { field: `recipient[${i}]`, message: `${JSON.stringify(r)} is not an email address` },
      ]);
  const recipients = [...to, ...cc];
  const limitBytes = Math.round(dest.sizeLimitMb * MB);

  // What would be attached: the files, CSV ones in one zip when asked.
  const csv = dest.zipCsv ? files.filter(isCsv) : [];
  const plain = files.filter((f) => !csv.includes(f));
  const rawSizes = plain.map((f) => f.bytes);
  let zip: Buffer | null = null;
  if (csv.length > 0 && dest.attach === 'files') {
    zip = await zipFiles(csv);
    rawSizes.push(zip.length);
  }
  const encodedBytes = rawSizes.reduce((sum, n) => sum + base64Size(n), 0);
  const links = (opts.links ?? summary.links ?? []).filter((l) => l.url !== '');
  const fits = encodedBytes <= limitBytes;
  const mode: RunEmailPlan['files'] =
    dest.attach === 'files' && fits && files.length > 0 ? 'attached' : links.length > 0 ? 'linked' : 'note';

  const attachments: NonNullable<SendMailOptions['attachments']> = [];
  if (mode === 'attached') {
    for (const f of plain) attachments.push({ filename: f.name, path: f.path, contentType: f.contentType });
    if (zip !== null)
      attachments.push({ filename: csvZipName(summary), content: zip, contentType: 'application/zip' });
  }

  const where = opts.where ?? `the run's report folder (job ${summary.jobId}, ${summary.date})`;
  let note: string | null = null;
  if (mode === 'note' && files.length > 0) {
    note =
      dest.attach === 'files'
        ? `The files are too large to attach (${formatSize(encodedBytes)}, the limit is ${formatSize(limitBytes)}); they are in ${where}.`
        : `The files are not attached and no links were made for this run; they are in ${where}.`;
  } else if (mode === 'linked' && dest.attach === 'files' && !fits) {
    note = `The files are too large to attach (${formatSize(encodedBytes)}, the limit is ${formatSize(limitBytes)}); fetch them from the links below.`;
  }

  const subject = fillSubject(dest.subject, summary);
  const statusLine =
    summary.status === 'complete'
      ? 'Complete.'
      : `Partial${summary.reasons.length > 0 ? `: ${summary.reasons.map(oneLine).join('; ')}` : '.'}`;
  const fileLines = files.map((f) => `${oneLine(f.name)} (${formatSize(f.bytes)})`);

  // Text body.
  const text: string[] = [oneLine(summary.jobTitle), `${summary.date} - ${statusLine}`, ''];
  if (summary.headline) text.push(oneLine(summary.headline), '');
  if (summary.figures.length > 0) {
    text.push('Key figures');
    for (const f of summary.figures)
      text.push(`- ${oneLine(f.label)}: ${oneLine(f.value)}${f.note ? ` (${oneLine(f.note)})` : ''}`);
    text.push('');
  }
  if (files.length > 0) {
    text.push(mode === 'attached' ? 'Attached' : 'Files');
    for (const line of fileLines) text.push(`- ${line}`);
    if (mode === 'attached' && zip !== null) text.push(`(the CSV files are in ${csvZipName(summary)})`);
    text.push('');
  }
  if (note) text.push(note, '');
  if (mode === 'linked') {
    text.push('Links');
    for (const l of links) text.push(`- ${oneLine(l.name)}: ${oneLine(l.url)}`);
    text.push('');
  }
  text.push(`Run ${oneLine(summary.runId)} of job ${oneLine(summary.jobId)} (${oneLine(summary.kind)}).`);

  // HTML body: every string escaped.
  const e = (s: string) => escapeHtml(oneLine(s));
  const html: string[] = [
    '<!doctype html><html><head><meta charset="utf-8"></head>',
    '<body style="font-family: Arial, sans-serif; font-size: 14px; color: #222">',
    `<h2 style="margin: 0 0 4px">${e(summary.jobTitle)}</h2>`,
    `<p style="margin: 0 0 12px">${e(summary.date)} &middot; <strong>${e(statusLine)}</strong></p>`,
  ];
  if (summary.headline) html.push(`<p>${e(summary.headline)}</p>`);
  if (summary.figures.length > 0) {
    html.push('<table cellpadding="4" style="border-collapse: collapse">');
    for (const f of summary.figures)
      html.push(
        `<tr><td>${e(f.label)}</td><td style="text-align: right"><strong>${e(f.value)}</strong></td><td style="color: #666">${f.note ? e(f.note) : ''}</td></tr>`,
      );
    html.push('</table>');
  }
  if (files.length > 0) {
    html.push(`<p style="margin: 12px 0 4px">${mode === 'attached' ? 'Attached' : 'Files'}:</p><ul>`);
    for (const line of fileLines) html.push(`<li>${e(line)}</li>`);
    html.push('</ul>');
    if (mode === 'attached' && zip !== null)
      html.push(`<p>The CSV files are in ${e(csvZipName(summary))}.</p>`);
  }
  if (note) html.push(`<p>${e(note)}</p>`);
  if (mode === 'linked') {
    html.push('<ul>');
    for (const l of links) {
      const href = safeUrl(l.url);
      html.push(
        href === null
          ? `<li>${e(l.name)}: ${e(l.url)}</li>`
          : `<li><a href="${escapeHtml(href)}">${e(l.name)}</a></li>`,
      );
    }
    html.push('</ul>');
  }
  html.push(
    `<p style="color: #888; font-size: 12px">Run ${e(summary.runId)} of job ${e(summary.jobId)} (${e(summary.kind)}).</p>`,
    '</body></html>',
  );

  const messageId = runMessageId(summary.runId, recipients, from.domain);
  const message: RunEmail['message'] = {
    from: opts.from,
    to,
    ...(cc.length > 0 ? { cc } : {}),
    subject,
    messageId,
    headers: {
      'X-Vir-Run': oneLine(summary.runId),
      'X-Vir-Job': oneLine(summary.jobId),
      'X-Vir-Status': summary.status,
      // RFC 3834: automated mail; out-of-office replies are not wanted.
      'Auto-Submitted': 'auto-generated',
      'X-Auto-Response-Suppress': 'OOF, AutoReply',
    },
    text: text.join('\n'),
    html: html.join('\n'),
    attachments,
    // nodemailer fetches no URL for the message (links are text in the bodies, never content).
    disableUrlAccess: true,
  };
  return {
    message,
    plan: { files: mode, encodedBytes, limitBytes, recipients },
    runId: summary.runId,
  };
}

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

const NO_REPLY_TRANSIENT = new Set([
  'ECONNECTION',
  'ETIMEDOUT',
  'ESOCKET',
  'EDNS',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

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
  if (
    (code !== undefined && NO_REPLY_TRANSIENT.has(code)) ||
    (typeof original === 'string' && NO_REPLY_TRANSIENT.has(original))
  )
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
