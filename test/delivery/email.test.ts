/**
 * Email delivery against a real SMTP server (smtp-server on port 0, with AUTH): what arrives is
 * read back with mailparser and compared with the files on disk, byte for byte.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import JSZip from 'jszip';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  EmailDestinationError,
  EmailRejectedError,
  EmailTransientError,
  base64Size,
  buildRunEmail,
  createSmtpTransport,
  parseEmailDestination,
  runMessageId,
  sendRunEmail,
  smtpSecrets,
  smtpSettingsFromEnv,
} from '../../activities/delivery/index.js';
import type { DeliveryFile, DeliverySummary, SmtpSettings } from '../../activities/delivery/index.js';
import { SettingsError } from '../../config/settings.js';
import { startSmtpServer } from '../helpers/smtp-server.js';
import type { RunningSmtpServer } from '../helpers/smtp-server.js';

const USER = 'vir-mailer-7Qk2';
const PASSWORD = 'pw-S3cret-9xZt!';
const FROM = 'VIR Reports <reports@reports.example.org>';

const PDF = 'application/pdf';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

let dir: string;
let smtp: RunningSmtpServer;
let settings: SmtpSettings;

function writeFile(name: string, bytes: Buffer, contentType: string): DeliveryFile {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return { path, name, contentType, bytes: bytes.length };
}

function csvBytes(rows: number): Buffer {
  const lines = ['name,country,score'];
  for (let i = 0; i < rows; i++) lines.push(`Company ${i} ${randomBytes(4).toString('hex')},DE,${i % 100}`);
  return Buffer.from(lines.join('\r\n') + '\r\n');
}

function summary(over: Partial<DeliverySummary> = {}): DeliverySummary {
  return {
    jobId: 'weekly-dach',
    jobTitle: 'Weekly DACH market report',
    kind: 'market-report',
    runId: 'weekly-dach/2026-11-23T06:00:00Z',
    date: '2026-11-23',
    status: 'complete',
    reasons: [],
    figures: [
      { label: 'Startups tracked', value: '1,284', note: '+37 since last week' },
      { label: 'Funding rounds', value: '€412.5m' },
      { label: 'Active investors', value: '219' },
    ],
    headline: 'Funding rose for the third week in a row.',
    ...over,
  };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vir-email-'));
  smtp = await startSmtpServer({ auth: { user: USER, password: PASSWORD } });
  settings = smtpSettingsFromEnv({
    VIR_SMTP_HOST: smtp.host,
    VIR_SMTP_PORT: String(smtp.port),
    VIR_SMTP_USER: USER,
    VIR_SMTP_PASSWORD: PASSWORD,
    VIR_SMTP_FROM: FROM,
    VIR_SMTP_STARTTLS: 'off',
    VIR_SMTP_TIMEOUT_MS: '5000',
  });
});

afterAll(async () => {
  await smtp?.close();
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  smtp.messages.length = 0;
  smtp.refuseNext(0);
});

/** Builds and sends; returns the outcome and what the server received. */
async function send(
  destInput: unknown,
  files: DeliveryFile[],
  s = summary(),
  links?: { name: string; url: string }[],
) {
  const dest = parseEmailDestination(destInput);
  const email = await buildRunEmail(dest, s, files, { from: settings.from, ...(links ? { links } : {}) });
  const outcome = await sendRunEmail(createSmtpTransport(settings), email, {
    secrets: smtpSecrets(settings),
  });
  return { email, outcome };
}

describe('email delivery over SMTP', () => {
  it('sends the PDF, workbook and CSV attached, byte for byte, with the subject, recipients, Message-ID and key figures', async () => {
    const pdf = writeFile('weekly-dach-2026-11-23.pdf', randomBytes(48_000), PDF);
    const xlsx = writeFile('weekly-dach-2026-11-23.xlsx', randomBytes(31_000), XLSX);
    const csv = writeFile('weekly-dach-2026-11-23.csv', csvBytes(200), 'text/csv');
    const { email, outcome } = await send(
      {
        to: ['ann@example.com', 'Bob@example.com'],
        cc: 'carol@example.net',
        subject: '[{job}] {title} - {date} ({status})',
      },
      [pdf, xlsx, csv],
    );

    expect(smtp.messages).toHaveLength(1);
    const got = smtp.messages[0]!;
    expect(got.user).toBe(USER);
    expect(got.parsed.subject).toBe('[weekly-dach] Weekly DACH market report - 2026-11-23 (complete)');
    const to = Array.isArray(got.parsed.to) ? got.parsed.to : [got.parsed.to];
    expect(to.flatMap((a) => a?.value.map((v) => v.address))).toEqual(['ann@example.com', 'Bob@example.com']);
    const cc = Array.isArray(got.parsed.cc) ? got.parsed.cc : [got.parsed.cc];
    expect(cc.flatMap((a) => a?.value.map((v) => v.address))).toEqual(['carol@example.net']);
    expect(got.envelope.to.sort()).toEqual(
      ['Bob@example.com', 'ann@example.com', 'carol@example.net'].sort(),
    );

    // Message-ID: derived from the run and the recipients, on the From domain.
    const expectedId = runMessageId(
      'weekly-dach/2026-11-23T06:00:00Z',
      ['ann@example.com', 'bob@example.com', 'carol@example.net'],
      'reports.example.org',
    );
    expect(expectedId).toMatch(/^<vir\.[0-9a-f]{16}\.[0-9a-f]{12}@reports\.example\.org>$/);
    expect(got.parsed.messageId).toBe(expectedId);
    expect(outcome.messageId).toBe(expectedId);
    expect(got.parsed.headers.get('x-vir-run')).toBe('weekly-dach/2026-11-23T06:00:00Z');
    expect(got.parsed.headers.get('auto-submitted')).toBe('auto-generated');

    // Attachments: the files' own bytes.
    expect(got.parsed.attachments.map((a) => a.filename)).toEqual([pdf.name, xlsx.name, csv.name]);
    for (const [i, f] of [pdf, xlsx, csv].entries()) {
      const att = got.parsed.attachments[i]!;
      expect(att.contentType).toBe(f.contentType);
      expect(att.content.equals(await import('node:fs/promises').then((m) => m.readFile(f.path)))).toBe(true);
    }
    expect(email.plan.files).toBe('attached');
    expect(email.plan.encodedBytes).toBe(
      base64Size(pdf.bytes) + base64Size(xlsx.bytes) + base64Size(csv.bytes),
    );

    // Bodies: the status and the key figures in both.
    const text = got.parsed.text ?? '';
    const html = typeof got.parsed.html === 'string' ? got.parsed.html : '';
    for (const body of [text, html]) {
      expect(body).toContain('Startups tracked');
      expect(body).toContain('1,284');
      expect(body).toContain('€412.5m');
      expect(body).toContain('+37 since last week');
      expect(body).toContain('Complete');
      expect(body).toContain(pdf.name);
    }

    expect(outcome).toMatchObject({ kind: 'email', ok: true, attempts: 1, rejected: [] });
    expect(outcome.accepted.sort()).toEqual(
      ['Bob@example.com', 'ann@example.com', 'carol@example.net'].sort(),
    );
    expect(outcome.detail).toBe('sent to 3 recipients, 3 files attached');
  });

  it('derives the same Message-ID for the same run and recipients, another for another list or run', async () => {
    const files = [writeFile('id.pdf', randomBytes(1000), PDF)];
    await send({ to: ['ann@example.com', 'bob@example.com'] }, files);
    await send({ to: ['BOB@example.com', 'ann@example.com'] }, files);
    await send({ to: ['ann@example.com'] }, files);
    await send({ to: ['ann@example.com'] }, files, summary({ runId: 'weekly-dach/2026-11-30T06:00:00Z' }));
    const ids = smtp.messages.map((m) => m.parsed.messageId);
    expect(ids[0]).toBe(ids[1]);
    expect(new Set(ids).size).toBe(3);
    // The run part is the same for one run, whoever receives it.
    expect(ids[2]!.split('.')[1]).toBe(ids[0]!.split('.')[1]);
  });

  it('escapes every string from the service in the HTML (formula-like title, <script> in a figure)', async () => {
    const s = summary({
      jobTitle: '=HYPERLINK("http://evil.example/x","Click") <b>bold</b>',
      status: 'partial',
      reasons: ['countries "AT" & "CH" <failed>'],
      figures: [{ label: '<script>alert(1)</script>', value: '=1+1', note: "it's <i>" }],
      headline: '<img src=x onerror=alert(1)>',
    });
    await send({ to: 'ann@example.com', subject: '{title}' }, [], s);
    const got = smtp.messages[0]!;
    const html = typeof got.parsed.html === 'string' ? got.parsed.html : '';
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<b>bold');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('"http://evil.example/x"');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain(
      '=HYPERLINK(&quot;http://evil.example/x&quot;,&quot;Click&quot;) &lt;b&gt;bold&lt;/b&gt;',
    );
    expect(html).toContain('Partial: countries &quot;AT&quot; &amp; &quot;CH&quot; &lt;failed&gt;');
    // The text body says it as it is; the subject is the title, on one line.
    expect(got.parsed.text).toContain('<script>alert(1)</script>: =1+1');
    expect(got.parsed.subject).toBe('=HYPERLINK("http://evil.example/x","Click") <b>bold</b>');
  });

  it('over the size limit: no attachments, the note in both bodies; with links given, the links', async () => {
    // 420 KB + 400 KB raw: about 1.1 MB after base64, over a 1 MB limit.
    const files = [
      writeFile('big.pdf', randomBytes(420_000), PDF),
      writeFile('big.xlsx', randomBytes(400_000), XLSX),
    ];
    const { email, outcome } = await send({ to: 'ann@example.com', sizeLimitMb: 1 }, files);
    expect(email.plan.files).toBe('note');
    let got = smtp.messages[0]!;
    expect(got.parsed.attachments).toHaveLength(0);
    const note =
      "The files are too large to attach (1.1 MB, the limit is 1.0 MB); they are in the run's report folder (job weekly-dach, 2026-11-23).";
    expect(got.parsed.text).toContain(note);
    expect(got.parsed.html).toContain(note.replace("'", '&#39;'));
    expect(outcome.detail).toBe('sent to 1 recipient, files neither attached nor linked');

    const links = [
      { name: 'big.pdf', url: 'https://bucket.example/big.pdf?X-Amz-Signature=abc&X-Amz-Expires=604800' },
      { name: 'big.xlsx', url: 'javascript:alert(1)' },
    ];
    await send({ to: 'ann@example.com', sizeLimitMb: 1 }, files, summary(), links);
    got = smtp.messages[1]!;
    expect(got.parsed.attachments).toHaveLength(0);
    expect(got.parsed.text).toContain(
      '- big.pdf: https://bucket.example/big.pdf?X-Amz-Signature=abc&X-Amz-Expires=604800',
    );
    expect(got.parsed.text).toContain('fetch them from the links below');
    expect(got.parsed.html).toContain(
      '<a href="https://bucket.example/big.pdf?X-Amz-Signature=abc&amp;X-Amz-Expires=604800">big.pdf</a>',
    );
    // A link that is not http(s) is shown, never made an anchor.
    expect(got.parsed.html).not.toContain('href="javascript:');

    // Under the same limit with a larger one: attached.
    await send({ to: 'ann@example.com', sizeLimitMb: 2 }, files);
    expect(smtp.messages[2]!.parsed.attachments).toHaveLength(2);
  });

  it('zipCsv: the CSV files travel in one zip whose entries are the files', async () => {
    const pdf = writeFile('prospects-2026-11-23.pdf', randomBytes(5000), PDF);
    const a = writeFile('prospects-de.csv', csvBytes(300), 'text/csv');
    const b = writeFile('prospects-at.csv', csvBytes(150), 'text/csv; charset=utf-8');
    await send(
      { to: 'sales@example.com', zipCsv: true },
      [pdf, a, b],
      summary({ jobId: 'prospects-dach', kind: 'prospect-list' }),
    );
    const got = smtp.messages[0]!;
    expect(got.parsed.attachments.map((x) => x.filename)).toEqual([
      pdf.name,
      'prospects-dach-2026-11-23-csv.zip',
    ]);
    const zipAtt = got.parsed.attachments[1]!;
    expect(zipAtt.contentType).toBe('application/zip');
    const zip = await JSZip.loadAsync(zipAtt.content);
    expect(Object.keys(zip.files).sort()).toEqual([a.name, b.name].sort());
    const fs = await import('node:fs/promises');
    for (const f of [a, b]) {
      const entry = await zip.file(f.name)!.async('nodebuffer');
      expect(entry.equals(await fs.readFile(f.path))).toBe(true);
    }
    expect(got.parsed.text).toContain('the CSV files are in prospects-dach-2026-11-23-csv.zip');
  });

  it('a 451 at the end of DATA throws the retryable class; the next call succeeds; one message arrives', async () => {
    const files = [writeFile('retry.pdf', randomBytes(2000), PDF)];
    const dest = parseEmailDestination({ to: 'ann@example.com' });
    const email = await buildRunEmail(dest, summary(), files, { from: settings.from });
    const transport = createSmtpTransport(settings);
    smtp.refuseNext(1, 451);
    const err = await sendRunEmail(transport, email, { secrets: smtpSecrets(settings) }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(EmailTransientError);
    const t = err as EmailTransientError;
    expect(t.code).toBe('smtp_transient');
    expect(t.retryable).toBe(true);
    expect(t.responseCode).toBe(451);
    expect(t.message).toMatch(
      /^email for run weekly-dach\/2026-11-23T06:00:00Z failed: the server refused the message for now: .*451/,
    );
    expect(smtp.refused).toBe(1);

    const outcome = await sendRunEmail(transport, email, { secrets: smtpSecrets(settings), attempt: 2 });
    expect(outcome).toMatchObject({ ok: true, attempts: 2, accepted: ['ann@example.com'] });
    expect(smtp.messages).toHaveLength(1);
    expect(smtp.messages[0]!.parsed.messageId).toBe(email.message.messageId);
  });

  it('a 550 for the recipient throws the non-retryable class naming the recipient; a 550 at DATA too', async () => {
    smtp.refuseRecipient('nobody@example.com', 550);
    const err = await send({ to: 'nobody@example.com' }, []).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EmailRejectedError);
    const r = err as EmailRejectedError;
    expect(r.code).toBe('smtp_rejected');
    expect(r.retryable).toBe(false);
    expect(r.responseCode).toBe(550);
    expect(r.recipients).toEqual(['nobody@example.com']);
    expect(r.message).toContain('the server refused the recipient: nobody@example.com (550');

    // One refused among two: sent to the other, not ok, the refused one named; no throw (a retry would duplicate).
    const { outcome } = await send({ to: ['ann@example.com', 'nobody@example.com'] }, []);
    expect(outcome).toMatchObject({
      ok: false,
      accepted: ['ann@example.com'],
      rejected: ['nobody@example.com'],
    });
    expect(outcome.detail).toContain('sent to 1 of 2 recipients (refused: nobody@example.com)');
    expect(smtp.messages).toHaveLength(1);

    smtp.refuseNext(1, 550);
    const dataErr = await send({ to: 'ann@example.com' }, []).catch((e: unknown) => e);
    expect(dataErr).toBeInstanceOf(EmailRejectedError);
    expect((dataErr as EmailRejectedError).message).toContain(
      'refused the message for good (ann@example.com)',
    );
  });

  it('wrong credentials: non-retryable smtp_auth, without the password', async () => {
    const wrong = smtpSettingsFromEnv({
      VIR_SMTP_URL: `smtp://${USER}:${encodeURIComponent('not-' + PASSWORD)}@${smtp.host}:${smtp.port}`,
      VIR_SMTP_FROM: FROM,
      VIR_SMTP_STARTTLS: 'off',
    });
    const email = await buildRunEmail(parseEmailDestination({ to: 'ann@example.com' }), summary(), [], {
      from: wrong.from,
    });
    const err = await sendRunEmail(createSmtpTransport(wrong), email, { secrets: smtpSecrets(wrong) }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(EmailRejectedError);
    expect((err as EmailRejectedError).code).toBe('smtp_auth');
    // The server's refusal named the user (as some do): redacted, with the password.
    expect((err as EmailRejectedError).message).toContain('Authentication failed for [redacted]');
    for (const secret of smtpSecrets(wrong)) {
      expect(JSON.stringify(err)).not.toContain(secret);
      expect(inspect(err, { depth: 5 })).not.toContain(secret);
    }
  });

  it('nobody listening: retryable smtp_unavailable', async () => {
    const closed = await startSmtpServer();
    const port = closed.port;
    await closed.close();
    const s = smtpSettingsFromEnv({
      VIR_SMTP_HOST: '127.0.0.1',
      VIR_SMTP_PORT: String(port),
      VIR_SMTP_FROM: FROM,
      VIR_SMTP_STARTTLS: 'off',
    });
    const email = await buildRunEmail(parseEmailDestination({ to: 'ann@example.com' }), summary(), [], {
      from: s.from,
    });
    const err = await sendRunEmail(createSmtpTransport(s), email).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EmailTransientError);
    expect((err as EmailTransientError).code).toBe('smtp_unavailable');
  });

  it('keeps the SMTP user and password out of every header, error and outcome', async () => {
    const secrets = [
      PASSWORD,
      USER,
      Buffer.from(PASSWORD).toString('base64'),
      Buffer.from(`\u0000${USER}\u0000${PASSWORD}`).toString('base64'),
    ];
    const files = [writeFile('s.pdf', randomBytes(3000), PDF), writeFile('s.csv', csvBytes(20), 'text/csv')];
    const outcomes: unknown[] = [];
    const errors: unknown[] = [];
    outcomes.push((await send({ to: 'ann@example.com', cc: ['bob@example.com'] }, files)).outcome);
    outcomes.push((await send({ to: 'ann@example.com', zipCsv: true }, files)).outcome);
    smtp.refuseNext(1, 451);
    errors.push(await send({ to: 'ann@example.com' }, files).catch((e: unknown) => e));
    smtp.refuseNext(1, 550);
    errors.push(await send({ to: 'ann@example.com' }, files).catch((e: unknown) => e));
    smtp.refuseRecipient('gone@example.com');
    errors.push(await send({ to: 'gone@example.com' }, files).catch((e: unknown) => e));
    expect(smtp.messages.length).toBe(2);
    expect(errors.every((e) => e instanceof Error)).toBe(true);

    for (const m of smtp.messages) {
      const raw = m.raw.toString('latin1');
      const headerBlock = raw.slice(0, raw.indexOf('\r\n\r\n'));
      for (const s of secrets) {
        expect(headerBlock).not.toContain(s);
        expect(raw).not.toContain(s);
      }
    }
    for (const x of [...outcomes, ...errors]) {
      const printed = [
        JSON.stringify(x),
        inspect(x, { depth: 8 }),
        x instanceof Error ? `${x.message}\n${x.stack}\n${inspect(x.cause)}` : '',
      ].join('\n');
      for (const s of secrets) expect(printed).not.toContain(s);
    }
    // The settings print without the password.
    expect(JSON.stringify(settings)).not.toContain(PASSWORD);
    expect(inspect(settings)).not.toContain(PASSWORD);
    expect(settings.password).toBe(PASSWORD);
  });
});

describe('configuration errors name the field or variable', () => {
  const bad = (input: unknown) => {
    try {
      parseEmailDestination(input);
    } catch (err) {
      expect(err).toBeInstanceOf(EmailDestinationError);
      return (err as Error).message;
    }
    throw new Error('expected an EmailDestinationError');
  };

  it('email destination fields', () => {
    expect(bad({ to: ['ann@example.com', 'bob@'] })).toBe('email.to[1]: "bob@" is not an email address');
    expect(bad({ to: 'ann@example.com', cc: ['x y@example.com'] })).toBe(
      'email.cc[0]: "x y@example.com" is not an email address',
    );
    expect(bad({ to: [] })).toBe('email.to: must name at least one address');
    expect(bad({})).toMatch(/^email\.to: /);
    expect(bad({ to: 'a@example.com', subject: '{title} for {client}' })).toBe(
      'email.subject: unknown placeholder {client} (known: {job}, {title}, {date}, {status})',
    );
    expect(bad({ to: 'a@example.com', attach: 'inline' })).toBe('email.attach: must be "files" or "links"');
    expect(bad({ to: 'a@example.com', sizeLimitMb: 0 })).toBe('email.sizeLimitMb: must be at least 1');
    expect(bad({ to: 'a@example.com', sizeLimitMb: 101 })).toBe('email.sizeLimitMb: must be at most 100');
    expect(bad({ to: 'a@example.com', zipCsv: 'yes' })).toBe('email.zipCsv: must be true or false');
    expect(bad({ to: 'a@example.com', password: 'x' })).toBe('email: unknown field "password"');
    const d = parseEmailDestination({ to: 'a@example.com, b@example.com' });
    expect(d).toEqual({
      to: ['a@example.com', 'b@example.com'],
      subject: '{title} - {date}',
      attach: 'files',
      zipCsv: false,
      sizeLimitMb: 20,
    });
  });

  it('SMTP variables, never showing the password', () => {
    const err = (env: NodeJS.ProcessEnv) => {
      try {
        smtpSettingsFromEnv(env);
      } catch (e) {
        expect(e).toBeInstanceOf(SettingsError);
        const s = e as SettingsError;
        expect(s.message).not.toContain(PASSWORD);
        return `${s.variable} | ${s.message}`;
      }
      throw new Error('expected a SettingsError');
    };
    const from = { VIR_SMTP_FROM: FROM };
    expect(err({ ...from })).toBe(
      'VIR_SMTP_HOST | VIR_SMTP_HOST (or VIR_SMTP_URL) must be set to send email',
    );
    expect(err({ ...from, VIR_SMTP_HOST: 'mail.example.com', VIR_SMTP_PORT: 'abc' })).toBe(
      'VIR_SMTP_PORT | VIR_SMTP_PORT must be a port number (1 to 65535), got "abc"',
    );
    expect(err({ ...from, VIR_SMTP_URL: `http://u:${PASSWORD}@mail.example.com` })).toBe(
      'VIR_SMTP_URL | VIR_SMTP_URL must start with smtp:// or smtps://, got "http"',
    );
    expect(err({ ...from, VIR_SMTP_URL: `smtp://u:${PASSWORD}@[bad` })).toMatch(
      /^VIR_SMTP_URL \| VIR_SMTP_URL must be a URL/,
    );
    expect(err({ VIR_SMTP_HOST: 'mail.example.com' })).toMatch(/^VIR_SMTP_FROM \| VIR_SMTP_FROM must be set/);
    expect(err({ VIR_SMTP_HOST: 'mail.example.com', VIR_SMTP_FROM: 'reports@' })).toMatch(
      /^VIR_SMTP_FROM \| .*"reports@"/,
    );
    expect(err({ ...from, VIR_SMTP_HOST: 'mail.example.com', VIR_SMTP_PASSWORD: PASSWORD })).toBe(
      'VIR_SMTP_USER | VIR_SMTP_USER must be set when an SMTP password is given',
    );
    expect(
      err({ ...from, VIR_SMTP_HOST: 'h', VIR_SMTP_USER: 'u', VIR_SMTP_PASSWORD_FILE: join(dir, 'missing') }),
    ).toMatch(/^VIR_SMTP_PASSWORD_FILE \| VIR_SMTP_PASSWORD_FILE: cannot read ".*missing" \(ENOENT\)$/);
    expect(
      err({
        ...from,
        VIR_SMTP_HOST: 'h',
        VIR_SMTP_USER: 'u',
        VIR_SMTP_PASSWORD: PASSWORD,
        VIR_SMTP_PASSWORD_FILE: '/x',
      }),
    ).toMatch(/^VIR_SMTP_PASSWORD_FILE \| the SMTP password is given more than once/);
    expect(err({ ...from, VIR_SMTP_HOST: 'h', VIR_SMTP_STARTTLS: 'maybe' })).toBe(
      'VIR_SMTP_STARTTLS | VIR_SMTP_STARTTLS must be one of require, opportunistic, off, got "maybe"',
    );
    expect(err({ ...from, VIR_SMTP_URL: 'smtps://mail.example.com', VIR_SMTP_SECURE: 'false' })).toMatch(
      /^VIR_SMTP_SECURE \| /,
    );
  });

  it('resolves a URL, a secrets file and the defaults', () => {
    const file = join(dir, 'smtp-password');
    writeFileSync(file, `${PASSWORD}\n`);
    const s = smtpSettingsFromEnv({
      VIR_SMTP_HOST: 'mail.example.com',
      VIR_SMTP_USER: USER,
      VIR_SMTP_PASSWORD_FILE: file,
      VIR_SMTP_FROM: 'r@Example.COM',
    });
    expect(s).toMatchObject({
      host: 'mail.example.com',
      port: 587,
      secure: false,
      starttls: 'require',
      user: USER,
      fromDomain: 'example.com',
      passwordSource: 'VIR_SMTP_PASSWORD_FILE',
    });
    expect(s.password).toBe(PASSWORD);
    const u = smtpSettingsFromEnv({
      VIR_SMTP_URL: `smtps://${encodeURIComponent(USER)}:${encodeURIComponent(PASSWORD)}@smtp.example.com`,
      VIR_SMTP_FROM: FROM,
    });
    expect(u).toMatchObject({
      host: 'smtp.example.com',
      port: 465,
      secure: true,
      user: USER,
      passwordSource: 'VIR_SMTP_URL',
    });
    expect(u.password).toBe(PASSWORD);
    expect(JSON.stringify(u)).not.toContain(PASSWORD);
  });
});
