/**
 * A clean console: `vir demo` run as a process (what `npm run demo` runs), its data folder outside
 * the working directory, prints its own lines only: nothing from the Temporal SDK's default
 * logger (`[WARN] No activities registered ... { sdkComponent: 'worker', ... }`, worker state
 * changes), none of the SDK's notices through the project's logger either, and the run's files as
 * absolute paths that exist, never as relative paths climbing out of the working directory.
 * displayPath's other cases (a folder under the working directory, store URLs) need no process.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { displayPath } from '../../cli/commands/run.js';
import { killGroup } from '../helpers/worker-process.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'vir-demo-console-'));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What the SDK prints when it logs through its own default logger, or what its notices say. */
const SDK_LINE = [
  /\[(TRACE|DEBUG|INFO|WARN|ERROR)\]/,
  /sdkComponent/,
  /No (workflows|activities|Nexus services) registered/,
  /Worker state changed/,
];

test('vir demo with its data folder elsewhere: no SDK lines, the files as absolute paths', async () => {
  const env: NodeJS.ProcessEnv = { ...process.env, VIR_DATA_DIR: join(dir, 'data'), VIR_LOG_LEVEL: 'info' };
  for (const name of [
    'VIS_API_KEY',
    'VIS_BASE_URL',
    'VIR_STORE_DIR',
    'VIR_STORE_URL',
    'VIR_REPORTS_DIR',
    'VIR_DEBUG',
  ])
    delete env[name];
  const child = spawn(join(root, 'cli/vir.sh'), ['demo'], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  let code: number | null;
  try {
    code = await new Promise<number | null>((resolveExit) => child.once('close', (c) => resolveExit(c)));
  } finally {
    killGroup(child, 'SIGKILL');
  }
  const output = `stdout:\n${stdout}\nstderr:\n${stderr}`;
  expect(code, output).toBe(0);

  const lines = `${stdout}\n${stderr}`.split('\n').filter((l) => l.trim() !== '');
  for (const line of lines) {
    for (const re of SDK_LINE) expect(line, `an SDK line (${re}):\n${output}`).not.toMatch(re);
    expect(line, `a path out of the working directory:\n${output}`).not.toMatch(/(^|\s)\.\.\//);
    // A line of the project's logger (JSON off a terminal) is never one of the SDK's.
    if (line.startsWith('{')) {
      const entry = JSON.parse(line) as { component?: string };
      expect(entry.component, line).not.toBe('temporal');
    }
  }

  const files = [...stdout.matchAll(/^ {2}(PDF|Workbook|Manifest): +(\S.*)$/gm)].map((m) => m[2]!);
  expect(files, output).toHaveLength(3);
  for (const file of files) {
    expect(isAbsolute(file), file).toBe(true);
    expect(file.startsWith(join(dir, 'data', 'reports')), file).toBe(true);
    expect(existsSync(file), file).toBe(true);
  }
}, 240_000);

describe('displayPath', () => {
  test('a path under the working directory relative to it, the folder the user named first', () => {
    expect(displayPath('/srv/app/.data/reports/w/x.pdf', '/srv/app')).toBe('.data/reports/w/x.pdf');
    expect(displayPath('out/w/x.pdf', '/srv/app')).toBe('out/w/x.pdf');
  });

  test('a path elsewhere absolute, never climbing out with ..', () => {
    expect(displayPath('/tmp/reports/w/x.pdf', '/srv/app')).toBe('/tmp/reports/w/x.pdf');
    expect(displayPath('/srv/other/x.pdf', '/srv/app')).toBe('/srv/other/x.pdf');
    expect(displayPath('../reports/x.pdf', '/srv/app')).toBe('/srv/reports/x.pdf');
    expect(displayPath('/srv/app', '/srv/app')).toBe('/srv/app');
  });

  test('a store URL as it is', () => {
    expect(displayPath('s3://vir-store/runs/x/report.pdf', '/srv/app')).toBe(
      's3://vir-store/runs/x/report.pdf',
    );
  });
});
