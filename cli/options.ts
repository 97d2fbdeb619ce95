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

/** Splits `host:port` (IPv6 in brackets) into its parts. */
export function splitHostPort(address: string): { host: string; port: number } {
  const m = /^\[?([^\]]+?)\]?:(\d+)$/.exec(address);
  if (!m) throw new Error(`"${address}" is not host:port`);
  return { host: m[1]!, port: Number(m[2]) };
}
