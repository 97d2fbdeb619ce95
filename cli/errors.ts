/**
 * CLI errors and how a failure is shown: one line `vir: <message>` (the API key redacted),
 * the stack only when VIR_DEBUG=1.
 */
import { redactText } from '../api/redact.js';

/** Exit code of a job file or job refused before anything started (bad fields, unknown countries). */
export const EXIT_REFUSED = 2;

/** A usage or state problem the user can fix; shown without a stack. */
export class CliError extends Error {
  readonly code = 'cli_error';
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/**
 * The text shown for an error: one line, secrets redacted; with `debug`, the stack and causes.
 *
 * @example
 * io.err(formatError(err, { debug: env.VIR_DEBUG === '1', secrets: [key] }));
 */
export function formatError(
  err: unknown,
  options: { debug?: boolean; secrets?: readonly string[] } = {},
): string {
  const secrets = options.secrets ?? [];
  const message = err instanceof Error ? err.message : String(err);
  // Our own errors may list several problems, one per line; anything else shows its first line.
  const shown =
    err instanceof CliError
      ? message.trim() || 'unknown error'
      : (message.split('\n').find((l) => l.trim() !== '') ?? 'unknown error');
  let text = `vir: ${shown}`;
  if (options.debug && err instanceof Error) {
    const parts = [err.stack ?? message];
    let cause: unknown = err.cause;
    for (let depth = 0; cause instanceof Error && depth < 5; depth += 1) {
      parts.push(`caused by: ${cause.stack ?? cause.message}`);
      cause = cause.cause;
    }
    text += `\n${parts.join('\n')}`;
  }
  return redactText(text, secrets);
}
