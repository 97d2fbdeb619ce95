/** PDF building blocks: a report document with cover, contents, tables, tiles and charts. */
export { ReportPdf, COLORS, keyFigureNoteWidth } from './document.js';
export { chartCell, chartRows } from './charts.js';
export { callout, calloutHeight, CALLOUT_TONES } from './callout.js';
export { sizedColumns } from './columns.js';
export { firstFitting } from './budget.js';
export { Tags } from './tags.js';
export type { StructElement, StructOptions, LinkTarget } from './tags.js';
export type { SizedColumn } from './columns.js';
export type { NotedChart } from './charts.js';
export type {
  PdfOptions,
  TocEntry,
  KeyFigure,
  TableColumn,
  TableOptions,
  ChartImage,
  RowCell,
} from './document.js';
