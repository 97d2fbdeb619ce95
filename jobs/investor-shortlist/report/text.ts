/**
 * The words of the investor shortlist, written once for the PDF and the workbook: the title and
 * the line under it, the baseline line, credits, a fit, a check size, a company's problem, and
 * names as the report's font can print them.
 */
import { formatFit, formatMoneyIn, plural, stagesInWords } from '../../../reports/editorial.js';
import type { MoneyUnit } from '../../../reports/editorial.js';
import { printableName, printableText, STAND_IN_MARK } from '../../../reports/fonts.js';
import { formatDate, formatInt, oneLine } from '../../../reports/format.js';
import type { CompanySection, ShortlistReport, ShortlistRow } from '../types.js';

/** The line a baseline report carries under its title. */
export const BASELINE_LINE = 'Baseline: the first run of this job; the next runs mark investors new since.';

/** The mark of an investor new since the last run. */
export const NEW_MARK = 'NEW';

/** What a text the font cannot draw is printed as. */
const UNPRINTABLE = '[…]';

/** The title as printed: the job's title, or a default. */
export function shortlistTitle(report: ShortlistReport): string {
  return report.job.title.trim() || 'Investor shortlist';
}

/** The line under the title: the date, how many companies, the job. */
export function shortlistSubtitle(report: ShortlistReport): string {
  return [
    `Investor shortlist of ${formatDate(report.date)}`,
    plural(report.companies.length, 'portfolio company', 'portfolio companies'),
    `job ${report.job.id}`,
  ].join(' · ');
}

/** Credits spent of the run's budget, in a sentence. */
export function creditsLine(report: ShortlistReport): string {
  const { spent, budget } = report.credits;
  return `Credits spent: ${formatInt(spent)} of a budget of ${formatInt(budget)}.`;
}

/** A fit as every report prints it (formatFit): `87.5%`; `—` when unknown. */
export function fitText(fit: number | null): string {
  return formatFit(fit);
}

/** How a table prints its check sizes: one unit and one number of decimals for the whole column. */
export interface CheckFormat {
  unit: MoneyUnit;
  digits: number;
}

/**
 * The check sizes' format for a set of rows: the unit of the largest check ($M for checks of
 * $250K to $4M) and the fewest decimals (0 to 2) that show every check exactly in it, so
 * `$0.25M–$2.00M` sits above `$0.50M–$4.00M` and no check reads rounded.
 */
export function checkFormat(rows: readonly Pick<ShortlistRow, 'checkMinUsd' | 'checkMaxUsd'>[]): CheckFormat {
  const values = rows.flatMap((r) => [r.checkMinUsd, r.checkMaxUsd]).filter((v): v is number => v !== null);
  const max = Math.max(0, ...values.filter(Number.isFinite).map(Math.abs));
  const unit: MoneyUnit = max >= 1e9 ? 'B' : max >= 1e6 ? 'M' : 'K';
  const base = { K: 1e3, M: 1e6, B: 1e9 }[unit];
  const exact = (d: number) =>
    values.every((v) => Math.abs(Math.round((v / base) * 10 ** d) - (v / base) * 10 ** d) < 1e-6);
  return { unit, digits: [0, 1, 2].find(exact) ?? 2 };
}

/** A typical check in the table's format: `$0.25M–$2.00M`, `from $1.00M`, `up to $3.00M`; `—` when not given. */
export function checkText(min: number | null, max: number | null, format: CheckFormat): string {
  const usd = (v: number) => formatMoneyIn(v, format.unit, { digits: format.digits, symbol: true });
  if (min !== null && max !== null) return min === max ? usd(min) : `${usd(min)}–${usd(max)}`;
  if (min !== null) return `from ${usd(min)}`;
  if (max !== null) return `up to ${usd(max)}`;
  return '—';
}

/** A partner as printed under the investor's name: `Partner: Ana Ruiz (General Partner)`; null when none. */
export function partnerText(partner: ShortlistRow['partner']): string | null {
  if (!partner) return null;
  return `Partner: ${serviceText(partner.name)}${partner.role ? ` (${serviceText(partner.role)})` : ''}`;
}

/**
 * How telling a reason is to a founder deciding whom to call: the raise's own figures (rounds of
 * $X–$Y, a median round) and look-alikes backed first, then deal counts (sector, tags), then
 * where the investor is, and what the investor has not done ("no deals in …") last.
 */
function tellingRank(reason: string): number {
  const r = reason.trim().toLowerCase();
  if (/^no\b/.test(r)) return 4;
  if (/\$\d|look-alike/.test(r)) return 0;
  if (/^hq\b/.test(r)) return 2;
  if (/^\d/.test(r)) return 1;
  return 3;
}

/** The service's reasons, most telling first (each group in the service's order). */
export function tellingFirst(reasons: readonly string[]): string[] {
  return reasons
    .map((r, i) => ({ r, i }))
    .sort((a, b) => tellingRank(a.r) - tellingRank(b.r) || a.i - b.i)
    .map((x) => x.r);
}

/**
 * A reason as a reader gets it whole: stage keys in words, and a list the service ends with
 * `, …` ("backed 5 look-alikes: A, B, C, …") ended in words, so the only "…" a report prints
 * is one that cut nothing.
 */
export function reasonText(reason: string): string {
  return stagesInWords(reason.trim()).replace(/,?\s*(?:…|\.\.\.)$/, ' and others');
}

/** The best fit of a company's list, or null. */
export function topFit(section: CompanySection): number | null {
  const fits = section.investors.map((i) => i.fitPct).filter((f): f is number => f !== null);
  return fits.length > 0 ? Math.max(...fits) : null;
}

/** A company's problem as a sentence, its first letter up and a full stop at the end. */
export function problemSentence(problem: string): string {
  const t = oneLine(problem);
  const s = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?]$/.test(s) ? s : `${s}.`;
}

/** A name as the PDF and the charts print it: itself, or its key marked when the font lacks its script. */
export function printedName(name: string, key: string): string {
  return printableName(name, key);
}

/** Service text as the PDF prints it: on one line, stage keys in words, what the font cannot draw as `[…]`. */
export function serviceText(text: string): string {
  return printableText(stagesInWords(text), UNPRINTABLE);
}

/** HQ as printed: `Berlin, Germany`; `—` when neither is given. */
export function hqText(row: Pick<ShortlistRow, 'hqCity' | 'hqCountry'>): string {
  return serviceText([row.hqCity, row.hqCountry].filter((x): x is string => !!x?.trim()).join(', ')) || '—';
}

/**
 * The sentence under a table whose rows print a name as its key (or other text as `[…]`), in a
 * list of one; an empty list when no row does.
 */
export function standInNote(rows: readonly (readonly string[])[]): string[] {
  const marked = rows.some((r) => r.some((c) => c.includes(STAND_IN_MARK) || c.includes(UNPRINTABLE)));
  return marked
    ? [
        "* An investor's name in a script this report's fonts cannot print is " +
          'printed as its service key, other such text as […]; the workbook has them whole.',
      ]
    : [];
}
