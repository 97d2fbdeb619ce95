/**
 * Native charts over a sheet's own Excel tables, said declaratively: which table, which column
 * gives the categories and which the series (by the keys the table was written from).
 * `ReportWorkbook.addTableChart` turns one into cell references, caches and an anchor;
 * `tableChartOf` reads a report chart spec (the one its image is drawn from) into one.
 */
import type { ChartSpec } from '../../api/envelope.js';
import { normalizeChart } from '../charts/index.js';
import type { NormalChart } from '../charts/normalize.js';
import type { NativeChart, NativeChartType } from './chart-model.js';

/** Where an Excel table's cells are: its header row, data rows and each column by key (1-based). */
export interface TableCells {
  sheet: string;
  headerRow: number;
  /** Data rows (0 when the table was written without any). */
  rows: number;
  columns: ReadonlyMap<string, number>;
}

/** A chart of a table's columns. */
export interface TableChart {
  type: NativeChartType;
  title: string;
  /** Key of the column whose values are the categories. */
  category: string;
  /** Keys of the columns plotted; the legend names are the header cells. */
  series: { key: string; draw?: 'bar' | 'line'; secondary?: boolean }[];
  /** Plot only the first `rows` data rows (a top ten of a longer table). */
  rows?: number;
  /** Alternative text of the chart frame. */
  alt?: string;
  /** Whether it prints with the sheet (default true). */
  print?: boolean;
}

/**
 * The column kind of a chart's values in its data table: whole numbers as counts (`#,##0`, so
 * the axis reads 10, not 10.0), others as numbers.
 */
export function valueKind(rows: readonly Record<string, unknown>[], key: string): 'int' | 'number' {
  return rows.every((r) => typeof r[key] !== 'number' || Number.isInteger(r[key])) ? 'int' : 'number';
}

/** A cell's value and number format, as a chart's caches read it. */
export interface CellRead {
  value: unknown;
  numFmt?: string | undefined;
}

/** The text a category cell shows. */
function categoryText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (typeof v === 'object') {
    const o = v as { text?: unknown; richText?: { text: string }[]; result?: unknown };
    if (Array.isArray(o.richText)) return o.richText.map((t) => t.text).join('');
    if ('text' in o) return categoryText(o.text);
    if ('result' in o) return categoryText(o.result);
  }
  return '';
}

/**
 * The native chart (all but its anchor) of `chart` over the cells of `table`, drawn on sheet
 * `sheet`: the series reference the table's columns, the legend names its header cells, and
 * `read(row, col)` gives the cells' values for the caches. Null when the table has no rows or
 * lacks a column the chart names.
 */
export function nativeChartOver(
  sheet: string,
  table: TableCells,
  chart: TableChart,
  read: (row: number, col: number) => CellRead,
): Omit<NativeChart, 'anchor'> | null {
  const rows = Math.min(table.rows, chart.rows ?? table.rows);
  const catCol = table.columns.get(chart.category);
  const cols = chart.series.map((s) => table.columns.get(s.key));
  if (rows < 1 || catCol === undefined || chart.series.length === 0) return null;
  const firstRow = table.headerRow + 1;
  const lastRow = table.headerRow + rows;
  const column = (col: number): CellRead[] => Array.from({ length: rows }, (_, k) => read(firstRow + k, col));
  const series: NativeChart['series'][number][] = [];
  for (const [i, s] of chart.series.entries()) {
    const col = cols[i];
    if (col === undefined) return null;
    const cells = column(col);
    series.push({
      name: categoryText(read(table.headerRow, col).value),
      nameCell: { row: table.headerRow, col },
      values: { col, firstRow, lastRow },
      cache: cells.map((c) => (typeof c.value === 'number' && Number.isFinite(c.value) ? c.value : null)),
      formatCode: cells[0]?.numFmt ?? 'General',
      ...(s.draw ? { draw: s.draw } : {}),
      ...(s.secondary ? { secondary: true } : {}),
    });
  }
  return {
    sheet,
    ...(table.sheet !== sheet ? { dataSheet: table.sheet } : {}),
    type: chart.type,
    title: chart.title,
    alt: chart.alt ?? chart.title,
    ...(chart.print === false ? { print: false } : {}),
    categories: { col: catCol, firstRow, lastRow, cache: column(catCol).map((c) => categoryText(c.value)) },
    series,
  };
}

/**
 * The native chart that shows what a report chart `spec` shows, over a table whose columns carry
 * the spec's keys (`keys` maps a spec key to the table's where they differ), or null when it has
 * no native form (scatter, table) or no series. Combos draw like the images: bars for the series
 * marked as bars (else the first) of one unit, every other series a line on a second axis.
 *
 * @example tableChartOf({ type: 'donut', title: 'Stages', xKey: 'stage', series: ['deals'], data }) // { type: 'doughnut', category: 'stage', series: [{ key: 'deals' }], ... }
 */
export function tableChartOf(spec: ChartSpec, keys: Record<string, string> = {}): TableChart | null {
  return tableChartOfNormal(normalizeChart(spec), keys);
}

/** {@link tableChartOf} of a spec already normalized. */
function tableChartOfNormal(n: NormalChart, keys: Record<string, string> = {}): TableChart | null {
  const key = (k: string): string => keys[k] ?? k;
  const series = n.series.map((s) => ({ key: key(s.key) }));
  if (series.length === 0) return null;
  const base = { title: n.title, category: key(n.xKey), rows: n.rows.length };
  const group = (u: string): string => (u === 'pct-fraction' ? 'pct' : u);
  switch (n.kind) {
    case 'bar':
      return { ...base, type: 'bar', series };
    case 'hbar':
      return { ...base, type: 'horizontal_bar', series };
    case 'stacked':
      return { ...base, type: 'stacked_bar', series };
    case 'hstacked':
      return { ...base, type: 'stacked_horizontal_bar', series };
    case 'line':
    case 'area':
      return { ...base, type: 'line', series };
    case 'arc':
      return { ...base, type: n.donut ? 'doughnut' : 'pie', series: series.slice(0, 1) };
    case 'combo': {
      const marked = n.series.filter((s) => s.mark === 'bar');
      const first = marked.length > 0 ? marked : n.series.slice(0, 1);
      const unit = group(first[0]?.unit ?? 'count');
      const bars = new Set(first.filter((s) => group(s.unit) === unit).map((s) => s.key));
      return {
        ...base,
        type: 'combo',
        series: n.series.map((s) =>
          bars.has(s.key)
            ? { key: key(s.key), draw: 'bar' as const }
            : { key: key(s.key), draw: 'line' as const, secondary: true },
        ),
      };
    }
    default:
      return null;
  }
}

/**
 * A report chart `spec` whose data came with it, read for a native chart over a table of that
 * data: the chart (`tableChartOf`) and the spec's rows and series (`normalizeChart`); null when it
 * has no native form or no rows.
 */
export function specChartData(spec: ChartSpec): { chart: TableChart; n: NormalChart } | null {
  const n = normalizeChart(spec);
  const chart = tableChartOfNormal(n);
  return chart && n.rows.length > 0 ? { chart, n } : null;
}
