/** Excel building blocks: formula-safe cells, tables, key figures, chart images, streamed sheets. */
export {
  safeText,
  safeValue,
  safeUrl,
  isFormulaLike,
  sanitizeSheetName,
  sanitizeTableName,
  sanitizeHeaders,
} from './safe.js';
export { cellValue, linkValue, NUMBER_FORMATS, HEADER_FILL, LINK_FONT } from './cells.js';
export type { ColumnKind } from './cells.js';
export { WorkbookBlocks, columnPx } from './blocks.js';
export type { KeyFigureCell, SheetChart, WorkbookMeta } from './blocks.js';
export { ReportWorkbook } from './workbook.js';
export type { DataColumn } from './workbook.js';
export { StreamingReportWorkbook, RowSheet } from './stream.js';
export type { StreamColumn } from './stream.js';
export { finishPackage } from './native-charts.js';
export { chartXml } from './chart-xml.js';
export { fixOneCellAnchors } from './drawing-frames.js';
export { axisFormat } from './chart-axes.js';
export { rangeRef, sheetRef, columnLetters } from './cell-refs.js';
export type { NativeChart, NativeChartType, NativeSeries, CellColumn, AnchorCell } from './chart-model.js';
export { tableChartOf } from './table-charts.js';
export type { TableCells, TableChart } from './table-charts.js';
