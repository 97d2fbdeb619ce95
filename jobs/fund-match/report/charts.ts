/**
 * The fund-match digest's four charts, from `digest.charts`: the batch's fit in bands of five
 * points, its sector and stage mix (horizontal bars: long labels stay whole) and the fit of the
 * still-matched startups across runs (one line a startup, the run dates along x). Each is
 * rendered once: SVG for the PDF, PNG for the workbook. A chart with nothing to draw is not
 * drawn: its note says why (the baseline has no trend yet, an empty batch, no sector given).
 * Each names the answers it was drawn from (`source`, the caption under it in the PDF).
 */
import type { ChartSpec } from '../../../api/envelope.js';
import {
  barLayout,
  countBarSpec,
  PALETTE,
  chartAltText,
  renderVegaLite,
  toVegaLite,
  topWithOther,
} from '../../../reports/charts/index.js';
import type { ChartLayout, CountBar, ReportChart } from '../../../reports/charts/index.js';
import type { TopLevelSpec } from 'vega-lite';
import { stageLabel } from '../../../reports/editorial.js';
import { printableText } from '../../../reports/fonts.js';
import { formatInt } from '../../../reports/format.js';
import type { FundDigest } from '../digest.js';
import { chartSources } from './sources.js';
import { printedName, runLabels } from './text.js';

export type FundChartId = 'fit' | 'sectors' | 'stages' | 'trend';

/** One chart of the digest: drawn, or the reason it is not; `source` its caption (null: not known). */
export type FundChart = ReportChart<FundChartId> & { source?: string | null };

/** Sectors drawn one bar each; the rest share one bar. */
const TOP_SECTORS = 12;
/** Startups of the trend drawn in colour (the largest moves); the others are grey lines. */
export const TREND_COLOURED = 6;
const GREY = '#c3cad2';
/** The palette's colours a trend line may take: not its grey, which reads as one of the grey lines. */
const LINE_COLOURS = PALETTE.filter((c) => c !== '#7f8c8d');
/** The trend is drawn across the page. */
const TREND_LAYOUT: ChartLayout = { width: 520, height: 210 };

/** The bars without the ones for startups the service said nothing about. */
const given = (bars: readonly CountBar[]): CountBar[] =>
  bars.filter((b) => b.count > 0 && b.label !== 'not given');

function barsChart(
  digest: FundDigest,
  id: 'sectors' | 'stages',
  title: string,
  bars: CountBar[],
  what: string,
): { spec: ChartSpec | null; layout: ChartLayout; note: string | null } {
  if (digest.counts.batch === 0)
    return { spec: null, layout: barLayout([]), note: `No ${what} chart: the batch is empty.` };
  if (given(bars).length === 0)
    return {
      spec: null,
      layout: barLayout([]),
      note: `No ${what} chart: the service gave no ${what} for any startup of the batch.`,
    };
  // Labels as the fonts draw them (a script no font of the chain has becomes […]).
  // Stages in words (`series-a` -> `Series A`).
  const shown = (id === 'sectors' ? topWithOther(bars, TOP_SECTORS, 'sectors') : bars).map((b) => ({
    ...b,
    label: printableText(id === 'stages' ? stageLabel(b.label) : b.label),
  }));
  return {
    // Sectors largest first; stages in the order of a company's life.
    spec: countBarSpec(title, shown, { series: 'Startups', order: id === 'stages' ? 'given' : 'value' }),
    layout: barLayout(shown.map((b) => b.label)),
    note: null,
  };
}

/**
 * A chart of the digest before it is drawn: the Vega-Lite spec the PDF and the workbook render
 * (and the portal's interactive page embeds), or the reason there is none.
 */
export interface PlannedFundChart {
  id: FundChartId;
  title: string;
  note: string | null;
  /** The chart's data as a service chart spec (absent when not drawn). */
  spec?: ChartSpec;
  /** The Vega-Lite spec rendered (null when not drawn). */
  vegaLite: TopLevelSpec | null;
  layout: ChartLayout;
}

function fitChart(digest: FundDigest): PlannedFundChart {
  const bands = digest.charts.fit;
  const scored = bands.reduce((s, b) => s + b.count, 0);
  const title = `Fit of the ${formatInt(scored)} ${scored === 1 ? 'startup' : 'startups'} (bands of 5 points)`;
  if (scored === 0) {
    const note =
      digest.counts.batch === 0
        ? 'No fit chart: the batch is empty.'
        : 'No fit chart: the service gave no fit for any startup of the batch.';
    return { id: 'fit', title: 'Fit of the batch', vegaLite: null, layout: barLayout([]), note };
  }
  // The best fits on top.
  const spec = countBarSpec(title, [...bands].reverse(), { series: 'Startups', order: 'given' });
  const layout = barLayout(bands.map((b) => b.label));
  return { id: 'fit', title, vegaLite: toVegaLite(spec, layout), layout, note: null, spec };
}

/** Why the trend is not drawn, or null when it is. */
function trendNote(digest: FundDigest): string | null {
  if (digest.baseline || digest.runs.length < 2)
    return 'Baseline: this is the first run of the job, so there is no trend yet; the next runs draw the fit of each startup still matched, run after run.';
  if (digest.charts.trend.length === 0)
    return 'No trend: no startup of this batch was matched by an earlier run.';
  if (!digest.charts.trend.some((t) => t.fits.filter((f) => f !== null).length > 0))
    return 'No trend: the service gave no fit for the startups still matched.';
  return null;
}

/** Names as the legend prints them: printable, and one apart from another. */
function legendNames(trend: FundDigest['charts']['trend']): string[] {
  const seen = new Map<string, number>();
  return trend.map((t) => {
    const base = printedName(t.name, t.key);
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return n === 1 ? base : `${base} (${n})`;
  });
}

/** The fit moved from a startup's first run shown to its last. */
function moved(fits: readonly (number | null)[]): number {
  const known = fits.filter((f): f is number => f !== null);
  return known.length < 2 ? 0 : Math.abs((known.at(-1) ?? 0) - (known[0] ?? 0));
}

/**
 * The trend as a line chart: one line a startup over the run dates; the `TREND_COLOURED` largest
 * moves in colour with a legend (the best fits when no fit moved), the others as grey lines under
 * them.
 */
export function trendSpec(digest: FundDigest): {
  spec: ChartSpec;
  /** The series' names in drawing order (the grey ones first). */
  drawn: string[];
  /** The names drawn in colour, in the legend's order. */
  coloured: string[];
  title: string;
} {
  const trend = digest.charts.trend;
  const names = legendNames(trend);
  const order = trend
    .map((t, i) => ({ i, moved: moved(t.fits), fit: t.fits.at(-1) ?? -1 }))
    .sort((a, b) => b.moved - a.moved || b.fit - a.fit || a.i - b.i);
  // Colour goes to the startups whose fit moved; when none moved, to the best fits.
  const movers = order.filter((o) => o.moved >= 0.05).length;
  const colouredIdx = order
    .slice(0, movers > 0 ? Math.min(movers, TREND_COLOURED) : TREND_COLOURED)
    .map((o) => o.i);
  const greyIdx = order.slice(colouredIdx.length).map((o) => o.i);
  // Grey lines first, so the coloured ones are drawn over them.
  const series = [...greyIdx, ...colouredIdx].map((i) => ({ key: `s${i}`, name: names[i] ?? '', unit: '%' }));
  const labels = runLabels(digest.runs);
  const data = digest.runs.map((_, j) => ({
    run: labels[j] ?? '',
    ...Object.fromEntries(trend.map((t, i) => [`s${i}`, t.fits[j] ?? null])),
  }));
  const grey = `${formatInt(greyIdx.length)} more in grey`;
  const title =
    greyIdx.length === 0
      ? 'Fit across runs of the startups still matched'
      : movers === 0
        ? `Fit across runs: no fit moved; the ${colouredIdx.length} best in colour, ${grey}`
        : colouredIdx.length === 1
          ? `Fit across runs: the one that moved in colour, ${grey}`
          : `Fit across runs: the ${colouredIdx.length} largest moves in colour, ${grey}`;
  return {
    spec: { type: 'line', title, xKey: 'run', series, data },
    drawn: series.map((x) => x.name),
    coloured: colouredIdx.map((i) => names[i] ?? ''),
    title,
  };
}

interface Encoding {
  color?: Record<string, unknown>;
  y?: Record<string, unknown>;
}

function trendChart(digest: FundDigest): PlannedFundChart {
  const note = trendNote(digest);
  if (note !== null)
    return { id: 'trend', title: 'Fit across runs', vegaLite: null, layout: TREND_LAYOUT, note };
  const { spec, drawn, coloured, title } = trendSpec(digest);
  const vl = toVegaLite(spec, TREND_LAYOUT);
  // The line chart's colours and value axis, set here: the shared spec colours every series and
  // starts percentages at zero.
  const encoding = (vl as { encoding?: Encoding }).encoding;
  if (encoding?.color && encoding.y) {
    const colours = new Map(coloured.map((n, i) => [n, LINE_COLOURS[i % LINE_COLOURS.length] ?? GREY]));
    encoding.color = {
      ...encoding.color,
      scale: { domain: drawn, range: drawn.map((n) => colours.get(n) ?? GREY) },
      legend: {
        orient: 'bottom',
        direction: 'horizontal',
        title: null,
        columns: Math.min(coloured.length, 3),
        labelLimit: 150,
        symbolType: 'stroke',
        values: coloured,
      },
    };
    // Fits sit high (70 to 95): the axis starts near them, not at zero.
    encoding.y = { ...encoding.y, scale: { zero: false, nice: true } };
  }
  return { id: 'trend', title, vegaLite: vl, layout: TREND_LAYOUT, note: null, spec };
}

/**
 * The digest's four charts before they are drawn, in the order the PDF and the workbook show
 * them: each with the Vega-Lite spec `renderFundCharts` renders, and its caption (`source`).
 */
export function planFundCharts(digest: FundDigest): (PlannedFundChart & { source?: string | null })[] {
  const out: PlannedFundChart[] = [fitChart(digest)];
  const mixes = [
    ['sectors', 'Sector mix', digest.charts.sectors, 'sector'],
    ['stages', 'Stage mix', digest.charts.stages, 'stage'],
  ] as const;
  for (const [id, name, bars, what] of mixes) {
    const kinds = given(bars).length;
    const title = id === 'sectors' && kinds > TOP_SECTORS ? `${name}: top ${TOP_SECTORS} of ${kinds}` : name;
    const p = barsChart(digest, id, title, [...bars], what);
    out.push({
      id,
      title,
      vegaLite: p.spec ? toVegaLite(p.spec, p.layout) : null,
      layout: p.layout,
      note: p.note,
      ...(p.spec ? { spec: p.spec } : {}),
    });
  }
  out.push(trendChart(digest));
  const sources = chartSources(digest);
  return out.map((c) => ({ ...c, source: sources[c.id] }));
}

/**
 * The digest's four charts, in the order the PDF and the workbook show them, rendered one after
 * the other (Vega runs on one thread anyway).
 *
 * @example const charts = await renderFundCharts(digest); // charts[0].rendered?.svg
 */
export async function renderFundCharts(digest: FundDigest): Promise<FundChart[]> {
  const out: FundChart[] = [];
  for (const p of planFundCharts(digest)) {
    const rendered =
      p.vegaLite && p.spec
        ? { ...(await renderVegaLite(p.vegaLite, p.layout)), alt: chartAltText(p.spec) }
        : null;
    out.push({
      id: p.id,
      title: p.title,
      rendered,
      note: p.note,
      ...(p.spec ? { spec: p.spec } : {}),
      source: p.source,
    });
  }
  return out;
}
