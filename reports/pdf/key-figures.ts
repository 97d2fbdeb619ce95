/** Key figures in a report PDF: tiles of a label, a value sized to fit and a note coloured by its trend. */
import { FONT_FAMILY, FONT_FAMILY_BOLD, measureText, truncateToWidth } from '../fonts.js';
import type { ReportPdf } from './document.js';
import type { StructElement } from './tags.js';
import { A4_WIDTH, COLORS, PAGE_MARGINS } from './theme.js';

export interface KeyFigure {
  label: string;
  value: string;
  /** A short line under the value, e.g. "+12.5% YoY". */
  note?: string;
  /** Colours the note: up green, down red. */
  trend?: 'up' | 'down' | 'flat';
}

/** Gap between key figure tiles, and a tile's text padding (left and right together), points. */
const TILE_GAP = 8;
const TILE_PADDING = 18;
/** A tile's height, points. */
const TILE_HEIGHT = 58;

/**
 * The width (points) a key figure's note has on an A4 page's full width with `perRow` tiles to a
 * row: the note is one line of 7.5 pt text and a longer one is cut, so a report whose notes vary
 * in length picks one that fits (measured with `measureText(note, 7.5)`).
 */
export function keyFigureNoteWidth(perRow: number): number {
  const content = A4_WIDTH - PAGE_MARGINS.left - PAGE_MARGINS.right;
  return (content - TILE_GAP * (perRow - 1)) / perRow - TILE_PADDING;
}

/** Key figures as tiles, `perRow` to a row. */
export function drawKeyFigures(pdf: ReportPdf, tiles: KeyFigure[], perRow = 4): void {
  const { doc } = pdf;
  const gap = TILE_GAP;
  const w = (pdf.contentWidth - gap * (perRow - 1)) / perRow;
  const h = TILE_HEIGHT;
  // Each tile a Div of paragraphs (label, value, note) in a Div of the key figures.
  const group = tiles.length > 0 ? pdf.tags.element('Div') : null;
  for (let i = 0; i < tiles.length; i += perRow) {
    pdf.ensureSpace(h + gap);
    const y = doc.y;
    tiles.slice(i, i + perRow).forEach((t, j) => {
      drawTile(pdf, group as StructElement, t, { x: pdf.left + j * (w + gap), y, w });
    });
    doc.y = y + h + gap;
  }
  doc.x = pdf.left;
  doc.y += 4;
  doc.fillColor(COLORS.ink);
}

/** One tile at (x, y), `w` wide, a Div of `group`. */
function drawTile(
  pdf: ReportPdf,
  group: StructElement,
  t: KeyFigure,
  at: { x: number; y: number; w: number },
): void {
  const { doc, tags } = pdf;
  const { x, y, w } = at;
  const h = TILE_HEIGHT;
  const tile = tags.element('Div', {}, group);
  tags.artifact(() => {
    doc.save();
    doc.roundedRect(x, y, w, h, 4).fill(COLORS.tile);
    doc.rect(x, y, 3, h).fill(COLORS.accent);
    doc.restore();
  });
  tags.within(tile, () => {
    tags.block('P', () =>
      doc
        .font(FONT_FAMILY)
        .fontSize(7.5)
        .fillColor(COLORS.muted)
        .text(truncateToWidth(t.label.toUpperCase(), w - 18, 7.5), x + 10, y + 7, { lineBreak: false }),
    );
    const valueSize = fitSize(t.value, w - 18, 17, 10, true);
    tags.block('P', () =>
      doc
        .font(FONT_FAMILY_BOLD)
        .fontSize(valueSize)
        .fillColor(COLORS.ink)
        .text(truncateToWidth(t.value, w - 18, valueSize, true), x + 10, y + 19, { lineBreak: false }),
    );
    if (t.note) {
      const note = t.note;
      const color = t.trend === 'up' ? COLORS.up : t.trend === 'down' ? COLORS.down : COLORS.muted;
      tags.block('P', () =>
        doc
          .font(FONT_FAMILY)
          .fontSize(7.5)
          .fillColor(color)
          .text(truncateToWidth(note, w - TILE_PADDING, 7.5), x + 10, y + 41, { lineBreak: false }),
      );
    }
  });
}

/** The largest font size in [min, max] at which `text` fits `width`. */
function fitSize(text: string, width: number, max: number, min: number, bold: boolean): number {
  let size = max;
  while (size > min && measureText(text, size, bold) > width) size -= 0.5;
  return size;
}
