/**
 * What the Vega-Lite spec builders share: category labels and the long rows they plot, value
 * axes, legends and series colours, the category axis plan and the spec's `usermeta`.
 */
import { measureText } from '../fonts.js';
import type { ChartKind, NormalChart, NormalSeries, UnitKind } from './normalize.js';
import { formatValue, valueExpr } from './value-format.js';
import { LABEL_FONT_SIZE, PALETTE } from './vegalite-theme.js';
import type { ChartMeta } from './vegalite.js';

/** One value of the long rows: its category, row, series and text. */
export interface LongRow {
  /** Category label. */
  x: string;
  /** Row order. */
  i: number;
  /** Series name. */
  s: string;
  v: number | null;
  /** The value as text. */
  t: string;
}

/** A category label: the value as one line of text. */
export function labelOf(v: unknown): string {
  if (v === null || v === undefined) return '';
  const s =
    typeof v === 'string'
      ? v
      : typeof v === 'number' || typeof v === 'boolean'
        ? String(v)
        : JSON.stringify(v);
  return s.replace(/[\r\n\t]+/g, ' ').trim();
}

/** The category labels of `rows`, in data order, each distinct. */
export function uniqueLabels(rows: Record<string, unknown>[], xKey: string): string[] {
  // Distinct labels in data order; duplicates get a counter so categories stay apart.
  const seen = new Map<string, number>();
  return rows.map((r) => {
    const base = labelOf(r[xKey]) || '(blank)';
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    return n === 0 ? base : `${base} (${n + 1})`;
  });
}

/** The rows in long form: one row a category and series. */
export function longRows(chart: NormalChart, labels: string[], series: NormalSeries[]): LongRow[] {
  const out: LongRow[] = [];
  chart.rows.forEach((r, i) => {
    for (const s of series) {
      const v = r[s.key];
      const n = typeof v === 'number' ? v : null;
      out.push({ x: labels[i] ?? '', i, s: s.name, v: n, t: formatValue(n, s.unit) });
    }
  });
  return out;
}

/** The value axis's title: the series' name, or the unit label for several series. */
export function axisTitle(series: NormalSeries[], chart: NormalChart): string | null {
  if (series.length !== 1) return chart.unitLabel;
  const s = series[0];
  if (!s) return null;
  // "Deals (deals)" says it twice: the unit label only when the name does not already say it.
  const label = chart.unitLabel;
  return label && s.unit === 'count' && !s.name.toLowerCase().includes(label.toLowerCase())
    ? `${s.name} (${label})`
    : s.name;
}

/** A value axis with labels formatted in `unit`. */
export function valueAxis(
  unit: UnitKind,
  title: string | null,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    title,
    labelExpr: valueExpr(unit),
    labelOverlap: true,
    labelLimit: 80,
    ...(unit === 'count' ? { tickMinStep: 1 } : {}),
    grid: true,
    ...extra,
  };
}

/** A legend for `count` entries, at the bottom or right; none for one entry. */
export function legend(count: number, orient: 'bottom' | 'right' = 'bottom'): Record<string, unknown> | null {
  if (count <= 1) return null;
  return orient === 'bottom'
    ? {
        orient: 'bottom',
        direction: 'horizontal',
        title: null,
        columns: Math.min(count, 4),
        labelLimit: 150,
        symbolType: 'square',
      }
    : { orient: 'right', direction: 'vertical', title: null, labelLimit: 170, symbolType: 'square' };
}

/** The palette over `names`, in order. */
export function colorScale(names: string[]): Record<string, unknown> {
  return { domain: names, range: names.map((_, i) => PALETTE[i % PALETTE.length]) };
}

/** The colour encoding of series field `s`: one colour per series name, in order, with a legend for `legendCount` entries. */
export function seriesColor(names: string[], legendCount: number): Record<string, unknown> {
  return { field: 's', type: 'nominal', scale: colorScale(names), legend: legend(legendCount), sort: names };
}

/** A year-to-date label: `2026 YTD` (the year in progress, see reports/editorial.ts yearLabel). */
const YTD_LABEL = / YTD$/;

/**
 * Chooses the category axis of a vertical chart: horizontal labels when the widest fits under
 * its band, else rotated labels (lines) or a switch to horizontal bars (bars).
 */
export function categoryAxisPlan(
  labels: string[],
  plotWidth: number,
  temporal: boolean,
): { angle: number; limit: number; fits: boolean; overlap?: false } {
  const band = plotWidth / Math.max(1, labels.length);
  const widest = Math.max(0, ...labels.map((l) => measureText(l, LABEL_FONT_SIZE)));
  if (widest <= band - 6) return { angle: 0, limit: Math.max(20, Math.floor(band - 2)), fits: true };
  // Periods thin out with labelOverlap; a year in progress ("2026 YTD") beside full years is
  // wider than its band and would run into its neighbour: such labels are turned instead, whole.
  if (temporal) {
    if (!labels.some((l) => YTD_LABEL.test(l))) return { angle: 0, limit: 90, fits: true };
    // Turned labels, every one kept: diagonal lines a band apart do not touch.
    return { angle: -40, limit: 110, fits: true, overlap: false };
  }
  return { angle: -40, limit: 110, fits: false };
}

/** The spec's `usermeta`: what `toVegaLite` decided for `chart`. */
export function meta(chart: NormalChart, kind: ChartKind, labelAngle = 0): ChartMeta {
  return {
    kind,
    requestedType: chart.requestedType,
    fallback: chart.fallback,
    categories: chart.rows.length,
    series: chart.series.length,
    labelAngle,
  };
}

/** The labels without repeats, in order. */
export function unique(labels: string[]): string[] {
  return [...new Set(labels)];
}

/** A data key as a title: `capital_usd` → `Capital usd`. */
export function humanize(key: string): string {
  return key.replace(/[_-]+/g, ' ').replace(/^\w/, (c) => c.toUpperCase());
}
