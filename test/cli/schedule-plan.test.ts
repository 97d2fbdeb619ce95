import { ScheduleOverlapPolicy } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { parseMarketReportJob } from '../../jobs/market-report/index.js';
import {
  calendarSpec,
  desiredSchedule,
  parseOverlap,
  readManagedMemo,
  scheduleIdFor,
  stableStringify,
} from '../../cli/schedules/desired.js';
import { planSchedules, ScheduleConflictError } from '../../cli/schedules/plan.js';

const settings = { taskQueue: 'vir-jobs', apiTaskQueue: 'vir-api' };

function job(id: string, schedule: Record<string, unknown> | undefined, extra: Record<string, unknown> = {}) {
  return parseMarketReportJob({
    id,
    title: `Job ${id}`,
    countries: ['Germany'],
    ...(schedule ? { schedule } : {}),
    ...extra,
  });
}

describe('desiredSchedule', () => {
  it('builds id, action, policies, state and memo from a cron job', () => {
    const j = job(
      'weekly',
      { cron: '0 7 * * 1', timezone: 'Europe/London', jitter: '5m' },
      { overlap: 'buffer_one' },
    );
    const d = desiredSchedule(j, 'grp', settings)!;
    expect(d.scheduleId).toBe('vir-grp-weekly');
    expect(d.options.spec).toEqual({
      timezone: 'Europe/London',
      cronExpressions: ['0 7 * * 1'],
      jitter: '5m',
    });
    expect(d.options.action).toEqual({
      type: 'startWorkflow',
      workflowType: 'marketReportWorkflow',
      taskQueue: 'vir-jobs',
      workflowId: 'market-report-weekly',
      args: [{ job: j, trigger: 'schedule', apiTaskQueue: 'vir-api' }],
      memo: { jobId: 'weekly', trigger: 'schedule' },
    });
    expect(d.options.policies).toEqual({ overlap: ScheduleOverlapPolicy.BUFFER_ONE });
    expect(d.options.state?.paused).toBe(false);
    expect(d.options.memo).toEqual({ managedBy: 'vir', group: 'grp', specHash: d.specHash });
    expect(d.specHash).toMatch(/^[0-9a-f]{16}$/);
  });

  it('maps calendars: days, months as names, hour and minute', () => {
    expect(calendarSpec({ dayOfWeek: 'MONDAY', hour: 6, minute: 30 })).toEqual({
      hour: 6,
      minute: 30,
      dayOfWeek: ['MONDAY'],
    });
    expect(calendarSpec({ dayOfMonth: [1, 15], month: [1, 12], hour: 0, minute: 0 })).toEqual({
      hour: 0,
      minute: 0,
      dayOfMonth: [1, 15],
      month: ['JANUARY', 'DECEMBER'],
    });
    const j = job('cal', {
      calendar: { dayOfWeek: 'MONDAY', hour: 6, minute: 30 },
      timezone: 'Europe/Berlin',
      paused: true,
    });
    const d = desiredSchedule(j, 'g', settings)!;
    expect(d.options.spec.calendars).toEqual([{ hour: 6, minute: 30, dayOfWeek: ['MONDAY'] }]);
    expect(d.options.spec.cronExpressions).toBeUndefined();
    expect(d.options.state?.paused).toBe(true);
  });

  it('is null for a job without schedule', () => {
    expect(desiredSchedule(job('manual', undefined), 'g', settings)).toBeNull();
  });

  it('hash is stable and changes with every part of the definition', () => {
    const base = job('h', { cron: '0 7 * * 1', timezone: 'Europe/London' });
    const h = desiredSchedule(base, 'g', settings)!.specHash;
    expect(
      desiredSchedule(job('h', { cron: '0 7 * * 1', timezone: 'Europe/London' }), 'g', settings)!.specHash,
    ).toBe(h);
    const variants = [
      desiredSchedule(job('h', { cron: '0 8 * * 1', timezone: 'Europe/London' }), 'g', settings),
      desiredSchedule(job('h', { cron: '0 7 * * 1', timezone: 'Europe/Paris' }), 'g', settings),
      desiredSchedule(
        job('h', { cron: '0 7 * * 1', timezone: 'Europe/London', jitter: '1m' }),
        'g',
        settings,
      ),
      desiredSchedule(
        job('h', { cron: '0 7 * * 1', timezone: 'Europe/London', paused: true }),
        'g',
        settings,
      ),
      desiredSchedule(
        job('h', { cron: '0 7 * * 1', timezone: 'Europe/London' }, { overlap: 'allow_all' }),
        'g',
        settings,
      ),
      desiredSchedule(
        job('h', { cron: '0 7 * * 1', timezone: 'Europe/London' }, { title: 'Other' }),
        'g',
        settings,
      ),
      desiredSchedule(base, 'g', { taskQueue: 'other', apiTaskQueue: 'vir-api' }),
    ];
    for (const v of variants) expect(v!.specHash).not.toBe(h);
  });

  it('stableStringify ignores key order', () => {
    expect(stableStringify({ b: 1, a: { d: [1, { y: 1, x: 2 }], c: 2 } })).toBe(
      stableStringify({ a: { c: 2, d: [1, { x: 2, y: 1 }] }, b: 1 }),
    );
  });

  it('parses overlap names in any spelling', () => {
    expect(parseOverlap('allow-all')).toBe(ScheduleOverlapPolicy.ALLOW_ALL);
    expect(parseOverlap('BUFFER_ONE')).toBe(ScheduleOverlapPolicy.BUFFER_ONE);
    expect(() => parseOverlap('sometimes')).toThrow(/unknown overlap policy "sometimes"/);
  });
});

describe('planSchedules', () => {
  const a = desiredSchedule(job('a', { cron: '0 7 * * 1', timezone: 'UTC' }), 'g', settings)!;
  const b = desiredSchedule(job('b', { cron: '0 8 * * 1', timezone: 'UTC' }), 'g', settings)!;
  const memo = (group: string, specHash: string) => ({ managedBy: 'vir', group, specHash });

  it('creates what is missing, keeps what matches, updates what changed, deletes what is gone', () => {
    const steps = planSchedules(
      'g',
      [a, b],
      [
        { scheduleId: a.scheduleId, memo: memo('g', a.specHash) },
        { scheduleId: scheduleIdFor('g', 'old'), memo: memo('g', 'x') },
      ],
    );
    expect(steps.map((s) => [s.kind, s.scheduleId])).toEqual([
      ['unchanged', 'vir-g-a'],
      ['create', 'vir-g-b'],
      ['delete', 'vir-g-old'],
    ]);
    const changed = planSchedules('g', [a], [{ scheduleId: a.scheduleId, memo: memo('g', 'stale') }]);
    expect(changed).toEqual([{ kind: 'update', scheduleId: 'vir-g-a', desired: a, previousHash: 'stale' }]);
  });

  it('never touches schedules it does not manage or of other groups', () => {
    const steps = planSchedules(
      'g',
      [a],
      [
        { scheduleId: 'vir-g-foreign', memo: undefined },
        { scheduleId: 'vir-g-other', memo: { managedBy: 'someone-else', group: 'g' } },
        { scheduleId: 'vir-h-x', memo: memo('h', 'x') },
      ],
    );
    expect(steps).toEqual([{ kind: 'create', scheduleId: 'vir-g-a', desired: a }]);
  });

  it('refuses an id held by a schedule it does not manage', () => {
    expect(() => planSchedules('g', [a], [{ scheduleId: a.scheduleId, memo: { owner: 'ops' } }])).toThrow(
      ScheduleConflictError,
    );
    expect(() =>
      planSchedules('g', [a], [{ scheduleId: a.scheduleId, memo: memo('other', a.specHash) }]),
    ).toThrow(/schedule vir-g-a is managed by vir for group "other"/);
  });

  it('reads only vir memos', () => {
    expect(readManagedMemo({ managedBy: 'vir', group: 'g', specHash: 'h' })).toEqual({
      managedBy: 'vir',
      group: 'g',
      specHash: 'h',
    });
    expect(readManagedMemo({ managedBy: 'ops', group: 'g' })).toBeNull();
    expect(readManagedMemo(undefined)).toBeNull();
  });
});
