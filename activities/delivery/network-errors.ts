/**
 * Network failures as every sender of delivery sees them (the webhook over undici, email over
 * nodemailer), in one place so the lists cannot drift apart: the error codes of a connection that
 * failed, broke off or timed out (worth another attempt), the codes an error carries with those it
 * wraps, and the cause an error keeps without a secret in it. The service client keeps its own
 * (api/errors.ts).
 */
import { inspect } from 'node:util';
import { redactText } from '../../api/redact.js';

/**
 * A connection that could not be made or broke off: Node's socket and DNS codes, undici's, and
 * nodemailer's own (it reports the socket's code as `originalCode`).
 */
export const NETWORK_ERROR_CODES: ReadonlySet<string> = new Set([
  // Node: sockets and DNS
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  // undici
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
  // nodemailer
  'ECONNECTION',
  'ESOCKET',
  'EDNS',
]);

/** No connection or no answer in time: Node's and nodemailer's ETIMEDOUT, undici's own. */
export const TIMEOUT_ERROR_CODES: ReadonlySet<string> = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
]);

/** Whether an error code says the connection failed, broke off or timed out: another attempt may get through. */
export function isConnectionFailure(code: unknown): boolean {
  return typeof code === 'string' && (NETWORK_ERROR_CODES.has(code) || TIMEOUT_ERROR_CODES.has(code));
}

/**
 * Every error code of an error, of those it aggregates (`errors`) and of its causes; an HTTP
 * parser error (`HPE_*`) counts as a dropped socket too.
 */
export function errorCodes(err: unknown, depth = 0): string[] {
  if (depth > 5 || err === null || typeof err !== 'object') return [];
  const code = (err as { code?: unknown }).code;
  const out = typeof code === 'string' ? [code] : [];
  if (typeof code === 'string' && code.startsWith('HPE_')) out.push('UND_ERR_SOCKET');
  const errors = (err as { errors?: unknown }).errors;
  if (Array.isArray(errors)) for (const e of errors) out.push(...errorCodes(e, depth + 1));
  return [...out, ...errorCodes((err as { cause?: unknown }).cause, depth + 1)];
}

/**
 * A copy of an error with the secrets redacted: its name, message and stack, and the fields
 * named (`code`, ...) when they hold a string (redacted) or a number. Nothing else of the original.
 */
function redactedCopy(src: Error, secrets: readonly string[], fields: readonly string[]): Error {
  const copy = new Error(redactText(src.message, secrets));
  copy.name = src.name;
  const extra: Record<string, unknown> = {};
  for (const key of fields) {
    const value = (src as unknown as Record<string, unknown>)[key];
    if (typeof value === 'string') extra[key] = redactText(value, secrets);
    else if (typeof value === 'number') extra[key] = value;
  }
  Object.assign(copy, extra);
  copy.stack = redactText(src.stack ?? `${src.name}: ${src.message}`, secrets);
  return copy;
}

/** A cause without secrets: kept as is when clean, else a plain Error with a redacted message. */
export function sanitizeCause(cause: unknown, secrets: readonly string[]): unknown {
  if (!(cause instanceof Error)) return typeof cause === 'string' ? redactText(cause, secrets) : undefined;
  const text = `${cause.message}\n${cause.stack ?? ''}`;
  if (redactText(text, secrets) === text) return cause;
  return redactedCopy(cause, secrets, ['code']);
}

/**
 * A cause reduced to its name, code, SMTP reply code and command, and redacted message: never the
 * original object (an SMTP error's other fields may hold what the server echoed).
 */
export function causeSummary(cause: unknown, secrets: readonly string[]): Error | undefined {
  if (cause === undefined || cause === null) return undefined;
  const src = cause instanceof Error ? cause : new Error(typeof cause === 'string' ? cause : inspect(cause));
  return redactedCopy(src, secrets, ['code', 'responseCode', 'command']);
}
