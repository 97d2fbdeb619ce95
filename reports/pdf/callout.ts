/**
 * A callout: a tinted box with a coloured bar at its left, a bold title and lines of text, for
 * what a reader must not miss (a portfolio conflict, a partial run). Kept whole on one page.
 */
import { FONT_FAMILY, FONT_FAMILY_BOLD, wrapText } from '../fonts.js';
import type { ReportPdf } from './document.js';
import { COLORS } from './theme.js';

/** The tones of a callout: its bar and its tint. */
export const CALLOUT_TONES = {
  alert: { bar: COLORS.down, tint: '#fdecea' },
  note: { bar: COLORS.accent, tint: COLORS.tile },
} as const;

const PAD = 8;
const BAR = 4;

/** Lays a callout out: the title's and the items' lines, and the box's height. */
function layout(pdf: ReportPdf, title: string, items: readonly string[], size: number) {
  const inner = pdf.contentWidth - BAR - 2 * PAD;
  const lh = size * 1.35;
  const titleLines = wrapText(title, inner, size + 1, { bold: true, maxLines: 2 });
  const itemLines = items.map((t) => wrapText(t, inner - 10, size));
  const height =
    2 * PAD + titleLines.length * (size + 1) * 1.35 + itemLines.reduce((s, l) => s + l.length * lh + 2, 0);
  return { inner, lh, titleLines, itemLines, height };
}

/** Height a callout takes on the page, the gap under it included. */
export function calloutHeight(pdf: ReportPdf, title: string, items: readonly string[], size = 8.5): number {
  return layout(pdf, title, items, size).height + 8;
}

/**
 * Draws a callout at the current position (on the next page when it does not fit this one):
 * `title` in bold, then one bulleted line group an item.
 *
 * @example callout(pdf, 'Portfolio conflicts (1)', ['Acme: same market as Beta'], { tone: 'alert' })
 */
export function callout(
  pdf: ReportPdf,
  title: string,
  items: readonly string[],
  options: { tone?: keyof typeof CALLOUT_TONES; size?: number } = {},
): void {
  const { doc } = pdf;
  const size = options.size ?? 8.5;
  const tone = CALLOUT_TONES[options.tone ?? 'note'];
  const l = layout(pdf, title, items, size);
  pdf.ensureSpace(l.height + 8);
  const x = pdf.left;
  const y0 = doc.y;
  const { tags } = pdf;
  tags.artifact(() => {
    doc.save();
    doc.rect(x, y0, pdf.contentWidth, l.height).fill(tone.tint);
    doc.rect(x, y0, BAR, l.height).fill(tone.bar);
    doc.restore();
  });
  // A Div: the title a paragraph, the items a list.
  const box = tags.element('Div');
  const tx = x + BAR + PAD;
  let y = y0 + PAD;
  doc
    .font(FONT_FAMILY_BOLD)
    .fontSize(size + 1)
    .fillColor(tone.bar);
  tags.mark(tags.element('P', {}, box), () => {
    for (const line of l.titleLines) {
      doc.text(line, tx, y, { lineBreak: false });
      y += (size + 1) * 1.35;
    }
  });
  doc.font(FONT_FAMILY).fontSize(size).fillColor(COLORS.ink);
  const list = l.itemLines.length > 0 ? tags.element('L', {}, box) : null;
  for (const lines of l.itemLines) {
    const item = pdf.listItem(list as NonNullable<typeof list>);
    lines.forEach((line, i) => {
      if (i === 0) tags.mark(item.label, () => doc.text('•', tx, y, { lineBreak: false }));
      tags.mark(item.body, () => doc.text(line, tx + 10, y, { lineBreak: false }));
      y += l.lh;
    });
    y += 2;
  }
  doc.x = pdf.left;
  doc.y = y0 + l.height + 8;
}
