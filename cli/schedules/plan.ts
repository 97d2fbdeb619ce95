/**
 * What `schedules apply` must do to make the server's schedules match a job file: compare the
 * desired schedules with the existing ones (by id and the spec hash in their memo). Only
 * schedules whose memo says `managedBy: 'vir'` and the same group are ever changed or deleted.
 */
import { readManagedMemo, type DesiredSchedule } from './desired.js';

/** A schedule that exists on the server, as far as planning needs it. */
export interface ExistingSchedule {
  scheduleId: string;
  memo: Record<string, unknown> | undefined;
}

export type PlanStep =
  | { kind: 'create'; scheduleId: string; desired: DesiredSchedule }
  | { kind: 'update'; scheduleId: string; desired: DesiredSchedule; previousHash: string }
  | { kind: 'delete'; scheduleId: string }
  | { kind: 'unchanged'; scheduleId: string };

/** A schedule id the plan cannot take because something else owns it. */
export class ScheduleConflictError extends Error {
  readonly code = 'schedule_conflict';
  constructor(
    readonly scheduleId: string,
    reason: string,
  ) {
    super(`schedule ${scheduleId} ${reason}; vir leaves it alone: rename the job or the group`);
    this.name = 'ScheduleConflictError';
  }
}

/**
 * Plans create / update / delete / unchanged steps, in a stable order (desired schedules in
 * file order, then deletions by id).
 *
 * @throws ScheduleConflictError when a desired id is taken by a schedule vir does not manage
 *   (or that belongs to another group).
 */
export function planSchedules(
  group: string,
  desired: readonly DesiredSchedule[],
  existing: readonly ExistingSchedule[],
): PlanStep[] {
  const byId = new Map(existing.map((e) => [e.scheduleId, e]));
  const wanted = new Set<string>();
  const steps: PlanStep[] = [];
  for (const d of desired) {
    wanted.add(d.scheduleId);
    const current = byId.get(d.scheduleId);
    if (!current) {
      steps.push({ kind: 'create', scheduleId: d.scheduleId, desired: d });
      continue;
    }
    const memo = readManagedMemo(current.memo);
    if (!memo) throw new ScheduleConflictError(d.scheduleId, 'exists and is not managed by vir');
    if (memo.group !== group)
      throw new ScheduleConflictError(d.scheduleId, `is managed by vir for group "${memo.group}"`);
    steps.push(
      memo.specHash === d.specHash
        ? { kind: 'unchanged', scheduleId: d.scheduleId }
        : { kind: 'update', scheduleId: d.scheduleId, desired: d, previousHash: memo.specHash },
    );
  }
  const deletions = existing
    .filter((e) => !wanted.has(e.scheduleId) && readManagedMemo(e.memo)?.group === group)
    .map((e) => e.scheduleId)
    .sort();
  for (const scheduleId of deletions) steps.push({ kind: 'delete', scheduleId });
  return steps;
}
