/**
 * Entry point of `vir` (`npm run vir -- <command>`, `cli/vir.sh <command>`). Errors are one
 * line `vir: <message>` with exit code 1 (the stack with VIR_DEBUG=1); connections and
 * servers opened by the command are closed in `finally`.
 */
import { CommanderError } from 'commander';
import { CliContext } from './context.js';
import { CliError, formatError } from './errors.js';
import { createProgram } from './program.js';

async function main(): Promise<number> {
  const ctx = new CliContext(process.env);
  const debug = process.env.VIR_DEBUG === '1';
  const secrets = process.env.VIS_API_KEY ? [process.env.VIS_API_KEY] : [];
  try {
    await createProgram(ctx).parseAsync(process.argv);
    return ctx.exitCode;
  } catch (err) {
    // Commander has already printed its message (usage error) or the help.
    if (err instanceof CommanderError) return err.exitCode;
    ctx.io.err(formatError(err, { debug, secrets }));
    return err instanceof CliError ? err.exitCode : 1;
  } finally {
    await ctx.close();
  }
}

main()
  .then((code) => process.exit(code))
  .catch((err: unknown) => {
    process.stderr.write(`${formatError(err, { debug: process.env.VIR_DEBUG === '1' })}\n`);
    process.exit(1);
  });
