/**
 * The deck triage as a workbook: Summary (the key figures, the ranking, the decks without an
 * analysis), Ranking (one row a deck: rank, startup, deal score as a percentage, verdict, the
 * reason whole, outcome, when analysed, credits, the data room when a reader can open it, the
 * file or link and its SHA-256), Dimensions (one row a scored dimension of each ranked deck, with
 * Charts (each ranked deck's dimension chart under its rank and name, the PDF's picture on the
 * same 0-100 scale, with its source), Red flags, Questions, and Sources. Every text cell is formula-safe (cellValue), numbers stay
 * numbers with their formats. Provenance: every data row's last column, Source, names the
 * answers of the Sources sheet (the last sheet but the charts' data) it came from; what the
 * runner computed (the rank, the credits) says so in a Basis column and in the Rank header's note.
 */
import type ExcelJS from 'exceljs';
import { cellValue, ReportWorkbook } from '../../../reports/excel/index.js';
import type { DataColumn } from '../../../reports/excel/index.js';
import { readerUrl } from '../../../reports/links.js';
import type { ServiceLinks } from '../../../reports/links.js';
import { addSourcesSheet, SOURCE_COLUMN } from '../../../reports/sources.js';
import type { DeckTriageReport, TriagedDeck } from '../types.js';
import { chartOf, renderDeckCharts } from './charts.js';
import type { DeckChart } from './charts.js';
import { CREDITS_BASIS, deckSourceCell, RANK_BASIS, ROW_BASIS } from './sources.js';
import { writeSummarySheet } from './summary-sheet.js';
import {
  outcomeText,
  rankedDecks,
  ranksOf,
  rankText,
  sheetText,
  triageTitle,
  unrankedDecks,
  verdictText,
  whyNoAnalysis,
} from './text.js';

/**
 * Charts are shown at their rendered size (their PNG has twice the pixels). They are pictures,
 * not native charts: the shared native chart has no axis bounds, so Excel would start the bars
 * near the lowest score (72 for a deck scored 70 to 91) and make small gaps look large.
 */
const CHART_ZOOM = 1;

/** The Ranking sheet's columns. */
export const RANKING_COLUMNS: readonly DataColumn[] = [
  { header: 'Rank', key: 'rank', kind: 'int', width: 7 },
  { header: 'Startup', key: 'name', width: 26 },
  { header: 'Deal score', key: 'score', kind: 'pct', width: 11 },
  { header: 'Verdict', key: 'verdict', width: 12 },
  { header: 'Reason', key: 'reason', width: 60, wrap: true },
  { header: 'Outcome', key: 'outcome', width: 28 },
  { header: 'Why no analysis', key: 'why', width: 40, wrap: true },
  { header: 'Analysed on', key: 'analysedOn', kind: 'date', numFmt: 'd mmm yyyy', width: 13 },
  { header: 'Credits', key: 'credits', kind: 'int', width: 9 },
  { header: 'Data room', key: 'room', kind: 'url', width: 30 },
  { header: 'Data room id', key: 'roomId', width: 14 },
  { header: 'File or link', key: 'label', width: 30, wrap: true },
  { header: 'SHA-256', key: 'sha256', width: 66 },
  { header: 'Basis', key: 'basis', width: 36 },
  { header: SOURCE_COLUMN, key: 'source', width: 14 },
];

/** The Ranking sheet prints its first columns, the ones a person reads (to the credits). */
export const RANKING_PRINTED_COLUMNS = 9;

/** The Dimensions sheet's columns. */
export const DIMENSION_COLUMNS: readonly DataColumn[] = [
  { header: 'Rank', key: 'rank', kind: 'int', width: 7 },
  { header: 'Startup', key: 'name', width: 26 },
  { header: 'Dimension', key: 'dimension', width: 18 },
  { header: 'Score', key: 'score', kind: 'pct', width: 9 },
  { header: 'Service note', key: 'note', width: 60, wrap: true },
  { header: SOURCE_COLUMN, key: 'source', width: 14 },
];

/** The Red flags sheet's columns. */
export const RED_FLAG_COLUMNS: readonly DataColumn[] = [
  { header: 'Rank', key: 'rank', kind: 'int', width: 7 },
  { header: 'Startup', key: 'name', width: 26 },
  { header: 'Red flag', key: 'text', width: 80, wrap: true },
  { header: SOURCE_COLUMN, key: 'source', width: 14 },
];

/** The Questions sheet's columns. */
export const QUESTION_COLUMNS: readonly DataColumn[] = [
  { header: 'Rank', key: 'rank', kind: 'int', width: 7 },
  { header: 'Startup', key: 'name', width: 26 },
  { header: 'No.', key: 'n', kind: 'int', width: 6 },
  { header: 'Question for the first meeting', key: 'text', width: 80, wrap: true },
  { header: SOURCE_COLUMN, key: 'source', width: 14 },
];

/** What `writeDeckTriageWorkbook` wrote. */
export interface DeckWorkbookResult {
  path: string;
  /** The sheets, in order. */
  sheets: string[];
  /** Charts placed as pictures (one a ranked deck whose dimensions were scored). */
  images: number;
  /** URL cells left empty: their value was not an http(s) URL. */
  urlsLeftOut: number;
}

/** How the workbook is written. */
export interface DeckWorkbookOptions {
  /** The workbook's creation date (default: the run's date). */
  created?: Date;
  links?: ServiceLinks | null;
  /** The run the report was made by (named when the report kept no sources). */
  runKey?: string;
  /** The charts from `renderDeckCharts`, rendered once for both writers; rendered here when absent. */
  charts?: readonly DeckChart[];
}

/** Every deck in the ranking's order: the ranked ones, then the others in the model's order. */
function inOrder(report: DeckTriageReport): TriagedDeck[] {
  return [...rankedDecks(report), ...unrankedDecks(report)];
}

function rankingRows(report: DeckTriageReport, links: ServiceLinks | null): Record<string, unknown>[] {
  const ranks = ranksOf(report);
  return inOrder(report).map((d) => ({
    rank: ranks.get(d) ?? null,
    name: d.name,
    score: d.score,
    verdict: d.verdict === null ? null : verdictText(d.verdict),
    reason: sheetText(d.reason),
    outcome: outcomeText(d),
    why: ranks.has(d) ? null : whyNoAnalysis(d),
    analysedOn: d.analysedOn,
    credits: d.credits,
    room: readerUrl(d.roomUrl, links),
    roomId: d.roomId,
    label: d.label,
    sha256: d.sha256,
    basis: ranks.has(d) ? ROW_BASIS.ranked : ROW_BASIS.other,
    source: deckSourceCell(report, d),
  }));
}

/** One row per item of each ranked deck (`pick` gives the items), its rank and name first. */
function itemRows(
  report: DeckTriageReport,
  pick: (d: TriagedDeck) => readonly string[],
): Record<string, unknown>[] {
  const ranks = ranksOf(report);
  return rankedDecks(report).flatMap((d) =>
    pick(d).map((text, i) => ({
      rank: ranks.get(d) ?? null,
      name: d.name,
      n: i + 1,
      text: sheetText(text),
      source: deckSourceCell(report, d),
    })),
  );
}

function dimensionRows(report: DeckTriageReport): Record<string, unknown>[] {
  const ranks = ranksOf(report);
  return rankedDecks(report).flatMap((d) =>
    [...d.dimensions]
      .sort((a, b) => b.score - a.score)
      .map((x) => ({
        rank: ranks.get(d) ?? null,
        name: d.name,
        dimension: x.label,
        score: x.score,
        note: sheetText(x.note),
        source: deckSourceCell(report, d),
      })),
  );
}

/**
 * The Charts sheet: each ranked deck's chart, the highest ranked first: its rank and name in
 * bold, its picture (or why there is none), and the answers it was drawn from. Returns the
 * pictures placed.
 */
function chartsSheet(
  book: ReportWorkbook,
  ws: ExcelJS.Worksheet,
  report: DeckTriageReport,
  charts: readonly DeckChart[],
): number {
  const ranks = ranksOf(report);
  let row = 1;
  let images = 0;
  for (const d of rankedDecks(report)) {
    const c = chartOf(charts, report.decks.indexOf(d));
    if (!c) continue;
    const head = ws.getCell(row, 1);
    head.value = cellValue(`${rankText(ranks.get(d))}. ${d.name}: ${c.title.toLowerCase()}`);
    head.font = { bold: true, color: { argb: 'FF1F4E79' } };
    if (c.rendered) {
      const size = {
        width: Math.round(c.rendered.width * CHART_ZOOM),
        height: Math.round(c.rendered.height * CHART_ZOOM),
      };
      row = book.addImage(ws, c.rendered.png, { row: row + 1, col: 1 }, size) - 1;
      images++;
    } else {
      ws.getCell(row + 1, 1).value = cellValue(c.note ?? 'No chart.');
      row += 2;
    }
    if (c.source) {
      const caption = ws.getCell(row, 1);
      caption.value = cellValue(c.source);
      caption.font = { size: 9, color: { argb: 'FF5B6470' } };
    }
    row += 2;
  }
  return images;
}

/**
 * Writes the triage's workbook to `path` (in memory: a batch is a few dozen decks). The charts
 * are the ones rendered for the PDF (`options.charts`), rendered here when absent.
 *
 * @example
 * const charts = await renderDeckCharts(report);
 * await writeDeckTriageWorkbook(report, 'out/triage.xlsx', { charts, links: deps.serviceLinks });
 */
export async function writeDeckTriageWorkbook(
  report: DeckTriageReport,
  path: string,
  options: DeckWorkbookOptions = {},
): Promise<DeckWorkbookResult> {
  const links = options.links ?? null;
  const charts = options.charts ?? (await renderDeckCharts(report));
  const runDay = new Date(`${report.date}T00:00:00Z`);
  const book = new ReportWorkbook({
    title: triageTitle(report),
    created: options.created ?? (Number.isNaN(runDay.getTime()) ? new Date() : runDay),
  });
  writeSummarySheet(book, report);

  const ranking = book.addSheet('Ranking', { tabColor: 'FF2E8B57' });
  book.addDataTable(ranking, {
    name: 'Ranking',
    columns: [...RANKING_COLUMNS],
    rows: rankingRows(report, links),
  });
  ranking.getCell(1, 1).note = `${RANK_BASIS}. Decks without an analysis have no rank and are listed last.`;
  ranking.getCell(1, RANKING_COLUMNS.findIndex((c) => c.key === 'credits') + 1).note = `${CREDITS_BASIS}.`;
  book.printColumns(ranking, RANKING_PRINTED_COLUMNS);

  const dims = book.addSheet('Dimensions', { tabColor: 'FF1F4E79' });
  book.addDataTable(dims, {
    name: 'Dimensions',
    columns: [...DIMENSION_COLUMNS],
    rows: dimensionRows(report),
  });
  const images = chartsSheet(book, book.addSheet('Charts', { tabColor: 'FF1F4E79' }), report, charts);

  book.addDataTable(book.addSheet('Red flags', { tabColor: 'FFC0392B' }), {
    name: 'RedFlags',
    columns: [...RED_FLAG_COLUMNS],
    rows: itemRows(report, (d) => d.redFlags),
  });
  book.addDataTable(book.addSheet('Questions', { tabColor: 'FF8E44AD' }), {
    name: 'Questions',
    columns: [...QUESTION_COLUMNS],
    rows: itemRows(report, (d) => d.questions),
  });
  addSourcesSheet(book, report.sources, options.runKey);
  await book.writeTo(path);
  return { path, sheets: book.wb.worksheets.map((w) => w.name), images, urlsLeftOut: book.urls.leftOut };
}
