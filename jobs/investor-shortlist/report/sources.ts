/**
 * Where the shortlist's figures come from, as its reports say it: the Source cell of a row (its
 * company's find_investors answer, and the get_investor profile that enriched it), the mark of
 * what the runner computed (new since the last run, the investors several companies share,
 * the credits per company from its books), each service chart's caption, and the appendix's
 * list of sources by operation. A report stored before sources were kept has none: its cells
 * are empty and its appendix says why.
 */
import { COLORS } from '../../../reports/pdf/index.js';
import type { ReportPdf } from '../../../reports/pdf/index.js';
import {
  COMPUTED_BY_RUNNER,
  drawSourcesSection,
  idsOfOperations,
  sourceCaption,
  sourceSpan,
} from '../../../reports/sources.js';
import type { ShortlistReport } from '../types.js';

const LIST_OP = 'find_investors';
const PROFILE_OP = 'get_investor';

/** What "New since last run" is: the runner's comparison with the job's snapshot. */
export const NEW_BASIS = `${COMPUTED_BY_RUNNER}: "New since last run" against the company's list at the job's last run`;

/** What a shared investor is: the runner's join of the companies' lists. */
export const SHARED_BASIS = `${COMPUTED_BY_RUNNER}: on these companies' lists; best fit the highest of their fits`;

/** What a company's credits are: the sum of the run's books, answers lost after the charge included. */
export const CREDITS_BASIS = `${COMPUTED_BY_RUNNER}: from its books of the paid calls, lost answers included`;

/** The caption of company `i`'s service charts: the list answer they came with (null: not known). */
export function chartSource(report: ShortlistReport, i: number): string | null {
  const id = report.companies[i]?.source;
  return id ? sourceCaption(report.sources, [id]) : null;
}

/** The Summary's lines on where its figures come from. */
export function figureSourceLines(report: ShortlistReport): string[] {
  const lists = idsOfOperations(report.sources, [LIST_OP]);
  const profiles = idsOfOperations(report.sources, [PROFILE_OP]);
  const ids = (list: string[]) => (list.length > 0 ? ` (${sourceSpan(list)})` : '');
  return [
    `Investors listed, their rank, fit, reasons and the service's charts: read from each company's ${LIST_OP} answer${ids(lists)}; ` +
      `partner, check size, thesis and recent portfolio of the enriched investors from ${PROFILE_OP}${ids(profiles)}.`,
    report.baseline
      ? 'New since the last run: none on a baseline, nothing compared.'
      : `New since the last run: ${COMPUTED_BY_RUNNER}, each company's list against the job's last run.`,
    `Shared investors and the counts: ${COMPUTED_BY_RUNNER} from the lists. Credits per company: ${COMPUTED_BY_RUNNER} from its books.`,
    report.sources
      ? 'The Sources sheet lists every answer the report was made from; each data row names its own in its Source column.'
      : 'This report was made before its sources were recorded: the Sources sheet says so and the Source cells are empty.',
  ];
}

/** The appendix's part on where the figures come from: a line, then the sources by operation. */
export function sourcesPart(pdf: ReportPdf, report: ShortlistReport, runKey?: string): void {
  const lists = idsOfOperations(report.sources, [LIST_OP]);
  const profiles = idsOfOperations(report.sources, [PROFILE_OP]);
  const ids = (list: string[]) => (list.length > 0 ? ` (${sourceSpan(list)})` : '');
  const intro =
    `Each company's investors, fits, reasons and charts are read from its ${LIST_OP} answer${ids(lists)}; ` +
    `partners, check sizes, theses and portfolios from ${PROFILE_OP}${ids(profiles)}. ` +
    (report.baseline
      ? 'This run is the baseline: nothing is marked new. '
      : "New since the last run is computed by the runner against the job's last run. ") +
    'The investors several companies share and the credits per company are computed by the runner.';
  const heading = 'Where the figures come from';
  pdf.heading(heading, 2, { keepWith: pdf.paragraphHeight(intro, { size: 9 }) + 40 });
  pdf.paragraph(intro, { size: 9, color: COLORS.ink });
  drawSourcesSection(pdf, report.sources, { heading: 'Sources', level: 2, ...(runKey ? { runKey } : {}) });
}
