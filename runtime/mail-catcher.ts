/**
 * The mail catcher of `vir dev`: a real SMTP server on 127.0.0.1 (no AUTH, no TLS) that keeps
 * every message it accepts in a folder instead of delivering it, so a person sees the email the
 * recipients would get. Each message is saved as
 *
 * - `<UTC timestamp>-<n>-<subject>.eml`: the message as sent, byte for byte (opens in any mail
 *   program);
 * - `<same name>.html`: its HTML body (inline images as data URLs), or its text body in `<pre>`;
 * - `<same name>/`: its attachments, when it has any, under their (made safe) file names.
 *
 * The files are written before the server answers 250, so a message the client saw accepted is
 * on disk. A message that cannot be written is refused with a 451 (the sender retries).
 *
 * @example
 * const catcher = await startMailCatcher({ port: 0, dir: join(dataDir, 'mail'), log: (line) => logger.info(line) });
 * // VIR_SMTP_HOST=127.0.0.1 VIR_SMTP_PORT=<catcher.port> VIR_SMTP_STARTTLS=off ...
 * await catcher.close();
 */
import { mkdir, open, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface MailCatcherOptions {
  /** Port on 127.0.0.1; 0 picks a free one. */
  port: number;
  /** Where the messages are saved (created when missing). */
  dir: string;
  /** Address to listen on; default 127.0.0.1 (the catcher has no authentication: keep it local). */
  host?: string;
  /** Largest message accepted, in bytes (announced with SIZE); default 128 MiB. */
  maxMessageBytes?: number;
  /** Called with one line per message saved (subject, recipients, file). */
  log?: (line: string, mail: SavedMail) => void;
}

/** A message the catcher saved. */
export interface SavedMail {
  subject: string;
  /** The envelope's recipients (RCPT TO: to, cc and bcc). */
  recipients: string[];
  /** The raw message (`.eml`). */
  eml: string;
  /** Its body as a page (`.html`). */
  html: string;
  /** The attachments' folder, or null when the message has none. */
  attachmentsDir: string | null;
  /** The attachments' files, in the message's order. */
  attachments: string[];
}

export interface MailCatcher {
  host: string;
  port: number;
  /** `smtp://127.0.0.1:<port>` */
  url: string;
  dir: string;
  /** Messages saved since the start, in order. */
  readonly saved: readonly SavedMail[];
  /** Resolves when it stops listening, by close() or otherwise (`vir dev` restarts it then). */
  stopped: Promise<void>;
  /** Stops listening; open sessions are closed. Idempotent. */
  close(): Promise<void>;
}

/** Default largest message: room for the 100 MB attachment limit of an email destination, base64-encoded. */
export const MAIL_CATCHER_MAX_BYTES = 128 * 1024 * 1024;

/**
 * `text` as a file name part: accents dropped, anything but letters, digits, `.`, `_` and `-`
 * replaced by `-` (one for a run of them with dots), no leading or trailing dots or dashes, at
 * most `max` characters; '' when nothing is left.
 */
export function safeFileName(text: string, max = 60): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/[-.]*-[-.]*/g, '-')
    .replace(/^[-.]+/, '')
    .slice(0, max)
    .replace(/[-.]+$/, '');
}

/** `2026-11-23T10-15-02Z`: the UTC time to the second, usable in a file name on any system. */
export function fileTimestamp(date: Date): string {
  return date
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/:/g, '-');
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** The page of a message: its HTML body (with a charset when it declares none), else its text in `<pre>`. */
export function messagePage(parsed: Pick<ParsedMail, 'html' | 'text' | 'subject'>): string {
  if (typeof parsed.html === 'string' && parsed.html !== '') {
    return /<meta[^>]+charset/i.test(parsed.html) ? parsed.html : `<meta charset="utf-8">\n${parsed.html}`;
  }
  const title = escapeHtml(parsed.subject ?? '(no subject)');
  return `<!doctype html>\n<meta charset="utf-8">\n<title>${title}</title>\n<pre>${escapeHtml(parsed.text ?? '')}</pre>\n`;
}

/** Unique, safe file names for the attachments (`report.pdf`, `report-2.pdf`, `attachment-3`). */
function attachmentNames(parsed: ParsedMail): string[] {
  const used = new Set<string>();
  return parsed.attachments.map((a, i) => {
    const given = safeFileName((a.filename ?? '').split(/[\\/]/).pop() ?? '', 120);
    const base = given || `attachment-${i + 1}`;
    const dot = base.lastIndexOf('.');
    const [stem, ext] = dot > 0 ? [base.slice(0, dot), base.slice(dot)] : [base, ''];
    let name = base;
    for (let k = 2; used.has(name.toLowerCase()); k++) name = `${stem}-${k}${ext}`;
    used.add(name.toLowerCase());
    return name;
  });
}

/** Starts `server` listening on host:port; resolves once it listens (rejects on EADDRINUSE and the like). */
export async function listenSmtpServer(
  server: SMTPServer,
  port: number,
  host = '127.0.0.1',
): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return (server.server.address() as AddressInfo).port;
}

/** Starts the catcher; resolves once it listens. */
export async function startMailCatcher(options: MailCatcherOptions): Promise<MailCatcher> {
  const host = options.host ?? '127.0.0.1';
  const dir = options.dir;
  await mkdir(dir, { recursive: true });
  const saved: SavedMail[] = [];
  let sequence = 0;

  /** Writes the raw message under a name no file has yet (a restart in the same second goes on counting). */
  async function claimEml(raw: Buffer, subject: string, at: Date): Promise<string> {
    const title = safeFileName(subject) || 'no-subject';
    for (;;) {
      sequence += 1;
      const eml = join(dir, `${fileTimestamp(at)}-${sequence}-${title}.eml`);
      try {
        const handle = await open(eml, 'wx');
        try {
          await handle.writeFile(raw);
        } finally {
          await handle.close();
        }
        return eml;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
    }
  }

  async function save(raw: Buffer, recipients: string[]): Promise<SavedMail> {
    const parsed = await simpleParser(raw);
    const subject = parsed.subject ?? '';
    const eml = await claimEml(raw, subject, new Date());
    const base = eml.slice(0, -'.eml'.length);
    try {
      const html = `${base}.html`;
      await writeFile(html, messagePage(parsed));
      const names = attachmentNames(parsed);
      const attachments: string[] = [];
      if (names.length > 0) {
        await mkdir(base, { recursive: true });
        for (const [i, name] of names.entries()) {
          const path = join(base, name);
          await writeFile(path, parsed.attachments[i]!.content);
          attachments.push(path);
        }
      }
      return { subject, recipients, eml, html, attachmentsDir: names.length > 0 ? base : null, attachments };
    } catch (err) {
      // Refused messages leave nothing behind: the sender will send them again.
      await Promise.all([rm(eml, { force: true }), rm(`${base}.html`, { force: true })]);
      await rm(base, { recursive: true, force: true });
      throw err;
    }
  }

  const server = new SMTPServer({
    secure: false,
    // Local only: no TLS to negotiate and no login to give; every sender is accepted.
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    banner: 'vir dev mail catcher: messages are saved, never delivered',
    size: options.maxMessageBytes ?? MAIL_CATCHER_MAX_BYTES,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('error', (err) => callback(err));
      stream.on('end', () => {
        if (stream.sizeExceeded) {
          return callback(Object.assign(new Error('5.3.4 Message too big'), { responseCode: 552 }));
        }
        const recipients = session.envelope.rcptTo.map((r) => r.address);
        save(Buffer.concat(chunks), recipients).then(
          (mail) => {
            saved.push(mail);
            options.log?.(describeSavedMail(mail), mail);
            callback();
          },
          (err: unknown) =>
            callback(
              Object.assign(new Error(`4.3.0 The mail catcher could not save the message: ${String(err)}`), {
                responseCode: 451,
              }),
            ),
        );
      });
    },
  });
  server.on('error', () => {
    // A client's broken connection: nothing to do (the server logs nothing, by design).
  });

  const port = await listenSmtpServer(server, options.port, host);
  const stopped = new Promise<void>((resolve) => server.server.once('close', () => resolve()));
  let closing: Promise<void> | null = null;
  return {
    host,
    port,
    url: `smtp://${host}:${port}`,
    dir,
    saved,
    stopped,
    close: () => (closing ??= new Promise<void>((resolve) => server.close(() => resolve()))),
  };
}

/** One line about a saved message: `mail caught: "Subject" to a@x.com, b@y.com: /path/….eml`. */
export function describeSavedMail(mail: SavedMail): string {
  const subject = mail.subject === '' ? '(no subject)' : JSON.stringify(mail.subject);
  return `mail caught: ${subject} to ${mail.recipients.join(', ') || '(no recipient)'}: ${mail.eml}`;
}
