/**
 * Time expressions in a question: "in 2023", "since 2022", "from 2021 to 2023", "last 7 days",
 * "last month", "this year", "Q3 2024", "in March 2025", relative to a reference date (the
 * database's as-of date).
 */

/** A closed date range, YYYY-MM-DD both ends. */
export interface Period {
  from: string;
  to: string;
  /** How the answer names it: "in 2023", "in the last 7 days", "since 2022". */
  label: string;
}

export interface TimeSlots {
  period: Period | null;
  /** Years written in the question, in order of appearance (unique). */
  years: number[];
  /** "from 2021 to 2023" or "2021 vs 2023": the two years compared. */
  compare: [number, number] | null;
}

const WORD_NUMBERS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  fifteen: 15,
  twenty: 20,
  thirty: 30,
  fifty: 50,
  hundred: 100,
};

/** A number written as digits or an English word ("10", "ten"); null when neither. */
export function parseCount(word: string | undefined): number | null {
  if (!word) return null;
  if (/^\d+$/.test(word)) return Number(word);
  return WORD_NUMBERS[word.toLowerCase()] ?? null;
}

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

const iso = (d: Date) => d.toISOString().slice(0, 10);
const utc = (y: number, m: number, d: number) => new Date(Date.UTC(y, m, d));

function shift(ref: Date, unit: string, n: number): Date {
  const d = new Date(ref.getTime());
  if (unit === 'day') d.setUTCDate(d.getUTCDate() - n);
  else if (unit === 'week') d.setUTCDate(d.getUTCDate() - 7 * n);
  else if (unit === 'month') d.setUTCMonth(d.getUTCMonth() - n);
  else if (unit === 'quarter') d.setUTCMonth(d.getUTCMonth() - 3 * n);
  else d.setUTCFullYear(d.getUTCFullYear() - n);
  return d;
}

const YEAR = '(20[0-9]{2})';

/**
 * Reads the time slots of a (lowercased) question.
 *
 * @example
 * readTime('largest rounds of the last 7 days', new Date('2025-06-30')).period
 * // { from: '2025-06-24', to: '2025-06-30', label: 'in the last 7 days' }
 */
export function readTime(q: string, ref: Date): TimeSlots {
  const refIso = iso(ref);
  const refYear = ref.getUTCFullYear();
  const years = [...new Set([...q.matchAll(new RegExp(`\\b${YEAR}\\b`, 'g'))].map((m) => Number(m[1])))];
  let compare: [number, number] | null = null;
  let period: Period | null = null;

  const range =
    new RegExp(`\\b(?:from|between)\\s+${YEAR}\\s+(?:to|and|until|till|through|-)\\s+${YEAR}\\b`).exec(q) ??
    new RegExp(`\\b${YEAR}\\s*(?:-|–|to|through|until)\\s*${YEAR}\\b`).exec(q);
  const versus = new RegExp(
    `\\b${YEAR}\\s+(?:vs\\.?|versus|compared (?:to|with)|against|and)\\s+${YEAR}\\b`,
  ).exec(q);
  const rel =
    /\b(?:last|past|previous|recent)\s+(\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|fifty|hundred)\s+(day|week|month|quarter|year)s?\b/.exec(
      q,
    );
  const lastUnit = /\b(?:last|previous|past)\s+(week|month|quarter|year|12 months)\b/.exec(q);
  const thisUnit = /\b(?:this|current)\s+(year|month|quarter)\b|\b(ytd|year to date|so far this year)\b/.exec(
    q,
  );
  const since = new RegExp(
    `\\b(?:since|after|from)\\s+(?:(${MONTHS.join('|')})\\s+)?${YEAR}\\b(?!\\s*(?:-|–|to|and|through|until))`,
  ).exec(q);
  const before = new RegExp(`\\b(?:before|until|prior to)\\s+${YEAR}\\b`).exec(q);
  const quarter = new RegExp(
    `\\bq([1-4])\\s*(?:of\\s+)?${YEAR}\\b|\\b${YEAR}\\s*q([1-4])\\b|\\b(first|second|third|fourth) quarter of ${YEAR}\\b`,
  ).exec(q);
  const month = new RegExp(`\\b(${MONTHS.join('|')})\\s+(?:of\\s+)?${YEAR}\\b`).exec(q);

  if (range) {
    const a = Number(range[1]);
    const b = Number(range[2]);
    const [lo, hi] = a <= b ? [a, b] : [b, a];
    compare = [a, b];
    period = { from: `${lo}-01-01`, to: `${hi}-12-31`, label: `from ${lo} to ${hi}` };
  } else if (versus) {
    const a = Number(versus[1]);
    const b = Number(versus[2]);
    compare = [a, b];
    period = { from: `${Math.min(a, b)}-01-01`, to: `${Math.max(a, b)}-12-31`, label: `in ${a} and ${b}` };
  } else if (rel) {
    const n = parseCount(rel[1]) ?? 1;
    const unit = rel[2]!;
    const from = shift(ref, unit, n);
    from.setUTCDate(from.getUTCDate() + 1);
    period = { from: iso(from), to: refIso, label: `in the last ${n} ${unit}${n === 1 ? '' : 's'}` };
  } else if (quarter) {
    const qn = Number(
      quarter[1] ?? quarter[4] ?? ['first', 'second', 'third', 'fourth'].indexOf(quarter[5] ?? '') + 1,
    );
    const y = Number(quarter[2] ?? quarter[3] ?? quarter[6]);
    period = { from: iso(utc(y, (qn - 1) * 3, 1)), to: iso(utc(y, qn * 3, 0)), label: `in Q${qn} ${y}` };
  } else if (month) {
    const m = MONTHS.indexOf(month[1]!);
    const y = Number(month[2]);
    period = {
      from: iso(utc(y, m, 1)),
      to: iso(utc(y, m + 1, 0)),
      label: `in ${month[1]![0]!.toUpperCase()}${month[1]!.slice(1)} ${y}`,
    };
  } else if (since) {
    const m = since[1] ? MONTHS.indexOf(since[1]) : 0;
    const y = Number(since[2]);
    period = {
      from: iso(utc(y, m, 1)),
      to: refIso,
      label: `since ${since[1] ? `${since[1][0]!.toUpperCase()}${since[1].slice(1)} ` : ''}${y}`,
    };
  } else if (before) {
    const y = Number(before[1]);
    period = { from: '2000-01-01', to: `${y - 1}-12-31`, label: `before ${y}` };
  } else if (lastUnit) {
    const unit = lastUnit[1]!;
    if (unit === 'week') {
      period = { from: iso(shift(ref, 'day', 6)), to: refIso, label: 'in the last 7 days' };
    } else if (unit === '12 months') {
      const from = shift(ref, 'year', 1);
      from.setUTCDate(from.getUTCDate() + 1);
      period = { from: iso(from), to: refIso, label: 'in the last 12 months' };
    } else if (unit === 'month') {
      const m = ref.getUTCMonth();
      period = { from: iso(utc(refYear, m - 1, 1)), to: iso(utc(refYear, m, 0)), label: 'last month' };
    } else if (unit === 'quarter') {
      const qStart = Math.floor(ref.getUTCMonth() / 3) * 3;
      period = {
        from: iso(utc(refYear, qStart - 3, 1)),
        to: iso(utc(refYear, qStart, 0)),
        label: 'last quarter',
      };
    } else {
      period = { from: `${refYear - 1}-01-01`, to: `${refYear - 1}-12-31`, label: `in ${refYear - 1}` };
    }
  } else if (thisUnit) {
    const unit = thisUnit[1] ?? 'year';
    if (unit === 'month')
      period = { from: iso(utc(refYear, ref.getUTCMonth(), 1)), to: refIso, label: 'this month' };
    else if (unit === 'quarter') {
      period = {
        from: iso(utc(refYear, Math.floor(ref.getUTCMonth() / 3) * 3, 1)),
        to: refIso,
        label: 'this quarter',
      };
    } else period = { from: `${refYear}-01-01`, to: refIso, label: `in ${refYear} so far` };
  } else if (years.length === 1) {
    const y = years[0]!;
    period = { from: `${y}-01-01`, to: `${y}-12-31`, label: `in ${y}` };
  } else if (years.length >= 2) {
    const lo = Math.min(...years);
    const hi = Math.max(...years);
    compare = [years[0]!, years[years.length - 1]!];
    period = { from: `${lo}-01-01`, to: `${hi}-12-31`, label: `from ${lo} to ${hi}` };
  }
  if (period && period.to > refIso) period = { ...period, to: refIso };
  return { period, years, compare };
}
