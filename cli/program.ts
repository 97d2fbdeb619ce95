/**
 * The `vir` command tree (commander). Commands are registered here; each command file
 * exports a `register…(program, ctx)` and the functions it runs (tests call those directly).
 */
import { Command } from 'commander';
import { describeSettings } from '../config/settings.js';
import { registerCredits } from './commands/credits.js';
import { registerDev } from './commands/dev.js';
import { registerDoctor } from './commands/doctor.js';
import { registerPortal } from './commands/portal.js';
import { registerRun } from './commands/run.js';
import { registerRuns } from './commands/runs.js';
import { registerSandbox } from './commands/sandbox.js';
import { registerSchedules } from './commands/schedules.js';
import { registerWorker } from './commands/worker.js';
import type { CliContext } from './context.js';

/**
 * Builds the program for one invocation. Commander errors and help do not exit the process:
 * they throw a CommanderError that the entry point turns into an exit code.
 *
 * @example
 * const ctx = new CliContext();
 * await createProgram(ctx).parseAsync(['node', 'vir', 'schedules', 'list']);
 */
export function createProgram(ctx: CliContext): Command {
  const program = new Command('vir');
  program
    .description('Venture Intelligence batch report runner on Temporal: schedules, runs, workers, local dev')
    .exitOverride()
    .showHelpAfterError('(vir --help lists the commands)')
    .configureOutput({
      writeOut: (s) => ctx.io.out(s.replace(/\n$/, '')),
      writeErr: (s) => ctx.io.err(s.replace(/\n$/, '')),
    });

  registerDev(program, ctx);
  registerWorker(program, ctx);
  registerDoctor(program, ctx);
  registerSandbox(program, ctx);
  registerRun(program, ctx);
  registerRuns(program, ctx);
  registerCredits(program, ctx);
  registerSchedules(program, ctx);
  registerPortal(program, ctx);

  program
    .command('settings')
    .description('show the settings from the environment (the key masked)')
    .action(() => {
      for (const [name, value] of describeSettings(ctx.settings())) ctx.io.out(`${name.padEnd(26)} ${value}`);
    });
  return program;
}
