/** Excel building blocks: formula-safe cells, tables, key figures and chart images. */
export {
  safeText,
  safeValue,
  safeUrl,
  isFormulaLike,
  sanitizeSheetName,
  sanitizeTableName,
  sanitizeHeaders,
} from './safe.js';
export { ReportWorkbook, cellValue, NUMBER_FORMATS } from './workbook.js';
export type { ColumnKind, DataColumn, KeyFigureCell } from './workbook.js';
