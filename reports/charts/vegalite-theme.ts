/**
 * The look every Vega-Lite spec of a report shares: one font (DejaVu Sans), label sizes, the
 * palette, and the top-level spec with its title, size and config.
 */
import { FONT_FAMILY, wrapText } from '../fonts.js';
import type { NormalChart } from './normalize.js';
import type { ChartMeta } from './vegalite.js';

export const LABEL_FONT_SIZE = 10;
/** Widest category label on a horizontal axis, in px. */
export const CATEGORY_LABEL_LIMIT = 150;
export const PALETTE = [
  '#1f4e79',
  '#e08a1e',
  '#2e8b57',
  '#8e44ad',
  '#c0392b',
  '#2e86c1',
  '#7f8c8d',
  '#b7950b',
  '#16a085',
  '#d35400',
];

/** The chart's title block: the title wrapped to two lines at most, and the subtitle. */
function titleBlock(text: string, width: number, subtitle?: string): Record<string, unknown> | undefined {
  if (!text && !subtitle) return undefined;
  // A long title wraps onto a second line, then is cut with an ellipsis.
  const lines = text ? wrapText(text, width - 16, 13, { bold: true, maxLines: 2 }) : [''];
  return {
    text: lines.length > 1 ? lines : (lines[0] ?? ''),
    ...(subtitle ? { subtitle } : {}),
    anchor: 'start',
    limit: width - 16,
  };
}

export type Autosize = 'fit' | 'fit-x' | 'pad';

/**
 * The top level of a spec: size, autosize, title, `usermeta` and the shared config (fonts,
 * axes, legend, palette). `titleWidth` is the width the title may take.
 */
export function base(
  width: number,
  height: number,
  chart: NormalChart,
  meta: ChartMeta,
  subtitle?: string,
  autosize: Autosize = 'fit',
  titleWidth = width,
): Record<string, unknown> {
  const t = titleBlock(chart.title, titleWidth, subtitle);
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    width,
    height,
    autosize: { type: autosize, contains: 'padding' },
    padding: 8,
    background: 'white',
    ...(t ? { title: t } : {}),
    usermeta: meta,
    config: {
      font: FONT_FAMILY,
      view: { stroke: null },
      axis: {
        labelFont: FONT_FAMILY,
        titleFont: FONT_FAMILY,
        labelFontSize: LABEL_FONT_SIZE,
        titleFontSize: LABEL_FONT_SIZE,
        titleFontWeight: 'normal',
        titleColor: '#444',
        labelColor: '#333',
        domainColor: '#999',
        tickColor: '#999',
        gridColor: '#e8e8e8',
      },
      legend: {
        labelFont: FONT_FAMILY,
        titleFont: FONT_FAMILY,
        labelFontSize: LABEL_FONT_SIZE,
        titleFontSize: LABEL_FONT_SIZE,
        symbolSize: 90,
      },
      title: {
        font: FONT_FAMILY,
        subtitleFont: FONT_FAMILY,
        fontSize: 13,
        subtitleFontSize: 10,
        subtitleColor: '#555',
        color: '#1a1a1a',
        offset: 8,
      },
      text: { font: FONT_FAMILY },
      range: { category: PALETTE },
    },
  };
}
