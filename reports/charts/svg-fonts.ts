/**
 * Chart SVG text in every script: the text of a `<text>` element that DejaVu Sans cannot draw
 * alone is split into the runs of the font chain (reports/font-chain.ts), each run a `<tspan>`
 * naming its font's family, so resvg (PNG) and svg-to-pdfkit (PDF) draw it with the font Vega's
 * text metrics measured it with.
 *
 * For resvg such a `<text>` becomes the outlines of its glyphs instead, shaped by fontkit as in the
 * PDF: resvg's own shaping breaks some Devanagari (the vowel sign ा before र overlaps). For
 * svg-to-pdfkit, which lays text out word by word with fontkit (each word's glyphs in visual
 * order), the words of a right-to-left run are written in visual order, one `<tspan>` each.
 */
import { FONT_FAMILY, FONT_FAMILY_BOLD, fontChain, primaryOnly, runWidth, textRuns } from '../font-chain.js';

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
    if (renderer === 'resvg' && !inner.includes('<')) {
      const text = unescapeXml(inner);
      return primaryOnly(text, bold) ? whole : (textAsPaths(attrs, text, bold) ?? whole);
    }
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

function attr(attrs: string, name: string): string | undefined {
  return new RegExp(`\\s${name}="([^"]*)"`).exec(attrs)?.[1];
}

/**
 * A one-line `<text>` as a group of glyph outlines, laid out by fontkit run by run (shaped, RTL
 * runs in visual order) at the element's position, anchor, size, fill and transform. Null when
 * the element places its text in a way this does not follow (dx, dy, a list of x).
 */
function textAsPaths(attrs: string, text: string, bold: boolean): string | null {
  if (/\s(dx|dy|rotate|textLength)="/.test(attrs)) return null;
  const x = Number(attr(attrs, 'x') ?? 0);
  const y = Number(attr(attrs, 'y') ?? 0);
  const size = parseFloat(attr(attrs, 'font-size') ?? '11');
  if (![x, y, size].every(Number.isFinite)) return null;
  const runs = textRuns(text.replace(/\s+/g, ' ').trim(), bold);
  const width = runs.reduce((sum, run) => sum + runWidth(run), 0) * size;
  const anchor = attr(attrs, 'text-anchor') ?? 'start';
  let pen = x - (anchor === 'end' ? width : anchor === 'middle' ? width / 2 : 0);
  const paths: string[] = [];
  for (const run of runs) {
    const { face } = run.font;
    const scale = size / face.unitsPerEm;
    const laid = face.layout(run.text);
    laid.glyphs.forEach((glyph, i) => {
      const p = laid.positions[i];
      if (!p) return;
      const d = glyph.path
        .scale(scale, -scale)
        .translate(pen + p.xOffset * scale, y - p.yOffset * scale)
        .toSVG();
      if (d) paths.push(d);
      pen += p.xAdvance * scale;
    });
  }
  const kept = ['transform', 'fill', 'opacity', 'fill-opacity']
    .map((name) => [name, attr(attrs, name)] as const)
    .filter(([, v]) => v !== undefined)
    .map(([name, v]) => ` ${name}="${v}"`)
    .join('');
  const fill = attr(attrs, 'fill') === undefined ? ' fill="#000"' : '';
  return `<g${kept}${fill}><path d="${paths.join('')}"/></g>`;
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
