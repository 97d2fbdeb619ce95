/**
 * `vir runs` against the real embedded Temporal server: runs started without a worker are
 * listed (newest first, by job), shown (progress unavailable without a worker) and cancelled.
 */
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cancelRun, formatRun, listRuns, runsQuery, showRun } from '../../cli/commands/runs.js';
import { parseOutputs, rerenderRun } from '../../cli/commands/runs-rerender.js';
import { readRenderRecipe } from '../../activities/rerender.js';
import { LocalStore } from '../../activities/store.js';
import { JOB_KINDS } from '../../jobs/registry.js';
import { captureContext, eventually, runCli, uniqueName } from './helpers.js';

const address = inject('temporalAddress');
let connection: Connection;
let client: Client;
const started: string[] = [];

beforeAll(async () => {
  connection = await Connection.connect({ address });
  client = new Client({ connection, namespace: 'default' });
});

afterAll(async () => {
  for (const id of started) {
    await client.workflow
      .getHandle(id)
      .terminate('test cleanup')
      .catch(() => {});
  }
  await connection.close();
});

async function start(workflowId: string, jobId: string, taskQueue: string) {
  await client.workflow.start('marketReportWorkflow', {
    taskQueue,
    workflowId,
    args: [{ job: { id: jobId }, trigger: 'manual' }],
    memo: { jobId, trigger: 'manual' },
  });
  started.push(workflowId);
}

describe('vir runs', () => {
  it('builds the visibility query', () => {
    // Every registered kind's workflow type; a job's runs by each kind's id prefix.
    const types = `WorkflowType IN (${JOB_KINDS.map((k) => `'${k.workflow.name}'`).join(', ')})`;
    expect(runsQuery()).toBe(types);
    const prefixes = JOB_KINDS.map((k) => `WorkflowId STARTS_WITH '${k.idPrefix}-a\\'b'`).join(' OR ');
    expect(runsQuery("a'b")).toBe(`${types} AND (${prefixes})`);
  });

  it('lists by job newest first, shows and cancels a run', async () => {
    const job = uniqueName('runs');
    const queue = `q-${job}`;
    const env = { TEMPORAL_ADDRESS: address, VIR_LOG_LEVEL: 'silent' };
    const older = `market-report-${job}-20250101-070000`;
    const newer = `market-report-${job}-20250102-070000`;
    // Another job whose id starts with this job's id: not listed under --job.
    const other = `market-report-${job}-x-20250103-070000`;
    await start(older, job, queue);
    await new Promise((r) => setTimeout(r, 20)); // later start times: the list's order is the point
    await start(newer, job, queue);
    await start(other, `${job}-x`, queue);

    const { ctx } = captureContext(env);
    try {
      const rows = await eventually(
        async () => {
          const r = await listRuns(ctx, { job });
          return r.length === 2 ? r : undefined;
        },
        20_000,
        'two listed runs',
      );
      expect(rows.map((r) => r.workflowId)).toEqual([newer, older]);
      expect(rows[0]).toMatchObject({
        status: 'RUNNING',
        jobId: job,
        trigger: 'manual',
        type: 'marketReportWorkflow',
        closeTime: null,
      });
      expect((await listRuns(ctx, { job, limit: 1 })).map((r) => r.workflowId)).toEqual([newer]);

      const details = await showRun(ctx, newer, { queryTimeoutMs: 1000 });
      expect(details.status).toBe('RUNNING');
      expect(details.progress).toBeNull();
      expect(details.progressError).toMatch(/^no progress: .*\(is a worker running\?\)$/);
      const text = formatRun(details).join('\n');
      expect(text).toContain(`run        ${newer}`);
      expect(text).toContain(`job        ${job} (manual)`);

      await cancelRun(ctx, older);
      const history = await client.workflow.getHandle(older).fetchHistory();
      expect(history.events?.some((e) => e.workflowExecutionCancelRequestedEventAttributes)).toBe(true);
      await expect(showRun(ctx, `market-report-${job}-missing`)).rejects.toThrow(
        /no run "market-report-.*-missing" in namespace default/,
      );
    } finally {
      await ctx.close();
    }

    const cli = await runCli(env, ['runs', 'list', '--job', job, '--json']);
    expect((JSON.parse(cli.out.join('\n')) as { workflowId: string }[]).map((r) => r.workflowId)).toEqual([
      newer,
      older,
    ]);
    const cancel = await runCli(env, ['runs', 'cancel', newer]);
    expect(cancel.out).toEqual([`cancel requested for ${newer}`]);
  });

  it('rerenders only a completed run, and says why not otherwise', async () => {
    const job = uniqueName('rerender');
    const running = `market-report-${job}-20250101-070000`;
    await start(running, job, `q-${job}`);
    const { ctx } = captureContext({ TEMPORAL_ADDRESS: address, VIR_LOG_LEVEL: 'silent' });
    try {
      await expect(rerenderRun(ctx, running)).rejects.toThrow(
        `run ${running} is running: only a completed run's reports can be made again`,
      );
      await expect(rerenderRun(ctx, `${running}-missing`)).rejects.toThrow(
        /^no run .*-missing \(vir runs list/,
      );
    } finally {
      await ctx.close();
    }
    expect(parseOutputs('XLSX, pdf,xlsx')).toEqual(['xlsx', 'pdf']);
    expect(() => parseOutputs('pdf,docx')).toThrow(
      '--outputs: unknown format docx; use a comma-separated list of pdf, xlsx, csv, json',
    );
    expect(() => parseOutputs(' , ')).toThrow('--outputs: no format given');
    // Two places for the same files, refused before anything starts (the run need not exist).
    await expect(rerenderRun(ctx, running, { to: 'elsewhere', replace: true })).rejects.toThrow(
      '--to and --replace name two places for the same files: give one of them',
    );
    await expect(rerenderRun(ctx, running, { to: ' ' })).rejects.toThrow('--to: no folder given');
  });

  it("says why a run's reports cannot be made again from what it kept", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vir-recipe-'));
    try {
      const store = new LocalStore(dir);
      await expect(readRenderRecipe(store, 'market-report-old-20250101')).rejects.toThrow(
        /run market-report-old-20250101 kept no render recipe \(runs\/market-report-old-20250101\/render\.json\): it ended before its render, or was made before rerendering existed/,
      );
      await store.putJson('market-report-next', 'render', { format: 2, activity: 'x', input: { job: {} } });
      await expect(readRenderRecipe(store, 'market-report-next')).rejects.toThrow(
        "run market-report-next's render recipe is of format 2; this version reads format 1",
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
