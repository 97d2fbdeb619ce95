/**
 * The words of the investor shortlist, written once for the PDF and the workbook: the title and
 * the line under it, the baseline line, credits, a fit, a check size, a company's problem, and
 * names as the report's font can print them.
 */
import { printableName, printableText, STAND_IN_MARK } from '../../../reports/fonts.js';
import { formatDate, formatInt, formatUsd, oneLine } from '../../../reports/format.js';
import type { CompanySection, ShortlistReport, ShortlistRow } from '../types.js';

/** The line a baseline report carries under its title. */
export const BASELINE_LINE = 'Baseline: the first run of this job; the next runs mark investors new since.';

/** The mark of an investor new since the last run. */
export const NEW_MARK = 'NEW';

/** What a text the font cannot draw is printed as. */
const UNPRINTABLE = '[…]';

const plural = (n: number, one: string, many: string): string => `${formatInt(n)} ${n === 1 ? one : many}`;

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

/** A fit as printed, one decimal always (the digits line up in a column): `87.5%`; `—` when unknown. */
export function fitText(fit: number | null): string {
  return fit === null || !Number.isFinite(fit) ? '—' : `${fit.toFixed(1)}%`;
}

/** A typical check: `$500K–$2M`, `from $1M`, `up to $3M`; `—` when not given. */
export function checkText(min: number | null, max: number | null): string {
  if (min !== null && max !== null)
    return min === max ? formatUsd(min) : `${formatUsd(min)}–${formatUsd(max)}`;
  if (min !== null) return `from ${formatUsd(min)}`;
  if (max !== null) return `up to ${formatUsd(max)}`;
  return '—';
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

/** Service text as the PDF prints it: on one line, what the font cannot draw as `[…]`. */
export function serviceText(text: string): string {
  return printableText(text, UNPRINTABLE);
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
