/**
 * The Temporal Schedule a job should have: id, spec, action, policies, state and the memo
 * that marks it as ours (`managedBy: 'vir'`, its group and a hash of the definition).
 * Pure: no Temporal calls, so `schedules apply` can be planned and tested offline.
 */
import { createHash } from 'node:crypto';
import { MONTHS, ScheduleOverlapPolicy, type CalendarSpec, type ScheduleOptions } from '@temporalio/client';
import type { AnyJob, JobCalendar, OverlapPolicy } from '../../jobs/files.js';
import type { Settings } from '../../config/settings.js';
import { jobWorkflowIdBase, kindOf } from '../run-job.js';
/** The memo value that marks a schedule as managed by `vir schedules apply`. */
export const MANAGED_BY = 'vir';

/** The memo of a managed schedule. */
export interface ScheduleMemo {
  managedBy: typeof MANAGED_BY;
  group: string;
  specHash: string;
}

/** A schedule as `schedules apply` wants it. */
export interface DesiredSchedule {
  scheduleId: string;
  jobId: string;
  group: string;
  specHash: string;
  options: ScheduleOptions & { memo: ScheduleMemo & Record<string, unknown> };
}

const OVERLAP: Record<OverlapPolicy, ScheduleOverlapPolicy> = {
  skip: ScheduleOverlapPolicy.SKIP,
  buffer_one: ScheduleOverlapPolicy.BUFFER_ONE,
  buffer_all: ScheduleOverlapPolicy.BUFFER_ALL,
  cancel_other: ScheduleOverlapPolicy.CANCEL_OTHER,
  terminate_other: ScheduleOverlapPolicy.TERMINATE_OTHER,
  allow_all: ScheduleOverlapPolicy.ALLOW_ALL,
};

/** Maps a job file's overlap name to Temporal's policy. */
export function overlapPolicy(name: OverlapPolicy): ScheduleOverlapPolicy {
  return OVERLAP[name];
}

/** Parses an overlap name as the CLI accepts it (`skip`, `ALLOW_ALL`, `allow-all`). */
export function parseOverlap(text: string): ScheduleOverlapPolicy {
  const key = text.trim().toLowerCase().replace(/-/g, '_') as OverlapPolicy;
  const policy = OVERLAP[key];
  if (!policy)
    throw new Error(`unknown overlap policy "${text}" (one of ${Object.keys(OVERLAP).join(', ')})`);
  return policy;
}

/** Schedule id of a job: `vir-<group>-<job id>`. */
export function scheduleIdFor(group: string, jobId: string): string {
  return `vir-${group}-${jobId}`;
}

function list<T>(v: T | T[] | undefined): T[] | undefined {
  return v === undefined ? undefined : Array.isArray(v) ? v : [v];
}

/** A job file calendar entry as a Temporal calendar spec. */
export function calendarSpec(c: JobCalendar): CalendarSpec {
  const spec: CalendarSpec = { hour: c.hour, minute: c.minute };
  const dow = list(c.dayOfWeek);
  if (dow) spec.dayOfWeek = dow;
  const dom = list(c.dayOfMonth);
  if (dom) spec.dayOfMonth = dom;
  const month = list(c.month);
  if (month) spec.month = month.map((m) => MONTHS[m - 1]!);
  return spec;
}

/** JSON with object keys sorted, so equal definitions give equal text. */
export function stableStringify(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date)) {
      return Object.fromEntries(
        Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
      );
    }
    return v;
  });
}

/**
 * The schedule a job should have, or null when the job has no schedule.
 *
 * @example
 * const d = desiredSchedule(job, 'weekly', settings);
 * await client.schedule.create(d.options);
 */
export function desiredSchedule(
  job: AnyJob,
  group: string,
  settings: Pick<Settings, 'taskQueue' | 'apiTaskQueue'>,
): DesiredSchedule | null {
  const s = job.schedule;
  if (!s) return null;
  const scheduleId = scheduleIdFor(group, job.id);
  const spec: ScheduleOptions['spec'] = { timezone: s.timezone };
  const crons = list(s.cron);
  if (crons) spec.cronExpressions = crons;
  const calendars = list(s.calendar);
  if (calendars) spec.calendars = calendars.map(calendarSpec);
  if (s.jitter) spec.jitter = s.jitter as NonNullable<ScheduleOptions['spec']['jitter']>;
  const action: ScheduleOptions['action'] = {
    type: 'startWorkflow',
    workflowType: kindOf(job).workflow.name,
    taskQueue: settings.taskQueue,
    // Temporal appends the scheduled time to the ids of scheduled runs.
    workflowId: jobWorkflowIdBase(job),
    args: [{ job, trigger: 'schedule', apiTaskQueue: settings.apiTaskQueue }],
    memo: { jobId: job.id, trigger: 'schedule' },
  };
  const policies = { overlap: overlapPolicy(job.overlap) };
  const paused = s.paused;
  const specHash = createHash('sha256')
    .update(stableStringify({ spec, action, policies, paused }))
    .digest('hex')
    .slice(0, 16);
  return {
    scheduleId,
    jobId: job.id,
    group,
    specHash,
    options: {
      scheduleId,
      spec,
      action,
      policies,
      state: { paused, note: `managed by vir (group ${group})` },
      memo: { managedBy: MANAGED_BY, group, specHash },
    },
  };
}

/** Whether a memo (as Temporal returns it) marks a schedule as managed by vir. */
export function readManagedMemo(memo: Record<string, unknown> | undefined): ScheduleMemo | null {
  if (!memo || memo.managedBy !== MANAGED_BY || typeof memo.group !== 'string') return null;
  return {
    managedBy: MANAGED_BY,
    group: memo.group,
    specHash: typeof memo.specHash === 'string' ? memo.specHash : '',
  };
}
