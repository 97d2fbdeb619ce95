/** The cover of a report PDF: a coloured band with the kicker and title, then the subtitle, lines of facts and a note. */
import { FONT_FAMILY, FONT_FAMILY_BOLD, wrapText } from '../fonts.js';
import type { ReportPdf } from './document.js';
import { COLORS } from './theme.js';

/** What a cover says. */
export interface CoverInput {
  kicker?: string;
  title: string;
  subtitle?: string;
  lines?: string[];
  note?: string;
}

/** A full-page cover: title, subtitle and lines of facts. */
export function drawCover(pdf: ReportPdf, input: CoverInput): void {
  const { doc, tags } = pdf;
  const w = pdf.contentWidth;
  tags.artifact(() => {
    doc.save();
    doc.rect(0, 0, doc.page.width, 250).fill(COLORS.accent);
    doc.restore();
  });
  let y = 110;
  if (input.kicker) {
    const kicker = input.kicker;
    tags.block('P', () =>
      doc
        .font(FONT_FAMILY)
        .fontSize(11)
        .fillColor('#cfe0f1')
        .text(kicker.toUpperCase(), pdf.left, y, { lineBreak: false }),
    );
    y += 24;
  }
  doc.font(FONT_FAMILY_BOLD).fontSize(28).fillColor('white');
  tags.block(tags.headingTag(1), () => {
    for (const line of wrapText(input.title, w, 28, { bold: true, maxLines: 3 })) {
      doc.text(line, pdf.left, y, { lineBreak: false });
      y += 34;
    }
  });
  y = Math.max(y + 40, 290);
  if (input.subtitle) {
    const subtitle = input.subtitle;
    doc.font(FONT_FAMILY).fontSize(15).fillColor(COLORS.ink);
    tags.block('P', () => {
      for (const line of wrapText(subtitle, w, 15, { maxLines: 3 })) {
        doc.text(line, pdf.left, y, { lineBreak: false });
        y += 20;
      }
    });
    y += 14;
  }
  coverLines(pdf, input.lines ?? [], y);
  if (input.note) coverNote(pdf, input.note);
  doc.fillColor(COLORS.ink);
}

/** The cover's lines of facts from `y`, each a paragraph of up to three lines. */
function coverLines(pdf: ReportPdf, lines: readonly string[], from: number): void {
  const { doc, tags } = pdf;
  let y = from;
  doc.font(FONT_FAMILY).fontSize(11).fillColor(COLORS.muted);
  for (const line of lines) {
    tags.block('P', () => {
      for (const l of wrapText(line, pdf.contentWidth, 11, { maxLines: 3 })) {
        doc.text(l, pdf.left, y, { lineBreak: false });
        y += 16;
      }
    });
    y += 4;
  }
}

/** The cover's note at the page bottom, under a rule. */
function coverNote(pdf: ReportPdf, note: string): void {
  const { doc, tags } = pdf;
  const w = pdf.contentWidth;
  doc.fontSize(8.5).fillColor(COLORS.muted);
  const lines = wrapText(note, w, 8.5, { maxLines: 6 });
  let ny = pdf.bottom - lines.length * 12;
  tags.artifact(() =>
    doc
      .moveTo(pdf.left, ny - 10)
      .lineTo(pdf.left + w, ny - 10)
      .lineWidth(0.5)
      .strokeColor(COLORS.rule)
      .stroke(),
  );
  tags.block('P', () => {
    for (const l of lines) {
      doc.text(l, pdf.left, ny, { lineBreak: false });
      ny += 12;
    }
  });
}
