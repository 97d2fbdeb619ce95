/**
 * The CLI's logger: pino at VIR_LOG_LEVEL, pretty on a terminal, JSON lines otherwise, to
 * stderr (stdout stays for command output). Every line is redacted before it is written:
 * service keys (`vis_live_…`) anywhere in the text and every `authorization` field at any
 * depth become `[redacted]`.
 *
 * @example
 * const log = createLogger(settings);
 * log.info({ headers: { authorization: 'Bearer vis_live_x' } }, 'calling'); // both redacted
 */
import { pino, type DestinationStream, type Logger } from 'pino';
import { prettyFactory } from 'pino-pretty';
import type { Settings } from '../config/settings.js';

/** What a redacted value is replaced with. */
export const LOG_REDACTED = '[redacted]';

const KEY_RE = /vis_live_[A-Za-z0-9_]+/g;
const BEARER_RE = /\b(Bearer)\s+[^\s"',;}\]\\]+/gi;
/** `"authorization":"…"` in a serialized line, any letter case. */
const AUTH_FIELD_RE = /("authorization"\s*:\s*)"(?:[^"\\]|\\.)*"/gi;

/** Masks keys, bearer tokens and authorization string fields in one serialized log line. */
export function redactLogLine(line: string): string {
  return line
    .replace(AUTH_FIELD_RE, `$1"${LOG_REDACTED}"`)
    .replace(BEARER_RE, `$1 ${LOG_REDACTED}`)
    .replace(KEY_RE, LOG_REDACTED);
}

/** Copy of a log object with every `authorization` field (any depth, any case) masked. */
export function maskAuthorization(value: unknown, seen = new WeakSet<object>()): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return value;
  seen.add(value);
  if (Array.isArray(value)) return value.map((v) => maskAuthorization(v, seen));
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = k.toLowerCase() === 'authorization' ? LOG_REDACTED : maskAuthorization(v, seen);
  }
  return out;
}

/** A destination that redacts each line before handing it on. */
export function redactingDestination(target: { write(chunk: string): unknown }): DestinationStream {
  return {
    write(chunk: string) {
      target.write(redactLogLine(chunk));
    },
  };
}

export interface LoggerOptions {
  /** Where lines go; default stderr (pretty when it is a terminal). */
  destination?: { write(chunk: string): unknown };
  /** Force pretty output on or off; default: when stderr is a terminal and no destination is given. */
  pretty?: boolean;
}

/**
 * Creates the logger for the given settings (level from VIR_LOG_LEVEL).
 *
 * @example
 * const log = createLogger(settings);
 * log.info({ address: settings.temporalAddress }, 'connecting to Temporal');
 */
export function createLogger(settings: Pick<Settings, 'logLevel'>, options: LoggerOptions = {}): Logger {
  const usePretty = options.pretty ?? (options.destination === undefined && process.stderr.isTTY === true);
  const out = options.destination ?? process.stderr;
  let target: { write(chunk: string): unknown } = out;
  if (usePretty) {
    const prettify = prettyFactory({
      colorize: options.destination === undefined,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname',
    });
    target = { write: (line: string) => out.write(prettify(line)) };
  }
  return pino(
    {
      level: settings.logLevel,
      base: undefined,
      formatters: {
        log: (obj) => maskAuthorization(obj) as Record<string, unknown>,
      },
    },
    redactingDestination(target),
  );
}
