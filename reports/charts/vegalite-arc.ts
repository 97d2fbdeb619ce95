/** The Vega-Lite spec of a pie or doughnut: the largest slices, the rest as "Other", shares in the legend. */
import type { TopLevelSpec } from 'vega-lite';
import { formatPct } from '../format.js';
import type { NormalChart } from './normalize.js';
import { colorScale, legend, meta, uniqueLabels } from './vegalite-parts.js';
import { base } from './vegalite-theme.js';

/** The most slices a pie shows; the smallest beyond them are summed as "Other". */
const MAX_ARC = 8;

/** A pie (a doughnut when `chart.donut`) of the first series, at most `MAX_ARC` slices. */
export function arcSpec(chart: NormalChart, width: number, height: number): TopLevelSpec {
  const s = chart.series[0];
  const labels = uniqueLabels(chart.rows, chart.xKey);
  let items = chart.rows
    .map((r, i) => ({
      label: labels[i] ?? '',
      v: typeof r[s?.key ?? ''] === 'number' ? (r[s?.key ?? ''] as number) : 0,
    }))
    .filter((d) => d.v > 0);
  if (items.length > MAX_ARC) {
    const sorted = [...items].sort((a, b) => b.v - a.v);
    const rest = sorted.slice(MAX_ARC - 1).reduce((sum, d) => sum + d.v, 0);
    items = [...sorted.slice(0, MAX_ARC - 1), { label: 'Other', v: rest }];
  }
  const total = items.reduce((sum, d) => sum + d.v, 0) || 1;
  const values = items.map((d, i) => ({ i, c: `${d.label} (${formatPct((d.v / total) * 100)})`, v: d.v }));
  const names = values.map((d) => d.c);
  const size = Math.min(height - 20, Math.floor(width * 0.45));
  const radius = size / 2 - 2;
  return {
    ...base(
      size,
      size,
      chart,
      meta({ ...chart, rows: items.map((d) => ({ label: d.label })) }, 'arc'),
      undefined,
      'pad',
      width,
    ),
    data: { values },
    mark: {
      type: 'arc',
      outerRadius: radius,
      ...(chart.donut ? { innerRadius: radius * 0.55 } : {}),
      stroke: 'white',
      strokeWidth: 1,
    },
    encoding: {
      theta: { field: 'v', type: 'quantitative', stack: true },
      color: {
        field: 'c',
        type: 'nominal',
        sort: names,
        scale: colorScale(names),
        legend: { ...legend(2, 'right'), labelLimit: Math.floor(width * 0.45) },
      },
      order: { field: 'i' },
    },
  } as unknown as TopLevelSpec;
}
