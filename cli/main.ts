/**
 * Entry point of `vir` (`npm run vir -- <command>`, `cli/vir.sh <command>`): runs the command
 * (cli/entry.ts) and exits with its code.
 */
import { formatError } from './errors.js';
import { runVir } from './entry.js';

runVir(process.argv.slice(2), process.env)
  .then((code) => process.exit(code))
  .catch((err: unknown) => {
    process.stderr.write(`${formatError(err, { debug: process.env.VIR_DEBUG === '1' })}\n`);
    process.exit(1);
  });
