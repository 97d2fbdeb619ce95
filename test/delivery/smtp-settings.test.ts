/**
 * Configuration of email delivery: the destination's fields and the SMTP variables, whose
 * errors name the field or variable and never show the password.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  EmailDestinationError,
  parseEmailDestination,
  smtpSettingsFromEnv,
} from '../../activities/delivery/index.js';
import { SettingsError } from '../../config/settings.js';
import { FROM, PASSWORD, useScratchDir, USER } from '../helpers/email-delivery.js';

const scratch = useScratchDir();

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
      err({
        ...from,
        VIR_SMTP_HOST: 'h',
        VIR_SMTP_USER: 'u',
        VIR_SMTP_PASSWORD_FILE: join(scratch.path, 'missing'),
      }),
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
    const file = join(scratch.path, 'smtp-password');
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
