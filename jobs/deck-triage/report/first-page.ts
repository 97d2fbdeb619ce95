/**
 * The triage's first page, what a partner reads in a minute: the title (job, run date), the
 * key figures, the ranking of every deck with an analysis (rank, startup with the mark of an
 * analysis carried from an earlier run, deal score, the service's verdict, its one-line reason
 * whole: the row grows), then the decks without an analysis with what became of them and why,
 * and the decks the budget left for a later run. What the run spent is in the appendix.
 */
import { plural } from '../../../reports/editorial.js';
import { formatInt } from '../../../reports/format.js';
import { COLORS, sizedColumns } from '../../../reports/pdf/index.js';
import type { ReportPdf, SizedColumn } from '../../../reports/pdf/index.js';
import type { DeckTriageReport } from '../types.js';
import { FIGURES_PER_ROW, openingFigures } from './opening.js';
import {
  carriedMark,
  outcomeText,
  printedName,
  rankedDecks,
  ranksOf,
  rankText,
  scoreText,
  serviceText,
  standInNote,
  triageSubtitle,
  triageTitle,
  unrankedDecks,
  verdictText,
  whyNoAnalysis,
} from './text.js';

export const TABLE_SIZE = 7.5;
export const NOTE_SIZE = 7.5;

const values = (rows: string[][], i: number): string[] => rows.map((r) => r[i] ?? '');

/** A small grey note. */
export function note(pdf: ReportPdf, text: string): void {
  pdf.paragraph(text, { size: NOTE_SIZE, color: COLORS.muted, gap: 2 });
}

/**
 * A table under a level-2 heading kept with its first rows (and the notes put before it), then
 * the notes after it. Cells wrap whole, the row grows: nothing a reader acts on is cut.
 */
export function tableSection(
  pdf: ReportPdf,
  title: string,
  columns: SizedColumn[],
  rows: string[][],
  options: { before?: string[]; after?: string[] } = {},
): void {
  const cols = sizedColumns(pdf.pageContentWidth, columns, TABLE_SIZE);
  const table = { fontSize: TABLE_SIZE, maxLines: Number.POSITIVE_INFINITY };
  const before = options.before ?? [];
  const notesHeight = before.reduce((h, n) => h + pdf.paragraphHeight(n, { size: NOTE_SIZE, gap: 2 }), 0);
  pdf.heading(title, 2, { keepWith: notesHeight + pdf.tableKeepHeight(cols, rows, table) });
  for (const n of before) note(pdf, n);
  pdf.table(cols, rows, table);
  for (const n of options.after ?? []) note(pdf, n);
}

/** The startup's cell: its name, then the mark of an analysis carried from an earlier run. */
function startupCell(report: DeckTriageReport, i: number): string {
  const deck = report.decks[i];
  if (!deck) return '—';
  const mark = carriedMark(deck);
  return printedName(deck) + (mark ? `\n↻ ${mark}` : '');
}

/** The ranking: every deck with an analysis, best deal score first. */
function ranking(pdf: ReportPdf, report: DeckTriageReport): string[][] {
  const ranks = ranksOf(report);
  const ranked = rankedDecks(report);
  const rows = ranked.map((d) => [
    rankText(ranks.get(d)),
    startupCell(report, report.decks.indexOf(d)),
    scoreText(d.score),
    verdictText(d.verdict),
    d.reason ? serviceText(d.reason) : '—',
  ]);
  const carried = ranked.filter((d) => d.outcome === 'carried').length;
  const title =
    ranked.length > 0
      ? `Decks ranked by deal score (${formatInt(ranked.length)})`
      : 'Decks ranked by deal score';
  if (ranked.length === 0) {
    pdf.heading(title, 2, { keepWith: 30 });
    pdf.paragraph('No deck of this run has an analysis: the list below says why.', { size: 9 });
    return rows;
  }
  tableSection(
    pdf,
    title,
    [
      { header: 'Rank', values: values(rows, 0), align: 'right' },
      { header: 'Startup', share: 0.3 },
      { header: 'Deal score', values: values(rows, 2), align: 'right' },
      { header: 'Verdict', values: values(rows, 3) },
      { header: "The service's reason", share: 0.7 },
    ],
    rows,
    {
      after: [
        "Deal score and verdict as the service's analysis gave them (scores 0-100, as a percentage); " +
          'the rank is computed by the runner (equal scores share a rank).' +
          (carried > 0
            ? ` ↻ Carried: analysed by an earlier run of this job from the same file, not paid again.`
            : ''),
      ],
    },
  );
  return rows;
}

/** The decks without an analysis, with what became of them and why. */
function withoutAnalysis(pdf: ReportPdf, report: DeckTriageReport): string[][] {
  const decks = unrankedDecks(report);
  if (decks.length === 0) return [];
  const rows = decks.map((d) => [
    // The file or link under the name, unless the name is the label (a deck nobody named).
    d.name === d.label ? serviceText(d.label) : `${printedName(d)}\n${serviceText(d.label)}`,
    outcomeText(d),
    serviceText(whyNoAnalysis(d)),
  ]);
  tableSection(
    pdf,
    `Decks without an analysis (${formatInt(decks.length)})`,
    [
      { header: 'Deck', share: 0.34 },
      { header: 'Outcome', values: values(rows, 1) },
      { header: 'Why', share: 0.66 },
    ],
    rows,
  );
  return rows;
}

/** The decks the budget left unsent, named. */
function overBudget(pdf: ReportPdf, report: DeckTriageReport): void {
  const n = report.overBudget.length;
  if (n === 0) return;
  pdf.heading(`Not sent this run (${formatInt(n)})`, 2, { keepWith: 40 });
  pdf.paragraph(
    `${plural(n, 'deck')} of the batch ${n === 1 ? 'was' : 'were'} left for a later run: the run's budget did not cover ${n === 1 ? 'its analysis' : 'their analyses'}. ` +
      `${report.overBudget.map((l) => serviceText(l)).join(', ')}.`,
    { size: 8.5 },
  );
}

/** Lays out the first page: title, key figures, the ranking, the decks without an analysis. */
export function firstPage(pdf: ReportPdf, report: DeckTriageReport): void {
  pdf.heading(triageTitle(report), 1);
  pdf.paragraph(triageSubtitle(report), { size: 9, color: COLORS.muted });
  pdf.keyFigures(openingFigures(report), FIGURES_PER_ROW);
  const rows = [...ranking(pdf, report), ...withoutAnalysis(pdf, report)];
  overBudget(pdf, report);
  for (const n of standInNote(rows)) note(pdf, n);
}
