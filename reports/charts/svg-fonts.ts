/**
 * Chart SVG text in every script: the text of a `<text>` element that DejaVu Sans cannot draw
 * alone is split into the runs of the font chain (reports/font-chain.ts), each run a `<tspan>`
 * naming its font's family, so resvg (PNG) and svg-to-pdfkit (PDF) draw it with the font Vega's
 * text metrics measured it with.
 *
 * Right-to-left runs differ by renderer: resvg orders bidirectional text itself, so its SVG keeps
 * the logical order; svg-to-pdfkit lays text out word by word with fontkit (which gives each
 * word's glyphs in visual order), so for it the words of an RTL run are written in visual order,
 * one `<tspan>` each.
 */
import { FONT_FAMILY, FONT_FAMILY_BOLD, fontChain, primaryOnly, textRuns } from '../font-chain.js';

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function unescapeXml(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (m, e: string) => {
    if (e[0] === '#')
      return String.fromCodePoint(
        e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1)),
      );
    return ENTITIES[e.toLowerCase()] ?? m;
  });
}

function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Who draws the SVG: resvg (bidi of its own) or svg-to-pdfkit (RTL words pre-ordered). */
export type SvgRenderer = 'resvg' | 'pdfkit';

function runsMarkup(text: string, bold: boolean, renderer: SvgRenderer): string {
  if (primaryOnly(text, bold)) return escapeXml(text);
  let out = '';
  for (const run of textRuns(text, bold)) {
    if (run.font.script === null) {
      out += escapeXml(run.text);
      continue;
    }
    const open = `<tspan font-family="${run.font.family}">`;
    if (run.rtl && renderer === 'pdfkit') {
      // Words in visual order; the spaces between them in the text around.
      out += run.text
        .split(/( +)/)
        .reverse()
        .map((w) => (w.trim() === '' ? w : `${open}${escapeXml(w)}</tspan>`))
        .join('');
    } else {
      out += `${open}${escapeXml(run.text)}</tspan>`;
    }
  }
  return out;
}

/**
 * The SVG with the text of each `<text>` element split into font runs (see the file's note);
 * unchanged when DejaVu Sans draws all of it.
 */
export function svgWithFallbackFonts(svg: string, renderer: SvgRenderer): string {
  if (fontChain().length === 1) return svg;
  return svg.replace(/<text\b([^>]*)>([\s\S]*?)<\/text>/g, (whole, attrs: string, inner: string) => {
    const bold = /font-weight="(bold|[6-9]00)"/.test(attrs);
    // Text and tags alternate: split the text parts into runs, keep the tags.
    const body = inner
      .split(/(<[^>]*>)/)
      .map((part) =>
        part.startsWith('<') || part === '' ? part : runsMarkup(unescapeXml(part), bold, renderer),
      )
      .join('');
    return body === inner ? whole : `<text${attrs}>${body}</text>`;
  });
}

/**
 * svg-to-pdfkit's `fontCallback`: the pdfkit name of a family of the chain (as the tspans name
 * them), DejaVu Sans for any other family.
 */
export function pdfFontFor(family: string, bold: boolean): string {
  const clean = family.replace(/["']/g, '').split(',')[0]?.trim() ?? '';
  const font = fontChain(bold)
    .slice(1)
    .find((f) => f.family === clean);
  if (font) return font.name;
  return bold ? FONT_FAMILY_BOLD : FONT_FAMILY;
}
