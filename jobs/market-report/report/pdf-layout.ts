/**
 * What every section of the market report PDF draws with: the layout context, the table
 * formats, and tables and charts as blocks (a table and its chart side by side when the table
 * is narrow, charts two by two, a heading kept on the page with the block under it).
 */
import { formatMoneyIn, formatPctFixed, type MoneyUnit } from '../../../reports/editorial.js';
import { readerUrl, type ServiceLinks } from '../../../reports/links.js';
import type { ReportPdf, RowCell, TableColumn, TableOptions } from '../../../reports/pdf/index.js';
import type { ChartGroup, PlannedChart, RenderedCharts } from './charts.js';
import type { MarketReportModel } from './model.js';

/** What a section draws into, and the charts drawn so far. */
export interface Ctx {
  pdf: ReportPdf;
  model: MarketReportModel;
  charts: RenderedCharts;
  planned: PlannedChart[];
  drawn: Set<string>;
  links: ServiceLinks | null;
  /** The run's key, said in the sources' appendix of a model that lists none. */
  runKey?: string;
}

/** A percentage as every table prints it: one decimal, signed for changes. */
export const pct = (p: number | null | undefined, signed = false): string => formatPctFixed(p, signed);
/** An amount in a table's unit (named once in its header). */
export const inUnit = (usd: number | null | undefined, unit: MoneyUnit): string => formatMoneyIn(usd, unit);

export const MAX_TABLE_ROWS = 25;
export const MUTED = '#5b6470';

export interface TableBlock {
  columns: TableColumn[];
  rows: string[][];
  options?: TableOptions;
}

function drawChart(ctx: Ctx, p: PlannedChart): void {
  const c = ctx.charts.get(p.id);
  if (!c) return;
  ctx.pdf.chart(c, { caption: p.source });
  ctx.drawn.add(p.id);
}

function chartCell(ctx: Ctx, p: PlannedChart): RowCell | null {
  const c = ctx.charts.get(p.id);
  if (!c) return null;
  return { measure: () => ctx.pdf.chartHeight(c, { caption: p.source }), draw: () => drawChart(ctx, p) };
}

function tableCell(ctx: Ctx, t: TableBlock): RowCell {
  return {
    measure: () => ctx.pdf.measureTable(t.columns, t.rows, t.options),
    draw: () => ctx.pdf.table(t.columns, t.rows, t.options),
  };
}

/** A block of the layout: drawn, and how tall it is (for the heading above it). */
export interface Block {
  height: () => number;
  draw: () => void;
}

/**
 * A table and its planned charts as blocks: the first half-width chart beside the table (when
 * `beside`), then the charts two by two (half width) or alone (full width).
 */
export function tableAndCharts(
  ctx: Ctx,
  table: TableBlock | null,
  charts: PlannedChart[],
  beside: boolean,
): Block[] {
  const { pdf } = ctx;
  const blocks: Block[] = [];
  const rest = [...charts];
  if (table) {
    const first = rest[0];
    const firstCell = first && first.size === 'half' && beside ? chartCell(ctx, first) : null;
    if (firstCell) {
      rest.shift();
      const cells = [tableCell(ctx, table), firstCell];
      blocks.push({ height: () => pdf.measureRow(cells), draw: () => pdf.row(cells) });
    } else {
      blocks.push({
        height: () => pdf.tableKeepHeight(table.columns, table.rows, table.options),
        draw: () => pdf.table(table.columns, table.rows, table.options),
      });
    }
  }
  while (rest.length > 0) {
    const a = rest.shift();
    if (!a) break;
    const b = a.size === 'half' && rest[0]?.size === 'half' ? rest.shift() : undefined;
    const cells = [a, b]
      .filter((x): x is PlannedChart => !!x)
      .map((p) => chartCell(ctx, p))
      .filter((x): x is RowCell => !!x);
    if (cells.length === 0) continue;
    if (cells.length === 1 && a.size === 'full') {
      const c = ctx.charts.get(a.id);
      blocks.push({
        height: () => (c ? pdf.chartHeight(c, { caption: a.source }) : 0),
        draw: () => drawChart(ctx, a),
      });
    } else {
      // A lone half-width chart sits in the left half, like the charts above it.
      const row = cells.length === 1 ? [...cells, { measure: () => 0, draw: () => undefined }] : cells;
      blocks.push({ height: () => pdf.measureRow(row), draw: () => pdf.row(row) });
    }
  }
  return blocks;
}

/** A heading kept on the page with the first block under it, then the blocks. */
export function headed(ctx: Ctx, title: string, level: 2 | 3, blocks: Block[]): void {
  const first = blocks[0];
  ctx.pdf.heading(title, level, { keepWith: first ? Math.min(first.height(), ctx.pdf.pageBody * 0.6) : 40 });
  for (const b of blocks) b.draw();
}

/** A level-2 (or 3) heading kept on the page with the table that follows it, then the table. */
export function headedTable(
  ctx: Ctx,
  title: string,
  columns: TableColumn[],
  rows: string[][],
  options: TableOptions = {},
  level: 2 | 3 = 2,
): void {
  ctx.pdf.heading(title, level, { keepWith: ctx.pdf.tableKeepHeight(columns, rows, options) });
  ctx.pdf.table(columns, rows, options);
}

/** The charts planned for one group of a country's section. */
export function countryCharts(ctx: Ctx, index: number, group: ChartGroup): PlannedChart[] {
  return ctx.planned.filter(
    (p) => p.place.kind === 'country' && p.place.country === index && p.place.group === group,
  );
}

/** A link the reader can open (readerUrl), or null. */
export function link(ctx: Ctx, url: string | null | undefined): string | null {
  return readerUrl(url, ctx.links);
}
