import { afterAll, beforeAll, expect, test } from 'vitest';
import { CliContext, type CliIO } from '../../cli/context.js';
import { describeJobCredits } from '../../cli/commands/credits.js';
import { createProgram } from '../../cli/program.js';
import { parseMarketReportJob } from '../../jobs/market-report/index.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { startTestSandbox } from '../helpers/sandbox.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox?.close());

async function vir(args: string[], key: string): Promise<{ out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIO = { out: (l) => out.push(l), err: (l) => err.push(l) };
  const ctx = new CliContext({ VIS_BASE_URL: sandbox.url, VIS_API_KEY: key }, io);
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
});

test('vir credits reads the balance from the service', async () => {
  const rich = await vir(['credits', '--job', 'dach-weekly'], 'vis_live_sandbox_vc');
  expect(rich.out[0]).toMatch(/^plan paid, \d+ credits$/);
  expect(rich.out[1]).toMatch(
    /^dach-weekly: 3 questions need 3 credits; budget 5; at most 3 a run; the balance pays for \d+ runs$/,
  );
  const broke = await vir(['credits', '--job', 'dach-weekly'], 'vis_live_sandbox_broke');
  expect(broke.out[0]).toBe('plan paid, 2 credits');
  expect(broke.out[1]).toMatch(/does not cover one full run/);
  const all = await vir(['credits'], 'vis_live_sandbox_vc');
  expect(all.out.length).toBeGreaterThanOrEqual(4);
});
