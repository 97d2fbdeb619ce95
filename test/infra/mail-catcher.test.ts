/**
 * vir dev's mail catcher (runtime/mail-catcher.ts): a real SMTP server on a free port, messages
 * sent with nodemailer through the project's own transport (settings as vir dev writes them),
 * found in the folder as .eml (byte for byte), .html and attachment files.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import nodemailer, { type SendMailOptions } from 'nodemailer';
import { afterEach, describe, expect, it } from 'vitest';
import { smtpSettingsFromEnv } from '../../activities/delivery/smtp-settings.js';
import { createSmtpTransport } from '../../activities/delivery/smtp-transport.js';
import { applyDevDeliveryEnv, DEV_SMTP_FROM } from '../../runtime/dev-delivery.js';
import { safeFileName, startMailCatcher, type MailCatcher } from '../../runtime/mail-catcher.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'vir-mail-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function catcher(dir: string, lines: string[] = []): Promise<MailCatcher> {
  const started = await startMailCatcher({ port: 0, dir, log: (line) => lines.push(line) });
  cleanups.push(() => started.close());
  return started;
}

/** The message as nodemailer writes it (CRLF line ends, as it goes over SMTP). */
async function compose(mail: SendMailOptions): Promise<Buffer> {
  const stream = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  const info = await stream.sendMail(mail);
  return info.message as Buffer;
}

/** A transport built from the settings vir dev writes for the catcher. */
function transportTo(mail: MailCatcher) {
  const env: NodeJS.ProcessEnv = {};
  applyDevDeliveryEnv(env, { mail, s3: null });
  const settings = smtpSettingsFromEnv(env);
  expect(settings).toMatchObject({
    host: '127.0.0.1',
    port: mail.port,
    starttls: 'off',
    from: DEV_SMTP_FROM,
  });
  return createSmtpTransport(settings);
}

describe('the mail catcher of vir dev', () => {
  it('saves each message as .eml (the bytes sent), .html (its HTML body) and its attachments, one log line each', async () => {
    const dir = join(await tempDir(), 'mail');
    const lines: string[] = [];
    const mail = await catcher(dir, lines);
    expect(mail.url).toBe(`smtp://127.0.0.1:${mail.port}`);
    const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(50_000), Buffer.from('\n%%EOF\n')]);
    const csv = Buffer.from('name,country\n"Zürich, AG",CH\n.leading dot line\n');
    const html = '<h1>Weekly DACH</h1><p>Seed rounds in Berlin <b>doubled</b>: 1,204 investors.</p>';
    const raw = await compose({
      from: DEV_SMTP_FROM,
      to: ['ann@example.com', 'bob@example.com'],
      cc: 'partners@example.com',
      subject: 'Weekly DACH - 2026-11-23 (complete)',
      text: 'Seed rounds in Berlin doubled.',
      html,
      attachments: [
        { filename: 'weekly-dach-2026-11-23.pdf', content: pdf, contentType: 'application/pdf' },
        { filename: '../prospects.csv', content: csv, contentType: 'text/csv' },
      ],
    });
    const transport = transportTo(mail);
    const info = await transport.sendMail({
      envelope: { from: DEV_SMTP_FROM, to: ['ann@example.com', 'bob@example.com', 'partners@example.com'] },
      raw,
    });
    expect(info.accepted).toHaveLength(3);

    // Written before the server said 250: there as soon as the send resolves.
    const names = (await readdir(dir)).sort();
    expect(names).toHaveLength(3);
    const base = names.find((n) => n.endsWith('.eml'))!.slice(0, -'.eml'.length);
    expect(base).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ-1-Weekly-DACH-2026-11-23-complete$/);
    expect(names).toEqual([base, `${base}.eml`, `${base}.html`]);

    expect((await readFile(join(dir, `${base}.eml`))).equals(raw)).toBe(true);
    const page = await readFile(join(dir, `${base}.html`), 'utf8');
    expect(page).toBe(`<meta charset="utf-8">\n${html}`);
    expect((await readdir(join(dir, base))).sort()).toEqual(['prospects.csv', 'weekly-dach-2026-11-23.pdf']);
    expect((await readFile(join(dir, base, 'weekly-dach-2026-11-23.pdf'))).equals(pdf)).toBe(true);
    expect((await readFile(join(dir, base, 'prospects.csv'))).equals(csv)).toBe(true);

    expect(lines).toEqual([
      `mail caught: "Weekly DACH - 2026-11-23 (complete)" to ann@example.com, bob@example.com, partners@example.com: ${join(dir, `${base}.eml`)}`,
    ]);
    expect(mail.saved[0]).toMatchObject({
      subject: 'Weekly DACH - 2026-11-23 (complete)',
      eml: join(dir, `${base}.eml`),
      html: join(dir, `${base}.html`),
      attachmentsDir: join(dir, base),
    });
  });

  it('a text-only message becomes a page with the text in <pre>, escaped; a restart on the same folder overwrites nothing', async () => {
    const dir = await tempDir();
    const first = await catcher(dir);
    const subject = 'Ünïcode / ../etc: <script>';
    const text = 'Partial: <Austria> & 2 pages could not be read\n';
    await transportTo(first).sendMail({ from: DEV_SMTP_FROM, to: 'ann@example.com', subject, text });
    await first.close();
    // A second catcher on the same folder, within the same second: a new name, not the same file.
    const second = await catcher(dir);
    await transportTo(second).sendMail({ from: DEV_SMTP_FROM, to: 'ann@example.com', subject, text });

    const emls = (await readdir(dir)).filter((n) => n.endsWith('.eml')).sort();
    expect(emls).toHaveLength(2);
    expect(new Set(emls).size).toBe(2);
    for (const eml of emls) expect(eml).toMatch(/-Unicode-etc-script\.eml$/);
    expect((await readdir(dir)).filter((n) => !/\.(eml|html)$/.test(n))).toEqual([]); // no attachment folder
    const page = await readFile(join(dir, basename(emls[0]!, '.eml') + '.html'), 'utf8');
    expect(page).toContain('<title>Ünïcode / ../etc: &lt;script&gt;</title>');
    expect(page).toContain('<pre>Partial: &lt;Austria&gt; &amp; 2 pages could not be read\n</pre>');
  });

  it('makes file names safe', () => {
    expect(safeFileName('Weekly DACH - 2026-11-23')).toBe('Weekly-DACH-2026-11-23');
    expect(safeFileName('../../etc/passwd')).toBe('etc-passwd');
    expect(safeFileName('…')).toBe('');
    expect(safeFileName('a'.repeat(100)).length).toBe(60);
  });
});
