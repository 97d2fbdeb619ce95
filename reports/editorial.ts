/**
 * The editorial style every report follows (docs/reports.md, "Editorial style"), as functions:
 * stages in words, a partial year marked YTD, one date format in prose and titles, plurals,
 * fit as a percentage, and money and percentages with one unit and one precision per table.
 * Templates call these; they never print a service key (`series-a`), an ISO date in a sentence,
 * or a year in progress as if it were whole.
 */
import { formatDate } from './format.js';

const DASH = '—';

/** The service's stage keys (and their common spellings) in words. */
const STAGE_WORDS: Record<string, string> = {
  'pre-seed': 'Pre-seed',
  preseed: 'Pre-seed',
  seed: 'Seed',
  'series-a': 'Series A',
  'series-b': 'Series B',
  'series-c': 'Series C',
  'series-c-plus': 'Series C+',
  'series-d': 'Series D',
  'series-d-plus': 'Series D+',
  'series-e': 'Series E',
  'series-e-plus': 'Series E+',
  growth: 'Growth',
  'late-stage': 'Late stage',
  bridge: 'Bridge',
  ipo: 'IPO',
  unknown: 'Unknown',
};

/**
 * A stage as a reader says it: `series-a` -> `Series A`, `series-d-plus` -> `Series D+`,
 * `pre-seed` -> `Pre-seed`. An unknown key is made readable (dashes as spaces, first letter
 * upper case); text already in words is kept.
 *
 * @example stageLabel('series-d-plus') // 'Series D+'
 */
export function stageLabel(stage: string | null | undefined): string {
  if (stage === null || stage === undefined || stage.trim() === '') return DASH;
  const key = stage
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-');
  const known = STAGE_WORDS[key];
  if (known) return known;
  const series = /^series-([a-z])(-plus|\+)?$/.exec(key);
  if (series) return `Series ${series[1]!.toUpperCase()}${series[2] ? '+' : ''}`;
  if (!/^[a-z0-9]+(-[a-z0-9]+)+$/.test(stage.trim())) return stage.trim();
  const words = key.replace(/-plus$/, '+').replace(/-/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * Stage keys inside a sentence in words: `from pre-seed to series-a` -> `from Pre-seed to Series A`
 * (the service's reasons and theses are prose). Keys inside a longer key or a URL path are kept.
 *
 * @example stagesInWords('led 3 series-b rounds') // 'led 3 Series B rounds'
 */
export function stagesInWords(text: string): string {
  return text.replace(/(?<![\w/-])(pre-seed|series-[a-z](?:-plus)?)(?![\w/-])/gi, (k) =>
    k === stageLabel(k) ? k : stageLabel(k.toLowerCase()),
  );
}

/**
 * Stage keys a reader must never see in a report's prose, tables, axes or legends (the rules
 * test looks for them).
 */
export const RAW_STAGE_KEYS: readonly string[] = [
  'pre-seed',
  'series-a',
  'series-b',
  'series-c',
  'series-c-plus',
  'series-d',
  'series-d-plus',
];

/** The UTC year of an ISO date, or null. */
function yearOf(iso: string | null | undefined): number | null {
  if (!iso) return null;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : d.getUTCFullYear();
}

/** Whether the data's as-of date leaves its year incomplete (any day but 31 December). */
export function isPartialYear(year: number, asOf: string | null | undefined): boolean {
  const d = asOf ? new Date(asOf) : null;
  if (!d || Number.isNaN(d.getTime())) return false;
  if (d.getUTCFullYear() !== year) return d.getUTCFullYear() < year;
  return !(d.getUTCMonth() === 11 && d.getUTCDate() === 31);
}

/**
 * A year as a label: `2025` for a full year, `2026 YTD` for the year the data is as of (until
 * 31 December). Use it on every axis, table row and sentence that names a year.
 *
 * @example yearLabel(2026, '2026-11-26') // '2026 YTD'; yearLabel(2025, '2026-11-26') // '2025'
 */
export function yearLabel(year: number | string, asOf: string | null | undefined): string {
  const y = typeof year === 'number' ? year : Number.parseInt(String(year), 10);
  if (!Number.isFinite(y)) return String(year);
  return isPartialYear(y, asOf) ? `${y} YTD` : String(y);
}

/** The year an as-of date is in, for `yearLabel`'s callers that need the number. */
export function currentYearOf(asOf: string | null | undefined): number | null {
  return yearOf(asOf);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * A period as one range in the report's date format: `20–26 Nov 2026`, `28 Nov – 4 Dec 2026`,
 * `29 Dec 2025 – 4 Jan 2026`; one day as `26 Nov 2026`.
 *
 * @example formatDateRange('2026-11-20', '2026-11-26') // '20–26 Nov 2026'
 */
export function formatDateRange(from: string | null | undefined, to: string | null | undefined): string {
  const a = from ? new Date(from) : null;
  const b = to ? new Date(to) : null;
  const ok = (d: Date | null): d is Date => d !== null && !Number.isNaN(d.getTime());
  if (!ok(a) || !ok(b)) return ok(a) ? formatDate(from) : ok(b) ? formatDate(to) : DASH;
  const [ad, am, ay] = [a.getUTCDate(), a.getUTCMonth(), a.getUTCFullYear()];
  const [bd, bm, by] = [b.getUTCDate(), b.getUTCMonth(), b.getUTCFullYear()];
  if (ay === by && am === bm && ad === bd) return formatDate(to);
  if (ay === by && am === bm) return `${ad}–${bd} ${MONTHS[bm]} ${by}`;
  if (ay === by) return `${ad} ${MONTHS[am]} – ${bd} ${MONTHS[bm]} ${by}`;
  return `${ad} ${MONTHS[am]} ${ay} – ${bd} ${MONTHS[bm]} ${by}`;
}

/**
 * A count with its noun, singular or plural: `1 brief`, `3 briefs`, `1,204 companies`.
 *
 * @example plural(1, 'brief') // '1 brief'; plural(2, 'company', 'companies') // '2 companies'
 */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : DASH} ${n === 1 ? one : many}`;
}

/**
 * Fit (or any score out of 100) as the reports show it everywhere: a percentage with one
 * decimal, `97.5%`; `—` when missing.
 *
 * @example formatFit(97.46) // '97.5%'
 */
export function formatFit(pct: number | null | undefined): string {
  if (typeof pct !== 'number' || !Number.isFinite(pct)) return DASH;
  return `${pct.toFixed(1)}%`;
}

/**
 * A percentage with a fixed number of decimals (one precision per table): `+11.0%`, `-0.4%`.
 *
 * @example formatPctFixed(11, true) // '+11.0%'
 */
export function formatPctFixed(pct: number | null | undefined, signed = false, digits = 1): string {
  if (typeof pct !== 'number' || !Number.isFinite(pct)) return DASH;
  const s = `${pct.toFixed(digits)}%`;
  return signed && pct > 0 ? `+${s}` : s;
}

/** The unit a table's money is shown in. */
export type MoneyUnit = 'K' | 'M' | 'B';

const UNIT_BASE: Record<MoneyUnit, number> = { K: 1e3, M: 1e6, B: 1e9 };

/**
 * The unit for a set of amounts (a table's column, a chart's axis): the one that shows the
 * largest with at most three digits before the point.
 *
 * @example moneyUnit([63e6, 47.7e6, 1.2e9]) // 'B'
 */
export function moneyUnit(values: readonly (number | null | undefined)[]): MoneyUnit {
  const max = Math.max(
    0,
    ...values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v)).map(Math.abs),
  );
  if (max >= 1e9) return 'B';
  if (max >= 1e6) return 'M';
  return 'K';
}

/**
 * An amount in a given unit with a fixed number of decimals, the unit named once in the table's
 * header (`Capital ($M)`) and the cells `63.0`, `47.7`: one precision per table. With `symbol`,
 * the cell carries it (`$63.0M`), for prose and tiles.
 *
 * @example formatMoneyIn(63e6, 'M') // '63.0'; formatMoneyIn(9.01e9, 'B', { symbol: true }) // '$9.0B'
 */
export function formatMoneyIn(
  usd: number | null | undefined,
  unit: MoneyUnit,
  options: { digits?: number; symbol?: boolean } = {},
): string {
  if (typeof usd !== 'number' || !Number.isFinite(usd)) return DASH;
  // Nothing is nothing in any unit: a tile says "$0", not "$0.0K".
  if (usd === 0 && options.symbol) return '$0';
  const digits = options.digits ?? 1;
  const v = (usd / UNIT_BASE[unit]).toLocaleString('en-US', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
  return options.symbol ? `${v.startsWith('-') ? '-' : ''}$${v.replace(/^-/, '')}${unit}` : v;
}

/** A table header naming its money unit once: `Capital ($M)`. */
export function moneyHeader(label: string, unit: MoneyUnit): string {
  return `${label} ($${unit})`;
}

/** http(s) URLs, left as they are inside a sentence. */
const URL_PART = /(https?:\/\/[^\s"'<>]+)/;

/** Service stage keys as words of their own, in the service's lower-case spelling. */
const STAGE_KEY_IN_TEXT = /(?<![\w/.-])(pre-seed|preseed|seed|series-[a-z](?:-plus)?|late-stage)(?![\w-])/g;

/** ISO dates (and timestamps) as words of their own. */
const ISO_DATE_IN_TEXT =
  /(?<![\w/.-])(\d{4}-\d{2}-\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?(?![\w/-])/g;

/**
 * The service's own sentences (reasons, analyst notes, event details) in the report's words:
 * stage keys as stage labels (`series-a round` -> `Series A round`, `at seed` -> `at Seed`) and
 * ISO dates in the report's date format (`on 2026-11-22` -> `on 22 Nov 2026`). Text already in
 * words is kept, and so is every URL.
 *
 * @example readerSentence('last round seed $9M on 2026-11-26') // 'last round Seed $9M on 26 Nov 2026'
 */
export function readerSentence(text: string): string {
  return text
    .split(URL_PART)
    .map((part, i) =>
      i % 2 === 1
        ? part
        : part
            .replace(STAGE_KEY_IN_TEXT, (k) => stageLabel(k))
            .replace(ISO_DATE_IN_TEXT, (_m, day: string) => formatDate(day)),
    )
    .join('');
}
