/**
 * What every sheet of the market report workbook writes with: the sheet context, money
 * columns in a table's unit, and the charts placed on a sheet (native charts of the sheet's
 * tables, and pictures when the job asks for them).
 */
import type { Worksheet } from 'exceljs';
import { normalizeChart } from '../../../reports/charts/index.js';
import type { RenderedChart } from '../../../reports/charts/index.js';
import { moneyHeader, type MoneyUnit } from '../../../reports/editorial.js';
import { tableChartOf } from '../../../reports/excel/index.js';
import type { DataColumn, ReportWorkbook, TableCells } from '../../../reports/excel/index.js';
import { SOURCE_COLUMN, sourceSpan } from '../../../reports/sources.js';
import type { PlannedChart, RenderedCharts } from './charts.js';
import type { CountryFigures, Totals } from './figures.js';
import type { MarketReportModel } from './model.js';

/** What a sheet writes into and with, and the charts placed so far. */
export interface SheetCtx {
  book: ReportWorkbook;
  model: MarketReportModel;
  charts: RenderedCharts;
  planned: PlannedChart[];
  /** The job's `chartImages`: each chart also as a picture (default: native charts only). */
  pictures: boolean;
  /** A link a reader can open (readerUrl with the run's links), or null. */
  url: (u: string | null | undefined) => string | null;
  /** The report's totals, and each country's figures in the model's order. */
  totals: Totals;
  figs: CountryFigures[];
  /** Images and native charts placed so far. */
  placed: { images: number; nativeCharts: number };
  /** The run's key, said on the Sources sheet of a model that lists no source. */
  runKey?: string;
}

/** The Source column: the id of the stored answer a row was read from (empty when unknown). */
export const SOURCE: DataColumn = { header: SOURCE_COLUMN, key: 'source', width: 10 };

/** A row's Source cell from one id or several (`S1–S3`); null when none is known. */
export function sourceCell(...ids: (string | null | undefined)[]): string | null {
  return sourceSpan(ids) || null;
}

/** A table written by `addDataTable`: its last row and where its cells are. */
export type SheetTable = ReturnType<ReportWorkbook['addDataTable']>;

/** The Excel number format of an amount in USD shown in a unit (the unit named in the header). */
function unitFormat(unit: MoneyUnit): string {
  return unit === 'B' ? '#,##0.0,,,' : unit === 'M' ? '#,##0.0,,' : '#,##0.0,';
}

/** A money column in a table's unit: the value stays in US dollars, shown in the unit. */
export function moneyColumn(label: string, key: string, unit: MoneyUnit, width?: number): DataColumn {
  return {
    header: moneyHeader(label, unit),
    key,
    kind: 'number',
    numFmt: unitFormat(unit),
    ...(width ? { width } : {}),
  };
}

/** On-screen width of a chart image: half-width PDF charts are shown larger (their PNG is 2×). */
function imageSize(c: RenderedChart, size: PlannedChart['size']): { width: number; height: number } {
  const target = size === 'half' ? Math.min(460, c.width * 1.4) : Math.min(620, c.width);
  const scale = target / Math.max(1, c.width);
  return { width: Math.round(c.width * scale), height: Math.round(c.height * scale) };
}

/**
 * The tables of a sheet a native chart can plot: by chart id, the table a report chart is drawn
 * from (`keys` maps the chart's data keys to the table's where they differ); `any`, the tables
 * a chart with its own data (a service chart) plots when they hold exactly that data.
 */
export interface ChartTables {
  byId?: Map<string, { table: TableCells; keys?: Record<string, string> }>;
  any?: TableCells[];
}

/** The table and chart of the native chart beside `p`'s image, if a table holds its data. */
function nativeFor(book: ReportWorkbook, p: PlannedChart, tables: ChartTables) {
  const own = tables.byId?.get(p.id);
  if (own) {
    const chart = tableChartOf(p.spec, own.keys);
    return chart ? { table: own.table, chart } : null;
  }
  const chart = tableChartOf(p.spec);
  if (!chart) return null;
  const rows = normalizeChart(p.spec).rows;
  const table = tables.any?.find((t) => book.tableHolds(t, chart, rows));
  return table ? { table, chart } : null;
}

/**
 * Places charts one under the other from `row` at column `col`, each image with the native,
 * editable chart of its table (if it has one) at its right, the same size. Counts the images
 * and the native charts placed in `ctx.placed`; returns the next free row.
 */
export function placeCharts(
  ctx: SheetCtx,
  ws: Worksheet,
  charts: PlannedChart[],
  row: number,
  col: number,
  tables: ChartTables = {},
): number {
  const { book } = ctx;
  let r = row;
  for (const p of charts) {
    const c = ctx.charts.get(p.id);
    if (!c) continue;
    const size = imageSize(c, p.size);
    const n = nativeFor(book, p, tables);
    if (ctx.pictures) {
      // Pictures asked for (job option chartImages): each image, its native chart beside it.
      const next = book.addImage(ws, c.png, { row: r, col }, size);
      if (
        n &&
        book.addTableChart(
          ws,
          n.table,
          n.chart,
          { row: r, col: book.columnRightOf(ws, col, size.width) },
          size,
        )
      )
        ctx.placed.nativeCharts++;
      r = next;
      ctx.placed.images++;
    } else if (n) {
      // By default native charts only: one chart of the data, printed once.
      const rows = Math.ceil(size.height / 20) + 1;
      if (book.addTableChart(ws, n.table, n.chart, { row: r, col }, size)) {
        ctx.placed.nativeCharts++;
        r += rows;
      }
    }
  }
  return r;
}
