/** The Vega-Lite spec of a scatter chart: points over a numeric x, or pairs of two series. */
import type { TopLevelSpec } from 'vega-lite';
import type { NormalChart } from './normalize.js';
import { axisTitle, colorScale, humanize, labelOf, legend, meta, valueAxis } from './vegalite-parts.js';
import { base, PALETTE } from './vegalite-theme.js';

/** Points: each series over a numeric x key, else the first series (x) against the second (y). */
export function scatterSpec(chart: NormalChart, width: number, height: number): TopLevelSpec {
  const xNumeric = chart.rows.some(
    (r) =>
      typeof r[chart.xKey] === 'number' ||
      (typeof r[chart.xKey] === 'string' && !Number.isNaN(Number(r[chart.xKey]))),
  );
  if (xNumeric) {
    const names = chart.series.map((s) => s.name);
    const values = chart.rows.flatMap((r) =>
      chart.series.map((s) => ({
        px: Number(r[chart.xKey]),
        v: typeof r[s.key] === 'number' ? r[s.key] : null,
        s: s.name,
      })),
    );
    return {
      ...base(width, height, chart, meta(chart, 'scatter')),
      data: { values },
      mark: { type: 'point', filled: true, size: 50, opacity: 0.8 },
      encoding: {
        x: {
          field: 'px',
          type: 'quantitative',
          axis: valueAxis('count', chart.xKey ? humanize(chart.xKey) : null, { grid: false }),
          scale: { zero: false },
        },
        y: {
          field: 'v',
          type: 'quantitative',
          axis: valueAxis(chart.unit, axisTitle(chart.series, chart)),
          scale: { zero: false },
        },
        color: { field: 's', type: 'nominal', scale: colorScale(names), legend: legend(names.length) },
      },
    } as unknown as TopLevelSpec;
  }
  const [sx, sy] = chart.series;
  const values = chart.rows.map((r) => ({
    px: sx ? r[sx.key] : null,
    v: sy ? r[sy.key] : null,
    name: labelOf(r[chart.xKey]),
  }));
  return {
    ...base(width, height, chart, meta(chart, 'scatter')),
    data: { values },
    mark: { type: 'point', filled: true, size: 50, opacity: 0.8, color: PALETTE[0] },
    encoding: {
      x: {
        field: 'px',
        type: 'quantitative',
        axis: valueAxis(sx?.unit ?? 'count', sx?.name ?? null, { grid: false }),
        scale: { zero: false },
      },
      y: {
        field: 'v',
        type: 'quantitative',
        axis: valueAxis(sy?.unit ?? 'count', sy?.name ?? null),
        scale: { zero: false },
      },
    },
  } as unknown as TopLevelSpec;
}
