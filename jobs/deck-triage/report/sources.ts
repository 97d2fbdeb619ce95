/**
 * Where the triage's figures come from, as its reports say it: a deck's Source cell (the ids of
 * this run's analyze_deck and get_deck_analysis answers on the Sources sheet; "earlier run" for
 * an analysis carried from an earlier run of the job; "not sent" for a deck the run could not
 * send), the mark of what the runner computed (the rank, the credits per deck), each dimension
 * chart's caption, and the appendix's part listing the sources by operation. A report stored
 * before sources were kept has none: its cells are empty and its appendix says why.
 */
import { measureText } from '../../../reports/fonts.js';
import { formatDate } from '../../../reports/format.js';
import { COLORS } from '../../../reports/pdf/index.js';
import type { ReportPdf } from '../../../reports/pdf/index.js';
import {
  COMPUTED_BY_RUNNER,
  EARLIER_RUN,
  drawSourcesSection,
  idsOfOperations,
  sourceCaption,
  sourceCell,
  sourceSpan,
} from '../../../reports/sources.js';
import type { DeckTriageReport, TriagedDeck } from '../types.js';

const ANALYZE_OP = 'analyze_deck';
const POLL_OP = 'get_deck_analysis';

export { EARLIER_RUN };

/** What a Source cell names for a deck the run never sent (no answer at all). */
export const NOT_SENT = 'not sent';

/** What a rank is: the runner's order of the analyses by deal score. */
export const RANK_BASIS = `${COMPUTED_BY_RUNNER}: rank by the service's deal score among the decks with an analysis; equal scores share a rank`;

/** A Ranking row's Basis: what of it the runner computed (the header's note and the Summary say how). */
export const ROW_BASIS = {
  ranked: `${COMPUTED_BY_RUNNER}: rank, credits`,
  other: `${COMPUTED_BY_RUNNER}: credits`,
};

/** What a deck's credits are: the run's books of its paid calls. */
export const CREDITS_BASIS = `${COMPUTED_BY_RUNNER}: credits from its books of the paid calls (0 for an analysis carried from an earlier run)`;

/** A deck's source ids (a model stored before sources were kept has none on its decks). */
export function deckSourceIds(deck: TriagedDeck): string[] {
  const ids = (deck as Partial<TriagedDeck>).sources;
  return Array.isArray(ids) ? ids : [];
}

/** A deck's Source cell: `S3, S4`, `earlier run`, `not sent`; null for a report stored before sources were kept. */
export function deckSourceCell(report: DeckTriageReport, deck: TriagedDeck): string | null {
  const ids = deckSourceIds(deck);
  const words =
    ids.length > 0 ? [] : deck.outcome === 'carried' ? [EARLIER_RUN] : deck.credits === 0 ? [NOT_SENT] : [];
  return sourceCell(report.sources, ids, words);
}

/** The widest a chart's caption may be, points: the chart sits in half the page's width. */
export const CAPTION_WIDTH = 235;

/** The caption as given when it fits `CAPTION_WIDTH` at 7.5 pt, else the shorter forms (a caption is never cut). */
function fittedCaption(forms: readonly string[]): string | null {
  return forms.find((c) => measureText(c, 7.5) <= CAPTION_WIDTH) ?? forms.at(-1) ?? null;
}

/**
 * The caption of a deck's dimension chart: the answers its analysis came from (by operation, or
 * by id alone when that is too long for the caption), or for a carried analysis the earlier
 * run's date; null for a report stored before sources were kept.
 */
export function chartSource(report: DeckTriageReport, deck: TriagedDeck): string | null {
  if (!report.sources) return null;
  const ids = deckSourceIds(deck);
  const caption = sourceCaption(report.sources, ids);
  if (caption)
    return fittedCaption([
      caption,
      `Source: ${sourceSpan(ids)} (Sources sheet)`,
      'Source: the Sources sheet',
    ]);
  return deck.outcome === 'carried'
    ? fittedCaption([
        `Source: an earlier run's analysis (${formatDate(deck.analysedOn)})`,
        'Source: an earlier run',
      ])
    : null;
}

/** The Summary's lines on where its figures come from. */
export function figureSourceLines(report: DeckTriageReport): string[] {
  const analyses = idsOfOperations(report.sources, [ANALYZE_OP, POLL_OP]);
  const ids = analyses.length > 0 ? ` (${sourceSpan(analyses)})` : '';
  return [
    `Deal scores, verdicts, reasons, dimensions, strengths, risks, red flags, questions, facts and data rooms: read from each deck's ${ANALYZE_OP} answer, or its last ${POLL_OP} answer when the analysis was still running${ids}.`,
    "Carried analyses: read by an earlier run of this job from the same file (same SHA-256); their Source cells say 'earlier run'.",
    `Rank and credits per deck: ${COMPUTED_BY_RUNNER}, the rank from the deal scores (equal scores share a rank), the credits from its books.`,
    report.sources
      ? 'The Sources sheet lists every answer the report was made from; each data row names its own in its Source column.'
      : 'This report was made before its sources were recorded: the Sources sheet says so and the Source cells are empty.',
  ];
}

/** The appendix's part on where the figures come from: a line, then the sources by operation. */
export function sourcesPart(pdf: ReportPdf, report: DeckTriageReport, runKey?: string): void {
  const analyses = idsOfOperations(report.sources, [ANALYZE_OP, POLL_OP]);
  const ids = analyses.length > 0 ? ` (${sourceSpan(analyses)})` : '';
  const intro =
    `Each deck's deal score, verdict, dimensions, strengths, risks, red flags, questions and facts are read from its ${ANALYZE_OP} answer, ` +
    `or from its last ${POLL_OP} answer when the analysis was still running after the call${ids}; each chart's caption names its answer. ` +
    'An analysis carried from an earlier run was read by that run from the same file. ' +
    'The rank and the credits per deck are computed by the runner.';
  pdf.heading('Where the figures come from', 2, { keepWith: pdf.paragraphHeight(intro, { size: 9 }) + 40 });
  pdf.paragraph(intro, { size: 9, color: COLORS.ink });
  drawSourcesSection(pdf, report.sources, { heading: 'Sources', level: 2, ...(runKey ? { runKey } : {}) });
}
