/**
 * The reference date of the data: the `as_of` row of the meta table written by the generator,
 * else the date of the latest round, else today.
 */
import type { DatabaseSync } from 'node:sqlite';
import { prepared } from './statements.js';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The data's as-of date (YYYY-MM-DD). */
export function dataAsOf(db: DatabaseSync, fallback: Date = new Date()): string {
  const meta = prepared(db, "SELECT value FROM meta WHERE key = 'as_of'").get() as
    { value: string } | undefined;
  if (meta && DATE.test(meta.value)) return meta.value;
  const latest = prepared(db, 'SELECT MAX(date) AS date FROM rounds').get() as
    { date: string | null } | undefined;
  if (latest?.date && DATE.test(latest.date)) return latest.date;
  return fallback.toISOString().slice(0, 10);
}

/** The first year of the data (the service covers rounds since 2020). */
export const FIRST_YEAR = 2020;

/** The date `years` years before a YYYY-MM-DD date, plus one day: the start of a trailing window. */
export function trailingStart(asOf: string, years: number): string {
  const d = new Date(`${asOf}T00:00:00Z`);
  d.setUTCFullYear(d.getUTCFullYear() - years);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}
