/**
 * Headless chart rendering: Vega-Lite → Vega → SVG (no canvas), PNG with resvg, text measured
 * by fontkit from the same DejaVu Sans files that pdfkit and resvg use.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Resvg } from '@resvg/resvg-js';
import * as vega from 'vega';
import { compile } from 'vega-lite';
import type { TopLevelSpec } from 'vega-lite';
import type { ChartSpec } from '../../api/envelope.js';
import { fontChain } from '../font-chain.js';
import { FONT_FAMILY, FONT_FILES, measureText } from '../fonts.js';
import { chartAltText } from './alt.js';
import { svgWithFallbackFonts } from './svg-fonts.js';
import { toVegaLite } from './vegalite.js';
import type { ChartLayout, ChartMeta } from './vegalite.js';

/** A rendered chart: vector SVG, PNG at `pngScale` times its size, and its size in px. */
export interface RenderedChart {
  svg: string;
  png: Buffer;
  width: number;
  height: number;
  meta: ChartMeta | null;
  /** What the chart shows, for the tagged PDF's Figure (`chartAltText`); set by `renderChart`. */
  alt?: string;
}

/** A chart of a report: drawn, or the reason it is not (a chart with nothing to draw is not drawn). */
export interface ReportChart<Id extends string = string> {
  id: Id;
  title: string;
  /** The rendered chart (SVG and PNG); null when there is nothing to draw. */
  rendered: RenderedChart | null;
  /** Why the chart is not drawn; null when it is. */
  note: string | null;
  /**
   * The spec it was drawn from, when its data is all in it: a workbook shows that data as a
   * table and a native chart of it beside the image.
   */
  spec?: ChartSpec;
}

export interface RenderOptions extends ChartLayout {
  /** PNG pixels per SVG pixel. Default 2. */
  pngScale?: number;
  /** Seed of Vega's random generator (jitter, sampling). Default 42. */
  seed?: number;
}

interface TextItem {
  fontSize?: number | string;
  fontWeight?: string | number;
  limit?: number;
}

interface VegaExtras {
  textMetrics: { width: (item: TextItem, text: unknown) => number };
  setRandom: (rand: () => number) => void;
  randomLCG: (seed: number) => () => number;
}

const extras = vega as unknown as VegaExtras;

function isBold(weight: TextItem['fontWeight']): boolean {
  if (weight === undefined) return false;
  if (typeof weight === 'number') return weight >= 600;
  return /bold|[6-9]00/i.test(weight);
}

/**
 * Width of `text` in `item`'s font size and weight from DejaVu Sans metrics, clamped to
 * `item.limit` when the item has one (Vega then truncates with an ellipsis).
 */
export function vegaTextWidth(item: TextItem, text: unknown): number {
  const t = typeof text === 'string' ? text.trim() : typeof text === 'number' ? String(text) : '';
  const size = item.fontSize === undefined || item.fontSize === null ? 11 : Number(item.fontSize) || 0;
  const w = measureText(t, size, isBold(item.fontWeight));
  const limit = Number(item.limit);
  return limit > 0 ? Math.min(w, limit) : w;
}

let installed = false;

/** Replaces Vega's 0.8-em estimate by real font metrics. Idempotent. */
export function installTextMetrics(): void {
  if (installed) return;
  extras.textMetrics.width = vegaTextWidth;
  installed = true;
}

function svgSize(svg: string): { width: number; height: number } {
  const head = /<svg[^>]*>/.exec(svg)?.[0] ?? '';
  const width = Number(/\swidth="([\d.]+)"/.exec(head)?.[1] ?? 0);
  const height = Number(/\sheight="([\d.]+)"/.exec(head)?.[1] ?? 0);
  return { width, height };
}

/** The font files resvg loads: DejaVu Sans and the installed fallbacks (a collection once). */
function resvgFontFiles(): string[] {
  const files = new Set<string>([FONT_FILES.regular, FONT_FILES.bold]);
  for (const bold of [false, true]) for (const f of fontChain(bold)) files.add(f.file);
  return [...files];
}

/**
 * Rasterises an SVG with resvg, on white, with the fonts of the chain only (no system fonts):
 * text DejaVu Sans lacks is split into `<tspan>`s of the fallback fonts first.
 */
export function svgToPng(svg: string, scale = 2): Buffer {
  const resvg = new Resvg(svgWithFallbackFonts(svg, 'resvg'), {
    fitTo: { mode: 'zoom', value: scale },
    background: 'white',
    font: {
      fontFiles: resvgFontFiles(),
      loadSystemFonts: false,
      defaultFontFamily: FONT_FAMILY,
      sansSerifFamily: FONT_FAMILY,
    },
  });
  return resvg.render().asPng();
}

/**
 * Renders a Vega-Lite spec to SVG (and PNG). Deterministic for a given seed.
 *
 * It first gives the event loop a turn: a report renders its charts one after the other, and
 * Vega's promises resolve without one, so without it a report's dozens of charts were one block
 * of CPU that held back the activity's heartbeats (seconds idle; over the heartbeat timeout on a
 * loaded machine).
 */
export async function renderVegaLite(
  spec: TopLevelSpec,
  options: RenderOptions = {},
): Promise<RenderedChart> {
  await nextTurn();
  installTextMetrics();
  extras.setRandom(extras.randomLCG(options.seed ?? 42));
  const vgSpec = compile(spec).spec;
  const view = new vega.View(vega.parse(vgSpec), { renderer: 'none' });
  try {
    const svg = await view.toSVG();
    const { width, height } = svgSize(svg);
    const png = svgToPng(svg, options.pngScale ?? 2);
    const meta = ((spec as { usermeta?: unknown }).usermeta as ChartMeta | undefined) ?? null;
    return { svg, png, width, height, meta };
  } finally {
    view.finalize();
  }
}

/**
 * Renders a service chart spec: `toVegaLite` then `renderVegaLite`, with the chart's alternative
 * text (`chartAltText`).
 *
 * @example const { svg, png } = await renderChart({ type: 'bar', xKey: 'year', series: ['deals'], data });
 */
export async function renderChart(chart: ChartSpec, options: RenderOptions = {}): Promise<RenderedChart> {
  return { ...(await renderVegaLite(toVegaLite(chart, options), options)), alt: chartAltText(chart) };
}
