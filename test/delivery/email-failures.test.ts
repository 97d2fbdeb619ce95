/**
 * Email delivery when the SMTP server refuses (451, 550, wrong login) or is not there: the
 * retryable or non-retryable class, and the SMTP user and password in no header, error or outcome.
 */
import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  buildRunEmail,
  createSmtpTransport,
  EmailRejectedError,
  EmailTransientError,
  parseEmailDestination,
  sendRunEmail,
  smtpSecrets,
  smtpSettingsFromEnv,
} from '../../activities/delivery/index.js';
import { startSmtpServer } from '../helpers/smtp-server.js';
import { csvBytes, FROM, PASSWORD, PDF, summary, useSmtpBed, USER } from '../helpers/email-delivery.js';

const bed = useSmtpBed();

describe('email delivery over SMTP', () => {
  it('a 451 at the end of DATA throws the retryable class; the next call succeeds; one message arrives', async () => {
    const files = [bed.writeFile('retry.pdf', randomBytes(2000), PDF)];
    const dest = parseEmailDestination({ to: 'ann@example.com' });
    const email = await buildRunEmail(dest, summary(), files, { from: bed.settings.from });
    const transport = createSmtpTransport(bed.settings);
    bed.smtp.refuseNext(1, 451);
    const err = await sendRunEmail(transport, email, { secrets: smtpSecrets(bed.settings) }).catch(
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
    expect(bed.smtp.refused).toBe(1);

    const outcome = await sendRunEmail(transport, email, { secrets: smtpSecrets(bed.settings), attempt: 2 });
    expect(outcome).toMatchObject({ ok: true, attempts: 2, accepted: ['ann@example.com'] });
    expect(bed.smtp.messages).toHaveLength(1);
    expect(bed.smtp.messages[0]!.parsed.messageId).toBe(email.message.messageId);
  });

  it('a 550 for the recipient throws the non-retryable class naming the recipient; a 550 at DATA too', async () => {
    bed.smtp.refuseRecipient('nobody@example.com', 550);
    const err = await bed.send({ to: 'nobody@example.com' }, []).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EmailRejectedError);
    const r = err as EmailRejectedError;
    expect(r.code).toBe('smtp_rejected');
    expect(r.retryable).toBe(false);
    expect(r.responseCode).toBe(550);
    expect(r.recipients).toEqual(['nobody@example.com']);
    expect(r.message).toContain('the server refused the recipient: nobody@example.com (550');

    // One refused among two: sent to the other, not ok, the refused one named; no throw (a retry would duplicate).
    const { outcome } = await bed.send({ to: ['ann@example.com', 'nobody@example.com'] }, []);
    expect(outcome).toMatchObject({
      ok: false,
      accepted: ['ann@example.com'],
      rejected: ['nobody@example.com'],
    });
    expect(outcome.detail).toContain('sent to 1 of 2 recipients (refused: nobody@example.com)');
    expect(bed.smtp.messages).toHaveLength(1);

    bed.smtp.refuseNext(1, 550);
    const dataErr = await bed.send({ to: 'ann@example.com' }, []).catch((e: unknown) => e);
    expect(dataErr).toBeInstanceOf(EmailRejectedError);
    expect((dataErr as EmailRejectedError).message).toContain(
      'refused the message for good (ann@example.com)',
    );
  });

  it('wrong credentials: non-retryable smtp_auth, without the password', async () => {
    const wrong = smtpSettingsFromEnv({
      VIR_SMTP_URL: `smtp://${USER}:${encodeURIComponent('not-' + PASSWORD)}@${bed.smtp.host}:${bed.smtp.port}`,
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
    const files = [
      bed.writeFile('s.pdf', randomBytes(3000), PDF),
      bed.writeFile('s.csv', csvBytes(20), 'text/csv'),
    ];
    const outcomes: unknown[] = [];
    const errors: unknown[] = [];
    outcomes.push((await bed.send({ to: 'ann@example.com', cc: ['bob@example.com'] }, files)).outcome);
    outcomes.push((await bed.send({ to: 'ann@example.com', zipCsv: true }, files)).outcome);
    bed.smtp.refuseNext(1, 451);
    errors.push(await bed.send({ to: 'ann@example.com' }, files).catch((e: unknown) => e));
    bed.smtp.refuseNext(1, 550);
    errors.push(await bed.send({ to: 'ann@example.com' }, files).catch((e: unknown) => e));
    bed.smtp.refuseRecipient('gone@example.com');
    errors.push(await bed.send({ to: 'gone@example.com' }, files).catch((e: unknown) => e));
    expect(bed.smtp.messages.length).toBe(2);
    expect(errors.every((e) => e instanceof Error)).toBe(true);

    for (const m of bed.smtp.messages) {
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
    expect(JSON.stringify(bed.settings)).not.toContain(PASSWORD);
    expect(inspect(bed.settings)).not.toContain(PASSWORD);
    expect(bed.settings.password).toBe(PASSWORD);
  });
});
