/**
 * SMTP settings, from the environment only (never from a job file): a URL or host, port and
 * credentials, the From address, the TLS choice, read through a zod schema
 * ({@link SmtpSettingsSchema}). A bad value is a `SettingsError` naming the variable; when several
 * are wrong, a malformed value is named before a missing or conflicting one. The password never
 * appears in a message, and it is a non-enumerable property of the settings, so printing or
 * serialising them does not show it.
 *
 * @example
 * const smtp = smtpSettingsFromEnv(process.env);   // throws naming VIR_SMTP_HOST when unset
 * const transport = createSmtpTransport(smtp);     // smtp-transport.ts
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { SettingsError } from '../../config/settings.js';
import { parseMailbox } from '../../config/destinations.js';

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

type SmtpSettingName = (typeof SMTP_SETTING_NAMES)[number];

/** `"<value>"`, cut to `max` characters: how a bad value is shown (never the password's). */
const shown = (value: unknown, max = Infinity) => JSON.stringify(String(value).slice(0, max));

const isPort = (raw: string) => /^\d{1,5}$/.test(raw) && Number(raw) >= 1 && Number(raw) <= 65535;
const portMessage = (variable: SmtpSettingName, raw: unknown) =>
  `${variable} must be a port number (1 to 65535), got ${shown(raw)}`;

const TRUE_RE = /^(true|1|yes)$/i;
const FALSE_RE = /^(false|0|no)$/i;

/** `VIR_SMTP_URL`, taken apart; a bad one is never echoed whole (it may hold the password). */
const smtpUrl = z.string().transform((raw, ctx) => {
  const fail = (message: string) => {
    ctx.addIssue({ code: 'custom', message });
    return z.NEVER;
  };
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    // The URL may hold the password: it is not echoed.
    return fail('VIR_SMTP_URL must be a URL: smtp://user:password@host:port or smtps://…');
  }
  if (u.protocol !== 'smtp:' && u.protocol !== 'smtps:')
    return fail(
      `VIR_SMTP_URL must start with smtp:// or smtps://, got ${shown(u.protocol.replace(/:$/, ''))}`,
    );
  if (u.hostname === '') return fail('VIR_SMTP_URL has no host');
  if ((u.pathname !== '' && u.pathname !== '/') || u.search !== '' || u.hash !== '')
    return fail('VIR_SMTP_URL must have no path, query or fragment (use the VIR_SMTP_* variables)');
  if (u.port !== '' && !isPort(u.port)) return fail(portMessage('VIR_SMTP_URL', u.port));
  return {
    host: u.hostname.replace(/^\[|\]$/g, ''),
    secure: u.protocol === 'smtps:',
    port: u.port === '' ? undefined : Number(u.port),
    user: u.username === '' ? undefined : decodeURIComponent(u.username),
    password: u.password === '' ? undefined : decodeURIComponent(u.password),
  };
});

/**
 * The SMTP variables, each checked on its own (values trimmed; unset and empty ones left out):
 * a bad value is an issue at its variable, whose message names it. How they fit together is
 * checked after ({@link resolveSettings}).
 */
const SmtpFieldsSchema = z.object({
  VIR_SMTP_URL: smtpUrl.optional(),
  VIR_SMTP_HOST: z
    .string()
    .regex(/^(\[[0-9a-fA-F:]+\]|[0-9a-fA-F:]*:[0-9a-fA-F:]+|[A-Za-z0-9.-]+)$/, {
      error: (iss) => `VIR_SMTP_HOST must be a host name or address, got ${shown(iss.input, 60)}`,
    })
    .transform((host) => host.replace(/^\[|\]$/g, ''))
    .optional(),
  VIR_SMTP_PORT: z
    .string()
    .refine(isPort, { error: (iss) => portMessage('VIR_SMTP_PORT', iss.input) })
    .transform(Number)
    .optional(),
  VIR_SMTP_USER: z.string().optional(),
  VIR_SMTP_PASSWORD: z.string().optional(),
  VIR_SMTP_PASSWORD_FILE: z.string().optional(),
  VIR_SMTP_FROM: z
    .string()
    .transform((from, ctx) => {
      const mailbox = parseMailbox(from);
      if (mailbox !== null) return { from, domain: mailbox.domain };
      ctx.addIssue({
        code: 'custom',
        message: `VIR_SMTP_FROM must be an email address or "Name <address>", got ${shown(from, 80)}`,
      });
      return z.NEVER;
    })
    .optional(),
  VIR_SMTP_SECURE: z
    .string()
    .refine((raw) => TRUE_RE.test(raw) || FALSE_RE.test(raw), {
      error: (iss) => `VIR_SMTP_SECURE must be true or false, got ${shown(iss.input, 20)}`,
    })
    .transform((raw) => ({ raw, on: TRUE_RE.test(raw) }))
    .optional(),
  VIR_SMTP_STARTTLS: z
    .enum(STARTTLS_MODES, {
      error: (iss) =>
        `VIR_SMTP_STARTTLS must be one of ${STARTTLS_MODES.join(', ')}, got ${shown(iss.input, 20)}`,
    })
    .optional(),
  VIR_SMTP_TIMEOUT_MS: z
    .string()
    .refine((raw) => /^\d{1,9}$/.test(raw) && Number(raw) >= 100, {
      error: (iss) =>
        `VIR_SMTP_TIMEOUT_MS must be a number of milliseconds (100 or more), got ${shown(iss.input, 20)}`,
    })
    .transform(Number)
    .optional(),
});
type SmtpFields = z.infer<typeof SmtpFieldsSchema>;

/** Settings that do not fit together: the variable the message is about, and the message. */
class SmtpSettingProblem {
  constructor(
    readonly variable: SmtpSettingName,
    readonly message: string,
  ) {}
}

function problem(variable: SmtpSettingName, message: string): never {
  throw new SmtpSettingProblem(variable, message);
}

/** Host, port, TLS and login from VIR_SMTP_URL or VIR_SMTP_HOST and the variables beside them. */
function serverOf(v: SmtpFields) {
  const url = v.VIR_SMTP_URL;
  let user = v.VIR_SMTP_USER;
  let port = url?.port;
  let secure = url?.secure;
  if (url !== undefined) {
    if (v.VIR_SMTP_HOST !== undefined)
      problem('VIR_SMTP_URL', 'VIR_SMTP_URL and VIR_SMTP_HOST are both set: set one of them');
    if (url.user !== undefined && user !== undefined)
      problem('VIR_SMTP_USER', 'VIR_SMTP_USER is set and VIR_SMTP_URL names a user too: set one of them');
    user = url.user ?? user;
  }
  const host =
    url?.host ??
    v.VIR_SMTP_HOST ??
    problem('VIR_SMTP_HOST', 'VIR_SMTP_HOST (or VIR_SMTP_URL) must be set to send email');
  if (v.VIR_SMTP_PORT !== undefined) {
    if (port !== undefined)
      problem('VIR_SMTP_PORT', 'VIR_SMTP_PORT is set and VIR_SMTP_URL has a port too: set one of them');
    port = v.VIR_SMTP_PORT;
  }
  const secureVar = v.VIR_SMTP_SECURE;
  if (secureVar !== undefined) {
    if (secure !== undefined && secureVar.on !== secure)
      problem(
        'VIR_SMTP_SECURE',
        `VIR_SMTP_SECURE=${secureVar.raw} contradicts VIR_SMTP_URL's scheme (${secure ? 'smtps' : 'smtp'})`,
      );
    secure = secureVar.on;
  }
  secure ??= port === SMTP_DEFAULTS.portSecure;
  port ??= secure ? SMTP_DEFAULTS.portSecure : SMTP_DEFAULTS.portPlain;
  return { host, port, secure, user };
}

/** The password, from one of VIR_SMTP_URL, VIR_SMTP_PASSWORD and the file VIR_SMTP_PASSWORD_FILE names. */
function passwordOf(v: SmtpFields): Pick<SmtpSettings, 'password' | 'passwordSource'> {
  const fromUrl = v.VIR_SMTP_URL?.password;
  const passFile = v.VIR_SMTP_PASSWORD_FILE;
  const sources = [fromUrl, v.VIR_SMTP_PASSWORD, passFile].filter((s) => s !== undefined).length;
  if (sources > 1)
    problem(
      passFile !== undefined ? 'VIR_SMTP_PASSWORD_FILE' : 'VIR_SMTP_PASSWORD',
      'the SMTP password is given more than once (VIR_SMTP_URL, VIR_SMTP_PASSWORD, VIR_SMTP_PASSWORD_FILE): set one of them',
    );
  if (fromUrl !== undefined) return { password: fromUrl, passwordSource: 'VIR_SMTP_URL' };
  if (v.VIR_SMTP_PASSWORD !== undefined)
    return { password: v.VIR_SMTP_PASSWORD, passwordSource: 'VIR_SMTP_PASSWORD' };
  if (passFile === undefined) return { password: undefined, passwordSource: 'none' };
  let text: string;
  try {
    text = readFileSync(passFile, 'utf8');
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    problem(
      'VIR_SMTP_PASSWORD_FILE',
      `VIR_SMTP_PASSWORD_FILE: cannot read ${shown(passFile)}${typeof code === 'string' ? ` (${code})` : ''}`,
    );
  }
  const password = text.replace(/\r?\n$/, '');
  if (password === '')
    problem('VIR_SMTP_PASSWORD_FILE', `VIR_SMTP_PASSWORD_FILE: ${shown(passFile)} is empty`);
  return { password, passwordSource: 'VIR_SMTP_PASSWORD_FILE' };
}

/** The settings the variables make together, with the defaults; throws SmtpSettingProblem. */
function resolveSettings(v: SmtpFields): SmtpSettings {
  const { host, port, secure, user } = serverOf(v);
  const { password, passwordSource } = passwordOf(v);
  if (password !== undefined && user === undefined)
    problem('VIR_SMTP_USER', 'VIR_SMTP_USER must be set when an SMTP password is given');
  // Credentials never cross the network in clear unless asked for (VIR_SMTP_STARTTLS=off).
  const starttls = v.VIR_SMTP_STARTTLS ?? (user !== undefined ? 'require' : 'opportunistic');
  const from =
    v.VIR_SMTP_FROM ??
    problem('VIR_SMTP_FROM', 'VIR_SMTP_FROM must be set (e.g. "Reports <reports@example.com>")');
  const settings = {
    host,
    port,
    secure,
    starttls,
    user,
    from: from.from,
    fromDomain: from.domain,
    timeoutMs: v.VIR_SMTP_TIMEOUT_MS ?? SMTP_DEFAULTS.timeoutMs,
    passwordSource,
  } as SmtpSettings;
  Object.defineProperty(settings, 'password', { value: password, enumerable: false, writable: false });
  return settings;
}

/**
 * The schema of the SMTP settings: each variable checked on its own, then how they fit together
 * (URL or host, one source for the port and the password, a user for a password, a From) and the
 * defaults; the password file is read. Input: the variables as strings, unset and empty ones left
 * out. Every issue is at the variable it is about, with a message that names it.
 */
export const SmtpSettingsSchema = SmtpFieldsSchema.transform((v, ctx): SmtpSettings => {
  try {
    return resolveSettings(v);
  } catch (err) {
    if (!(err instanceof SmtpSettingProblem)) throw err;
    ctx.addIssue({ code: 'custom', path: [err.variable], message: err.message });
    return z.NEVER;
  }
});

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
  const input: Partial<Record<SmtpSettingName, string>> = {};
  for (const name of SMTP_SETTING_NAMES) {
    // The password is taken as given; every other value is trimmed.
    const value = name === 'VIR_SMTP_PASSWORD' ? env[name] : env[name]?.trim();
    if (value !== undefined && value !== '') input[name] = value;
  }
  const parsed = SmtpSettingsSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new SettingsError(String(issue.path[0] ?? 'VIR_SMTP_HOST'), issue.message);
}
