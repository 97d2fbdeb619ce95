/**
 * One log stream: a `vir worker` whose Temporal server dies keeps logging through the project's
 * logger. The native core's warnings (its pollers failing, its connection retried) come out as
 * the same JSON lines as everything else (stderr is not a terminal), redacted, never as the
 * core's own coloured text.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, test } from 'vitest';
import { startTemporalDevServer, type RunningTemporalServer } from '../../runtime/temporal-server.js';
import { killGroup } from '../helpers/worker-process.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const KEY = 'vis_live_logstream_secret_42';
/** How long the core may take to warn about the dead server (its retries back off). */
const CORE_WARNINGS_WITHIN_MS = 60_000;
let server: RunningTemporalServer | null = null;
const dir = mkdtempSync(join(tmpdir(), 'vir-worker-logs-'));

afterAll(async () => {
  await server?.close().catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
});

test('the core SDK warnings of a worker whose server died go through the project logger', async () => {
  server = await startTemporalDevServer({ port: 0, headless: true });
  const child = spawn(join(root, 'cli/vir.sh'), ['worker'], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      TEMPORAL_ADDRESS: server.address,
      VIS_BASE_URL: 'http://127.0.0.1:9',
      VIS_API_KEY: KEY,
      VIR_TASK_QUEUE: 'logs-jobs',
      VIR_API_TASK_QUEUE: 'logs-api',
      VIR_ACCOUNT_TASK_QUEUE: 'logs-accounts',
      VIR_STORE_DIR: join(dir, 'store'),
      VIR_REPORTS_DIR: join(dir, 'reports'),
      VIR_LOG_LEVEL: 'info',
    },
  });
  let stderr = '';
  let stdout = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  try {
    const deadline = Date.now() + 90_000;
    while (!/workers running/.test(stdout + stderr)) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`no worker:\n${stdout}${stderr}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const before = stderr.length;
    // The server dies under the running worker.
    server.process.kill('SIGKILL');
    // Until the core has said several things about it (its pollers and its connection), each
    // line complete: the lines checked below are more than the first warning.
    const coreLines = () => (stderr.slice(before).match(/"component":"temporal"[^\n]*\n/g) ?? []).length;
    const until = Date.now() + CORE_WARNINGS_WITHIN_MS;
    while (coreLines() < 3 && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 100));
    }
    // The one line that is not a log entry: the CLI's own status line (`workers polling ...`).
    const lines = stderr.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('workers polling '));
    // Every line is the logger's JSON: nothing printed raw by the native core, no colours.
    expect(stderr).not.toContain('\u001b[');
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
    const after = stderr
      .slice(before)
      .split('\n')
      .filter((l) => l.trim() !== '' && !l.startsWith('workers polling '))
      .map((l) => JSON.parse(l) as { level: number; component?: string; msg: string });
    const core = after.filter((e) => e.component === 'temporal' && e.level >= 40);
    expect(core.length, stderr.slice(before)).toBeGreaterThan(0);
    expect(stdout + stderr).not.toContain(KEY);
  } finally {
    killGroup(child, 'SIGKILL');
    if (child.exitCode === null && child.signalCode === null) await new Promise((r) => child.once('exit', r));
  }
}, 180_000);
