/**
 * The workbook's Summary sheet, the first a reader sees: the title, the key figures and the
 * headline the PDF opens with, the ranking as an Excel table (rank, startup, deal score as a
 * percentage, verdict, the reason whole, the answer it came from), the decks without an
 * analysis and why, the decks the budget left unsent, what each sheet holds and where the
 * figures come from.
 */
import type { DataColumn, KeyFigureCell, ReportWorkbook } from '../../../reports/excel/index.js';
import { SOURCE_COLUMN } from '../../../reports/sources.js';
import type { DeckTriageReport } from '../types.js';
import { runLines } from './appendix.js';
import { openingFigures, openingHeadline } from './opening.js';
import { deckSourceCell, figureSourceLines } from './sources.js';
import {
  outcomeText,
  rankedDecks,
  ranksOf,
  sheetText,
  triageSubtitle,
  triageTitle,
  unrankedDecks,
  verdictText,
  whyNoAnalysis,
} from './text.js';

/** The width of the Summary's Verdict column (column D), characters. */
const VERDICT_WIDTH = 14;

/** The Summary's ranking columns (from column A). */
export const SUMMARY_RANKING_COLUMNS: readonly DataColumn[] = [
  { header: 'Rank', key: 'rank', kind: 'int', width: 7 },
  { header: 'Startup', key: 'name', width: 28 },
  { header: 'Deal score', key: 'score', kind: 'pct', width: 11 },
  { header: 'Verdict', key: 'verdict', width: 12 },
  { header: 'Reason', key: 'reason', width: 70, wrap: true },
  { header: 'Outcome', key: 'outcome', width: 28 },
  { header: SOURCE_COLUMN, key: 'source', width: 14 },
];

/**
 * The Summary's columns of the decks without an analysis, from column B: its Why under the
 * ranking's Reason (the file or link of each deck is on the Ranking sheet).
 */
export const SUMMARY_UNRANKED_COLUMNS: readonly DataColumn[] = [
  { header: 'Deck', key: 'name', width: 28 },
  { header: 'Outcome', key: 'outcome', width: 12 },
  { header: SOURCE_COLUMN, key: 'source', width: 14 },
  { header: 'Why', key: 'why', width: 70, wrap: true },
];
/** The key figures the PDF opens with, their counts and score as numbers (the notes as the PDF's). */
export function keyFigureCells(report: DeckTriageReport): KeyFigureCell[] {
  const c = report.counts;
  const top = rankedDecks(report)[0]?.score ?? null;
  const values: [number | null, KeyFigureCell['kind']][] = [
    [c.analysed, 'int'],
    [c.carried, 'int'],
    [c.failed + c.timedOut + c.duplicates, 'int'],
    [top, 'pct'],
  ];
  return openingFigures(report).map((f, i) => {
    const [value, kind] = values[i] ?? [null, undefined];
    return {
      label: f.label,
      ...(value !== null && kind ? { value, kind } : { value: f.value }),
      ...(f.note ? { note: f.note } : {}),
    };
  });
}

/** Builds the Summary sheet. */
export function writeSummarySheet(book: ReportWorkbook, report: DeckTriageReport): void {
  const ws = book.addSummarySheet([]);
  let row = book.addTitle(ws, triageTitle(report), triageSubtitle(report));
  // The key figures from column B: their label over the Startup column, their value over the
  // score, their note over the verdict (narrowed after the tables: the notes run on to the right).
  row = book.addKeyFigures(ws, keyFigureCells(report), row, 2);
  row = book.addParagraphs(ws, [openingHeadline(report)], row, { span: 6, charsPerLine: 130 });
  row = book.addHeading(ws, 'Decks ranked by deal score', row);
  const ranks = ranksOf(report);
  const { lastRow } = book.addDataTable(ws, {
    name: 'SummaryRanking',
    origin: { row, col: 1 },
    columns: [...SUMMARY_RANKING_COLUMNS],
    rows: rankedDecks(report).map((d) => ({
      rank: ranks.get(d) ?? null,
      name: d.name,
      score: d.score,
      verdict: verdictText(d.verdict),
      reason: sheetText(d.reason),
      outcome: outcomeText(d),
      source: deckSourceCell(report, d),
    })),
  });
  row = book.addParagraphs(
    ws,
    [
      "Rank: computed by the runner from the service's deal scores (equal scores share a rank). Deal score and verdict as the service's analysis gave them.",
    ],
    lastRow + 1,
    { span: 6, charsPerLine: 130 },
  );
  const unranked = unrankedDecks(report);
  if (unranked.length > 0) {
    row = book.addHeading(ws, 'Decks without an analysis', row);
    row =
      book.addDataTable(ws, {
        name: 'SummaryWithoutAnalysis',
        origin: { row, col: 2 },
        columns: [...SUMMARY_UNRANKED_COLUMNS],
        rows: unranked.map((d) => ({
          name: d.name,
          outcome: outcomeText(d),
          why: whyNoAnalysis(d),
          source: deckSourceCell(report, d),
        })),
      }).lastRow + 2;
  }
  ws.getColumn(4).width = VERDICT_WIDTH;
  const next = book.addParagraphs(
    ws,
    [
      'Ranking: one row a deck of the run, ranked ones first: rank, startup, deal score, verdict, reason, outcome, when analysed, credits, the data room (when a reader can open it), the file or link and its SHA-256.',
      'Dimensions: one row a scored dimension of each ranked deck, the highest first, with the service’s note.',
      'Charts: each ranked deck’s scores by dimension, as in the PDF, with the answers it was drawn from.',
      'Red flags and Questions: one row a red flag, and a question for the first meeting, of each ranked deck.',
      'Sources: every answer of the service the report was made from, numbered S1, S2 and so on, with its parameters, time, credits and store reference.',
    ],
    row,
    { heading: 'The sheets', span: 6, charsPerLine: 130 },
  );
  const after = book.addParagraphs(ws, figureSourceLines(report), next, {
    heading: 'Where the figures come from',
    span: 6,
    charsPerLine: 130,
  });
  const leftOut =
    report.overBudget.length > 0
      ? [`Left out by the budget (not sent): ${report.overBudget.join('; ')}.`]
      : [];
  book.addParagraphs(ws, [...runLines(report), ...leftOut], after, {
    heading: 'About this run',
    span: 6,
    charsPerLine: 130,
  });
}
