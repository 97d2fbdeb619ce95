/**
 * Fonts of every output: DejaVu Sans (regular and bold) from the `dejavu-fonts-ttf` package, then
 * the fallback chain of `font-chain.ts` (Noto fonts for Arabic, Hebrew, Devanagari, Thai, CJK).
 * Vega's text metrics, pdfkit and resvg all read these same files, so what is measured is what is
 * drawn.
 */
import { readFileSync } from 'node:fs';
import { chainCovers, FONT_FILES, primaryFont, primaryOnly, runWidth, textRuns } from './font-chain.js';
import { cutAtWord } from './format.js';

export { FONT_FAMILY, FONT_FAMILY_BOLD, FONT_FILES } from './font-chain.js';

let buffers: { regular: Buffer; bold: Buffer } | undefined;

/** The two TTF files' bytes, read once. */
export function fontBuffers(): { regular: Buffer; bold: Buffer } {
  buffers ??= { regular: readFileSync(FONT_FILES.regular), bold: readFileSync(FONT_FILES.bold) };
  return buffers;
}

const widthCache = new Map<string, number>();

/**
 * Width in pixels (or points) of `text` at `fontSize`, from the fonts' own advance widths (with
 * kerning and shaping), the same numbers pdfkit and resvg use: DejaVu Sans, and for characters
 * it lacks the fallback font that draws them (each run measured with its own font).
 *
 * @example measureText('Series A', 11) // ≈ 48.6
 */
export function measureText(text: string, fontSize: number, bold = false): number {
  if (text.length === 0 || fontSize <= 0) return 0;
  const key = `${bold ? 'b' : 'r'}\u0000${text}`;
  let units = widthCache.get(key);
  if (units === undefined) {
    if (primaryOnly(text, bold)) {
      const face = primaryFont(bold).face;
      units = face.layout(text).advanceWidth / face.unitsPerEm;
    } else {
      units = textRuns(text, bold).reduce((sum, run) => sum + runWidth(run), 0);
    }
    if (widthCache.size > 20_000) widthCache.clear();
    widthCache.set(key, units);
  }
  return units * fontSize;
}

/**
 * True when the fonts can draw every character of `text`: DejaVu Sans or a font of the
 * fallback chain (Noto, when installed) has a glyph for each.
 */
export function fontCovers(text: string): boolean {
  return chainCovers(text);
}

/** Marks a name printed as a stand-in (its key, its domain): the font cannot draw the name. */
export const STAND_IN_MARK = ' *';

/**
 * A name as a PDF or a chart prints it: on one line; `standIn` marked with ` *` when no font of
 * the chain has the name's script (Chinese without the Noto fonts installed, for one); `—` when empty.
 *
 * @example printableName('Acme\u{1F680}', 'acme.io') // 'acme.io *' (no font has the emoji)
 */
export function printableName(name: string, standIn: string): string {
  const one = name.replace(/\s+/g, ' ').trim();
  if (!one) return '—';
  return fontCovers(one) ? one : `${standIn}${STAND_IN_MARK}`;
}

/**
 * Text as a PDF prints it, on one line: each run of characters no font of the chain has a glyph
 * for (an emoji, for one) becomes `replacement` instead of empty boxes.
 *
 * @example printableText('Check the burn (\u{1F680}).') // 'Check the burn ([…]).'
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
