/**
 * The prospect list's five charts, from the summary's counts: stage mix, sector mix, countries
 * (the first 12 and the rest as one "Other" bar), momentum and fit of the scored rows. Each is
 * rendered once: SVG for the brief, PNG for the workbook. A chart with nothing to draw is not
 * drawn: its note says why (an empty list, no stage given, no scored rows).
 */
import { barLayout, countBarSpec, renderChart, topWithOther } from '../../../reports/charts/index.js';
import type { ChartLayout, ReportChart } from '../../../reports/charts/index.js';
import type { ChartSpec } from '../../../api/envelope.js';
import { stageLabel } from '../../../reports/editorial.js';
import { formatInt } from '../../../reports/format.js';
import type { CountBar, ProspectSummary } from '../types.js';

export { topWithOther };

export type ProspectChartId = 'stages' | 'sectors' | 'countries' | 'momentum' | 'fit';

/** One chart of the list: drawn, or the reason it is not. */
export type ProspectChart = ReportChart<ProspectChartId>;

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
        layout: barLayout([]),
        note:
          counts.listed === 0
            ? `No ${what} chart: the list is empty.`
            : `No ${what} chart: the service gave no ${what} for any listed company.`,
      };
    // Stages keep the order of a company's life; sectors and countries go largest first.
    const order = id === 'stages' ? 'given' : 'value';
    return { id, title, spec: countBarSpec(title, bars, { order }), layout: barLayout(labels), note: null };
  };
  // Stages in words on the axis (Series A, not series-a).
  const stages = charts.stages
    .filter((b) => b.count > 0)
    .map((b) => ({ ...b, label: b.label === 'not given' ? b.label : stageLabel(b.label) }));
  const sectorKinds = charts.sectors.filter((b) => b.count > 0).length;
  const sectors = topWithOther(charts.sectors, TOP_CATEGORIES, 'sectors');
  const countryKinds = charts.countries.filter((b) => b.count > 0 && !/^other\b/i.test(b.label)).length;
  const countries = topWithOther(charts.countries, TOP_CATEGORIES, 'countries');
  const scored = (id: 'momentum' | 'fit', bars: CountBar[], what: string): PlannedProspectChart => {
    const name = `${what[0]?.toUpperCase() ?? ''}${what.slice(1)}`;
    if (counts.scored === 0 || !bars.some((b) => b.count > 0))
      return { id, title: name, spec: null, layout: barLayout([]), note: noScoresNote(summary, what) };
    const title = `${name} of the ${formatInt(counts.scored)} scored companies`;
    return {
      id,
      title,
      spec: countBarSpec(title, bars, { order: 'given' }),
      layout: barLayout(bars.map((b) => b.label)),
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
    out.push({ id: p.id, title: p.title, rendered, note: p.note, ...(p.spec ? { spec: p.spec } : {}) });
  }
  return out;
}
