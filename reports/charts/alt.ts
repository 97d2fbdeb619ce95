/**
 * A chart's alternative text, for the tagged PDF (a Figure's /Alt) and anyone who cannot see
 * the chart: its title, what kind of chart it is, what it plots over how many categories, and
 * each series' largest and smallest values with their categories, formatted in their units.
 */
import type { ChartSpec } from '../../api/envelope.js';
import { humanizeKey, looksTemporal, normalizeChart } from './normalize.js';
import type { ChartKind, NormalChart, NormalSeries } from './normalize.js';
import { formatValue } from './value-format.js';

/** Series described one by one; the rest are counted. */
const MAX_SERIES = 4;

const KIND_NAMES: Record<ChartKind, string> = {
  bar: 'Bar chart',
  hbar: 'Horizontal bar chart',
  stacked: 'Stacked bar chart',
  hstacked: 'Stacked horizontal bar chart',
  line: 'Line chart',
  area: 'Area chart',
  arc: 'Pie chart',
  combo: 'Bar and line chart',
  scatter: 'Scatter plot',
  table: 'Table',
};

/** A category as printed: years as years, nothing empty. */
function category(v: unknown): string {
  const s = typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '';
  return s === '' ? '(blank)' : s;
}

/** A value in its series' unit; a count carries the chart's unit label ("12 deals"). */
function value(n: number, s: NormalSeries, chart: NormalChart, total: number | null): string {
  let out = formatValue(n, s.unit);
  if (s.unit === 'count' && chart.unitLabel) out += ` ${chart.unitLabel}`;
  if (total !== null && total > 0) out += `, ${formatValue((n / total) * 100, 'pct')} of the total`;
  return out;
}

/** One series' extremes: "Deals: largest 2024 (1,234), smallest 2020 (56)". */
function extremes(chart: NormalChart, s: NormalSeries): string {
  const points = chart.rows
    .map((r) => ({ x: r[chart.xKey], v: r[s.key] }))
    .filter((p): p is { x: unknown; v: number } => typeof p.v === 'number' && Number.isFinite(p.v));
  if (points.length === 0) return `${s.name}: no values`;
  let max = points[0] as { x: unknown; v: number };
  let min = max;
  for (const p of points) {
    if (p.v > max.v) max = p;
    if (p.v < min.v) min = p;
  }
  const total = chart.kind === 'arc' ? points.reduce((a, p) => a + Math.max(0, p.v), 0) : null;
  const at = (p: { x: unknown; v: number }) => `${category(p.x)} (${value(p.v, s, chart, total)})`;
  if (points.length === 1 || max.v === min.v)
    return points.length === 1 ? `${s.name}: ${at(max)}` : `${s.name}: all ${value(max.v, s, chart, null)}`;
  return `${s.name}: largest ${at(max)}, smallest ${at(min)}`;
}

/**
 * The alternative text of a chart spec, as the chart is drawn (`normalizeChart`: the kind it
 * falls back to, its rows in the order and units it plots them).
 *
 * @example chartAltText({ type: 'bar', title: 'Deals by year', xKey: 'year', series: ['deals'],
 *   data: [{ year: 2023, deals: 40 }, { year: 2024, deals: 52 }] })
 * // 'Deals by year. Bar chart of Deals by Year, 2 categories from 2023 to 2024.
 * //  Deals: largest 2024 (52), smallest 2023 (40).'
 */
export function chartAltText(spec: ChartSpec, fallbackTitle = 'Chart'): string {
  const chart = normalizeChart(spec);
  const title = chart.title || fallbackTitle;
  const n = chart.rows.length;
  // "by Year", "by Sector"; nothing for a key that names no dimension ("label", "name").
  const by = /^(label|name|category|key|x)$/i.test(chart.xKey) ? '' : ` by ${humanizeKey(chart.xKey)}`;
  if (n === 0) return `${title}. A chart with no data.`;
  if (chart.kind === 'table') {
    const columns = [...new Set(chart.rows.flatMap((r) => Object.keys(r)))].map(humanizeKey);
    return `${title}. Table of ${n} ${n === 1 ? 'row' : 'rows'}${columns.length > 0 ? ` with ${columns.join(', ')}` : ''}.`;
  }
  const kind = chart.kind === 'arc' && chart.donut ? 'Donut chart' : KIND_NAMES[chart.kind];
  const shown = chart.series.slice(0, MAX_SERIES);
  const names = shown.map((s) => s.name).join(', ');
  const more = chart.series.length - shown.length;
  const xs = chart.rows.map((r) => r[chart.xKey]);
  const span = n > 1 && looksTemporal(xs) ? ` from ${category(xs[0])} to ${category(xs[n - 1])}` : '';
  const head = `${title}. ${kind} of ${names}${by}, ${n} ${n === 1 ? 'category' : 'categories'}${span}.`;
  const body = shown.map((s) => `${extremes(chart, s)}.`).join(' ');
  return [head, body, more > 0 ? `And ${more} more series.` : ''].filter(Boolean).join(' ');
}
