/**
 * Parsers of command-line option values; a bad value is a commander InvalidArgumentError, which
 * commander reports as `error: option '--x <n>' argument 'abc' is invalid. <reason>` (exit 1).
 */
import { InvalidArgumentError } from 'commander';

/** Parses a positive integer option value. */
export function positiveIntOption(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < 1) {
    throw new InvalidArgumentError('it must be a positive integer.');
  }
  return n;
}

/** Parses a port option value: an integer from 0 (a free port) to 65535. */
export function portOption(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n > 65535)
    throw new InvalidArgumentError('it must be a port number (0 to 65535).');
  return n;
}

/**
 * The largest sandbox scale (`vir dev --sandbox-scale`): the sandbox's MAX_DATASET_SCALE, written
 * here because the CLI must not import the sandbox (a package of its own, left out of the
 * worker image).
 */
export const SANDBOX_MAX_SCALE = 20;

/** Parses a sandbox scale option value: an integer from 1 to SANDBOX_MAX_SCALE. */
export function sandboxScaleOption(value: string): number {
  const n = positiveIntOption(value);
  if (n > SANDBOX_MAX_SCALE) throw new InvalidArgumentError(`it must be at most ${SANDBOX_MAX_SCALE}.`);
  return n;
}

/** Splits `host:port` (IPv6 in brackets) into its parts. */
export function splitHostPort(address: string): { host: string; port: number } {
  const m = /^\[?([^\]]+?)\]?:(\d+)$/.exec(address);
  if (!m) throw new Error(`"${address}" is not host:port`);
  return { host: m[1]!, port: Number(m[2]) };
}
