/**
 * Run ids that never collide: a manual run's workflow id ends with its start time to the
 * millisecond and a random part, so five `vir run` of one job started in the same second (the
 * CLI's start path, `startJobRun`) all run to the end on the real embedded Temporal server
 * against the sandbox, each with its own output folder. The ids stay readable, sortable and
 * safe in file names and S3 keys, and `vir runs list --job` still finds them.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../sandbox/index.js';
import { listRuns } from '../../cli/commands/runs.js';
import { outputFolder } from '../../activities/render-files.js';
import { followRun, manualWorkflowId, startJobRun } from '../../cli/run-job.js';
import { parseSmokeJob } from '../../jobs/smoke/index.js';
import { runStamp, safeFileName, timeStamp } from '../../lib/names.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { QUIET, startRunner, type RunnerHarness } from '../helpers/runner.js';
import { captureContext, eventually, uniqueName } from './helpers.js';

const ID = /^smoke-(.+)-(\d{8}-\d{6})-(\d{3})-([0-9a-f]{6})$/;

describe('manual run ids', () => {
  const job = { kind: 'smoke', id: 'ids-unit' } as const;

  it('end with the time to the millisecond and a random part, safe in file names and keys', () => {
    const at = new Date('2026-11-22T00:54:28.007Z');
    expect(manualWorkflowId(job, at, '3fa9c2')).toBe('smoke-ids-unit-20261122-005428-007-3fa9c2');
    expect(runStamp(at, 'abcd')).toBe(`${timeStamp(at)}-007-abcd`);
    expect(() => runStamp(at, 'XYZ!')).toThrow(/4 to 16 lowercase hex digits/);
    const id = manualWorkflowId(job, at);
    expect(id).toMatch(ID);
    expect(safeFileName(id, 160, '_')).toBe(id);
    // Two ids of the same millisecond differ (the random part); ids of later times sort later.
    const same = new Set(Array.from({ length: 200 }, () => manualWorkflowId(job, at)));
    expect(same.size).toBe(200);
    const times = ['2026-11-22T00:54:28.999Z', '2026-11-22T00:54:29.000Z', '2026-11-22T10:00:00.000Z'];
    const ids = times.map((t) => manualWorkflowId(job, new Date(t)));
    expect([...ids].sort()).toEqual(ids);
  });
});

describe('output folders claimed at the same instant', () => {
  it("go to twenty runs as twenty folders, a retry finds its own, an older run's folder is left alone", async () => {
    const root = mkdtempSync(join(tmpdir(), 'vir-folders-'));
    try {
      // A folder an older version filled without a marker is never claimed.
      mkdirSync(join(root, 'job', '2026-11-26'), { recursive: true });
      writeFileSync(join(root, 'job', '2026-11-26', 'report.pdf'), 'old');
      const runs = Array.from({ length: 20 }, (_, i) => `run-${i}`);
      const dirs = await Promise.all(runs.map((id) => outputFolder(root, 'job', '2026-11-26', id)));
      expect(new Set(dirs).size).toBe(20);
      expect(dirs).not.toContain(join(root, 'job', '2026-11-26'));
      for (const [i, dir] of dirs.entries()) {
        expect(JSON.parse(readFileSync(join(dir, '.run.json'), 'utf8'))).toEqual({ workflowId: runs[i] });
      }
      // The same runs asked again (activity retries, concurrently) get the same folders.
      const again = await Promise.all(runs.map((id) => outputFolder(root, 'job', '2026-11-26', id)));
      expect(again).toEqual(dirs);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('five starts of one job in the same second', () => {
  let sandbox: RunningSandbox;
  let h: RunnerHarness;

  beforeAll(async () => {
    sandbox = await startTestSandbox({ rateLimitPerMinute: 10_000 });
    h = await startRunner({ baseUrl: sandbox.url, apiKey: 'vis_live_sandbox_vc', name: 'run-ids' });
  }, 120_000);

  afterAll(async () => {
    await h?.close();
    await sandbox?.close();
  });

  it('all run and complete, each with its own id and output folder', async () => {
    const job = parseSmokeJob({
      id: uniqueName('ids'),
      title: 'Five at once',
      // The smallest job: one startup, one page (what is proven is the ids and folders, not the work).
      country: 'France',
      records: 1,
      destination: join(h.dir, 'reports'),
    });
    // Start at the beginning of a second, so the five starts share it (a time, not an event).
    await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 20));
    const handles = await Promise.all([1, 2, 3, 4, 5].map(() => startJobRun(h.client, h.settings, job)));
    const ids = handles.map((x) => x.workflowId);
    expect(new Set(ids).size).toBe(5);
    for (const id of ids) expect(id).toMatch(ID);
    expect(new Set(ids.map((id) => ID.exec(id)![2])).size, ids.join(' ')).toBe(1);

    const results = await Promise.all(handles.map((x) => followRun(x, QUIET)));
    expect(results.map((r) => r.workflowId)).toEqual(ids);
    expect(results.map((r) => r.partial)).toEqual([false, false, false, false, false]);
    const folders = results.map((r) => dirname(r.manifestPath));
    expect(new Set(folders).size).toBe(5);
    for (const r of results) {
      const manifest = JSON.parse(readFileSync(r.manifestPath, 'utf8')) as {
        workflowId: string;
        status: string;
      };
      expect(manifest.workflowId).toBe(r.workflowId);
      expect(manifest.status).toBe('complete');
    }

    // `vir runs list --job` finds all five (by the job's id prefix and the memo), completed once
    // the server's visibility store has caught up with the runs' ends (it lags them a little).
    const ctx = captureContext({
      TEMPORAL_ADDRESS: h.settings.temporalAddress,
      VIR_TASK_QUEUE: h.settings.taskQueue,
      VIR_LOG_LEVEL: 'silent',
    });
    try {
      const rows = await eventually(
        async () => {
          const listed = await listRuns(ctx.ctx, { job: job.id, limit: 10 });
          return listed.length === 5 && listed.every((r) => r.status === 'COMPLETED') ? listed : undefined;
        },
        20_000,
        'the five runs listed as completed',
      );
      expect(rows.map((r) => r.workflowId).sort()).toEqual([...ids].sort());
    } finally {
      await ctx.ctx.close();
    }
  }, 180_000);
});
