/** The Vega-Lite spec of a combo chart: bars of one unit, the other series lines on a second axis. */
import type { TopLevelSpec } from 'vega-lite';
import { looksTemporal } from './normalize.js';
import type { NormalChart } from './normalize.js';
import {
  categoryAxisPlan,
  longRows,
  meta,
  seriesColor,
  unique,
  uniqueLabels,
  valueAxis,
} from './vegalite-parts.js';
import { base } from './vegalite-theme.js';

/** Bars and lines over the categories, with independent value axes. */
export function comboSpec(chart: NormalChart, width: number, height: number): TopLevelSpec {
  const labels = uniqueLabels(chart.rows, chart.xKey);
  const temporal = looksTemporal(chart.rows.map((r) => r[chart.xKey]));
  const plan = categoryAxisPlan(labels, width - 140, temporal);
  // Bars: the series marked as bars (else the first), of one unit; every other series is a
  // line on the second axis, so a count never shares an axis with an amount.
  const marked = chart.series.filter((s) => s.mark === 'bar');
  const firstBars = marked.length > 0 ? marked : chart.series.slice(0, 1);
  const barGroup = firstBars[0]?.unit === 'pct-fraction' ? 'pct' : firstBars[0]?.unit;
  const barSeries = firstBars.filter((s) => (s.unit === 'pct-fraction' ? 'pct' : s.unit) === barGroup);
  const lineSeries = chart.series.filter((s) => !barSeries.includes(s));
  const all = [...barSeries, ...lineSeries];
  const names = all.map((s) => s.name);
  const values = longRows(chart, labels, all);
  const barNames = barSeries.map((s) => s.name);
  const lineNames = lineSeries.map((s) => s.name);
  const barUnit = barSeries[0]?.unit ?? 'count';
  const lineUnit = lineSeries[0]?.unit ?? 'count';
  const x = {
    field: 'x',
    type: 'ordinal',
    sort: unique(labels),
    axis: {
      title: null,
      labelAngle: plan.angle,
      labelLimit: plan.limit,
      labelOverlap: plan.overlap ?? 'greedy',
      ticks: false,
      ...(plan.angle !== 0 ? { labelAlign: 'right', labelBaseline: 'top' } : {}),
    },
    scale: { paddingInner: 0.2 },
  };
  const color = seriesColor(names, Math.max(2, names.length));
  const barEncoding: Record<string, unknown> = {
    x,
    y: {
      field: 'v',
      type: 'quantitative',
      axis: valueAxis(barUnit, barNames.length === 1 ? (barNames[0] ?? null) : null),
      stack: null,
    },
    color,
  };
  if (barNames.length > 1) barEncoding['xOffset'] = { field: 's', sort: barNames };
  return {
    ...base(width, height, chart, meta(chart, 'combo', plan.angle)),
    data: { values },
    layer: [
      {
        transform: [{ filter: { field: 's', oneOf: barNames } }],
        mark: { type: 'bar' },
        encoding: barEncoding,
      },
      {
        transform: [{ filter: { field: 's', oneOf: lineNames } }],
        mark: { type: 'line', point: { size: 36, filled: true }, strokeWidth: 2.5 },
        encoding: {
          x,
          y: {
            field: 'v',
            type: 'quantitative',
            axis: valueAxis(lineUnit, lineNames.length === 1 ? (lineNames[0] ?? null) : null, {
              orient: 'right',
              grid: false,
            }),
          },
          color,
        },
      },
    ],
    resolve: { scale: { y: 'independent' } },
  } as unknown as TopLevelSpec;
}
