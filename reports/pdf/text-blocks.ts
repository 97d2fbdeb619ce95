/** Body text of a report PDF: paragraphs (plain or linked) and bulleted lists, tagged P and L. */
import { FONT_FAMILY, wrapText } from '../fonts.js';
import type { ReportPdf } from './document.js';
import type { StructElement } from './tags.js';
import { linkedLine } from './text-line.js';
import { COLORS } from './theme.js';

/** How a paragraph is set: size, colour, the gap under it and an optional link. */
export interface ParagraphOptions {
  size?: number;
  color?: string;
  gap?: number;
  link?: string;
}

/**
 * A paragraph of body text; flows onto the next page when long. With `link` (an http(s) url)
 * the text is a clickable link, in the accent colour.
 */
export function drawParagraph(pdf: ReportPdf, text: string, options: ParagraphOptions = {}): void {
  const { doc } = pdf;
  const size = options.size ?? 9.5;
  const lines = wrapText(text, pdf.contentWidth, size);
  const lh = size * 1.35;
  doc
    .font(FONT_FAMILY)
    .fontSize(size)
    .fillColor(options.link ? COLORS.accent : (options.color ?? COLORS.ink));
  // Keep at least two lines together at a page bottom.
  pdf.ensureSpace(Math.min(lines.length, 2) * lh);
  const p = pdf.tags.element('P');
  for (const line of lines) {
    pdf.ensureSpace(lh);
    const y = doc.y;
    if (options.link) linkedLine(pdf, p, { url: options.link }, text, line, pdf.left, y);
    else pdf.tags.mark(p, () => doc.text(line, pdf.left, y, { lineBreak: false }));
    doc.y = y + lh;
  }
  doc.y += options.gap ?? 6;
  doc.x = pdf.left;
  doc.fillColor(COLORS.ink);
}

/** Height `drawParagraph` takes (gap included). */
export function paragraphHeight(
  pdf: ReportPdf,
  text: string,
  options: { size?: number; gap?: number } = {},
): number {
  const size = options.size ?? 9.5;
  return wrapText(text, pdf.contentWidth, size).length * size * 1.35 + (options.gap ?? 6);
}

/** A bulleted list; each item wraps under its own indent. */
export function drawBullets(pdf: ReportPdf, items: string[], options: { size?: number } = {}): void {
  const { doc } = pdf;
  const size = options.size ?? 9.5;
  const lh = size * 1.35;
  const indent = 12;
  doc.font(FONT_FAMILY).fontSize(size).fillColor(COLORS.ink);
  const list = items.length > 0 ? pdf.tags.element('L') : null;
  for (const item of items) {
    const lines = wrapText(item, pdf.contentWidth - indent, size);
    pdf.ensureSpace(Math.min(lines.length, 2) * lh);
    const { label, body } = listItem(pdf, list as StructElement);
    lines.forEach((line, i) => {
      pdf.ensureSpace(lh);
      const y = doc.y;
      if (i === 0) pdf.tags.mark(label, () => doc.text('•', pdf.left + 2, y, { lineBreak: false }));
      pdf.tags.mark(body, () => doc.text(line, pdf.left + indent, y, { lineBreak: false }));
      doc.y = y + lh;
    });
    doc.y += 2;
  }
  doc.y += 4;
  doc.x = pdf.left;
}

/** A list item of `list`: its label (the bullet) and its body. */
export function listItem(pdf: ReportPdf, list: StructElement): { label: StructElement; body: StructElement } {
  const li = pdf.tags.element('LI', {}, list);
  return { label: pdf.tags.element('Lbl', {}, li), body: pdf.tags.element('LBody', {}, li) };
}
