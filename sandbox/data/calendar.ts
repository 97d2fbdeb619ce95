/**
 * Days of the data window (2020-01-01 to the as-of date) as integers, with fast conversion to
 * ISO dates and years.
 */

/** First day of the data window. */
export const WINDOW_START = '2020-01-01';
const START_MS = Date.UTC(2020, 0, 1);
const DAY_MS = 86_400_000;

/** Checks a YYYY-MM-DD date and returns it; throws a RangeError naming the problem. */
export function parseAsOf(asOf: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(asOf))
    throw new RangeError(`asOf must be a YYYY-MM-DD date, got "${asOf}"`);
  const ms = Date.parse(`${asOf}T00:00:00Z`);
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== asOf) {
    throw new RangeError(`asOf is not a calendar date: "${asOf}"`);
  }
  if (asOf < '2021-01-01' || asOf > '2100-12-31') {
    throw new RangeError(`asOf must lie between 2021-01-01 and 2100-12-31, got "${asOf}"`);
  }
  return asOf;
}

/** Today's date in UTC as YYYY-MM-DD. */
export function todayUtc(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

export class Calendar {
  /** Day index of the as-of date (day 0 is 2020-01-01). */
  readonly lastDay: number;
  private readonly dates: string[];
  private readonly years: Int16Array;

  constructor(readonly asOf: string) {
    this.lastDay = Math.round((Date.parse(`${asOf}T00:00:00Z`) - START_MS) / DAY_MS);
    this.dates = new Array<string>(this.lastDay + 1);
    this.years = new Int16Array(this.lastDay + 1);
    for (let d = 0; d <= this.lastDay; d++) {
      const iso = new Date(START_MS + d * DAY_MS).toISOString().slice(0, 10);
      this.dates[d] = iso;
      this.years[d] = Number(iso.slice(0, 4));
    }
  }

  /** YYYY-MM-DD of a day index inside the window. */
  dateOf(day: number): string {
    const iso = this.dates[day];
    if (iso === undefined) throw new RangeError(`day ${day} is outside the window`);
    return iso;
  }

  yearOf(day: number): number {
    return this.years[day] ?? 2020;
  }

  /** Day index of 1 January of a year. */
  firstDayOfYear(year: number): number {
    return Math.round((Date.UTC(year, 0, 1) - START_MS) / DAY_MS);
  }

  /** Years of the window, 2020 first. */
  get yearList(): number[] {
    const last = this.yearOf(this.lastDay);
    return Array.from({ length: last - 2019 }, (_, i) => 2020 + i);
  }

  /** Share of a year that lies inside the window (1 for full years, less for the as-of year). */
  yearCoverage(year: number): number {
    const start = this.firstDayOfYear(year);
    const end = this.firstDayOfYear(year + 1) - 1;
    if (start > this.lastDay) return 0;
    return (Math.min(end, this.lastDay) - start + 1) / (end - start + 1);
  }
}
