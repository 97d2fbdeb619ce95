/**
 * Reading the service's rate-limit headers. The spec names X-RateLimit-Reset but does not show
 * its format, so every plausible one is accepted (tolerant reader).
 */

/** The rate-limit state a response reported; null where a header is absent or unreadable. */
export interface RateLimitInfo {
  /** Calls allowed in the current window (X-RateLimit-Limit). */
  limit: number | null;
  /** Calls left in the current window (X-RateLimit-Remaining). */
  remaining: number | null;
  /** When the window resets (X-RateLimit-Reset, else Retry-After). */
  resetAt: Date | null;
  /**
   * The day's calls left and when the day ends, where the service tells them apart
   * (X-RateLimit-Remaining-Day, X-RateLimit-Reset-Day; the spec shows neither). Absent otherwise.
   */
  dayRemaining?: number;
  dayResetAt?: Date;
}

/** Headers as undici and node:http give them: lower-case names, a string or a list. */
export type HeaderBag = Record<string, string | string[] | undefined>;

/** Below this a number is a delta in seconds (1e9 s is about 31 years). */
export const DELTA_SECONDS_BELOW = 1e9;
/** Below this (and at or above {@link DELTA_SECONDS_BELOW}) a number is epoch seconds; above, epoch milliseconds. */
export const EPOCH_SECONDS_BELOW = 1e12;

const NUMBER = /^\d+(?:\.\d+)?$/;
/** IMF-fixdate and RFC 850 dates: `Sat, 22 Nov 2026 00:00:00 GMT`, `Saturday, 22-Nov-26 00:00:00 GMT`. */
const HTTP_DATE =
  /^(?:[A-Za-z]+,?\s+)?\d{1,2}[\s-][A-Za-z]{3}[\s-]\d{2,4}\s+\d{1,2}:\d{2}(?::\d{2})?\s*(?:GMT|UTC|UT|Z|[+-]\d{4})$/i;
/** ANSI C asctime(): `Sat Nov 22 00:00:00 2026`, always GMT. */
const ASCTIME = /^[A-Za-z]{3}\s+[A-Za-z]{3}\s+\d{1,2}\s+\d{1,2}:\d{2}:\d{2}\s+\d{4}$/;
/** ISO 8601 date or date-time, with or without a zone. */
const ISO =
  /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?)\s*(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

function validDate(ms: number): Date | null {
  return Number.isFinite(ms) ? new Date(ms) : null;
}

/**
 * Parses an X-RateLimit-Reset (or Retry-After) value into the moment the limit resets.
 *
 * Accepted formats and how a number is read:
 * - a number below 1e9: delta seconds from `now` (`"30"`);
 * - a number from 1e9 to below 1e12: epoch seconds (`"1763769600"`);
 * - a number from 1e12: epoch milliseconds (`"1763769600000"`);
 *   fractions are allowed in all three;
 * - an HTTP date: IMF-fixdate (`"Sat, 22 Nov 2026 00:00:00 GMT"`), RFC 850 or asctime (GMT);
 * - ISO 8601 (`"2026-11-22T00:00:00Z"`, with an offset, or without a zone: read as UTC).
 *
 * Absent, empty, negative or unreadable values give null.
 *
 * @example
 * parseRateLimitReset('30', new Date('2026-01-01T00:00:00Z')); // 2026-01-01T00:00:30Z
 */
export function parseRateLimitReset(value: string | null | undefined, now: Date): Date | null {
  if (value == null) return null;
  const text = value.trim();
  if (text === '') return null;
  if (NUMBER.test(text)) {
    const n = Number(text);
    if (n < DELTA_SECONDS_BELOW) return validDate(now.getTime() + n * 1000);
    if (n < EPOCH_SECONDS_BELOW) return validDate(n * 1000);
    return validDate(n);
  }
  if (HTTP_DATE.test(text)) return validDate(Date.parse(text));
  if (ASCTIME.test(text)) return validDate(Date.parse(`${text} GMT`));
  const iso = ISO.exec(text);
  if (iso) {
    const [, date, time, zone] = iso;
    if (time === undefined) return validDate(Date.parse(`${date}T00:00:00Z`));
    let z = zone ?? 'Z';
    if (/^[+-]\d{2}$/.test(z)) z = `${z}:00`;
    else if (/^[+-]\d{4}$/.test(z)) z = `${z.slice(0, 3)}:${z.slice(3)}`;
    return validDate(Date.parse(`${date}T${time.replace(',', '.')}${z.toUpperCase()}`));
  }
  return null;
}

/** First value of a header, whatever its shape. */
export function headerValue(headers: HeaderBag, name: string): string | undefined {
  const v = headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

function parseCount(value: string | undefined): number | null {
  if (value === undefined) return null;
  const text = value.trim();
  if (!/^\d+$/.test(text)) return null;
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : null;
}

/**
 * Reads the rate-limit headers of a response: X-RateLimit-Limit, X-RateLimit-Remaining and
 * X-RateLimit-Reset (and the day's -Day variants when sent); the unprefixed `RateLimit-*` names
 * are read when the X- ones are absent, and Retry-After stands in for a missing reset.
 */
export function readRateLimit(headers: HeaderBag, now: Date): RateLimitInfo {
  const pick = (suffix: string) =>
    headerValue(headers, `x-ratelimit-${suffix}`) ?? headerValue(headers, `ratelimit-${suffix}`);
  const resetAt =
    parseRateLimitReset(pick('reset'), now) ?? parseRateLimitReset(headerValue(headers, 'retry-after'), now);
  const info: RateLimitInfo = {
    limit: parseCount(pick('limit')),
    remaining: parseCount(pick('remaining')),
    resetAt,
  };
  const dayRemaining = parseCount(pick('remaining-day'));
  const dayResetAt = parseRateLimitReset(pick('reset-day'), now);
  if (dayRemaining !== null) info.dayRemaining = dayRemaining;
  if (dayResetAt !== null) info.dayResetAt = dayResetAt;
  return info;
}
