/**
 * How the portal writes times and schedules for a person: one date format ("24 Nov 2026"), a
 * time with its time zone named, a job's schedule in words.
 */
import type { JobCalendar, JobSchedule } from '../jobs/files.js';
import { formatDateTime } from '../reports/format.js';

/**
 * A moment in a time zone, named: `Mon 24 Nov 2026, 07:00 Europe/London`.
 *
 * @example
 * formatIn(new Date('2026-11-24T07:00:00Z'), 'Europe/London') // 'Tue 24 Nov 2026, 07:00 Europe/London'
 */
export function formatIn(at: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone,
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  const month = String(parts.month).replace('Sept', 'Sep');
  return `${parts.weekday} ${parts.day} ${month} ${parts.year}, ${parts.hour}:${parts.minute} ${timeZone}`;
}

/** A moment in UTC as the reports write it: `24 Nov 2026 07:00 UTC` (a dash for none). */
export function formatUtc(at: Date | string | null | undefined): string {
  if (!at) return '-';
  return formatDateTime(typeof at === 'string' ? at : at.toISOString());
}

const DAY_NAMES: Record<string, string> = {
  SUNDAY: 'Sunday',
  MONDAY: 'Monday',
  TUESDAY: 'Tuesday',
  WEDNESDAY: 'Wednesday',
  THURSDAY: 'Thursday',
  FRIDAY: 'Friday',
  SATURDAY: 'Saturday',
};
const CRON_DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const CRON_DAY_ABBR = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

const list = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

function clock(hour: number, minute: number): string {
  return `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
}

function joinWords(words: string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

function ordinal(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10];
  return `${n}${suffix ?? 'th'}`;
}

/** Which days a calendar or cron entry runs on, in words: `Mondays`, `every day`, `the 1st of each month`. */
function daysInWords(days: string[], doms: number[], months: number[]): string {
  const on =
    days.length > 0 && days.length < 7
      ? joinWords(days.map((d) => `${d}s`))
      : doms.length > 0
        ? `the ${joinWords(doms.map(ordinal))} of ${months.length > 0 ? 'the month' : 'each month'}`
        : 'every day';
  return months.length > 0 ? `${on} in ${joinWords(months.map((m) => MONTHS[m - 1] ?? String(m)))}` : on;
}

function calendarInWords(c: JobCalendar): string {
  const days = list(c.dayOfWeek).map((d) => DAY_NAMES[d] ?? d);
  return `${daysInWords(days, list(c.dayOfMonth), list(c.month))} at ${clock(c.hour, c.minute)}`;
}

/** A cron field of plain numbers (`1`, `1,3`, `1-5`), expanded; null when it is anything else. */
function cronNumbers(field: string, names: string[] = []): number[] | null {
  if (field === '*') return [];
  const out: number[] = [];
  for (const part of field.split(',')) {
    const num = (t: string) => {
      const i = names.indexOf(t.toUpperCase());
      return i >= 0 ? i : /^\d+$/.test(t) ? Number(t) : NaN;
    };
    const range = /^([A-Za-z0-9]+)-([A-Za-z0-9]+)$/.exec(part);
    if (range) {
      const [from, to] = [num(range[1]!), num(range[2]!)];
      if (Number.isNaN(from) || Number.isNaN(to) || to < from) return null;
      for (let n = from; n <= to; n++) out.push(n);
    } else {
      const n = num(part);
      if (Number.isNaN(n)) return null;
      out.push(n);
    }
  }
  return out;
}

function cronInWords(cron: string): string {
  const fields = cron.trim().split(/\s+/);
  if (fields.length === 5) {
    const [minute, hour, dom, month, dow] = fields as [string, string, string, string, string];
    const m = /^\d+$/.test(minute) ? Number(minute) : null;
    const h = /^\d+$/.test(hour) ? Number(hour) : null;
    const doms = cronNumbers(dom);
    const months = cronNumbers(month);
    const dows = cronNumbers(dow, CRON_DAY_ABBR);
    if (m !== null && h !== null && doms && months && dows && !(doms.length > 0 && dows.length > 0)) {
      const days = [...new Set(dows.map((d) => CRON_DAYS[d % 7]!))];
      return `${daysInWords(days, doms, months)} at ${clock(h, m)}`;
    }
  }
  return `cron "${cron}"`;
}

/**
 * A job's schedule in words, with its time zone: `Mondays at 07:00 (Europe/London)`,
 * `the 1st of each month at 07:00 (Europe/London), up to 5m later`.
 */
export function scheduleInWords(schedule: JobSchedule): string {
  const entries = schedule.cron
    ? list(schedule.cron).map(cronInWords)
    : list(schedule.calendar).map(calendarInWords);
  const jitter = schedule.jitter ? `, up to ${schedule.jitter} later` : '';
  return `${entries.join('; ')} (${schedule.timezone})${jitter}`;
}
