/**
 * A new job kind needs only its folder and a registry line: the smoke kind (jobs/smoke) runs
 * from a job file through `vir run`, as a user runs it in a terminal (a pseudo-terminal, so
 * the progress bar shows), on the real embedded Temporal server, with real workers, against
 * the sandbox over HTTP. What the service received is counted by a proxy in front of it and
 * must be what the run's manifest says it did.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { RunningSandbox } from '../../../sandbox/index.js';
import { startCountingProxy, type CountingProxy } from '../../helpers/counting-proxy.js';
import { startTestSandbox } from '../../helpers/sandbox.js';
import { startRunner, type RunnerHarness } from '../../helpers/runner.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const vir = join(root, 'cli/vir.sh');

let sandbox: RunningSandbox;
let proxy: CountingProxy;
let h: RunnerHarness;

beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimitPerMinute: 10_000 });
  proxy = await startCountingProxy(sandbox.url);
  h = await startRunner({ baseUrl: proxy.url, apiKey: 'vis_live_sandbox_vc', name: 'smoke' });
});

afterAll(async () => {
  await h?.close();
  await proxy?.close();
  await sandbox?.close();
});

/** Runs a command in a pseudo-terminal (util-linux `script`); resolves with its exit code and output. */
function inTerminal(
  command: string,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qefc', command, '/dev/null'], { env, cwd: root, detached: true });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    // A command still running after 45 s is stopped (its process group), so the test fails with
    // what it printed rather than at the test's timeout with nothing.
    const timer = setTimeout(() => {
      output += '\n[test] still running after 45 s: stopped with SIGKILL';
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    }, 45_000);
    child.once('error', (err) => (clearTimeout(timer), reject(err)));
    child.once('exit', (code) => (clearTimeout(timer), resolve({ code, output })));
  });
}

test('the smoke kind runs from a job file through vir run, with a progress bar and a manifest', async () => {
  const file = join(h.dir, 'smoke-jobs.yaml');
  writeFileSync(
    file,
    [
      'jobs:',
      '  - id: smoke-e2e',
      '    kind: smoke',
      '    title: Smoke end to end',
      '    country: France',
      '    records: 150',
      `    destination: ${join(h.dir, 'reports', 'out')}`,
      '',
    ].join('\n'),
  );
  const { code, output } = await inTerminal(`${vir} run smoke-e2e --file ${file}`, {
    ...process.env,
    VIR_DEBUG: '',
    VIS_BASE_URL: proxy.url,
    VIS_API_KEY: 'vis_live_sandbox_vc',
    TEMPORAL_ADDRESS: h.settings.temporalAddress,
    VIR_TASK_QUEUE: h.settings.taskQueue,
    VIR_API_TASK_QUEUE: h.settings.apiTaskQueue,
    // The CLI and the workers share the reports folder (vir run checks the destination is in it).
    VIR_REPORTS_DIR: h.settings.reportsDir,
    VIR_RATE_LIMIT_PER_MINUTE: '6000',
    VIR_DATA_DIR: join(h.dir, 'data'),
  });
  expect(code, output).toBe(0);
  // The estimate, the start line, the bar (cli-progress draws it on a terminal only), the result.
  expect(output).toContain('estimate: at most 4 calls');
  expect(output).toMatch(
    /started smoke-smoke-e2e-\d{8}-\d{6}-\d{3}-[0-9a-f]{6} \(smoke job smoke-e2e, 150 startups of France\)/,
  );
  expect(output).toMatch(/[█░]{10,} \d+% \| \d+\/\d+ calls \| \d+ pages \| \d+ records \| 0 failed requests/);
  expect(output).toMatch(/Complete run smoke-smoke-e2e-/);
  expect(output).toContain('150 startups paged in 2 pages');
  const manifestPath = /Manifest: (\S+)/.exec(output)?.[1];
  const jsonPath = /JSON:\s+(\S+)/.exec(output)?.[1];
  expect(manifestPath).toBeDefined();
  expect(jsonPath).toBeDefined();
  // vir run prints a path relative to its folder, or absolute outside it (here: /tmp).

  const manifest = JSON.parse(readFileSync(resolve(root, manifestPath!), 'utf8'));
  expect(manifest.job).toEqual({ id: 'smoke-e2e', title: 'Smoke end to end', kind: 'smoke' });
  expect(manifest.status).toBe('complete');
  expect(manifest.parameters.country).toBe('France');
  expect(manifest.calls.byOperation).toEqual({ my_account: 1, search_startups: 2, get_startup: 1 });
  expect(manifest.calls.pages).toBe(2);
  expect(manifest.calls.records).toBe(150);
  // The outside witness: what the service received is what the manifest says the run did, and
  // the one country_overview vir run asked before starting (is France a country it knows?) and
  // the one my_account it asked for the key's rate limits (its estimate's).
  expect(proxy.counts()).toEqual({
    ...manifest.calls.byOperation,
    my_account: manifest.calls.byOperation.my_account + 1,
    country_overview: 1,
  });
  expect(output).toContain('estimate: limits: ');

  const summary = JSON.parse(readFileSync(resolve(root, jsonPath!), 'utf8'));
  expect(summary.country).toBe('France');
  expect(summary.paged).toBe(150);
  expect(summary.distinct).toBe(150);
  expect(summary.firstKeys).toHaveLength(10);
  expect(summary.firstProfile.key).toBe(summary.firstKeys[0]);
});

test('the kind is named nowhere in the runner outside its folder but the registry', () => {
  // The benchmarks are not the runner: they pick kinds as workloads.
  const hits = execFileSync(
    'git',
    ['grep', '-l', '-i', 'smoke', '--', '.', ':!jobs/smoke', ':!test', ':!bench', ':!docs', ':!*.md'],
    {
      cwd: root,
      encoding: 'utf8',
    },
  )
    .split('\n')
    .filter(Boolean);
  expect(hits).toEqual(['jobs/registry.ts']);
});
