/**
 * A vector chart in a report PDF: sized to the content width and the page, kept with the text
 * above it, drawn from SVG as a tagged Figure with an optional caption.
 */
import SVGtoPDF from 'svg-to-pdfkit';
import { FONT_FAMILY, truncateToWidth } from '../fonts.js';
import { pdfFontFor, svgWithFallbackFonts } from '../charts/svg-fonts.js';
import type { ReportPdf } from './document.js';
import { registerFontChain, withMarksDrawn } from './fallback-text.js';
import type { Flow } from './flow.js';
import { putLine } from './text-line.js';
import { COLORS, PAGE_MARGINS } from './theme.js';

export interface ChartImage {
  svg: string;
  width: number;
  height: number;
  /** What the chart shows, the Figure's alternative text (`chartAltText`). */
  alt?: string;
}

/** Smallest share of its size a chart is drawn at to stay on the page with its text. */
const MIN_CHART_SHRINK = 0.8;

/** Height `chart` takes on the page, caption included. */
export function chartHeight(
  pdf: ReportPdf,
  chart: ChartImage,
  options: { caption?: string; maxWidth?: number } = {},
): number {
  return chartBox(pdf, chart, options).h + (options.caption ? 16 : 0) + 12;
}

function chartBox(
  pdf: ReportPdf,
  chart: ChartImage,
  options: { caption?: string; maxWidth?: number },
): { w: number; h: number } {
  const maxWidth = Math.min(options.maxWidth ?? pdf.contentWidth, pdf.contentWidth);
  const captionHeight = options.caption ? 16 : 0;
  const pageHeight = pdf.bottom - PAGE_MARGINS.top - captionHeight - 10;
  let scale = Math.min(1, maxWidth / Math.max(1, chart.width));
  if (chart.height * scale > pageHeight) scale = pageHeight / chart.height;
  return { w: chart.width * scale, h: chart.height * scale };
}

/**
 * A vector chart from SVG, scaled to at most the content width (never up), aspect kept,
 * centred, and shrinks to one page at most. Kept with the text above it: a chart that misses
 * the rest of the page by at most a fifth of its height is drawn that much smaller there
 * (charts are rendered larger than they print, so labels stay above 6 pt); a larger one moves
 * to the next page.
 */
export function drawChart(
  pdf: ReportPdf,
  flow: Flow,
  chart: ChartImage,
  options: { caption?: string; maxWidth?: number; alt?: string } = {},
): void {
  const { doc } = pdf;
  const captionHeight = options.caption ? 16 : 0;
  let { w, h } = chartBox(pdf, chart, options);
  const room = pdf.remaining - captionHeight - 8;
  if (flow.frame === null && h > room && room >= h * MIN_CHART_SHRINK) {
    w *= room / h;
    h = room;
  }
  pdf.ensureSpace(h + captionHeight + 8);
  const x = pdf.left + (pdf.contentWidth - w) / 2;
  const y = doc.y;
  const atTop = y <= PAGE_MARGINS.top + 1;
  drawFigure(pdf, chart, { x, y, w, h }, options.alt ?? chart.alt ?? options.caption ?? 'Chart');
  doc.y = y + h + 4;
  if (options.caption) {
    const caption = options.caption;
    doc.font(FONT_FAMILY).fontSize(7.5).fillColor(COLORS.muted);
    pdf.tags.block('P', () =>
      putLine(doc, truncateToWidth(caption, pdf.contentWidth, 7.5), pdf.left, doc.y, {
        width: pdf.contentWidth,
        align: 'center',
      }),
    );
    doc.y += captionHeight - 4;
  }
  doc.x = pdf.left;
  doc.y += 8;
  doc.fillColor(COLORS.ink);
  flow.chartsDrawn++;
  if (flow.frame === null) flow.loneChart = atTop ? { page: pdf.pageCount, endY: doc.y } : null;
}

/** The chart's SVG drawn in `box`, a Figure whose alternative text `alt` says what the chart shows. */
function drawFigure(
  pdf: ReportPdf,
  chart: ChartImage,
  box: { x: number; y: number; w: number; h: number },
  alt: string,
): void {
  const { doc } = pdf;
  const { x, y, w, h } = box;
  registerFontChain(doc);
  const svg = svgWithFallbackFonts(chart.svg, 'pdfkit');
  // A Figure whose alternative text says what the chart shows; the caption a paragraph under it.
  pdf.tags.block(
    'Figure',
    () =>
      withMarksDrawn(doc, svg, () =>
        SVGtoPDF(doc, svg, x, y, {
          width: w,
          height: h,
          preserveAspectRatio: 'xMidYMid meet',
          fontCallback: (family, bold) => pdfFontFor(family, bold),
        }),
      ),
    { alt, bbox: [x, y, x + w, y + h] },
  );
}
