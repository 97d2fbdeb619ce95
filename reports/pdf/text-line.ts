/**
 * One line of text at a point of a report PDF, in the current font: aligned without pdfkit's
 * line wrapper, and as a link.
 */
import { measureText } from '../fonts.js';
import type { LinkTarget, StructElement, Tags } from './tags.js';

/** Where a line goes: aligned in `width` from x (left by default). */
export interface LineOptions {
  width?: number;
  align?: 'left' | 'right' | 'center';
}

/**
 * One line of text at (x, y) in the current font, aligned in `width` without pdfkit's line
 * wrapper (which could add a page); callers have wrapped or truncated the text to fit.
 */
export function putLine(
  doc: PDFKit.PDFDocument,
  text: string,
  x: number,
  y: number,
  options: LineOptions = {},
): void {
  doc.text(text, placeLine(doc, text, x, options).x, y, { lineBreak: false });
}

/** Where `putLine` draws `text` (aligned in `width`) and how wide it is, in the current font. */
export function placeLine(
  doc: PDFKit.PDFDocument,
  text: string,
  x: number,
  options: LineOptions,
): { x: number; w: number } {
  const state = doc as unknown as { _font?: { name?: string }; _fontSize: number };
  const bold = state._font?.name?.includes('Bold') ?? false;
  const tw = measureText(text, state._fontSize, bold);
  if (options.width === undefined || !options.align || options.align === 'left') return { x, w: tw };
  return { x: options.align === 'right' ? x + options.width - tw : x + (options.width - tw) / 2, w: tw };
}

/**
 * One line of linked text, as `putLine` draws it, in a `Link` element of `parent` with one link
 * annotation over the line (not one a font run), described by `description`.
 */
export function linkedLine(
  pdf: { doc: PDFKit.PDFDocument; tags: Tags },
  parent: StructElement,
  target: LinkTarget,
  description: string,
  line: string,
  x: number,
  y: number,
  options: LineOptions = {},
): void {
  const at = placeLine(pdf.doc, line, x, options);
  const rect = { x: at.x, y, w: at.w, h: pdf.doc.currentLineHeight() };
  pdf.tags.link(parent, target, rect, description, () => putLine(pdf.doc, line, x, y, options));
}
