/**
 * Vega-Lite specs of category charts: vertical bars, stacked bars, lines and areas, and the
 * horizontal bars vertical bars turn into when their labels do not fit under them.
 */
import type { TopLevelSpec } from 'vega-lite';
import { looksTemporal } from './normalize.js';
import type { ChartKind, NormalChart } from './normalize.js';
import {
  axisTitle,
  categoryAxisPlan,
  longRows,
  meta,
  seriesColor,
  unique,
  uniqueLabels,
  valueAxis,
} from './vegalite-parts.js';
import { base, CATEGORY_LABEL_LIMIT } from './vegalite-theme.js';

/** The most categories horizontal bars show; the subtitle says how many there were. */
const MAX_HBAR = 30;

/** Bars, stacked bars, lines or areas over the categories; bars whose labels do not fit turn horizontal. */
export function cartesianSpec(
  chart: NormalChart,
  width: number,
  height: number,
  band?: number,
  labelLimit?: number,
): TopLevelSpec {
  const labels = uniqueLabels(chart.rows, chart.xKey);
  const temporal = looksTemporal(chart.rows.map((r) => r[chart.xKey]));
  const plotWidth = width - 90;
  const plan = categoryAxisPlan(labels, plotWidth, temporal);
  const isBar = chart.kind === 'bar' || chart.kind === 'stacked';
  if (isBar && !plan.fits) return hbarSpec(chart, width, chart.kind === 'stacked', band, labelLimit);
  const series = chart.series;
  const names = series.map((s) => s.name);
  const values = longRows(chart, labels, series);
  const xAxis = {
    title: null,
    labelAngle: plan.angle,
    labelLimit: plan.limit,
    labelOverlap: plan.overlap ?? 'greedy',
    ...(plan.angle !== 0 ? { labelAlign: 'right', labelBaseline: 'top' } : {}),
    ticks: false,
  };
  const x = {
    field: 'x',
    type: 'ordinal',
    sort: unique(labels),
    axis: xAxis,
    ...(isBar ? { scale: { paddingInner: 0.2 } } : {}),
  };
  const y = {
    field: 'v',
    type: 'quantitative',
    axis: valueAxis(chart.unit, axisTitle(series, chart)),
    ...(chart.kind === 'stacked' || chart.kind === 'area' ? { stack: 'zero' } : { stack: null }),
  };
  const color = seriesColor(names, names.length);
  const kind = chart.kind;
  const mark =
    kind === 'line'
      ? { type: 'line', point: labels.length <= 24 ? { size: 30, filled: true } : false, strokeWidth: 2 }
      : kind === 'area'
        ? { type: 'area', opacity: 0.85, line: { strokeWidth: 1.5 } }
        : { type: 'bar' };
  const encoding: Record<string, unknown> = { x, y, color };
  if (kind === 'bar' && names.length > 1) encoding['xOffset'] = { field: 's', sort: names };
  if (kind === 'stacked') encoding['order'] = { field: 'sOrder' };
  const data = kind === 'stacked' ? values.map((r) => ({ ...r, sOrder: names.indexOf(r.s) })) : values;
  return {
    ...base(width, height, chart, meta(chart, kind, plan.angle)),
    data: { values: data },
    mark,
    encoding,
  } as unknown as TopLevelSpec;
}

/** Horizontal bars (stacked or not), the first `MAX_HBAR` categories, growing with them. */
export function hbarSpec(
  chart: NormalChart,
  width: number,
  stacked: boolean,
  bandSize?: number,
  labelLimitPx?: number,
): TopLevelSpec {
  const all = chart.rows;
  const rows = all.slice(0, MAX_HBAR);
  const trimmed: NormalChart = { ...chart, rows };
  const labels = uniqueLabels(rows, chart.xKey);
  const series = chart.series;
  const names = series.map((s) => s.name);
  const values = longRows(trimmed, labels, series);
  const perCategory = stacked || names.length === 1 ? 1 : names.length;
  const band = bandSize ?? (perCategory === 1 ? 20 : 9 * perCategory + 6);
  const height = Math.max(80, labels.length * band);
  const subtitle = all.length > rows.length ? `First ${rows.length} of ${all.length}` : undefined;
  const labelLimit = labelLimitPx ?? Math.min(CATEGORY_LABEL_LIMIT, Math.floor(width * 0.38));
  const y = {
    field: 'x',
    type: 'nominal',
    sort: unique(labels),
    axis: { title: null, labelLimit, ticks: false, labelPadding: 4 },
    scale: { paddingInner: 0.2 },
  };
  const x = {
    field: 'v',
    type: 'quantitative',
    axis: valueAxis(chart.unit, axisTitle(series, chart)),
    stack: stacked ? 'zero' : null,
  };
  const color = seriesColor(names, names.length);
  const encoding: Record<string, unknown> = { y, x, color };
  if (!stacked && names.length > 1) encoding['yOffset'] = { field: 's', sort: names };
  if (stacked) encoding['order'] = { field: 'sOrder' };
  const data = stacked ? values.map((r) => ({ ...r, sOrder: names.indexOf(r.s) })) : values;
  const kind: ChartKind = stacked ? 'hstacked' : 'hbar';
  const top = {
    ...base(width, height, trimmed, meta(trimmed, kind), subtitle, 'fit-x'),
    data: { values: data },
  };
  if (!stacked && names.length === 1) {
    // One series: the value at the end of each bar, with room for it right of the longest bar.
    const maxV = Math.max(0, ...values.map((r) => r.v ?? 0));
    const xs = { ...x, scale: { domainMax: maxV > 0 ? maxV * 1.2 : 1, nice: false } };
    return {
      ...top,
      layer: [
        { mark: { type: 'bar' }, encoding: { ...encoding, x: xs } },
        {
          mark: { type: 'text', align: 'left', baseline: 'middle', dx: 3, fontSize: 9, color: '#333' },
          encoding: { y, x: xs, text: { field: 't' } },
        },
      ],
    } as unknown as TopLevelSpec;
  }
  return { ...top, mark: { type: 'bar' }, encoding } as unknown as TopLevelSpec;
}
