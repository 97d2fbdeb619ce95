/**
 * Chart spec → Vega-Lite. One font (DejaVu Sans), dollar and percent formats, labels measured
 * with the real font so they are truncated with an ellipsis at a sane width and never overlap:
 * category bars whose labels do not fit under the bars turn into horizontal bars.
 *
 * `toVegaLite` picks the spec builder of the chart's family (vegalite-category.ts,
 * vegalite-combo.ts, vegalite-arc.ts, vegalite-scatter.ts, vegalite-table.ts); their shared look
 * is in vegalite-theme.ts, their shared parts in vegalite-parts.ts.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { ChartSpec } from '../../api/envelope.js';
import { normalizeChart } from './normalize.js';
import type { ChartKind } from './normalize.js';
import { arcSpec } from './vegalite-arc.js';
import { cartesianSpec, hbarSpec } from './vegalite-category.js';
import { comboSpec } from './vegalite-combo.js';
import { scatterSpec } from './vegalite-scatter.js';
import { tableSpec } from './vegalite-table.js';

/** Size of a chart in CSS pixels (1 px = 1 pt in the PDF before scaling). */
export interface ChartLayout {
  /** Total width, axes and legend included. Default 520. */
  width?: number;
  /** Height of the plot for vertical charts; horizontal bars grow with their categories. Default 250. */
  height?: number;
  /** Height of one category of horizontal bars, px: default 20 (one series) or 9 a series + 6. */
  band?: number;
  /**
   * Widest category label of horizontal bars, px, before it is cut with an ellipsis: default
   * `CATEGORY_LABEL_LIMIT` or 38% of the width, whichever is less. Give the measured width of
   * the longest label (`measureText`) to keep long names whole.
   */
  labelLimit?: number;
}

/** What `toVegaLite` decided, kept in the spec's `usermeta` for tests and logs. */
export interface ChartMeta {
  kind: ChartKind;
  requestedType: string;
  fallback: boolean;
  categories: number;
  series: number;
  labelAngle: number;
}

export const CHART_DEFAULTS = { width: 520, height: 250 } as const;

/**
 * Converts a service chart spec to a Vega-Lite spec. Never throws: an unknown type becomes a
 * line, a bar chart or a table depending on the data; see `usermeta` for what was chosen.
 *
 * @example toVegaLite({ type: 'bar', xKey: 'year', series: ['deals'], data: [{ year: 2024, deals: 12 }] })
 */
export function toVegaLite(spec: ChartSpec, layout: ChartLayout = {}): TopLevelSpec {
  const chart = normalizeChart(spec);
  const width = layout.width ?? CHART_DEFAULTS.width;
  const height = layout.height ?? CHART_DEFAULTS.height;
  switch (chart.kind) {
    case 'arc':
      return arcSpec(chart, width, height);
    case 'table':
      return tableSpec(chart, width);
    case 'scatter':
      return scatterSpec(chart, width, height);
    case 'hbar':
    case 'hstacked':
      return hbarSpec(chart, width, chart.kind === 'hstacked', layout.band, layout.labelLimit);
    case 'combo':
      return comboSpec(chart, width, height);
    default:
      return cartesianSpec(chart, width, height, layout.band, layout.labelLimit);
  }
}
