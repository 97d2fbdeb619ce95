/**
 * What the deck triage opens with, written once for the PDF's first page and the messages that
 * deliver it: the key figures (decks analysed this run, carried from earlier runs, not analysed,
 * the top deal score) and a headline sentence. What the run spent is the appendix's: run
 * statistics stay off the partner's first page (docs/reports.md, "Pages").
 */
import { plural } from '../../../reports/editorial.js';
import { measureText } from '../../../reports/fonts.js';
import { formatDate, formatInt, headlineText } from '../../../reports/format.js';
import { keyFigureNoteWidth } from '../../../reports/pdf/index.js';
import type { KeyFigure } from '../../../reports/pdf/index.js';
import type { DeliveryFigure } from '../../../shared/delivery.js';
import type { DeckTriageReport } from '../types.js';
import { printedName, rankedDecks, scoreText, verdictText } from './text.js';

/** Key figures to a row on the first page. */
export const FIGURES_PER_ROW = 4;

/** A tile's note as given when it fits the tile on one line, else `fallback` (a note is never cut). */
function fitted(note: string, fallback: string): string {
  return measureText(note, 7.5) <= keyFigureNoteWidth(FIGURES_PER_ROW) ? note : fallback;
}

/** Why the decks without an analysis have none, counted: `1 failed, 1 timed out, 1 duplicate`. */
export function notAnalysedParts(report: DeckTriageReport): string[] {
  const c = report.counts;
  return [
    c.failed > 0 ? `${formatInt(c.failed)} failed` : null,
    c.timedOut > 0 ? `${formatInt(c.timedOut)} timed out` : null,
    c.duplicates > 0 ? plural(c.duplicates, 'duplicate') : null,
  ].filter((p): p is string => p !== null);
}

/** The key figures under the first page's title, in order. */
export function openingFigures(report: DeckTriageReport): KeyFigure[] {
  const c = report.counts;
  const notAnalysed = c.failed + c.timedOut + c.duplicates;
  const top = rankedDecks(report)[0];
  const parts = notAnalysedParts(report);
  return [
    { label: 'Analysed this run', value: formatInt(c.analysed), note: formatDate(report.date) },
    {
      label: 'Carried',
      value: formatInt(c.carried),
      note: c.carried > 0 ? 'analysed by earlier runs' : 'none from earlier runs',
    },
    {
      label: 'Not analysed',
      value: formatInt(notAnalysed),
      note: notAnalysed === 0 ? 'every deck analysed' : fitted(parts.join(', '), 'listed below, with why'),
    },
    {
      label: 'Top deal score',
      value: scoreText(top?.score ?? null),
      note: top
        ? fitted(printedName(top), fitted(`verdict ${verdictText(top.verdict)}`, 'rank 1 below'))
        : 'no deck analysed',
    },
  ];
}

/**
 * The triage in a sentence or two: `6 decks ranked by deal score: 5 analysed this run, 1 carried
 * from an earlier run. Top: Brightloop Energy at 86.0% (Pursue). 3 not analysed: 1 failed, 1 timed
 * out, 1 duplicate.`
 */
export function openingHeadline(report: DeckTriageReport): string {
  const c = report.counts;
  const ranked = rankedDecks(report);
  const top = ranked[0];
  const how = [
    c.analysed > 0 ? `${formatInt(c.analysed)} analysed this run` : null,
    c.carried > 0 ? `${formatInt(c.carried)} carried from earlier runs` : null,
  ].filter((p): p is string => p !== null);
  const parts = notAnalysedParts(report);
  const notAnalysed = c.failed + c.timedOut + c.duplicates;
  return headlineText(
    (ranked.length > 0
      ? `${plural(ranked.length, 'deck')} ranked by deal score: ${how.join(', ')}.`
      : 'No deck of this run has an analysis.') +
      (top ? ` Top: ${top.name} at ${scoreText(top.score)} (${verdictText(top.verdict)}).` : '') +
      (notAnalysed > 0 ? ` ${formatInt(notAnalysed)} not analysed: ${parts.join(', ')}.` : '') +
      (report.overBudget.length > 0
        ? ` ${plural(report.overBudget.length, 'deck')} left for a later run by the budget.`
        : ''),
  );
}

/**
 * The run's opening for the PDF's first page and the messages that deliver the report: the key
 * figures as a delivery carries them, and the headline.
 *
 * @example const { figures, headline } = deckOpening(report); // figures[0].label === 'Analysed this run'
 */
export function deckOpening(report: DeckTriageReport): { figures: DeliveryFigure[]; headline: string } {
  return {
    figures: openingFigures(report).map((t) => ({
      label: t.label,
      value: t.value,
      ...(t.note !== undefined ? { note: t.note } : {}),
    })),
    headline: openingHeadline(report),
  };
}
