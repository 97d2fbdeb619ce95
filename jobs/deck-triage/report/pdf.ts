/**
 * The deck triage as a PDF for a fund's partners: the first page ranks every deck of the run by
 * deal score (verdict, the one-line reason whole, the mark of an analysis carried from an earlier
 * run) and lists the decks without an analysis and why; then a section per ranked deck, in the
 * ranking's order (score and verdict, its dimensions as a chart captioned with its source,
 * strengths, risks, red flags, the questions for the first meeting, the data room's link when a
 * reader can open it); last an appendix for whoever runs the job (credits, the decks the budget
 * left out, the sources by operation). Service links go through readerUrl (`options.links`): a
 * loopback or private one is left out.
 */
import { formatDate } from '../../../reports/format.js';
import type { ServiceLinks } from '../../../reports/links.js';
import { ReportPdf } from '../../../reports/pdf/index.js';
import type { DeckTriageReport } from '../types.js';
import { appendix } from './appendix.js';
import { renderDeckCharts } from './charts.js';
import type { DeckChart } from './charts.js';
import { deckSection } from './deck-section.js';
import { firstPage } from './first-page.js';
import { rankedDecks, ranksOf, triageTitle } from './text.js';

/** How the PDF is written: its creation date, the service's links, the run, the charts when rendered already. */
export interface DeckPdfOptions {
  /** The PDF's creation date (tests: a fixed one). */
  created?: Date;
  links?: ServiceLinks | null;
  /** The run the report was made by (named when the report kept no sources). */
  runKey?: string;
  /** The charts from `renderDeckCharts`, rendered once for both writers; rendered here when absent. */
  charts?: readonly DeckChart[];
}

/** Lays the triage out with its charts (see `writeDeckTriagePdf`). */
export function buildDeckTriagePdf(
  report: DeckTriageReport,
  charts: readonly DeckChart[],
  options: Omit<DeckPdfOptions, 'charts'> = {},
): ReportPdf {
  const title = triageTitle(report);
  const pdf = new ReportPdf({
    title,
    subject: `Deck triage of ${formatDate(report.date)}`,
    keywords: 'pitch decks, deal score, triage, venture intelligence',
    footerText: `${title} · ${formatDate(report.date)}`,
    coverPage: false,
    ...(options.created ? { creationDate: options.created } : {}),
  });
  const links = options.links ?? null;
  firstPage(pdf, report);
  const ranks = ranksOf(report);
  // A section starts a page; the next one shares it when both are short.
  let startedPage = false;
  for (const deck of rankedDecks(report))
    startedPage = deckSection(pdf, report, deck, ranks.get(deck) ?? null, charts, {
      links,
      share: startedPage,
    });
  appendix(pdf, report, options.runKey);
  return pdf;
}

/**
 * Writes the triage's PDF to `path`. Returns the page count.
 *
 * @example
 * const charts = await renderDeckCharts(report);
 * const { pages } = await writeDeckTriagePdf(report, 'out/triage.pdf', { charts, links: deps.serviceLinks });
 */
export async function writeDeckTriagePdf(
  report: DeckTriageReport,
  path: string,
  options: DeckPdfOptions = {},
): Promise<{ pages: number }> {
  const charts = options.charts ?? (await renderDeckCharts(report));
  return { pages: await buildDeckTriagePdf(report, charts, options).writeTo(path) };
}
