/**
 * What the investor shortlist opens with, written once for the PDF's first page and the messages
 * that deliver the shortlist: the key figures (companies, investors, new, on several lists)
 * and a headline sentence. What the run spent is the appendix's (run statistics stay off the
 * reader's first page).
 */
import { plural } from '../../../reports/editorial.js';
import { formatInt, headlineText } from '../../../reports/format.js';
import type { KeyFigure } from '../../../reports/pdf/index.js';
import type { ShortlistReport } from '../types.js';
import { BASELINE_LINE } from './text.js';

/** The key figures under the opening's title, in order. */
export function openingFigures(report: ShortlistReport): KeyFigure[] {
  const listed = report.companies.filter((c) => c.problem === null);
  const investors = report.companies.reduce((n, c) => n + c.investors.length, 0);
  const fresh = report.companies.reduce((n, c) => n + c.newCount, 0);
  const missing = report.companies.length - listed.length;
  return [
    {
      label: 'Companies',
      value: formatInt(report.companies.length),
      note: missing > 0 ? `${formatInt(missing)} without a list` : 'each with a list',
    },
    { label: 'Investors', value: formatInt(investors), note: 'listed in all' },
    {
      label: 'New',
      value: report.baseline ? '—' : formatInt(fresh),
      note: report.baseline ? 'from the next run' : 'since the last run',
    },
    { label: 'On several lists', value: formatInt(report.shared.length), note: 'investors' },
  ];
}

/**
 * The shortlist in a sentence: `25 investors listed for 2 of 3 portfolio companies, 10 new since
 * the last run; 4 on several lists.` (on a baseline, the baseline line instead of the new ones).
 */
export function openingHeadline(report: ShortlistReport): string {
  const total = report.companies.length;
  const listed = report.companies.filter((c) => c.problem === null).length;
  const investors = report.companies.reduce((n, c) => n + c.investors.length, 0);
  const fresh = report.companies.reduce((n, c) => n + c.newCount, 0);
  const companies =
    listed === total
      ? plural(total, 'portfolio company', 'portfolio companies')
      : `${formatInt(listed)} of ${plural(total, 'portfolio company', 'portfolio companies')}`;
  const shared = report.shared.length;
  return headlineText(
    `${plural(investors, 'investor', 'investors')} listed for ${companies}` +
      (report.baseline ? '' : `, ${formatInt(fresh)} new since the last run`) +
      (shared > 0 ? `; ${formatInt(shared)} on several lists` : '') +
      '.' +
      (report.baseline ? ` ${BASELINE_LINE}` : ''),
  );
}
