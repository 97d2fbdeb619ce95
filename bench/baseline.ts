/**
 * The design before the lean history and permits in blocks, measured in the same bench run: the
 * commit {@link BASELINE_COMMIT} checked out in a scratch worktree (its node_modules the
 * project's), where `bench/events.ts` and `bench/baseline-runner.ts` of this tree are copied and
 * run against this run's embedded Temporal server. Its figures are the "before" column.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import type { EventFigures } from './events.js';

/** main before the engine's rework (issue 28): one update and one signal per call, paging children. */
export const BASELINE_COMMIT = 'b3756a5d28ca1b59e7d6b2bc98ad07516c600b7d';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** What the baseline runner prints: the market report's figures and the smoke runs' overheads. */
export interface BaselineFigures {
  events: EventFigures;
  overhead: number[];
}

/** Runs the baseline's measurement in its own process; null (with why) when it cannot. */
export async function measureBaseline(temporalAddress: string): Promise<BaselineFigures | string> {
  const dir = mkdtempSync(join(tmpdir(), 'vir-bench-baseline-'));
  const tree = join(dir, 'tree');
  const git = (...args: string[]) => execFileSync('git', ['-C', ROOT, ...args], { stdio: 'pipe' });
  try {
    git('worktree', 'add', '--detach', tree, BASELINE_COMMIT);
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    return `the baseline commit ${BASELINE_COMMIT.slice(0, 7)} could not be checked out: ${(err as Error).message.split('\n')[0]}`;
  }
  try {
    symlinkSync(join(ROOT, 'node_modules'), join(tree, 'node_modules'));
    symlinkSync(join(ROOT, '.tools'), join(tree, '.tools'));
    for (const f of ['events.ts', 'baseline-runner.ts'])
      copyFileSync(join(ROOT, 'bench', f), join(tree, 'bench', f));
    const out = await run(
      process.execPath,
      ['--import', 'tsx', join(tree, 'bench', 'baseline-runner.ts'), temporalAddress],
      tree,
    );
    const line = out.split('\n').find((l) => l.startsWith('BASELINE '));
    if (!line) return `the baseline printed no figures:\n${out.slice(-2000)}`;
    return JSON.parse(line.slice('BASELINE '.length)) as BaselineFigures;
  } finally {
    try {
      git('worktree', 'remove', '--force', tree);
    } catch {
      // The folder goes below in any case; `git worktree prune` forgets it.
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

function run(cmd: string, args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (out += b.toString()));
    child.on('error', reject);
    child.on('close', () => resolve(out));
  });
}
