/**
 * `vir plan` and `vir run`'s estimate use the rate limits the service reports (my_account), not
 * the settings' 60 a minute: against a sandbox of 20 calls a minute they say 20 and that the
 * service said so; with the service unreachable, or no key, they use the settings and say why.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAccount } from '../../api/read-account.js';
import { serviceLimits } from '../../cli/service-limits.js';
import { loadSettings } from '../../config/settings.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { freePort } from '../../runtime/temporal-server.js';
import { startRunner, type RunnerHarness } from '../helpers/runner.js';
import { KEYS, startTestSandbox } from '../helpers/sandbox.js';
import { runCli } from './helpers.js';

let sandbox: RunningSandbox;
let h: RunnerHarness;
let jobFile: string;

beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimitPerMinute: 20, rateLimitPerDay: 900 });
  // The workers run fast (their own settings); what is checked is what the CLI prints.
  h = await startRunner({ baseUrl: sandbox.url, apiKey: KEYS.vc, name: 'plan-limits' });
  jobFile = join(h.dir, 'plan-limits.yaml');
  writeFileSync(
    jobFile,
    [
      'jobs:',
      '  - id: limits-smoke',
      '    kind: smoke',
      '    title: Limits smoke',
      '    country: Germany',
      '    records: 150',
      `    destination: ${join(h.dir, 'reports', 'out')}`,
      '',
    ].join('\n'),
  );
}, 120_000);

afterAll(async () => {
  await h?.close();
  await sandbox?.close();
});

/** The CLI's environment: the sandbox and the runner's queues, the settings' limits at 60 and 5000. */
function cliEnv(overrides: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    VIR_DEBUG: '',
    VIR_LOG_LEVEL: 'silent',
    VIS_BASE_URL: sandbox.url,
    VIS_API_KEY: KEYS.vc,
    TEMPORAL_ADDRESS: h.settings.temporalAddress,
    VIR_TASK_QUEUE: h.settings.taskQueue,
    VIR_API_TASK_QUEUE: h.settings.apiTaskQueue,
    VIR_ACCOUNT_TASK_QUEUE: h.settings.accountTaskQueue,
    VIR_REPORTS_DIR: h.settings.reportsDir,
    VIR_RATE_LIMIT_PER_MINUTE: '60',
    VIR_RATE_LIMIT_PER_DAY: '5000',
    ...overrides,
  };
}

describe('the limits plans are made with', () => {
  it('vir plan at a 20-a-minute service says 20 calls/min, as the service reports', async () => {
    const res = await runCli(cliEnv(), ['plan', 'limits-smoke', '--file', jobFile]);
    expect(res.code, res.err.join('\n')).toBe(0);
    expect(res.out).toContain('at most 4 calls, about <1 min at 20 calls/min');
    expect(res.out).toContain('limits: 20 calls/min, 900 calls/day, as reported by the service (my_account)');
    expect(res.out.join('\n')).not.toContain('60 calls/min');
  });

  it("vir run's estimate says 20 calls/min, and the run completes", async () => {
    const res = await runCli(cliEnv(), ['run', 'limits-smoke', '--file', jobFile]);
    expect(res.code, res.err.join('\n')).toBe(0);
    expect(res.err).toContain('estimate: at most 4 calls, about <1 min at 20 calls/min');
    expect(res.err).toContain(
      'estimate: limits: 20 calls/min, 900 calls/day, as reported by the service (my_account)',
    );
    expect(res.out.join('\n')).toMatch(/Complete run smoke-limits-smoke-/);
  }, 120_000);

  it('with the service unreachable, the settings, and why', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const res = await runCli(cliEnv({ VIS_BASE_URL: closed }), ['plan', 'limits-smoke', '--file', jobFile]);
    expect(res.code, res.err.join('\n')).toBe(0);
    expect(res.out).toContain('at most 4 calls, about <1 min at 60 calls/min');
    const limits = res.out.find((l) => l.startsWith('limits: '));
    expect(limits).toMatch(
      new RegExp(
        `^limits: 60 calls/min, 5000 calls/day from the settings \\(VIR_RATE_LIMIT_PER_MINUTE, VIR_RATE_LIMIT_PER_DAY\\): the service at ${closed.replace(/\./g, '\\.')} could not be asked \\(.+\\)$`,
      ),
    );
  });

  it('without a key, the settings, without asking', async () => {
    const before = sandbox.requestLog().length;
    const res = await runCli(cliEnv({ VIS_API_KEY: '' }), ['plan', 'limits-smoke', '--file', jobFile]);
    expect(res.code, res.err.join('\n')).toBe(0);
    expect(res.out).toContain('at most 4 calls, about <1 min at 60 calls/min');
    expect(res.out).toContain(
      'limits: 60 calls/min, 5000 calls/day from the settings (VIR_RATE_LIMIT_PER_MINUTE, VIR_RATE_LIMIT_PER_DAY): VIS_API_KEY is not set',
    );
    expect(sandbox.requestLog().length).toBe(before);
  });

  it('a service that answers too slowly is given up after the timeout', async () => {
    sandbox.setFaults({ hangRate: 1 });
    try {
      const settings = loadSettings(cliEnv());
      const started = Date.now();
      const limits = await serviceLimits(settings, { timeoutMs: 500 });
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(limits).toMatchObject({ rateLimitPerMinute: 60, sources: { perMinute: 'settings' } });
    } finally {
      sandbox.setFaults({});
    }
  });
});

describe('the rate limits of my_account, read tolerantly', () => {
  it('reads the sandbox shape and plausible aliases; ignores what is not a positive number', () => {
    expect(readAccount({ data: { rate_limits: { per_minute: 20, per_day: 900 } } }).rateLimits).toEqual({
      perMinute: 20,
      perDay: 900,
    });
    expect(readAccount({ data: { rateLimits: { perMinute: '30', perDay: '1,000' } } }).rateLimits).toEqual({
      perMinute: 30,
      perDay: 1000,
    });
    expect(
      readAccount({ data: { limits: { requests_per_minute: 15 }, daily_limit: 300 } }).rateLimits,
    ).toEqual({ perMinute: 15, perDay: 300 });
    expect(readAccount({ data: { rate_limits: { per_minute: 0, per_day: 'lots' } } }).rateLimits).toEqual({
      perMinute: null,
      perDay: null,
    });
    expect(readAccount({ data: {} }).rateLimits).toEqual({ perMinute: null, perDay: null });
  });
});
