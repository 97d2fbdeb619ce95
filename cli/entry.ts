/**
 * What `vir` does with its arguments, as a function: runs the command, prints an error as one
 * line `vir: <message>` (the stack with VIR_DEBUG=1) and gives the exit code. cli/main.ts calls
 * it with the process's arguments and exits with the code; tests call it in process.
 */
import { CommanderError } from 'commander';
import { JobFileError } from '../jobs/base.js';
import { CliContext, type CliIO } from './context.js';
import { CliError, EXIT_REFUSED, formatError } from './errors.js';
import { createProgram } from './program.js';

/**
 * Runs `vir <args>`; resolves with the exit code. Connections and servers the command opened are
 * closed before it resolves.
 *
 * @example
 * process.exit(await runVir(process.argv.slice(2), process.env));
 */
export async function runVir(args: readonly string[], env: NodeJS.ProcessEnv, io?: CliIO): Promise<number> {
  const ctx = new CliContext(env, io);
  const debug = env.VIR_DEBUG === '1';
  const secrets = env.VIS_API_KEY ? [env.VIS_API_KEY] : [];
  try {
    await createProgram(ctx).parseAsync(['node', 'vir', ...args]);
    return ctx.exitCode;
  } catch (err) {
    // Commander has already printed its message (usage error) or the help.
    if (err instanceof CommanderError) return err.exitCode;
    ctx.io.err(formatError(err, { debug, secrets }));
    if (err instanceof JobFileError) return EXIT_REFUSED;
    return err instanceof CliError ? err.exitCode : 1;
  } finally {
    await ctx.close();
  }
}
