/**
 * The investor shortlist as a PDF for a platform team preparing its companies' raises: the
 * opening (title, date, baseline line, the plan's note, key figures, the companies at a glance,
 * the investors who fit several companies), then a section per company (what was asked and how
 * the service read it, the service's charts, its ranked investors with the new ones marked and a
 * partner named, the link to its full report when a reader can open it; why a company has no
 * list; each chart captioned with its source), then an appendix of what the run spent and where
 * the figures come from (the sources by operation). Service links go through readerUrl
 * (`options.links`): a loopback or private one is left out.
 */
import { formatDate } from '../../../reports/format.js';
import type { ServiceLinks } from '../../../reports/links.js';
import { ReportPdf } from '../../../reports/pdf/index.js';
import type { ShortlistReport } from '../types.js';
import type { ShortlistChart } from './charts.js';
import { appendix } from './appendix.js';
import { companySection } from './company.js';
import { firstPage } from './first-page.js';
import { shortlistTitle } from './text.js';

/** How the report is written: its creation date, the service's links, the run (named when it kept no sources). */
export interface ShortlistPdfOptions {
  creationDate?: Date;
  links?: ServiceLinks | null;
  runKey?: string;
}

/** Lays the report out (see `writeShortlistReport`). */
export function buildShortlistReport(
  report: ShortlistReport,
  charts: readonly ShortlistChart[],
  options: ShortlistPdfOptions = {},
): ReportPdf {
  const title = shortlistTitle(report);
  const pdf = new ReportPdf({
    title,
    subject: `Investor shortlist of ${formatDate(report.date)}`,
    keywords: 'investors, shortlist, fundraising, venture intelligence',
    footerText: `${title} · ${formatDate(report.date)}`,
    coverPage: false,
    ...(options.creationDate ? { creationDate: options.creationDate } : {}),
  });
  const links = options.links ?? null;
  firstPage(pdf, report, links);
  report.companies.forEach((_, i) => companySection(pdf, report, charts, i, links));
  appendix(pdf, report, options.runKey);
  return pdf;
}

/**
 * Writes the shortlist's PDF to `path`. Returns the page count.
 *
 * @example
 * const charts = await renderShortlistCharts(report);
 * const { pages } = await writeShortlistReport(report, 'out/shortlist.pdf', charts);
 */
export async function writeShortlistReport(
  report: ShortlistReport,
  path: string,
  charts: readonly ShortlistChart[],
  options: ShortlistPdfOptions = {},
): Promise<{ pages: number }> {
  return { pages: await buildShortlistReport(report, charts, options).writeTo(path) };
}
