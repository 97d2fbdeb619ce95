/** PDF building blocks: a report document with cover, contents, tables, tiles and charts. */
export { ReportPdf } from './document.js';
export { COLORS } from './theme.js';
export { keyFigureNoteWidth } from './key-figures.js';
export { chartCell, chartRows } from './charts.js';
export { callout, calloutHeight, CALLOUT_TONES } from './callout.js';
export { sizedColumns } from './columns.js';
export { firstFitting } from './budget.js';
export { Tags } from './tags.js';
export type { StructElement, StructOptions, LinkTarget } from './tags.js';
export type { SizedColumn } from './columns.js';
export type { NotedChart } from './charts.js';
export type { PdfOptions } from './document.js';
export type { TocEntry } from './contents.js';
export type { KeyFigure } from './key-figures.js';
export type { TableColumn, TableOptions } from './table-layout.js';
export type { ChartImage } from './chart-figure.js';
export type { RowCell } from './rows.js';
