/**
 * The fund-match digest as a PDF for partners: a first page read in a minute (title, baseline
 * line, key figures, portfolio conflicts, new matches, notable watchlist events), then the
 * details (still matched, dropped, every event; the whole batch on a baseline) and the charts,
 * each captioned with the answers it was drawn from; an appendix for whoever runs the job says
 * where the figures come from and lists the sources by operation.
 *
 * The first page is laid out with a budget of matches, reasons and events (cells wrap whole,
 * never cut); when it
 * takes more than one page the digest is laid out again with a smaller budget. What a budget
 * leaves out of the first page is counted there and listed in the details.
 */
import { formatDate } from '../../../reports/format.js';
import type { ServiceLinks } from '../../../reports/links.js';
import { firstFitting, ReportPdf } from '../../../reports/pdf/index.js';
import type { FundDigest } from '../digest.js';
import type { FundChart } from './charts.js';
import { details } from './details.js';
import { firstPage } from './first-page.js';
import { sourcesAppendix } from './sources.js';
import type { FirstPageBudget } from './first-page.js';
import { digestTitle } from './text.js';

export type { FirstPageBudget } from './first-page.js';

/** The first page's budgets, tried in order; the last keeps the first page to one page for a batch of 30. */
export const FIRST_PAGE_BUDGETS: readonly FirstPageBudget[] = [
  { matches: 8, reasons: 2, events: 6, changes: 3 },
  { matches: 6, reasons: 2, events: 5, changes: 3 },
  { matches: 5, reasons: 2, events: 4, changes: 2 },
  { matches: 4, reasons: 1, events: 4, changes: 2 },
  { matches: 3, reasons: 1, events: 3, changes: 2 },
  { matches: 2, reasons: 1, events: 3, changes: 2 },
];

/** How the digest is written: its creation date, the service's links, the run (named when it kept no sources). */
export interface FundPdfOptions {
  creationDate?: Date;
  links?: ServiceLinks | null;
  runKey?: string;
}

/**
 * Lays the digest out with one first-page budget (see `writeFundDigest`, which picks it).
 * Returns the document and whether the first page held its content.
 */
export function buildFundDigest(
  digest: FundDigest,
  charts: readonly FundChart[],
  budget: FirstPageBudget,
  options: FundPdfOptions = {},
): { pdf: ReportPdf; firstPageFits: boolean } {
  const title = digestTitle(digest);
  const pdf = new ReportPdf({
    title,
    subject: `Fund matches of ${formatDate(digest.date)}${digest.fundName ? ` for ${digest.fundName}` : ''}`,
    keywords: 'fund matches, startups, venture intelligence',
    footerText: `${title} · ${formatDate(digest.date)}`,
    coverPage: false,
    ...(options.creationDate ? { creationDate: options.creationDate } : {}),
  });
  firstPage(pdf, digest, budget, options.links);
  const firstPageFits = pdf.pageCount === 1;
  details(pdf, digest, charts, budget, options.links);
  sourcesAppendix(pdf, digest, options.runKey);
  return { pdf, firstPageFits };
}

/**
 * Writes the digest to `path` with the first budget whose first page fits one page. Returns
 * the page count.
 *
 * @example
 * const charts = await renderFundCharts(digest);
 * const { pages } = await writeFundDigest(digest, 'out/digest.pdf', charts);
 */
export async function writeFundDigest(
  digest: FundDigest,
  path: string,
  charts: readonly FundChart[],
  options: FundPdfOptions = {},
): Promise<{ pages: number }> {
  const { pdf } = firstFitting(
    FIRST_PAGE_BUDGETS,
    (budget) => buildFundDigest(digest, charts, budget, options),
    (built) => built.firstPageFits,
  );
  return { pages: await pdf.writeTo(path) };
}
