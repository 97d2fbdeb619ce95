/**
 * One font family for every output: DejaVu Sans (regular and bold) from the `dejavu-fonts-ttf`
 * package. Vega's text metrics, pdfkit and resvg all read these same two TTF files, so what is
 * measured is what is drawn.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as fontkit from 'fontkit';
import { cutAtWord } from './format.js';

/** The family name used in chart specs, SVG and the PDF. */
export const FONT_FAMILY = 'DejaVu Sans';
/** The pdfkit name of the bold face; svg-to-pdfkit looks bold text up as `<family>-Bold`. */
export const FONT_FAMILY_BOLD = 'DejaVu Sans-Bold';

const require = createRequire(import.meta.url);
const ttfDir = join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');

/** Absolute paths of the two TTF files. */
export const FONT_FILES = {
  regular: join(ttfDir, 'DejaVuSans.ttf'),
  bold: join(ttfDir, 'DejaVuSans-Bold.ttf'),
} as const;

let buffers: { regular: Buffer; bold: Buffer } | undefined;
let faces: { regular: fontkit.Font; bold: fontkit.Font } | undefined;

/** The two TTF files' bytes, read once. */
export function fontBuffers(): { regular: Buffer; bold: Buffer } {
  buffers ??= { regular: readFileSync(FONT_FILES.regular), bold: readFileSync(FONT_FILES.bold) };
  return buffers;
}

function fontFaces(): { regular: fontkit.Font; bold: fontkit.Font } {
  if (!faces) {
    const b = fontBuffers();
    faces = { regular: fontkit.create(b.regular), bold: fontkit.create(b.bold) };
  }
  return faces;
}

const widthCache = new Map<string, number>();

/**
 * Width in pixels (or points) of `text` at `fontSize` in DejaVu Sans, from the font's own
 * advance widths (with kerning), the same numbers pdfkit and resvg use.
 *
 * @example measureText('Series A', 11) // ≈ 48.6
 */
export function measureText(text: string, fontSize: number, bold = false): number {
  if (text.length === 0 || fontSize <= 0) return 0;
  const key = `${bold ? 'b' : 'r'}\u0000${text}`;
  let units = widthCache.get(key);
  if (units === undefined) {
    const face = bold ? fontFaces().bold : fontFaces().regular;
    units = face.layout(text).advanceWidth / face.unitsPerEm;
    if (widthCache.size > 20_000) widthCache.clear();
    widthCache.set(key, units);
  }
  return units * fontSize;
}

/** True when DejaVu Sans has a glyph for every character of `text` (CJK, for one, it has not). */
export function fontCovers(text: string): boolean {
  const face = fontFaces().regular;
  for (const ch of text) {
    const cp = ch.codePointAt(0);
    if (cp !== undefined && cp > 0x1f && !face.hasGlyphForCodePoint(cp)) return false;
  }
  return true;
}

/** Marks a name printed as a stand-in (its key, its domain): the font cannot draw the name. */
export const STAND_IN_MARK = ' *';

/**
 * A name as a PDF or a chart prints it: on one line; `standIn` marked with ` *` when the font
 * lacks the name's script (Chinese, for one); `—` when empty.
 *
 * @example printableName('北京智能科技', 'bj.cn') // 'bj.cn *'
 */
export function printableName(name: string, standIn: string): string {
  const one = name.replace(/\s+/g, ' ').trim();
  if (!one) return '—';
  return fontCovers(one) ? one : `${standIn}${STAND_IN_MARK}`;
}

/**
 * Text as a PDF prints it, on one line: each run of characters the font has no glyph for (a
 * Chinese name inside a note, for one) becomes `replacement` instead of empty boxes.
 *
 * @example printableText('Check the burn (北京智能科技).') // 'Check the burn ([…]).'
 */
export function printableText(text: string, replacement = '[…]'): string {
  let out = '';
  let gap = false;
  for (const ch of text.replace(/\s+/g, ' ').trim()) {
    if (fontCovers(ch)) {
      out += ch;
      gap = false;
    } else if (!gap) {
      out += replacement;
      gap = true;
    }
  }
  return out;
}

/**
 * Cut `text` so that it fits `maxWidth` at `fontSize`, ending with an ellipsis when cut.
 * Returns the text unchanged when it fits; never returns more than the ellipsis when nothing fits.
 */
export function truncateToWidth(text: string, maxWidth: number, fontSize: number, bold = false): string {
  if (measureText(text, fontSize, bold) <= maxWidth) return text;
  // A cut text ends with an ellipsis, at a word boundary unless that would give up much of the width.
  const ellipsis = '…';
  const chars = Array.from(text);
  let lo = 0;
  let hi = chars.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    const candidate = chars.slice(0, mid).join('').trimEnd() + ellipsis;
    if (measureText(candidate, fontSize, bold) <= maxWidth) lo = mid;
    else hi = mid - 1;
  }
  if (lo === 0) return ellipsis;
  // Cut at the last word boundary when that keeps most of the line: `in the thesis…`, not `in the thesis st…`.
  return cutAtWord(chars, lo);
}

/**
 * Greedy word wrap of `text` into lines no wider than `maxWidth`; words wider than a line are
 * broken between characters. With `maxLines`, the last line ends with an ellipsis when text
 * remains, so wrapped text never runs past its box.
 */
export function wrapText(
  text: string,
  maxWidth: number,
  fontSize: number,
  options: { bold?: boolean; maxLines?: number } = {},
): string[] {
  const bold = options.bold ?? false;
  const maxLines = options.maxLines ?? Number.POSITIVE_INFINITY;
  const lines: string[] = [];
  const paragraphs = text.replace(/\r\n?/g, '\n').replace(/\t/g, ' ').split('\n');
  const words: string[] = [];
  paragraphs.forEach((p, i) => {
    if (i > 0) words.push('\n');
    for (const w of p.split(/ +/)) if (w !== '') words.push(w);
  });
  let current = '';
  let index = 0;
  const push = (line: string): boolean => {
    lines.push(line);
    return lines.length < maxLines;
  };
  for (; index < words.length; index++) {
    const word = words[index] ?? '';
    if (word === '\n') {
      const line = current;
      current = '';
      if (!push(line)) break;
      continue;
    }
    const candidate = current ? `${current} ${word}` : word;
    if (measureText(candidate, fontSize, bold) <= maxWidth) {
      current = candidate;
      continue;
    }
    if (current) {
      const line = current;
      current = '';
      if (!push(line)) break;
    }
    // The word alone: break it between characters while it is too wide.
    let rest = word;
    let full = false;
    while (measureText(rest, fontSize, bold) > maxWidth) {
      const chars = Array.from(rest);
      let n = 1;
      while (n < chars.length && measureText(chars.slice(0, n + 1).join(''), fontSize, bold) <= maxWidth) n++;
      if (!push(chars.slice(0, n).join(''))) {
        full = true;
        rest = chars.slice(n).join('');
        break;
      }
      rest = chars.slice(n).join('');
    }
    if (full) {
      current = rest;
      index++;
      break;
    }
    current = rest;
  }
  const remaining = words.slice(index).filter((w) => w !== '\n');
  if (lines.length >= maxLines && (remaining.length > 0 || current)) {
    const last = lines.pop() ?? '';
    const tail = [last, current, ...remaining].filter(Boolean).join(' ');
    lines.push(truncateToWidth(tail, maxWidth, fontSize, bold));
  } else if (current || lines.length === 0) {
    lines.push(current);
  }
  return lines;
}
