/**
 * The plots of a native chart, one writer a chart type: clustered or stacked bars (vertical or
 * horizontal), lines, combos of bars and lines on one or two value axes, pies and doughnuts.
 */
import type { NativeChart, NativeSeries } from './chart-model.js';
import { AX, catAx, seriesAxisFormat, valAx } from './chart-axes.js';
import { seriesXml } from './chart-series.js';

/** A `<c:barChart>` of `series`, numbered from `first`, on the axes `axes`. */
export function barChart(
  chart: NativeChart,
  series: readonly NativeSeries[],
  first: number,
  options: { horizontal: boolean; stacked: boolean; axes: [number, number] },
): string {
  return (
    `<c:barChart><c:barDir val="${options.horizontal ? 'bar' : 'col'}"/>` +
    `<c:grouping val="${options.stacked ? 'stacked' : 'clustered'}"/><c:varyColors val="0"/>` +
    series.map((s, i) => seriesXml(chart, s, first + i, 'bar')).join('') +
    `<c:gapWidth val="${options.stacked ? 60 : 80}"/>` +
    (options.stacked ? '<c:overlap val="100"/>' : series.length > 1 ? '<c:overlap val="-10"/>' : '') +
    `<c:axId val="${options.axes[0]}"/><c:axId val="${options.axes[1]}"/></c:barChart>`
  );
}

/** A `<c:lineChart>` of `series`, numbered from `first`, on the axes `axes`. */
export function lineChart(
  chart: NativeChart,
  series: readonly NativeSeries[],
  first: number,
  axes: [number, number],
): string {
  return (
    `<c:lineChart><c:grouping val="standard"/><c:varyColors val="0"/>` +
    series.map((s, i) => seriesXml(chart, s, first + i, 'line')).join('') +
    `<c:marker val="1"/><c:axId val="${axes[0]}"/><c:axId val="${axes[1]}"/></c:lineChart>`
  );
}

/** Data labels of a pie's slices: their share of the whole, in percent. */
const PIE_LABELS =
  '<c:dLbls><c:numFmt formatCode="0%" sourceLinked="0"/><c:spPr><a:noFill/><a:ln><a:noFill/></a:ln></c:spPr>' +
  '<c:showLegendKey val="0"/><c:showVal val="0"/><c:showCatName val="0"/><c:showSerName val="0"/>' +
  '<c:showPercent val="1"/><c:showBubbleSize val="0"/><c:showLeaderLines val="1"/></c:dLbls>';

/** A pie or doughnut of the first series, each slice labelled with its share. */
export function piePlot(chart: NativeChart): string {
  const s = chart.series[0];
  const ser = s ? seriesXml(chart, s, 0, 'pie') : '';
  return chart.type === 'pie'
    ? `<c:pieChart><c:varyColors val="1"/>${ser}${PIE_LABELS}<c:firstSliceAng val="0"/></c:pieChart>`
    : `<c:doughnutChart><c:varyColors val="1"/>${ser}${PIE_LABELS}<c:firstSliceAng val="0"/>` +
        `<c:holeSize val="55"/></c:doughnutChart>`;
}

/** Lines over the categories, the value axis at the left. */
export function linePlot(chart: NativeChart): string {
  return (
    lineChart(chart, chart.series, 0, [AX.cat, AX.val]) +
    catAx(AX.cat, AX.val, 'b') +
    valAx(AX.val, AX.cat, 'l', seriesAxisFormat(chart.series[0]))
  );
}

/**
 * Bars and lines over the categories: the series not marked `secondary` on the primary axes,
 * the others on a second value axis at the right (its category axis hidden).
 */
export function comboPlot(chart: NativeChart): string {
  const bars = chart.series.filter((s) => (s.draw ?? 'bar') === 'bar');
  const lines = chart.series.filter((s) => s.draw === 'line');
  const primaryLines = lines.filter((s) => !s.secondary);
  const secondLines = lines.filter((s) => s.secondary);
  const secondBars = bars.filter((s) => s.secondary);
  const primaryBars = bars.filter((s) => !s.secondary);
  const primary: string[] = [];
  const secondary: string[] = [];
  let n = 0;
  if (primaryBars.length > 0) {
    primary.push(
      barChart(chart, primaryBars, n, { horizontal: false, stacked: false, axes: [AX.cat, AX.val] }),
    );
    n += primaryBars.length;
  }
  if (primaryLines.length > 0) {
    primary.push(lineChart(chart, primaryLines, n, [AX.cat, AX.val]));
    n += primaryLines.length;
  }
  if (secondBars.length > 0) {
    secondary.push(
      barChart(chart, secondBars, n, { horizontal: false, stacked: false, axes: [AX.cat2, AX.val2] }),
    );
    n += secondBars.length;
  }
  if (secondLines.length > 0) secondary.push(lineChart(chart, secondLines, n, [AX.cat2, AX.val2]));
  const firstPrimary: NativeSeries | undefined = [...primaryBars, ...primaryLines][0];
  const firstSecondary: NativeSeries | undefined = [...secondBars, ...secondLines][0];
  return (
    primary.join('') +
    secondary.join('') +
    catAx(AX.cat, AX.val, 'b') +
    valAx(AX.val, AX.cat, 'l', seriesAxisFormat(firstPrimary)) +
    (secondary.length > 0
      ? catAx(AX.cat2, AX.val2, 'b', { hidden: true }) +
        valAx(AX.val2, AX.cat2, 'r', seriesAxisFormat(firstSecondary), { crossesMax: true, gridlines: false })
      : '')
  );
}

/** Horizontal bars (stacked for `stacked_horizontal_bar`). */
export function horizontalBarPlot(chart: NativeChart): string {
  // Categories top to bottom in the table's order; the value axis at the bottom.
  return (
    barChart(chart, chart.series, 0, {
      horizontal: true,
      stacked: chart.type === 'stacked_horizontal_bar',
      axes: [AX.cat, AX.val],
    }) +
    catAx(AX.cat, AX.val, 'l', { reverse: true }) +
    valAx(AX.val, AX.cat, 'b', seriesAxisFormat(chart.series[0]), { crossesMax: true })
  );
}

/** Vertical bars (stacked for `stacked_bar`), the value axis at the left. */
export function barPlot(chart: NativeChart): string {
  return (
    barChart(chart, chart.series, 0, {
      horizontal: false,
      stacked: chart.type === 'stacked_bar',
      axes: [AX.cat, AX.val],
    }) +
    catAx(AX.cat, AX.val, 'b') +
    valAx(AX.val, AX.cat, 'l', seriesAxisFormat(chart.series[0]))
  );
}
