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
 * This file builds the message; the destination is parsed in email-destination.ts, the bodies
 * written in email-body.ts, the message sent (and a failure classified) in email-send.ts.
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
import { formatSize, htmlBody, oneLine, textBody } from './email-body.js';
import type { EmailBodyContent } from './email-body.js';
import { EmailDestinationError } from './email-errors.js';
import { MB, parseMailbox } from '../../config/destinations.js';
import type { EmailDestination, SUBJECT_PLACEHOLDERS } from '../../config/destinations.js';
import type { DeliveryFile, DeliverySummary } from '../../shared/delivery.js';

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
  /** The run's page in the report portal (config/settings.ts `portalRunLink`), linked in both bodies. */
  portalLink?: string | null;
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
  const { from, to, cc } = envelopeOf(dest, opts);
  const recipients = [...to, ...cc];
  const plan = await planFiles(dest, summary, files, opts);
  const subject = fillSubject(dest.subject, summary);
  const content: EmailBodyContent = {
    summary,
    files,
    mode: plan.mode,
    links: plan.links,
    note: plan.note,
    zipName: plan.mode === 'attached' && plan.zip !== null ? csvZipName(summary) : null,
    portalLink: opts.portalLink ?? null,
  };
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
    text: textBody(content),
    html: htmlBody(content),
    attachments: plan.attachments,
    // nodemailer fetches no URL for the message (links are text in the bodies, never content).
    disableUrlAccess: true,
  };
  return {
    message,
    plan: { files: plan.mode, encodedBytes: plan.encodedBytes, limitBytes: plan.limitBytes, recipients },
    runId: summary.runId,
  };
}

/** From, To and Cc, checked: a bad address is an EmailDestinationError naming it. */
function envelopeOf(dest: EmailDestination, opts: RunEmailOptions) {
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
  return { from, to, cc };
}

/** How the files travel, and what it takes: the attachments, the links, a note. */
interface FilePlan {
  mode: RunEmailPlan['files'];
  encodedBytes: number;
  limitBytes: number;
  attachments: NonNullable<SendMailOptions['attachments']>;
  /** The CSV files' zip, made when they would be attached (null: none). */
  zip: Buffer | null;
  links: { name: string; url: string }[];
  note: string | null;
}

/**
 * Attached when the files' encoded size is under the destination's limit (CSV files in one zip
 * with `zipCsv`), else linked when there are links, else a note saying how large they are and
 * where they are.
 */
async function planFiles(
  dest: EmailDestination,
  summary: DeliverySummary,
  files: readonly DeliveryFile[],
  opts: RunEmailOptions,
): Promise<FilePlan> {
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
  return { mode, encodedBytes, limitBytes, attachments, zip, links, note };
}
