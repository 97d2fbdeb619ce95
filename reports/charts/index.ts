/** Charts: service chart spec → Vega-Lite → SVG and PNG. */
export {
  normalizeChart,
  humanizeKey,
  isIdentifierKey,
  isKeyColumn,
  looksTemporal,
  unitFromString,
  unitFromKey,
} from './normalize.js';
export type { ChartKind, NormalChart, NormalSeries, UnitKind } from './normalize.js';
export { toVegaLite, CHART_DEFAULTS } from './vegalite.js';
export { valueExpr, formatValue } from './value-format.js';
export { CATEGORY_LABEL_LIMIT, LABEL_FONT_SIZE, PALETTE } from './vegalite-theme.js';
export type { ChartLayout, ChartMeta } from './vegalite.js';
export { chartAltText } from './alt.js';
export { renderChart, renderVegaLite, svgToPng, installTextMetrics, vegaTextWidth } from './render.js';
export type { RenderedChart, RenderOptions, ReportChart } from './render.js';
export { barLayout, countBarSpec, topWithOther, HALF_CHART_WIDTH } from './bars.js';
export type { CountBar } from './bars.js';
