/**
 * The prospect list's five charts, from the summary's counts: stage mix, sector mix, countries
 * (the first 12 and the rest as one "Other" bar), momentum and fit of the scored rows. Each is
 * rendered once: SVG for the brief, PNG for the workbook. A chart with nothing to draw is not
 * drawn: its note says why (an empty list, no stage given, no scored rows).
 */
import type { ChartSpec } from '../../../api/envelope.js';
import { renderChart } from '../../../reports/charts/index.js';
import type { ChartLayout, RenderedChart } from '../../../reports/charts/index.js';
import { LABEL_FONT_SIZE } from '../../../reports/charts/index.js';
import { measureText } from '../../../reports/fonts.js';
import { formatInt } from '../../../reports/format.js';
import type { CountBar, ProspectSummary } from '../types.js';

export type ProspectChartId = 'stages' | 'sectors' | 'countries' | 'momentum' | 'fit';

/** One chart of the list: drawn, or the reason it is not. */
export interface ProspectChart {
  id: ProspectChartId;
  title: string;
  /** The rendered chart (SVG and PNG); null when there is nothing to draw. */
  rendered: RenderedChart | null;
  /** Why the chart is not drawn; null when it is. */
  note: string | null;
}

/** A chart to render: its spec and layout, or the reason it has none. */
export interface PlannedProspectChart {
  id: ProspectChartId;
  title: string;
  spec: ChartSpec | null;
  layout: ChartLayout;
  note: string | null;
}

/** Countries (and sectors) drawn one bar each; the rest share one bar. */
export const TOP_CATEGORIES = 12;

/** Render width, px: the brief shows charts at half its width (about 240 pt), so at 0.73 scale. */
const CHART_WIDTH = 330;

/**
 * The `n` largest bars (zero counts left out, ties in their given order) and one
 * `Other (k <noun>)` bar with the rest; a bar the summary already called "other" joins it.
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

/** Layout of a chart whose category labels are `labels`: horizontal bars keep their labels whole. */
function layoutFor(labels: readonly string[]): ChartLayout {
  const widest = Math.max(0, ...labels.map((l) => measureText(l, LABEL_FONT_SIZE)));
  return {
    width: CHART_WIDTH,
    band: 17,
    labelLimit: Math.min(Math.ceil(widest) + 4, Math.floor(CHART_WIDTH * 0.55)),
  };
}

/** Horizontal bars: category names stay whole and level, however long (sectors) or many (countries). */
function barSpec(title: string, bars: readonly CountBar[]): ChartSpec {
  return {
    type: 'horizontal_bar',
    title,
    xKey: 'label',
    series: [{ key: 'count', name: 'Companies' }],
    data: bars.map((b) => ({ label: b.label, count: b.count })),
  };
}

/** Why the momentum and fit charts are empty. */
function noScoresNote(summary: ProspectSummary, what: string): string {
  if (summary.counts.listed === 0) return `No ${what} chart: the list is empty.`;
  if (summary.briefs.length === 0)
    return `No scored rows: the job has no find_customers brief, and only briefs score ${what}.`;
  return `No scored rows: the briefs scored none of the listed companies, so there is no ${what} to show.`;
}

/**
 * The five charts of a summary, in the order the brief and the workbook show them. Stage and
 * score bands keep the summary's order; sectors and countries go largest first.
 */
export function planProspectCharts(summary: ProspectSummary): PlannedProspectChart[] {
  const { charts, counts } = summary;
  const categorical = (
    id: ProspectChartId,
    title: string,
    bars: CountBar[],
    what: string,
  ): PlannedProspectChart => {
    const labels = bars.map((b) => b.label);
    if (bars.length === 0)
      return {
        id,
        title,
        spec: null,
        layout: layoutFor([]),
        note:
          counts.listed === 0
            ? `No ${what} chart: the list is empty.`
            : `No ${what} chart: the service gave no ${what} for any listed company.`,
      };
    return { id, title, spec: barSpec(title, bars), layout: layoutFor(labels), note: null };
  };
  const stages = charts.stages.filter((b) => b.count > 0);
  const sectorKinds = charts.sectors.filter((b) => b.count > 0).length;
  const sectors = topWithOther(charts.sectors, TOP_CATEGORIES, 'sectors');
  const countryKinds = charts.countries.filter((b) => b.count > 0 && !/^other\b/i.test(b.label)).length;
  const countries = topWithOther(charts.countries, TOP_CATEGORIES, 'countries');
  const scored = (id: 'momentum' | 'fit', bars: CountBar[], what: string): PlannedProspectChart => {
    const name = `${what[0]?.toUpperCase() ?? ''}${what.slice(1)}`;
    if (counts.scored === 0 || !bars.some((b) => b.count > 0))
      return { id, title: name, spec: null, layout: layoutFor([]), note: noScoresNote(summary, what) };
    const title = `${name} of the ${formatInt(counts.scored)} scored companies`;
    return {
      id,
      title,
      spec: barSpec(title, bars),
      layout: layoutFor(bars.map((b) => b.label)),
      note: null,
    };
  };
  return [
    categorical('stages', 'Stage mix', stages, 'stage'),
    categorical(
      'sectors',
      sectorKinds > TOP_CATEGORIES ? `Sector mix: top ${TOP_CATEGORIES} of ${sectorKinds}` : 'Sector mix',
      sectors,
      'sector',
    ),
    categorical(
      'countries',
      countryKinds > TOP_CATEGORIES
        ? `Countries: top ${TOP_CATEGORIES} of ${formatInt(countryKinds)}`
        : 'Countries',
      countries,
      'country',
    ),
    scored('momentum', charts.momentum, 'momentum'),
    scored('fit', charts.fit, 'fit'),
  ];
}

/**
 * Renders the five charts one after the other (Vega runs on one thread anyway).
 *
 * @example const charts = await renderProspectCharts(summary); // charts[0].rendered?.svg
 */
export async function renderProspectCharts(summary: ProspectSummary): Promise<ProspectChart[]> {
  const out: ProspectChart[] = [];
  for (const p of planProspectCharts(summary)) {
    const rendered = p.spec ? await renderChart(p.spec, p.layout) : null;
    out.push({ id: p.id, title: p.title, rendered, note: p.note });
  }
  return out;
}
