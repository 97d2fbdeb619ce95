/**
 * Test helpers for CLI commands: a context whose output is captured, unique names, waiting,
 * whether a port answers.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { CliContext, type CliIO } from '../../cli/context.js';
import { createProgram } from '../../cli/program.js';

export interface CapturedContext {
  ctx: CliContext;
  out: string[];
  err: string[];
}

/** A CLI context on the given environment, output captured line by line. */
export function captureContext(env: NodeJS.ProcessEnv): CapturedContext {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIO = { out: (l) => out.push(...l.split('\n')), err: (l) => err.push(...l.split('\n')) };
  return { ctx: new CliContext(env, io), out, err };
}

/** Runs `vir <args>` in process against the environment; returns exit code and output. */
export async function runCli(
  env: NodeJS.ProcessEnv,
  args: string[],
): Promise<{ code: number; out: string[]; err: string[] }> {
  const { ctx, out, err } = captureContext(env);
  try {
    await createProgram(ctx).parseAsync(['node', 'vir', ...args]);
    return { code: ctx.exitCode, out, err };
  } finally {
    await ctx.close();
  }
}

/** A name unique to this test run: lowercase letters, digits and dashes. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}`;
}

export const TMP_DIR = join(import.meta.dirname, '..', '.tmp');

/** Writes a file under test/.tmp and returns its path. */
export function writeTmp(name: string, text: string | Buffer): string {
  mkdirSync(TMP_DIR, { recursive: true });
  const path = join(TMP_DIR, name);
  writeFileSync(path, text);
  return path;
}

/** Polls until `check` returns a value that is not undefined, or fails after `timeoutMs`. */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  timeoutMs = 20_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v !== undefined) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`, { cause: last });
    await new Promise((r) => setTimeout(r, 200)); // polls for the event, until the deadline
  }
}

/** Whether something accepts connections on 127.0.0.1:`port`. */
export function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
