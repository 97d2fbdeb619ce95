/**
 * Ctrl-C on `vir run` stops following, not the run: the command says so and how to follow it
 * again, and exits 130; the run completes; `vir runs follow <id>` picks it up and prints its
 * files. `vir runs follow` of an unknown run says there is none.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { RunningSandbox } from '../../sandbox/index.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { startRunner, type RunnerHarness } from '../helpers/runner.js';
import { runCli } from './helpers.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
let sandbox: RunningSandbox;
let h: RunnerHarness;

beforeAll(async () => {
  // 20 calls a 3-second window, and a run of 30 pages: its first window's calls are spent at
  // once, so the run waits for the next window and outlives the Ctrl-C that follows its first
  // progress line by at least that wait (no fixed sleep: the service's window holds it).
  sandbox = await startTestSandbox({ rateLimitPerMinute: 20, minuteWindowMs: 3000 });
  h = await startRunner({ baseUrl: sandbox.url, apiKey: 'vis_live_sandbox_vc', name: 'follow' });
});

afterAll(async () => {
  await h?.close();
  await sandbox?.close();
});

test('Ctrl-C on vir run says the run goes on; vir runs follow picks it up', async () => {
  const file = join(h.dir, 'follow.yaml');
  writeFileSync(
    file,
    `jobs:\n  - id: follow-me\n    kind: smoke\n    title: Follow me\n    country: United States\n    records: 3000\n    destination: ${join(h.dir, 'reports')}\n`,
  );
  const env = {
    ...process.env,
    VIR_DEBUG: '',
    VIS_BASE_URL: sandbox.url,
    VIS_API_KEY: 'vis_live_sandbox_vc',
    TEMPORAL_ADDRESS: h.settings.temporalAddress,
    VIR_TASK_QUEUE: h.settings.taskQueue,
    VIR_API_TASK_QUEUE: h.settings.apiTaskQueue,
    // The CLI and the workers share the reports folder (vir run checks the destination is in it).
    VIR_REPORTS_DIR: h.settings.reportsDir,
  };
  const child = spawn(join(root, 'cli/vir.sh'), ['run', 'follow-me', '--file', file], { env, cwd: root });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  // Interrupt once it follows (a progress line has been printed).
  for (let i = 0; i < 400 && !/\[paging\]/.test(output); i++) await new Promise((r) => setTimeout(r, 50));
  expect(output).toMatch(/\[paging\]/);
  child.kill('SIGINT');
  expect(await exited).toBe(130);
  const id = /started (\S+)/.exec(output)![1]!;
  expect(output).toContain(
    `SIGINT: stopped following; run ${id} goes on. Follow it again with: vir runs follow ${id}`,
  );
  expect((await h.client.workflow.getHandle(id).describe()).status.name).toBe('RUNNING');

  const followed = await runCli(env, ['runs', 'follow', id]);
  expect(followed.code).toBe(0);
  expect(followed.out[0]).toBe(`Complete run ${id}`);
  expect(followed.out.join('\n')).toMatch(/Manifest: /);

  await expect(runCli(env, ['runs', 'follow', 'no-such-run'])).rejects.toThrow(
    'no run no-such-run (vir runs list shows the runs)',
  );
  // Two CLI processes and a run of two rate windows (~10 s loaded), with room for a loaded machine.
}, 90_000);
