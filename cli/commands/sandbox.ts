/**
 * `vir sandbox [flags]`: the sandbox alone, with exactly the flags of `npm run sandbox`
 * (sandbox/main.ts runs as a child process; --port defaults to VIR_SANDBOX_PORT).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { CliError } from '../errors.js';

export const sandboxMainPath = fileURLToPath(new URL('../../sandbox/main.ts', import.meta.url));

/** The sandbox's arguments: the user's, plus `--port <VIR_SANDBOX_PORT>` unless given or asking for help. */
export function sandboxArgs(args: readonly string[], defaultPort: number): string[] {
  const given = args.some((a) => a === '--port' || a.startsWith('--port='));
  const help = args.some((a) => a === '--help' || a === '-h');
  return given || help ? [...args] : [...args, '--port', String(defaultPort)];
}

/** Adds `sandbox` to the program. */
export function registerSandbox(program: Command, ctx: CliContext): void {
  program
    .command('sandbox')
    .description(
      'run the sandbox service alone (flags of `npm run sandbox`; `vir sandbox --help` lists them)',
    )
    .helpOption(false)
    .allowUnknownOption()
    .allowExcessArguments()
    .argument('[flags...]', 'passed to the sandbox')
    .action(async (flags: string[]) => {
      if (!existsSync(sandboxMainPath)) {
        throw new CliError(
          'the sandbox is not installed here (it is a workspace package of its own, left out of the worker image): ' +
            'use the sandbox image (docker build --target sandbox) or a clone with its development install (npm ci)',
        );
      }
      const port = ctx.settings().sandboxPort;
      // Same Node and loader (tsx) as this process.
      const child = spawn(
        process.execPath,
        [...process.execArgv, sandboxMainPath, ...sandboxArgs(flags, port)],
        {
          stdio: 'inherit',
        },
      );
      const forward = (signal: NodeJS.Signals) => {
        if (child.exitCode === null) child.kill(signal);
      };
      process.on('SIGINT', forward);
      process.on('SIGTERM', forward);
      ctx.defer(() => {
        process.off('SIGINT', forward);
        process.off('SIGTERM', forward);
      });
      const code = await new Promise<number>((resolve, reject) => {
        child.once('error', reject);
        child.once('exit', (c, s) => resolve(c ?? (s === 'SIGINT' ? 130 : s ? 143 : 1)));
      });
      ctx.exitCode = code === 130 || code === 143 ? 0 : code;
    });
}
