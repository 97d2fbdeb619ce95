/**
 * SMTP settings, from the environment only (never from a job file): a URL or host, port and
 * credentials, the From address, the TLS choice. A bad value is a `SettingsError` naming the
 * variable; the password never appears in a message, and it is a non-enumerable property of the
 * settings, so printing or serialising them does not show it.
 *
 * @example
 * const smtp = smtpSettingsFromEnv(process.env);   // throws naming VIR_SMTP_HOST when unset
 * const transport = createSmtpTransport(smtp);
 */
import { readFileSync } from 'node:fs';
import nodemailer from 'nodemailer';
import type { SMTPSentMessageInfo, SMTPTransportOptions, Transporter } from 'nodemailer';
import { SettingsError } from '../../config/settings.js';
import { parseMailbox } from '../../config/destinations.js';

export { parseMailbox };

/** How a connection that does not start in TLS treats STARTTLS. */
export const STARTTLS_MODES = ['require', 'opportunistic', 'off'] as const;
export type StartTlsMode = (typeof STARTTLS_MODES)[number];

/** Names of the variables the SMTP settings read. */
export const SMTP_SETTING_NAMES = [
  'VIR_SMTP_URL',
  'VIR_SMTP_HOST',
  'VIR_SMTP_PORT',
  'VIR_SMTP_USER',
  'VIR_SMTP_PASSWORD',
  'VIR_SMTP_PASSWORD_FILE',
  'VIR_SMTP_FROM',
  'VIR_SMTP_SECURE',
  'VIR_SMTP_STARTTLS',
  'VIR_SMTP_TIMEOUT_MS',
] as const;

/** Timeouts and ports when the environment does not say. */
export const SMTP_DEFAULTS = {
  portSecure: 465,
  portPlain: 587,
  timeoutMs: 30_000,
} as const;

/** Resolved SMTP settings. `password` is non-enumerable: JSON and `inspect` do not show it. */
export interface SmtpSettings {
  host: string;
  port: number;
  /** TLS from the first byte (smtps, usually port 465). */
  secure: boolean;
  /** When not `secure`: upgrade with STARTTLS always (`require`), when offered, or never. */
  starttls: StartTlsMode;
  user: string | undefined;
  /** Read it, never print it. */
  readonly password: string | undefined;
  /** The From header as given (`Reports <reports@example.com>` or `reports@example.com`). */
  from: string;
  /** The From address's domain: the right-hand side of every Message-ID. */
  fromDomain: string;
  /** Connection, greeting and idle timeout. */
  timeoutMs: number;
  /** Where the password came from, for `vir doctor` (`VIR_SMTP_URL`, `VIR_SMTP_PASSWORD`, `VIR_SMTP_PASSWORD_FILE`, none). */
  passwordSource: 'VIR_SMTP_URL' | 'VIR_SMTP_PASSWORD' | 'VIR_SMTP_PASSWORD_FILE' | 'none';
}

/** The values to redact from anything an SMTP exchange produces (user, password, AUTH PLAIN form). */
export function smtpSecrets(settings: Pick<SmtpSettings, 'user' | 'password'>): string[] {
  const out: string[] = [];
  const { user, password } = settings;
  if (password) {
    out.push(password, Buffer.from(password).toString('base64'));
    if (user) out.push(Buffer.from(`\u0000${user}\u0000${password}`).toString('base64'));
  }
  if (user) out.push(user, Buffer.from(user).toString('base64'));
  return out;
}

function read(env: NodeJS.ProcessEnv, name: (typeof SMTP_SETTING_NAMES)[number]): string | undefined {
  const v = env[name];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

function portOf(variable: string, raw: string): number {
  if (!/^\d{1,5}$/.test(raw) || Number(raw) < 1 || Number(raw) > 65535)
    throw new SettingsError(
      variable,
      `${variable} must be a port number (1 to 65535), got ${JSON.stringify(raw)}`,
    );
  return Number(raw);
}

function boolOf(variable: string, raw: string): boolean {
  if (/^(true|1|yes)$/i.test(raw)) return true;
  if (/^(false|0|no)$/i.test(raw)) return false;
  throw new SettingsError(
    variable,
    `${variable} must be true or false, got ${JSON.stringify(raw.slice(0, 20))}`,
  );
}

/**
 * Reads and validates the SMTP settings from the environment. Empty variables count as unset.
 * `VIR_SMTP_URL` (`smtp://user:password@host:587`, `smtps://…@host:465`) or `VIR_SMTP_HOST`
 * (+ `VIR_SMTP_PORT`, `VIR_SMTP_USER`, `VIR_SMTP_PASSWORD` or `VIR_SMTP_PASSWORD_FILE`);
 * `VIR_SMTP_FROM` always; `VIR_SMTP_SECURE`, `VIR_SMTP_STARTTLS`, `VIR_SMTP_TIMEOUT_MS` optional.
 *
 * @throws SettingsError naming the variable, e.g. `VIR_SMTP_PORT must be a port number (1 to 65535), got "abc"`;
 *   never with the password in it.
 */
export function smtpSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): SmtpSettings {
  const url = read(env, 'VIR_SMTP_URL');
  const hostVar = read(env, 'VIR_SMTP_HOST');
  let host: string;
  let port: number | undefined;
  let secure: boolean | undefined;
  let user = read(env, 'VIR_SMTP_USER');
  let password: string | undefined;
  let passwordSource: SmtpSettings['passwordSource'] = 'none';

  if (url !== undefined) {
    if (hostVar !== undefined)
      throw new SettingsError('VIR_SMTP_URL', 'VIR_SMTP_URL and VIR_SMTP_HOST are both set: set one of them');
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      // The URL may hold the password: it is not echoed.
      throw new SettingsError(
        'VIR_SMTP_URL',
        'VIR_SMTP_URL must be a URL: smtp://user:password@host:port or smtps://…',
      );
    }
    if (u.protocol !== 'smtp:' && u.protocol !== 'smtps:')
      throw new SettingsError(
        'VIR_SMTP_URL',
        `VIR_SMTP_URL must start with smtp:// or smtps://, got ${JSON.stringify(u.protocol.replace(/:$/, ''))}`,
      );
    if (u.hostname === '') throw new SettingsError('VIR_SMTP_URL', 'VIR_SMTP_URL has no host');
    if ((u.pathname !== '' && u.pathname !== '/') || u.search !== '' || u.hash !== '')
      throw new SettingsError(
        'VIR_SMTP_URL',
        'VIR_SMTP_URL must have no path, query or fragment (use the VIR_SMTP_* variables)',
      );
    host = u.hostname.replace(/^\[|\]$/g, '');
    secure = u.protocol === 'smtps:';
    if (u.port !== '') port = portOf('VIR_SMTP_URL', u.port);
    if (u.username !== '') {
      if (user !== undefined)
        throw new SettingsError(
          'VIR_SMTP_USER',
          'VIR_SMTP_USER is set and VIR_SMTP_URL names a user too: set one of them',
        );
      user = decodeURIComponent(u.username);
    }
    if (u.password !== '') {
      password = decodeURIComponent(u.password);
      passwordSource = 'VIR_SMTP_URL';
    }
  } else {
    if (hostVar === undefined)
      throw new SettingsError('VIR_SMTP_HOST', 'VIR_SMTP_HOST (or VIR_SMTP_URL) must be set to send email');
    if (!/^(\[[0-9a-fA-F:]+\]|[0-9a-fA-F:]*:[0-9a-fA-F:]+|[A-Za-z0-9.-]+)$/.test(hostVar))
      throw new SettingsError(
        'VIR_SMTP_HOST',
        `VIR_SMTP_HOST must be a host name or address, got ${JSON.stringify(hostVar.slice(0, 60))}`,
      );
    host = hostVar.replace(/^\[|\]$/g, '');
  }

  const portVar = read(env, 'VIR_SMTP_PORT');
  if (portVar !== undefined) {
    if (port !== undefined)
      throw new SettingsError(
        'VIR_SMTP_PORT',
        'VIR_SMTP_PORT is set and VIR_SMTP_URL has a port too: set one of them',
      );
    port = portOf('VIR_SMTP_PORT', portVar);
  }
  const secureVar = read(env, 'VIR_SMTP_SECURE');
  if (secureVar !== undefined) {
    const s = boolOf('VIR_SMTP_SECURE', secureVar);
    if (secure !== undefined && s !== secure)
      throw new SettingsError(
        'VIR_SMTP_SECURE',
        `VIR_SMTP_SECURE=${secureVar} contradicts VIR_SMTP_URL's scheme (${secure ? 'smtps' : 'smtp'})`,
      );
    secure = s;
  }
  secure ??= port === SMTP_DEFAULTS.portSecure;
  port ??= secure ? SMTP_DEFAULTS.portSecure : SMTP_DEFAULTS.portPlain;

  const passVar =
    env.VIR_SMTP_PASSWORD !== undefined && env.VIR_SMTP_PASSWORD !== '' ? env.VIR_SMTP_PASSWORD : undefined;
  const passFile = read(env, 'VIR_SMTP_PASSWORD_FILE');
  const sources = [password !== undefined, passVar !== undefined, passFile !== undefined].filter(
    Boolean,
  ).length;
  if (sources > 1)
    throw new SettingsError(
      passFile !== undefined ? 'VIR_SMTP_PASSWORD_FILE' : 'VIR_SMTP_PASSWORD',
      'the SMTP password is given more than once (VIR_SMTP_URL, VIR_SMTP_PASSWORD, VIR_SMTP_PASSWORD_FILE): set one of them',
    );
  if (passVar !== undefined) {
    password = passVar;
    passwordSource = 'VIR_SMTP_PASSWORD';
  }
  if (passFile !== undefined) {
    let text: string;
    try {
      text = readFileSync(passFile, 'utf8');
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      throw new SettingsError(
        'VIR_SMTP_PASSWORD_FILE',
        `VIR_SMTP_PASSWORD_FILE: cannot read ${JSON.stringify(passFile)}${typeof code === 'string' ? ` (${code})` : ''}`,
      );
    }
    password = text.replace(/\r?\n$/, '');
    if (password === '')
      throw new SettingsError(
        'VIR_SMTP_PASSWORD_FILE',
        `VIR_SMTP_PASSWORD_FILE: ${JSON.stringify(passFile)} is empty`,
      );
    passwordSource = 'VIR_SMTP_PASSWORD_FILE';
  }
  if (password !== undefined && user === undefined)
    throw new SettingsError('VIR_SMTP_USER', 'VIR_SMTP_USER must be set when an SMTP password is given');

  const startVar = read(env, 'VIR_SMTP_STARTTLS');
  let starttls: StartTlsMode;
  if (startVar !== undefined) {
    if (!(STARTTLS_MODES as readonly string[]).includes(startVar))
      throw new SettingsError(
        'VIR_SMTP_STARTTLS',
        `VIR_SMTP_STARTTLS must be one of ${STARTTLS_MODES.join(', ')}, got ${JSON.stringify(startVar.slice(0, 20))}`,
      );
    starttls = startVar as StartTlsMode;
  } else {
    // Credentials never cross the network in clear unless asked for (VIR_SMTP_STARTTLS=off).
    starttls = user !== undefined ? 'require' : 'opportunistic';
  }

  const fromVar = read(env, 'VIR_SMTP_FROM');
  if (fromVar === undefined)
    throw new SettingsError(
      'VIR_SMTP_FROM',
      'VIR_SMTP_FROM must be set (e.g. "Reports <reports@example.com>")',
    );
  const mailbox = parseMailbox(fromVar);
  if (mailbox === null)
    throw new SettingsError(
      'VIR_SMTP_FROM',
      `VIR_SMTP_FROM must be an email address or "Name <address>", got ${JSON.stringify(fromVar.slice(0, 80))}`,
    );

  const timeoutVar = read(env, 'VIR_SMTP_TIMEOUT_MS');
  let timeoutMs: number = SMTP_DEFAULTS.timeoutMs;
  if (timeoutVar !== undefined) {
    if (!/^\d{1,9}$/.test(timeoutVar) || Number(timeoutVar) < 100)
      throw new SettingsError(
        'VIR_SMTP_TIMEOUT_MS',
        `VIR_SMTP_TIMEOUT_MS must be a number of milliseconds (100 or more), got ${JSON.stringify(timeoutVar.slice(0, 20))}`,
      );
    timeoutMs = Number(timeoutVar);
  }

  const settings = {
    host,
    port,
    secure,
    starttls,
    user,
    from: fromVar,
    fromDomain: mailbox.domain,
    timeoutMs,
    passwordSource,
  } as SmtpSettings;
  Object.defineProperty(settings, 'password', { value: password, enumerable: false, writable: false });
  return settings;
}

/** A transport that sends the run's email (nodemailer's, or anything with its `sendMail`). */
export type EmailTransport = Pick<Transporter<SMTPSentMessageInfo>, 'sendMail'>;

/**
 * nodemailer's SMTP transport for these settings: no pooling (one connection a message, closed
 * after), no logging (the SMTP dialogue carries the credentials), the timeouts applied.
 */
export function createSmtpTransport(settings: SmtpSettings): Transporter<SMTPSentMessageInfo> {
  const options: SMTPTransportOptions = {
    host: settings.host,
    port: settings.port,
    secure: settings.secure,
    requireTLS: !settings.secure && settings.starttls === 'require',
    ignoreTLS: !settings.secure && settings.starttls === 'off',
    connectionTimeout: settings.timeoutMs,
    greetingTimeout: settings.timeoutMs,
    socketTimeout: Math.max(settings.timeoutMs, 60_000),
    logger: false,
    debug: false,
    ...(settings.user === undefined ? {} : { auth: { user: settings.user, pass: settings.password } }),
  };
  return nodemailer.createTransport(options);
}
