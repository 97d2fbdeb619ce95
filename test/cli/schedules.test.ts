/**
 * `vir schedules` against the real embedded Temporal server of the test run. No worker runs:
 * started workflows are seen in visibility and terminated at the end.
 */
import { Client, Connection, ScheduleNotFoundError, ScheduleOverlapPolicy } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  applySchedules,
  backfillSchedule,
  listSchedules,
  pauseSchedule,
  triggerSchedule,
  unpauseSchedule,
} from '../../cli/commands/schedules.js';
import { ScheduleConflictError } from '../../cli/schedules/plan.js';
import { captureContext, eventually, runCli, uniqueName, writeTmp } from './helpers.js';

const address = inject('temporalAddress');
let connection: Connection;
let client: Client;
const createdSchedules = new Set<string>();

function envFor(taskQueue: string): NodeJS.ProcessEnv {
  return {
    TEMPORAL_ADDRESS: address,
    TEMPORAL_NAMESPACE: 'default',
    VIR_TASK_QUEUE: taskQueue,
    VIR_LOG_LEVEL: 'silent',
  };
}

interface JobSpec {
  id: string;
  cron?: string;
  calendar?: string;
  paused?: boolean;
  overlap?: string;
  timezone?: string;
}

function jobFile(group: string, jobs: JobSpec[]): string {
  const lines = [`group: ${group}`, 'jobs:'];
  for (const j of jobs) {
    lines.push(
      `  - id: ${j.id}`,
      '    kind: market-report',
      `    title: Job ${j.id}`,
      '    countries: [Germany]',
      '    schedule:',
    );
    if (j.cron) lines.push(`      cron: "${j.cron}"`);
    if (j.calendar) lines.push(`      calendar: ${j.calendar}`);
    lines.push(`      timezone: ${j.timezone ?? 'Europe/London'}`);
    if (j.paused) lines.push('      paused: true');
    if (j.overlap) lines.push(`    overlap: ${j.overlap}`);
  }
  return writeTmp(`${group}-${Math.random().toString(36).slice(2, 8)}.yaml`, `${lines.join('\n')}\n`);
}

async function describeOrNull(id: string) {
  try {
    return await client.schedule.getHandle(id).describe();
  } catch (err) {
    if (err instanceof ScheduleNotFoundError) return null;
    throw err;
  }
}

async function scheduledRuns(scheduleId: string): Promise<string[]> {
  const ids: string[] = [];
  const query = `WorkflowType = 'marketReportWorkflow' AND TemporalScheduledById = '${scheduleId}'`;
  for await (const w of client.workflow.list({ query })) ids.push(w.workflowId);
  return ids.sort();
}

beforeAll(async () => {
  connection = await Connection.connect({ address });
  client = new Client({ connection, namespace: 'default' });
});

afterAll(async () => {
  for (const id of createdSchedules) {
    const d = await describeOrNull(id);
    if (d) await client.schedule.getHandle(id).delete();
    for (const wf of await scheduledRuns(id)) {
      await client.workflow
        .getHandle(wf)
        .terminate('test cleanup')
        .catch(() => {});
    }
  }
  await connection.close();
});

describe('schedules apply', () => {
  it('creates, leaves unchanged, updates, deletes, and never touches foreign schedules', async () => {
    const group = uniqueName('apply');
    const queue = `q-${group}`;
    const env = envFor(queue);
    const idA = `vir-${group}-alpha`;
    const idB = `vir-${group}-beta`;
    for (const id of [idA, idB]) createdSchedules.add(id);

    // Foreign schedules: one without a vir memo, one managed by vir for another group.
    const foreign = `vir-${group}-foreign`;
    const otherGroup = `vir-${group}x-gamma`;
    for (const [id, memo] of [
      [foreign, { owner: 'ops' }],
      [otherGroup, { managedBy: 'vir', group: `${group}x`, specHash: 'h' }],
    ] as const) {
      createdSchedules.add(id);
      await client.schedule.create({
        scheduleId: id,
        spec: { cronExpressions: ['0 1 * * *'] },
        action: { type: 'startWorkflow', workflowType: 'otherWorkflow', taskQueue: queue, args: [] },
        state: { paused: true },
        memo,
      });
    }

    const file1 = jobFile(group, [
      { id: 'alpha', cron: '0 7 * * 1', overlap: 'buffer_one' },
      {
        id: 'beta',
        calendar: '{ dayOfWeek: MONDAY, hour: 6, minute: 30 }',
        timezone: 'Europe/Berlin',
        paused: true,
      },
    ]);

    // 1. apply creates both.
    const first = await runCli(env, ['schedules', 'apply', file1]);
    expect(first.code).toBe(0);
    expect(first.out).toEqual([`created   ${idA}`, `created   ${idB}`]);
    const a = (await describeOrNull(idA))!;
    expect(a.memo).toMatchObject({ managedBy: 'vir', group });
    expect(a.action.workflowType).toBe('marketReportWorkflow');
    expect(a.action.taskQueue).toBe(queue);
    expect(a.action.workflowId).toBe('market-report-alpha');
    expect(a.action.args?.[0]).toMatchObject({
      trigger: 'schedule',
      job: { id: 'alpha', countries: ['Germany'] },
    });
    expect(a.policies.overlap).toBe(ScheduleOverlapPolicy.BUFFER_ONE);
    expect(a.state.paused).toBe(false);
    expect(a.spec.timezone).toBe('Europe/London');
    expect(a.spec.calendars?.[0]?.hour).toEqual([{ start: 7, end: 7, step: 1 }]);
    const b = (await describeOrNull(idB))!;
    expect(b.state.paused).toBe(true);
    expect(b.spec.timezone).toBe('Europe/Berlin');
    expect(b.spec.calendars?.[0]?.dayOfWeek).toEqual([{ start: 'MONDAY', end: 'MONDAY', step: 1 }]);
    expect(b.spec.calendars?.[0]?.minute).toEqual([{ start: 30, end: 30, step: 1 }]);

    // 2. a second apply changes nothing.
    const second = await runCli(env, ['schedules', 'apply', file1]);
    expect(second.out).toEqual([`unchanged ${idA}`, `unchanged ${idB}`]);
    const a2 = (await describeOrNull(idA))!;
    expect(a2.memo).toEqual(a.memo);
    expect(a2.info.createdAt).toEqual(a.info.createdAt);
    expect(a2.spec).toEqual(a.spec);

    // 3. a changed job is updated, the other stays.
    const file2 = jobFile(group, [
      { id: 'alpha', cron: '30 9 * * 2', overlap: 'allow_all' },
      {
        id: 'beta',
        calendar: '{ dayOfWeek: MONDAY, hour: 6, minute: 30 }',
        timezone: 'Europe/Berlin',
        paused: true,
      },
    ]);
    const { ctx } = captureContext(env);
    try {
      expect(await applySchedules(ctx, file2)).toEqual([
        { action: 'updated', scheduleId: idA },
        { action: 'unchanged', scheduleId: idB },
      ]);
      // The dry run of the same file now reports nothing to change.
      expect((await applySchedules(ctx, file2, { dryRun: true })).map((o) => o.action)).toEqual([
        'unchanged',
        'unchanged',
      ]);
    } finally {
      await ctx.close();
    }
    const a3 = (await describeOrNull(idA))!;
    expect(a3.spec.calendars?.[0]?.hour).toEqual([{ start: 9, end: 9, step: 1 }]);
    expect(a3.policies.overlap).toBe(ScheduleOverlapPolicy.ALLOW_ALL);
    expect(a3.memo?.specHash).not.toBe(a.memo?.specHash);

    // 4. a removed job is deleted; foreign schedules survive everything.
    const file3 = jobFile(group, [{ id: 'alpha', cron: '30 9 * * 2', overlap: 'allow_all' }]);
    const fourth = await runCli(env, ['schedules', 'apply', file3]);
    expect(fourth.out).toEqual([`unchanged ${idA}`, `deleted   ${idB}`]);
    expect(await describeOrNull(idB)).toBeNull();
    const again = await runCli(env, ['schedules', 'apply', file3]);
    expect(again.out).toEqual([`unchanged ${idA}`]);
    expect((await describeOrNull(foreign))?.memo).toEqual({ owner: 'ops' });
    expect((await describeOrNull(otherGroup))?.memo).toMatchObject({ group: `${group}x` });

    // `schedules list` shows ours as managed and the foreign one as unmanaged.
    const { ctx: listCtx } = captureContext(env);
    try {
      const rows = await listSchedules(listCtx);
      expect(rows.find((r) => r.scheduleId === idA)).toMatchObject({
        managedBy: 'vir',
        group,
        paused: false,
      });
      expect(rows.find((r) => r.scheduleId === foreign)).toMatchObject({ managedBy: null, paused: true });
    } finally {
      await listCtx.close();
    }
  });

  it('lists a schedule paused or created a moment ago as it is now, not as the list lags', async () => {
    // Temporal's schedule list is eventually consistent; the state shown must not be.
    const { ctx } = captureContext(envFor('q'));
    try {
      for (let i = 0; i < 5; i++) {
        const id = `vir-${uniqueName('fresh')}`;
        createdSchedules.add(id);
        await client.schedule.create({
          scheduleId: id,
          spec: { cronExpressions: ['0 1 * * *'] },
          action: { type: 'startWorkflow', workflowType: 'otherWorkflow', taskQueue: 'q', args: [] },
        });
        expect((await listSchedules(ctx, [id])).find((r) => r.scheduleId === id)).toMatchObject({
          paused: false,
          workflowType: 'otherWorkflow',
        });
        await pauseSchedule(ctx, id);
        const rows = await listSchedules(ctx, [id, `${id}-never-made`]);
        expect(rows.find((r) => r.scheduleId === id)?.paused).toBe(true);
        expect(rows.some((r) => r.scheduleId === `${id}-never-made`)).toBe(false);
        // The CLI's line says so too, with no next run while paused.
        const listed = await runCli(envFor('q'), ['schedules', 'list']);
        expect(listed.out).toContain(`${id}  paused  unmanaged  next none while paused  otherWorkflow`);
      }
    } finally {
      await ctx.close();
    }
  });

  it('refuses to take over an id held by a schedule it does not manage', async () => {
    const group = uniqueName('conflict');
    const id = `vir-${group}-taken`;
    createdSchedules.add(id);
    await client.schedule.create({
      scheduleId: id,
      spec: { cronExpressions: ['0 1 * * *'] },
      action: { type: 'startWorkflow', workflowType: 'otherWorkflow', taskQueue: 'q', args: [] },
      state: { paused: true },
    });
    const file = jobFile(group, [{ id: 'taken', cron: '0 7 * * 1' }]);
    const { ctx } = captureContext(envFor('q'));
    try {
      await expect(applySchedules(ctx, file)).rejects.toBeInstanceOf(ScheduleConflictError);
    } finally {
      await ctx.close();
    }
    const d = (await describeOrNull(id))!;
    expect(d.action.workflowType).toBe('otherWorkflow');
    await expect(runCli(envFor('q'), ['schedules', 'apply', file])).rejects.toThrow(
      `schedule ${id} exists and is not managed by vir; vir leaves it alone`,
    );
  });
});

describe('schedules pause, unpause, trigger, backfill', () => {
  it('pauses and unpauses', async () => {
    const group = uniqueName('pause');
    const id = `vir-${group}-p`;
    createdSchedules.add(id);
    const env = envFor(`q-${group}`);
    await runCli(env, ['schedules', 'apply', jobFile(group, [{ id: 'p', cron: '0 7 * * 1' }])]);
    const paused = await runCli(env, ['schedules', 'pause', id, '--note', 'holiday']);
    expect(paused.out).toEqual([`paused ${id}`]);
    let d = (await describeOrNull(id))!;
    expect(d.state).toMatchObject({ paused: true, note: 'holiday' });
    const { ctx } = captureContext(env);
    try {
      await unpauseSchedule(ctx, id);
      d = (await describeOrNull(id))!;
      expect(d.state.paused).toBe(false);
      await pauseSchedule(ctx, id);
      expect((await describeOrNull(id))!.state.paused).toBe(true);
      await expect(pauseSchedule(ctx, `vir-${group}-missing`)).rejects.toThrow(
        /no schedule "vir-.*-missing" in namespace default/,
      );
    } finally {
      await ctx.close();
    }
  });

  it('trigger starts a workflow of the schedule now', async () => {
    const group = uniqueName('trigger');
    const jobId = `t-${group}`;
    const realId = `vir-${group}-${jobId}`;
    createdSchedules.add(realId);
    const env = envFor(`q-${group}`);
    // The job id is unique, so the workflow id prefix is too.
    await runCli(env, ['schedules', 'apply', jobFile(group, [{ id: jobId, cron: '0 7 * * 1' }])]);
    const res = await runCli(env, ['schedules', 'trigger', realId]);
    expect(res.out).toEqual([`triggered ${realId}`]);
    const runs = await eventually(
      async () => {
        const ids = await scheduledRuns(realId);
        return ids.length >= 1 ? ids : undefined;
      },
      20_000,
      'the triggered run',
    );
    expect(runs).toHaveLength(1);
    expect(runs[0]!.startsWith(`market-report-t-${group}-`)).toBe(true);
    const wf = await client.workflow.getHandle(runs[0]!).describe();
    expect(wf.type).toBe('marketReportWorkflow');
    expect(wf.taskQueue).toBe(`q-${group}`);
    expect(wf.memo).toEqual({ jobId: `t-${group}`, trigger: 'schedule' });
  });

  it('backfill starts the runs of a past period, all of them (ALLOW_ALL)', async () => {
    const group = uniqueName('backfill');
    const jobId = `b-${group}`;
    const id = `vir-${group}-${jobId}`;
    createdSchedules.add(id);
    const env = envFor(`q-${group}`);
    await runCli(env, [
      'schedules',
      'apply',
      jobFile(group, [{ id: jobId, cron: '0 7 * * 1', timezone: 'UTC' }]),
    ]);
    const { ctx } = captureContext(env);
    try {
      await expect(backfillSchedule(ctx, id, 'yesterday', '2025-01-20T00:00:00Z')).rejects.toThrow(
        /--from must be an ISO date/,
      );
      await expect(backfillSchedule(ctx, id, '2025-01-20T00:00:00Z', '2025-01-01T00:00:00Z')).rejects.toThrow(
        /--to must be later than --from/,
      );
    } finally {
      await ctx.close();
    }
    const res = await runCli(env, [
      'schedules',
      'backfill',
      id,
      '--from',
      '2025-01-01T00:00:00Z',
      '--to',
      '2025-01-20T00:00:00Z',
    ]);
    expect(res.out).toEqual([`backfilled ${id} from 2025-01-01T00:00:00Z to 2025-01-20T00:00:00Z`]);
    // Mondays 6 and 13 January 2025 at 07:00 UTC; both start although no worker finishes the first.
    const runs = await eventually(
      async () => {
        const ids = await scheduledRuns(id);
        return ids.length >= 2 ? ids : undefined;
      },
      20_000,
      'two backfilled runs',
    );
    expect(runs).toEqual([
      `market-report-${jobId}-2025-01-06T07:00:00Z`,
      `market-report-${jobId}-2025-01-13T07:00:00Z`,
    ]);
    // trigger with an explicit overlap policy also starts one more run next to the running ones.
    const { ctx: ctx2 } = captureContext(env);
    try {
      await triggerSchedule(ctx2, id, ScheduleOverlapPolicy.ALLOW_ALL);
    } finally {
      await ctx2.close();
    }
    await eventually(
      async () => ((await scheduledRuns(id)).length === 3 ? true : undefined),
      20_000,
      'the third run',
    );
  });
});
