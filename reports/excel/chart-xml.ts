/** The chart part (`xl/charts/chartN.xml`) of a native chart: its title, plot area and legend. */
import type { NativeChart } from './chart-model.js';
import { barPlot, comboPlot, horizontalBarPlot, linePlot, piePlot } from './chart-plots.js';
import { COLORS, solidFill } from './chart-series.js';
import { NS, xmlText } from './ooxml.js';

/** The plot area of a chart and whether it has a legend. */
function plotArea(chart: NativeChart): { xml: string; legend: boolean } {
  // A legend for two to eight series: more (one line a startup) would crowd out the plot.
  const many = chart.series.length > 1 && chart.series.length <= COLORS.length;
  switch (chart.type) {
    case 'pie':
    case 'doughnut':
      return { xml: piePlot(chart), legend: true };
    case 'line':
      return { xml: linePlot(chart), legend: many };
    case 'combo':
      return { xml: comboPlot(chart), legend: true };
    case 'horizontal_bar':
    case 'stacked_horizontal_bar':
      return { xml: horizontalBarPlot(chart), legend: many };
    case 'bar':
    case 'stacked_bar':
    default:
      return { xml: barPlot(chart), legend: many };
  }
}

/** The chart part (`xl/charts/chartN.xml`) of `chart`. */
export function chartXml(chart: NativeChart): string {
  const { xml, legend } = plotArea(chart);
  const title =
    `<c:title><c:tx><c:rich><a:bodyPr/><a:lstStyle/><a:p><a:pPr><a:defRPr sz="1200" b="1"/></a:pPr>` +
    `<a:r><a:rPr lang="en-US" sz="1200" b="1"><a:solidFill><a:srgbClr val="1F4E79"/></a:solidFill></a:rPr>` +
    `<a:t>${xmlText(chart.title)}</a:t></a:r></a:p></c:rich></c:tx><c:overlay val="0"/></c:title>`;
  return (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
    `<c:chartSpace xmlns:c="${NS.c}" xmlns:a="${NS.a}" xmlns:r="${NS.r}">` +
    `<c:roundedCorners val="0"/><c:chart>${title}<c:autoTitleDeleted val="0"/>` +
    `<c:plotArea><c:layout/>${xml}</c:plotArea>` +
    (legend ? '<c:legend><c:legendPos val="b"/><c:overlay val="0"/></c:legend>' : '') +
    `<c:plotVisOnly val="1"/><c:dispBlanksAs val="gap"/></c:chart>` +
    `<c:spPr>${solidFill('FFFFFF')}<a:ln w="9525">${solidFill('D9D9D9')}</a:ln></c:spPr>` +
    `<c:txPr><a:bodyPr/><a:lstStyle/><a:p><a:pPr><a:defRPr sz="900"/></a:pPr><a:endParaRPr lang="en-US"/></a:p></c:txPr>` +
    `</c:chartSpace>`
  );
}
