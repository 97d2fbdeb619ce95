/**
 * Text in every script in a pdfkit document: a line whose characters DejaVu Sans lacks is drawn
 * run by run, each run in the font of the chain that has its glyphs (reports/font-chain.ts),
 * baselines aligned, each run as wide as `measureText` measured it. Right-to-left runs (Arabic,
 * Hebrew) are laid out whole by fontkit, which shapes them and gives their glyphs in visual order;
 * the runs themselves keep their order in the line (a left-to-right line with RTL names in it).
 */
import {
  FONT_FAMILY,
  FONT_FAMILY_BOLD,
  fontChain,
  fontFileBytes,
  primaryOnly,
  textRuns,
} from '../font-chain.js';
import type { ChainFont } from '../font-chain.js';

type TextOptions = PDFKit.Mixins.TextOptions & { features?: unknown };
type TextFn = (text: string, x?: number, y?: number, options?: TextOptions) => PDFKit.PDFDocument;

interface DocState {
  _font?: { name?: string };
  _fontSize: number;
  _registeredFonts?: Record<string, unknown>;
  x: number;
  y: number;
}

/** Registers a chain font in `doc` under its name, once (the file is read once per process). */
export function registerChainFont(doc: PDFKit.PDFDocument, font: ChainFont): void {
  const state = doc as unknown as DocState;
  if (state._registeredFonts?.[font.name]) return;
  if (font.postscriptName) doc.registerFont(font.name, fontFileBytes(font.file), font.postscriptName);
  else doc.registerFont(font.name, fontFileBytes(font.file));
}

/** Registers every font of the chain (both weights), e.g. before drawing an SVG that names them. */
export function registerFontChain(doc: PDFKit.PDFDocument): void {
  for (const bold of [false, true]) for (const f of fontChain(bold).slice(1)) registerChainFont(doc, f);
}

/**
 * Makes `doc.text` draw one-line text (`lineBreak: false`, no `width`) in every script: text that
 * DejaVu Sans draws alone is passed through unchanged; other text is drawn run by run. Only
 * applies while the current font is DejaVu Sans (regular or bold); wrapped text (with `width`)
 * is passed through (ReportPdf wraps text itself and draws line by line).
 */
export function installFallbackText(doc: PDFKit.PDFDocument): void {
  const original = doc.text.bind(doc) as TextFn;
  const state = doc as unknown as DocState;
  const fallbackText: TextFn = (text, x, y, options = {}) => {
    const name = state._font?.name ?? '';
    const line = typeof text === 'string' ? text : String(text);
    if (
      !name.startsWith('DejaVuSans') ||
      options.lineBreak !== false ||
      options.width !== undefined ||
      line.includes('\n') ||
      typeof x !== 'number' ||
      typeof y !== 'number'
    )
      return original(text, x, y, options);
    const bold = name.includes('Bold');
    if (primaryOnly(line, bold)) return original(line, x, y, options);
    const size = state._fontSize;
    const primary = fontChain(bold)[0] as ChainFont;
    let cx = x;
    for (const run of textRuns(line, bold)) {
      if (run.font === primary) {
        doc.font(bold ? FONT_FAMILY_BOLD : FONT_FAMILY);
        original(run.text, cx, y, options);
      } else {
        registerChainFont(doc, run.font);
        doc.font(run.font.name);
        // pdfkit puts the top of the text (the font's ascent) at y: align the baselines instead.
        const dy = (primary.ascent - run.font.ascent) * size;
        // `features` makes pdfkit lay the run out whole (not word by word), as fontkit measured it
        // and as right-to-left text needs (the words of an RTL run in visual order).
        original(run.text, cx, y + dy, { ...options, features: [] });
      }
      cx = state.x;
    }
    doc.font(bold ? FONT_FAMILY_BOLD : FONT_FAMILY);
    state.y = y;
    return doc;
  };
  doc.text = fallbackText as unknown as typeof doc.text;
}

type Encode = (text: string, features?: unknown) => [string[], { advanceWidth: number }[]];

/**
 * Runs `draw` (an svg-to-pdfkit call) with the fallback fonts the SVG names giving their
 * zero-width glyphs (combining marks: Devanagari and Thai vowel signs, Arabic and Hebrew points)
 * a tiny width: svg-to-pdfkit skips glyphs of zero width, so a mark would be lost. The glyphs'
 * advances, which place them, are unchanged; the fonts' encoders are restored after.
 */
export function withMarksDrawn(doc: PDFKit.PDFDocument, svg: string, draw: () => void): void {
  const families = new Set([...svg.matchAll(/<tspan font-family="([^"]+)"/g)].map((m) => m[1]));
  const state = doc as unknown as { _font?: { encode?: Encode } };
  const saved = state._font;
  const restore: (() => void)[] = [];
  for (const bold of [false, true])
    for (const f of fontChain(bold).slice(1)) {
      if (!families.has(f.family)) continue;
      registerChainFont(doc, f);
      doc.font(f.name);
      const font = state._font;
      const encode = font?.encode;
      if (!font || !encode) continue;
      font.encode = (text, features) => {
        const [hex, positions] = encode.call(font, text, features);
        return [hex, positions.map((p) => (p.advanceWidth === 0 ? { ...p, advanceWidth: 1e-6 } : p))];
      };
      restore.push(() => {
        font.encode = encode;
      });
    }
  state._font = saved;
  try {
    draw();
  } finally {
    for (const r of restore) r();
  }
}
