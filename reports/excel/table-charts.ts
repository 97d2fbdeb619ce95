/**
 * Native charts over a sheet's own Excel tables, said declaratively: which table, which column
 * gives the categories and which the series (by the keys the table was written from).
 * `ReportWorkbook.addTableChart` turns one into cell references, caches and an anchor;
 * `tableChartOf` reads a report chart spec (the one its image is drawn from) into one.
 */
import type { ChartSpec } from '../../api/envelope.js';
import { normalizeChart } from '../charts/index.js';
import type { NativeChartType } from './native-charts.js';

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
 * The native chart that shows what a report chart `spec` shows, over a table whose columns carry
 * the spec's keys (`keys` maps a spec key to the table's where they differ), or null when it has
 * no native form (scatter, table) or no series. Combos draw like the images: bars for the series
 * marked as bars (else the first) of one unit, every other series a line on a second axis.
 *
 * @example tableChartOf({ type: 'donut', title: 'Stages', xKey: 'stage', series: ['deals'], data }) // { type: 'doughnut', category: 'stage', series: [{ key: 'deals' }], ... }
 */
export function tableChartOf(spec: ChartSpec, keys: Record<string, string> = {}): TableChart | null {
  const n = normalizeChart(spec);
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
