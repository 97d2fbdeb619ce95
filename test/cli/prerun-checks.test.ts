/**
 * Everything a job names is checked before any call that costs, from the outside: real workers
 * on the embedded Temporal server, a real sandbox, the CLI's own entry. A prospect list whose
 * suppression list is binary or malformed is refused by `vir run` with exit 2, its file, line and
 * reason named, and the account's balance unchanged; a schedule applied with a good list whose
 * file goes bad before its next run fails that run in its first activity, before any request
 * (the sandbox's request log and balance are the witnesses), and `vir runs show`, `vir run`'s
 * exit line and the run's manifest say why, not "Activity task failed".
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { runVir } from '../../cli/entry.js';
import { workflowCode } from '../../runtime/workflow-bundle.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { callSandbox, KEYS, startTestSandbox } from '../helpers/sandbox.js';
import { startRunner, type RunnerHarness } from '../helpers/runner.js';
import { eventually, uniqueName, writeTmp } from './helpers.js';

const KEY = KEYS.provider;
const tag = uniqueName('pre').replace(/[^a-z0-9-]/g, '');
const group = `prerun-${tag}`;
const JOB = `${tag}-list`;
const SCHEDULE = `vir-${group}-${JOB}`;
const GOOD = 'name,domain\nAcme,acme.io\n';
const MALFORMED = 'name,domain\nAcme,acme.io\nFoo "Bar" Inc,foo.io\n';
const BINARY = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x0a, 0x00]);

let sandbox: RunningSandbox;
let h: RunnerHarness;
let env: NodeJS.ProcessEnv;
let crm: string;
let jobFile: string;

beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimitPerMinute: 10_000 });
  h = await startRunner({ baseUrl: sandbox.url, apiKey: KEY, name: 'prerun' });
  env = {
    ...process.env,
    TEMPORAL_ADDRESS: inject('temporalAddress'),
    TEMPORAL_NAMESPACE: 'default',
    VIR_TASK_QUEUE: h.settings.taskQueue,
    VIR_API_TASK_QUEUE: h.settings.apiTaskQueue,
    VIS_BASE_URL: sandbox.url,
    VIS_API_KEY: KEY,
    VIR_DATA_DIR: join(h.dir, 'data'),
    VIR_REPORTS_DIR: h.settings.reportsDir,
    VIR_LOG_LEVEL: 'silent',
    VIR_DEBUG: '',
  };
  crm = writeTmp(`${tag}-crm.csv`, GOOD);
  jobFile = writeTmp(
    `${tag}-jobs.yaml`,
    [
      `group: ${group}`,
      'jobs:',
      `  - id: ${JOB}`,
      '    kind: prospect-list',
      '    title: Prospects checked before they are paid for',
      '    schedule: { cron: "0 7 * * 1", timezone: UTC, paused: true }',
      '    budget: { credits: 10 }',
      '    briefs:',
      '      - brief: Startup law firm for seed and series A fintech companies that just raised',
      '        org_key: brightline-legal',
      '        regions: [Germany]',
      '        limit: 5',
      '    enrich: 0',
      '    outputs: [csv]',
      `    suppress: ${tag}-crm.csv`,
      '',
    ].join('\n'),
  );
}, 120_000);

afterAll(async () => {
  await h?.client.schedule
    .getHandle(SCHEDULE)
    .delete()
    .catch(() => undefined);
  await h?.close();
  await sandbox?.close();
});

/** Runs `vir <args>` in process; its exit code, stdout and stderr. */
async function vir(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runVir(args, env, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

async function balance(): Promise<number> {
  const r = await callSandbox(sandbox, 'my_account', { key: KEY });
  return r.body.credits?.remaining as number;
}

/** Operations the sandbox answered since `from` (an index of its request log). */
const operationsSince = (from: number) =>
  sandbox
    .requestLog()
    .slice(from)
    .map((r) => r.operation);

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test('vir run refuses a binary and a malformed suppression list with exit 2, spending nothing', async () => {
  for (const [what, content, says] of [
    ['binary', BINARY, /line 1: is a binary file, not a CSV text file \(it holds a NUL byte/],
    ['malformed', MALFORMED, /line 3: not a readable CSV file \(Invalid Opening Quote: a quote is found/],
  ] as const) {
    writeFileSync(crm, content);
    const before = await balance();
    const from = sandbox.requestLog().length;
    const res = await vir(['run', JOB, '--file', jobFile]);
    expect(res.code, `${what}: ${res.err}`).toBe(2);
    expect(res.err, what).toMatch(
      new RegExp(`^vir: ${escape(jobFile)}: job "${JOB}": suppress: suppression list ${escape(crm)}, `),
    );
    expect(res.err, what).toMatch(says);
    expect(operationsSince(from), what).not.toContain('find_customers');
    expect(await balance(), what).toBe(before);
    // schedules apply refuses the same file the same way, and creates nothing.
    const applied = await vir(['schedules', 'apply', jobFile]);
    expect(applied.code, applied.err).toBe(2);
    expect(applied.err, what).toMatch(says);
  }
  await expect(h.client.schedule.getHandle(SCHEDULE).describe()).rejects.toThrow();
}, 120_000);

/** Triggers the schedule and waits for the run it starts; its workflow id. */
async function triggerRun(previous: readonly string[]): Promise<string> {
  const schedule = h.client.schedule.getHandle(SCHEDULE);
  await schedule.trigger();
  return eventually(
    async () => {
      const d = await schedule.describe();
      const ids = d.info.recentActions.map((a) => a.action.workflow.workflowId);
      return ids.find((id) => !previous.includes(id));
    },
    20_000,
    'the triggered run',
  );
}

test('a schedule whose suppression list goes bad fails its next run before any paid call, saying why', async () => {
  writeFileSync(crm, GOOD);
  const applied = await vir(['schedules', 'apply', jobFile]);
  expect(applied.code, applied.err).toBe(0);

  // The file goes bad after the schedule was applied; its next run fails in its first activity,
  // before any call that costs (a run with a good list paying for its briefs is
  // test/jobs/prospect-list/run.test.ts's; the check failing a run before any call is
  // test/workflows/skipping/engine-run.test.ts's: here the outside witnesses of it).
  writeFileSync(crm, MALFORMED);
  const before = await balance();
  const from = sandbox.requestLog().length;
  const second = await triggerRun([]);
  const failed = await h.client.workflow
    .getHandle(second)
    .result()
    .then(
      () => null,
      (err: unknown) => err,
    );
  expect(failed).not.toBeNull();
  expect(operationsSince(from)).toEqual([]);
  expect(await balance()).toBe(before);

  const reason = new RegExp(
    `^job "${JOB}": suppress: suppression list ${escape(crm)}, line 3: not a readable CSV file \\(Invalid Opening Quote: `,
  );
  // vir runs show: the root cause, and the manifest that records it.
  const shown = await vir(['runs', 'show', second]);
  expect(shown.code, shown.err).toBe(0);
  const lines = shown.out.split('\n');
  expect(lines).toContain('status     FAILED');
  const failure = lines.find((l) => l.startsWith('failure    '))?.slice(11) ?? '';
  expect(failure).toMatch(reason);
  expect(shown.out).not.toMatch(/Activity task failed/);
  const manifestPath = lines.find((l) => l.startsWith('manifest   '))?.slice(11) ?? '';
  expect(manifestPath.startsWith(h.settings.reportsDir), shown.out).toBe(true);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, unknown>;
  expect(manifest).toMatchObject({
    workflowId: second,
    status: 'failed',
    failure,
    credits: { charged: 0 },
    calls: { total: 0 },
    files: [],
  });
  expect(String(manifest.failure)).toMatch(reason);

  // vir run's exit line says the same: `vir runs follow` ends the way `vir run` does.
  const followed = await vir(['runs', 'follow', second]);
  expect(followed.code).toBe(1);
  expect(followed.err).toMatch(new RegExp(`^vir: run ${escape(second)} failed: ${reason.source.slice(1)}`));
  expect(followed.err).toContain(`(manifest: ${manifestPath})`);

  // The run (the check and the failed-run manifest are patched in) replays without nondeterminism.
  const history = await h.client.workflow.getHandle(second).fetchHistory();
  const replayed: string[] = [];
  for await (const r of Worker.runReplayHistories(await workflowCode(), [{ workflowId: second, history }])) {
    expect(r.error, `${r.workflowId}: ${String(r.error)}`).toBeUndefined();
    replayed.push(r.workflowId);
  }
  expect(replayed).toEqual([second]);
}, 120_000); // one failed run and the CLI's commands on it
