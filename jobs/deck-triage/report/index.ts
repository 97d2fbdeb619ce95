/** The deck triage's report: the dimension charts, the partner's PDF, the workbook and the opening. */
export { renderDeckCharts, dimensionSpec, DIMENSIONS_TITLE } from './charts.js';
export type { DeckChart } from './charts.js';
export { writeDeckTriagePdf, buildDeckTriagePdf } from './pdf.js';
export type { DeckPdfOptions } from './pdf.js';
export {
  writeDeckTriageWorkbook,
  RANKING_COLUMNS,
  DIMENSION_COLUMNS,
  RED_FLAG_COLUMNS,
  QUESTION_COLUMNS,
} from './workbook.js';
export type { DeckWorkbookOptions, DeckWorkbookResult } from './workbook.js';
export { deckOpening, openingFigures, openingHeadline } from './opening.js';
export { RANK_BASIS, CREDITS_BASIS, ROW_BASIS, EARLIER_RUN, NOT_SENT } from './sources.js';
export { outcomeText, rankedDecks, ranksOf, scoreText, verdictText, whyNoAnalysis } from './text.js';
