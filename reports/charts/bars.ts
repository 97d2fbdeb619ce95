/**
 * Counts as bar charts, the same way in every report: the largest categories with the rest as
 * one "Other" bar, horizontal bars whose category labels stay whole, and the chart spec of a
 * list of counts.
 */
import type { ChartSpec } from '../../api/envelope.js';
import { measureText } from '../fonts.js';
import { formatInt } from '../format.js';
import { LABEL_FONT_SIZE } from './vegalite-theme.js';
import type { ChartLayout } from './vegalite.js';

/** One bar: a category and how many fall in it. */
export interface CountBar {
  label: string;
  count: number;
}

/** Render width, px, of a chart shown at half an A4 page's width (about 240 pt, so at 0.73 scale). */
export const HALF_CHART_WIDTH = 330;

/**
 * The `n` largest bars (zero counts left out, ties in their given order) and one
 * `Other (k <noun>)` bar with the rest; a bar already called "other" joins it.
 *
 * @example topWithOther([{ label: 'DE', count: 9 }, { label: 'FR', count: 3 }, { label: 'IT', count: 1 }], 1, 'countries')
 * // [{ label: 'DE', count: 9 }, { label: 'Other (2 countries)', count: 4 }]
 */
export function topWithOther(bars: readonly CountBar[], n: number, noun: string): CountBar[] {
  const isOther = (b: CountBar): boolean => /^other\b/i.test(b.label.trim());
  const named = bars.filter((b) => b.count > 0 && !isOther(b)).sort((a, b) => b.count - a.count);
  const others = bars.filter((b) => b.count > 0 && isOther(b));
  // A single category left over is shown as itself rather than as "Other (1)".
  const keep = named.length === n + 1 && others.length === 0 ? n + 1 : n;
  const rest = [...named.slice(keep), ...others];
  if (rest.length === 0) return named.slice(0, keep);
  const restCount = rest.reduce((s, b) => s + b.count, 0);
  const kinds = named.length - Math.min(keep, named.length);
  const label = kinds > 0 ? `Other (${formatInt(kinds)} ${noun})` : 'Other';
  return [...named.slice(0, keep), { label, count: restCount }];
}

/**
 * Layout of a bar chart whose category labels are `labels`: horizontal bars keep their labels
 * whole (up to 55% of the width).
 */
export function barLayout(labels: readonly string[], width = HALF_CHART_WIDTH): ChartLayout {
  const widest = Math.max(0, ...labels.map((l) => measureText(l, LABEL_FONT_SIZE)));
  return {
    width,
    band: 17,
    labelLimit: Math.min(Math.ceil(widest) + 4, Math.floor(width * 0.55)),
  };
}

/**
 * The chart spec of counts: horizontal bars by default (category names stay whole and level,
 * however long or many), vertical bars for short ordered bands. Category bars go largest first
 * and bands (`80-90`) keep their order (see `sortsByValue`); `order: 'given'` keeps the order of
 * other bars whose order is a scale (stages), `order: 'value'` sorts whatever the labels.
 *
 * @example countBarSpec('Stage mix', [{ label: 'seed', count: 4 }], { series: 'Startups', order: 'given' })
 */
export function countBarSpec(
  title: string,
  bars: readonly CountBar[],
  options: { series?: string; type?: 'horizontal_bar' | 'bar'; order?: 'value' | 'given' } = {},
): ChartSpec {
  return {
    type: options.type ?? 'horizontal_bar',
    title,
    xKey: 'label',
    series: [{ key: 'count', name: options.series ?? 'Companies' }],
    data: bars.map((b) => ({ label: b.label, count: b.count })),
    ...(options.order ? { order: options.order } : {}),
  };
}
