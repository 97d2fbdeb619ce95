/**
 * The deck triage's charts: each ranked deck's scored dimensions as horizontal bars on a fixed
 * 0-100 scale (so two decks' bars compare at a glance), the highest first, each bar ending in its
 * score as the report prints scores (`82.0%`). Rendered once: SVG for the PDF, PNG (and the data
 * of a native chart) for the workbook. A deck whose analysis scored no dimension has no chart:
 * its note says so. Each names the answers it was drawn from (`source`, its caption in the PDF).
 */
import type { ChartSpec } from '../../../api/envelope.js';
import { barLayout, chartAltText, renderVegaLite, toVegaLite } from '../../../reports/charts/index.js';
import type { ChartLayout, ReportChart } from '../../../reports/charts/index.js';
import { formatFit } from '../../../reports/editorial.js';
import { printableText } from '../../../reports/fonts.js';
import type { DeckTriageReport, TriagedDeck } from '../types.js';
import { chartSource } from './sources.js';
import { printedName, rankedDecks } from './text.js';

/** One deck's dimension chart: drawn, or why not; `deck` its index in `report.decks`, `source` its caption. */
export interface DeckChart extends ReportChart {
  deck: number;
  source?: string | null;
}

/** Render width, px: the chart sits beside the deck's facts, at about half the page. */
const CHART_WIDTH = 300;

/** The title every dimension chart carries (the deck's name is the section's heading). */
export const DIMENSIONS_TITLE = 'Scores by dimension';

/** The chart spec of a deck's dimensions: one bar a dimension, the highest first. */
export function dimensionSpec(deck: TriagedDeck, title = DIMENSIONS_TITLE): ChartSpec {
  const rows = deck.dimensions
    .filter((d) => Number.isFinite(d.score))
    .map((d) => ({ dimension: printableText(d.label) || '—', score: d.score }))
    .sort((a, b) => b.score - a.score);
  return {
    type: 'horizontal_bar',
    title,
    xKey: 'dimension',
    series: [{ key: 'score', name: 'Score', unit: '%' }],
    data: rows,
    order: 'value',
  };
}

interface Layered {
  data?: { values?: { v?: number | null; t?: string }[] };
  layer?: { encoding?: { x?: Record<string, unknown> } }[];
}

/**
 * The Vega-Lite spec of the bars: the shared horizontal bars with the value axis fixed at 0 to
 * 100 (ticks every 25) and each bar's label in the report's score form.
 */
function barsOnScale(spec: ChartSpec, layout: ChartLayout): ReturnType<typeof toVegaLite> {
  const vl = toVegaLite(spec, layout) as unknown as Layered;
  for (const r of vl.data?.values ?? []) r.t = formatFit(r.v ?? null);
  for (const layer of vl.layer ?? []) {
    const x = layer.encoding?.x;
    if (!x) continue;
    x['scale'] = { domain: [0, 100], nice: false, clamp: true };
    x['axis'] = { ...(x['axis'] as Record<string, unknown>), values: [0, 25, 50, 75, 100] };
  }
  return vl as unknown as ReturnType<typeof toVegaLite>;
}

async function one(report: DeckTriageReport, deck: TriagedDeck): Promise<DeckChart> {
  const index = report.decks.indexOf(deck);
  const spec = dimensionSpec(deck);
  const base = { id: `d${index}`, deck: index, title: DIMENSIONS_TITLE, source: chartSource(report, deck) };
  const rows = Array.isArray(spec.data) ? spec.data.length : 0;
  if (rows === 0)
    return {
      ...base,
      rendered: null,
      note: `The service scored no dimension of ${printedName(deck)}'s deck: no chart.`,
    };
  const labels = (spec.data as { dimension: string }[]).map((r) => r.dimension);
  // Room right of the longest bar (100) for its label.
  const layout: ChartLayout = { ...barLayout(labels, CHART_WIDTH), band: 20 };
  try {
    const rendered = await renderVegaLite(barsOnScale(spec, layout), layout);
    return { ...base, rendered: { ...rendered, alt: chartAltText(spec) }, note: null, spec };
  } catch {
    return {
      ...base,
      rendered: null,
      note: `The dimension chart of ${printedName(deck)} could not be drawn.`,
    };
  }
}

/**
 * The dimension chart of every ranked deck, in the ranking's order, rendered one after the other
 * (Vega runs on one thread anyway). Pass them to both writers.
 *
 * @example
 * const charts = await renderDeckCharts(report);
 * await writeDeckTriagePdf(report, 'out/triage.pdf', { charts });
 * await writeDeckTriageWorkbook(report, 'out/triage.xlsx', { charts });
 */
export async function renderDeckCharts(report: DeckTriageReport): Promise<DeckChart[]> {
  const out: DeckChart[] = [];
  for (const deck of rankedDecks(report)) out.push(await one(report, deck));
  return out;
}

/** The chart of the deck at `index` in `report.decks`, if any. */
export function chartOf(charts: readonly DeckChart[], index: number): DeckChart | undefined {
  return charts.find((c) => c.deck === index);
}
