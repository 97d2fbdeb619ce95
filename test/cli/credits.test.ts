import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { AccountLink, accountIdOf } from '../../activities/account.js';
import { describeMonthAhead } from '../../cli/commands/credits.js';
import { CliContext, type CliIO } from '../../cli/context.js';
import { describeJobCredits } from '../../cli/commands/credits.js';
import { createProgram } from '../../cli/program.js';
import { parseMarketReportJob } from '../../jobs/market-report/index.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { startRunner } from '../helpers/runner.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { writeTmp } from './helpers.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox?.close());

async function vir(
  args: string[],
  key: string,
  env: Record<string, string> = {},
): Promise<{ out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIO = { out: (l) => out.push(l), err: (l) => err.push(l) };
  const ctx = new CliContext(
    { VIS_BASE_URL: sandbox.url, VIS_API_KEY: key, TEMPORAL_ADDRESS: inject('temporalAddress'), ...env },
    io,
  );
  try {
    await createProgram(ctx).parseAsync(['node', 'vir', ...args]);
  } finally {
    await ctx.close();
  }
  return { out, err };
}

const job = parseMarketReportJob({
  id: 'cred',
  title: 'Credits',
  countries: ['Germany', 'France'],
  questions: ['largest rounds of the last 7 days in {country}', 'top countries in 2025'],
  budget: { credits: 2 },
});

test('what a job spends, against its budget and the balance', () => {
  expect(describeJobCredits(job, 100)).toBe(
    'cred: 3 questions need 3 credits; budget 2 (1 would be skipped); at most 2 a run; the balance pays for 50 runs',
  );
  expect(describeJobCredits(job, 1)).toMatch(/the balance of 1 does not cover one full run/);
  expect(describeJobCredits({ ...job, questions: [] }, 5)).toMatch(/runs spend no credits/);
  expect(describeJobCredits(job, null)).toMatch(/balance unknown/);
  // One of a thing is said in the singular.
  const one = parseMarketReportJob({
    id: 'cred',
    title: 'Credits',
    countries: ['Germany'],
    questions: ['top countries in 2025'],
    budget: { credits: 1 },
  });
  expect(describeJobCredits(one, 1)).toBe(
    'cred: 1 question needs 1 credit; budget 1; at most 1 a run; the balance pays for 1 run',
  );
  const weeklyOne = { ...one, schedule: { cron: '0 7 * * 1', timezone: 'UTC', paused: false } };
  expect(describeMonthAhead([weeklyOne], new Date('2026-11-23T11:00:00Z'), 5)).toEqual([
    'scheduled jobs until 2026-12-01: at most 1 credit; the balance of 5 covers it',
    '  cred: 1 more run this month x at most 1 = 1 credit',
  ]);
});

test('vir credits reads the balance from the service', async () => {
  const rich = await vir(['credits', '--job', 'dach-weekly'], 'vis_live_sandbox_vc');
  expect(rich.out[0]).toMatch(/^plan paid, \d+ credits$/);
  expect(rich.out[2]).toMatch(
    /^dach-weekly: 3 questions need 3 credits; budget 5; at most 3 a run; the balance pays for \d+ runs$/,
  );
  const broke = await vir(['credits', '--job', 'dach-weekly'], 'vis_live_sandbox_broke');
  expect(broke.out[0]).toBe('plan paid, 2 credits');
  expect(broke.out[2]).toMatch(/does not cover one full run/);
  const all = await vir(['credits'], 'vis_live_sandbox_vc');
  expect(all.out.length).toBeGreaterThanOrEqual(4);
});

test("vir credits shows the account's ledger: spent per period and job, reserved now, caps", async () => {
  const key = 'vis_live_sandbox_org';
  const accountId = accountIdOf(sandbox.url, key);
  const fresh = await vir(['credits', '--job', 'dach-weekly'], key, { VIR_CREDIT_CAP_MONTH: '50' });
  expect(fresh.out[1]).toBe(`account ${accountId}: no runs recorded yet; caps 50 a month`);
  // Two jobs' paid calls recorded in the account workflow (served by a worker), one still in flight.
  const runner = await startRunner({ baseUrl: sandbox.url, apiKey: key, name: 'credits' });
  try {
    const link = new AccountLink({
      client: runner.client,
      taskQueue: runner.settings.accountTaskQueue,
      accountId,
      perMinute: 60,
      perDay: 5000,
      caps: {},
    });
    const reserve = (id: string, jobId: string, credits: number) =>
      link.reserveCredits({ id, jobId, runId: `run-${jobId}`, credits, caps: { day: 20 }, ttlMs: 600_000 });
    expect(await reserve('c1', 'alpha', 3)).toEqual({ granted: true });
    await link.settleCredits({ id: 'c1', jobId: 'alpha', credits: 3 });
    await reserve('c2', 'beta', 2);
    await link.settleCredits({ id: 'c2', jobId: 'beta', credits: 2 });
    await reserve('c3', 'beta', 4);
    const shown = await vir(['credits', '--job', 'dach-weekly'], key, { VIR_CREDIT_CAP_MONTH: '50' });
    expect(shown.out.slice(1, 4)).toEqual([
      `account ${accountId}: spent 5 today, 5 this week, 5 this month (UTC); 4 reserved by calls in flight; caps 20 a day, 50 a month`,
      '  alpha: 3 today, 3 this week, 3 this month',
      '  beta: 2 today, 2 this week, 2 this month',
    ]);
  } finally {
    await runner.close();
  }
  // With no worker to answer, the ledger line says so (and the command still answers).
  const alone = await vir(['credits', '--job', 'dach-weekly'], key);
  expect(alone.out[1]).toBe(
    `account ${accountId}: the ledger cannot be read (no answer within 5 s: is a worker running (vir worker)?)`,
  );
});

test('what the scheduled jobs need for the rest of the month', () => {
  const weekly = {
    ...job,
    id: 'weekly',
    schedule: { cron: '0 7 * * 1', timezone: 'Europe/Berlin', paused: false },
  };
  const daily = {
    ...job,
    id: 'daily',
    schedule: { calendar: { hour: 6, minute: 30 }, timezone: 'UTC', paused: false },
  };
  const paused = { ...weekly, id: 'paused', schedule: { ...weekly.schedule, paused: true } };
  const now = new Date('2026-11-23T11:00:00Z');
  expect(describeMonthAhead([weekly, daily, paused, job], now, 20)).toEqual([
    'scheduled jobs until 2026-12-01: at most 16 credits; the balance of 20 covers it',
    '  weekly: 1 more run this month x at most 2 = 2 credits',
    '  daily: 7 more runs this month x at most 2 = 14 credits',
    '  paused: 0 more runs this month x at most 2 = 0 credits (paused)',
  ]);
  expect(describeMonthAhead([job], now, 20)).toEqual(['no scheduled jobs']);
});

test('a schedule paused in Temporal has no run left this month in vir credits', async () => {
  const key = 'vis_live_sandbox_vc';
  const group = `credits${process.pid}${Date.now().toString(36)}`;
  const jobYaml = (id: string) =>
    [
      `  - id: ${id}`,
      '    kind: market-report',
      `    title: Job ${id}`,
      '    countries: [Germany]',
      '    questions: ["top countries in 2025"]',
      '    budget: { credits: 1 }',
      '    schedule:',
      '      cron: "* * * * *"',
      '      timezone: UTC',
    ].join('\n');
  const file = writeTmp(`${group}.yaml`, `group: ${group}\njobs:\n${jobYaml('held')}\n${jobYaml('going')}\n`);
  const env = { VIR_TASK_QUEUE: `${group}-q` };
  const connection = await Connection.connect({ address: inject('temporalAddress') });
  const client = new Client({ connection });
  try {
    const applied = await vir(['schedules', 'apply', file], key, env);
    expect(applied.out, applied.err.join('\n')).toHaveLength(2);
    const running = /^ {2}(held|going): [1-9]\d* more runs? this month x at most 1 = [1-9]\d* credits?$/;
    const before = await vir(['credits', '--file', file], key, env);
    expect(
      before.out.filter((l) => running.test(l)),
      before.out.join('\n'),
    ).toHaveLength(2);
    // Paused in Temporal (the job file still says nothing of it): no run left, and said so.
    await vir(['schedules', 'pause', `vir-${group}-held`], key, env);
    const after = await vir(['credits', '--file', file], key, env);
    expect(after.out).toContain('  held: 0 more runs this month x at most 1 = 0 credits (paused)');
    expect(after.out.filter((l) => running.test(l))).toEqual([expect.stringMatching(/^ {2}going: /)]);
    expect(after.out.join('\n')).not.toMatch(/not known/);
  } finally {
    for (const id of ['held', 'going']) {
      await client.schedule
        .getHandle(`vir-${group}-${id}`)
        .delete()
        .catch(() => undefined);
    }
    await connection.close();
  }
});
