/**
 * How many times a job's schedule starts a run between two moments: its cron expressions, or
 * its calendar entries (read as cron in the schedule's time zone; a calendar giving both a day of
 * the month and a day of the week needs both, as Temporal's calendars do, not either as cron).
 */
import { CronExpressionParser } from 'cron-parser';
import type { JobCalendar, JobSchedule } from './base.js';

const DOW = ['SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY'];

const list = <T>(v: T | T[] | undefined): T[] | undefined =>
  v === undefined ? undefined : Array.isArray(v) ? v : [v];

/** A calendar entry as a cron expression, and the days of the week it also requires. */
function calendarCron(c: JobCalendar): { cron: string; weekdays: number[] | null } {
  const dom = list(c.dayOfMonth);
  const dow = list(c.dayOfWeek)?.map((d) => DOW.indexOf(d));
  const month = list(c.month);
  const both = dom !== undefined && dow !== undefined;
  const cron = [
    c.minute,
    c.hour,
    dom ? dom.join(',') : '*',
    month ? month.join(',') : '*',
    !both && dow ? dow.join(',') : '*',
  ].join(' ');
  return { cron, weekdays: both ? dow : null };
}

/** Runs the schedule starts in [from, to); 0 for a paused schedule. */
export function scheduledRunsBetween(schedule: JobSchedule, from: Date, to: Date): number {
  if (schedule.paused) return 0;
  const specs = schedule.cron
    ? list(schedule.cron)!.map((cron) => ({ cron, weekdays: null as number[] | null }))
    : list(schedule.calendar)!.map(calendarCron);
  const starts = new Set<number>();
  for (const spec of specs) {
    const it = CronExpressionParser.parse(spec.cron, {
      currentDate: new Date(from.getTime() - 1),
      endDate: to,
      tz: schedule.timezone,
    });
    while (it.hasNext()) {
      const at = it.next();
      const ms = at.getTime();
      if (ms >= to.getTime()) break;
      if (spec.weekdays && !spec.weekdays.includes(at.getDay())) continue;
      if (ms >= from.getTime()) starts.add(ms);
    }
  }
  return starts.size;
}

/** The first moment of the next calendar month (UTC) after `now`. */
export function nextMonthStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}
