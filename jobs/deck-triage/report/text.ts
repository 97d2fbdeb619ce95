/**
 * The words of the deck triage, written once for the PDF, the workbook and the messages: the
 * title and the line under it, a score, a verdict in sentence case, what became of a deck, why a
 * deck has no analysis, the carried mark, the ranking's order and ranks, and names and the
 * service's sentences as the report's fonts can print them.
 */
import { formatFit, plural, readerSentence } from '../../../reports/editorial.js';
import { printableName, printableText, STAND_IN_MARK } from '../../../reports/fonts.js';
import { formatDate, formatInt, oneLine } from '../../../reports/format.js';
import type { DeckOutcome, DeckTriageReport, TriagedDeck } from '../types.js';

/** What a text the font cannot draw is printed as. */
const UNPRINTABLE = '[…]';

/** The title as printed: the job's title, or a default. */
export function triageTitle(report: DeckTriageReport): string {
  return report.job.title.trim() || 'Deck triage';
}

/** The line under the title: the run's date, how many decks, the job. */
export function triageSubtitle(report: DeckTriageReport): string {
  return [
    `Deck triage of ${formatDate(report.date)}`,
    plural(report.decks.length, 'deck'),
    `job ${report.job.id}`,
  ].join(' · ');
}

/** A deal score or a dimension's score (0 to 100) as every report prints a score: `86.0%`; `—` when none. */
export function scoreText(score: number | null): string {
  return formatFit(score);
}

/**
 * The service's verdict in its own words, in sentence case: `pursue` -> `Pursue`, `STRONG_BUY`
 * -> `Strong buy`; `—` when none.
 */
export function verdictText(verdict: string | null): string {
  const words = oneLine((verdict ?? '').replace(/[_]+/g, ' ').replace(/(?<=\w)-(?=\w)/g, ' ')).toLowerCase();
  if (!words) return '—';
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Whether a deck has an analysis the ranking shows (this run's or an earlier run's). */
export function isRanked(deck: TriagedDeck): boolean {
  return deck.outcome === 'analysed' || deck.outcome === 'carried';
}

/** The decks with an analysis, best deal score first (no score last), each group in the model's order. */
export function rankedDecks(report: DeckTriageReport): TriagedDeck[] {
  return report.decks
    .map((d, i) => ({ d, i }))
    .filter(({ d }) => isRanked(d))
    .sort(
      (a, b) =>
        (a.d.score === null ? 1 : 0) - (b.d.score === null ? 1 : 0) ||
        (b.d.score ?? 0) - (a.d.score ?? 0) ||
        a.i - b.i,
    )
    .map(({ d }) => d);
}

/** The decks without an analysis (failed, timed out, duplicates), in the model's order. */
export function unrankedDecks(report: DeckTriageReport): TriagedDeck[] {
  return report.decks.filter((d) => !isRanked(d));
}

/**
 * Each ranked deck's rank, computed by the runner: 1 + the decks with a higher deal score, so
 * equal scores share a rank; null for a deck without a score or an analysis.
 */
export function ranksOf(report: DeckTriageReport): Map<TriagedDeck, number | null> {
  const ranked = rankedDecks(report);
  const scores = ranked.map((d) => d.score).filter((s): s is number => s !== null);
  return new Map(
    ranked.map((d) => [d, d.score === null ? null : 1 + scores.filter((s) => s > (d.score ?? 0)).length]),
  );
}

/** A rank as printed: `1`, or `—`. */
export function rankText(rank: number | null | undefined): string {
  return rank === null || rank === undefined ? '—' : String(rank);
}

/** What became of a deck, in words: `Analysed 26 Nov 2026`, `Carried: analysed 19 Nov 2026`, `Timed out`. */
export function outcomeText(deck: TriagedDeck): string {
  const words: Record<DeckOutcome, string> = {
    analysed: `Analysed ${formatDate(deck.analysedOn)}`,
    carried: `Carried: analysed ${formatDate(deck.analysedOn)}`,
    failed: 'Failed',
    'timed-out': 'Timed out',
    duplicate: 'Duplicate',
  };
  return words[deck.outcome];
}

/** The mark of an analysis carried from an earlier run: `analysed 19 Nov 2026`; null for other decks. */
export function carriedMark(deck: TriagedDeck): string | null {
  return deck.outcome === 'carried' ? `analysed ${formatDate(deck.analysedOn)}` : null;
}

/** A text as a sentence: on one line, its first letter up, a full stop at the end. */
export function sentence(text: string): string {
  const t = oneLine(text);
  if (!t) return t;
  const s = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?]$/.test(s) ? s : `${s}.`;
}

/**
 * Why a deck has no analysis, in words (the service's and the run's ISO dates in the report's
 * format): the problem for a failed or timed-out deck, the deck it duplicates.
 */
export function whyNoAnalysis(deck: TriagedDeck): string {
  if (deck.outcome === 'duplicate')
    return deck.duplicateOf
      ? `The same file as ${oneLine(deck.duplicateOf)}: sent once, under that deck.`
      : 'The same file as another deck of the run: sent once, under that deck.';
  if (deck.problem) return sentence(readerSentence(deck.problem));
  return deck.outcome === 'timed-out'
    ? 'Still running at the polling deadline of the job.'
    : 'The service gave no analysis and no reason.';
}

/** A name as the PDF and the charts print it: itself, or its label marked when the font lacks its script. */
export function printedName(deck: Pick<TriagedDeck, 'name' | 'label'>): string {
  return printableName(deck.name, deck.label);
}

/** The service's text as the PDF prints it: on one line, stage keys and ISO dates in words, what the font cannot draw as `[…]`. */
export function serviceText(text: string): string {
  return printableText(readerSentence(text), UNPRINTABLE);
}

/** The service's text as the workbook keeps it: whole, stage keys and ISO dates in words. */
export function sheetText(text: string | null): string | null {
  return text === null ? null : readerSentence(oneLine(text));
}

/** Credits spent of the run's budget, in a sentence. */
export function creditsLine(report: DeckTriageReport): string {
  const { spent, budget } = report.credits;
  return `Credits spent: ${formatInt(spent)} of a budget of ${formatInt(budget)} (analyze_deck costs 3 credits a deck; get_deck_analysis is free).`;
}

/** The decks the budget left unsent, in a sentence; null when none. */
export function overBudgetLine(report: DeckTriageReport): string | null {
  const n = report.overBudget.length;
  if (n === 0) return null;
  return `${plural(n, 'deck was', 'decks were')} not sent: the run's budget did not cover ${n === 1 ? 'its analysis' : 'their analyses'}. ${n === 1 ? 'It is' : 'They are'} not ranked; the next run with credits left analyses ${n === 1 ? 'it' : 'them'}.`;
}

/**
 * The sentence under a table whose rows print a name as its label (or other text as `[…]`), in
 * a list of one; an empty list when no row does.
 */
export function standInNote(rows: readonly (readonly string[])[]): string[] {
  const marked = rows.some((r) => r.some((c) => c.includes(STAND_IN_MARK) || c.includes(UNPRINTABLE)));
  return marked
    ? [
        "* A startup's name in a script this report's fonts cannot print is printed as its file's name, " +
          'other such text as […]; the workbook has them whole.',
      ]
    : [];
}
