/**
 * Headings of a report PDF: placed so they are never orphaned at a page bottom, each with a
 * named destination, a bookmark and a contents entry.
 */
import { FONT_FAMILY, FONT_FAMILY_BOLD, wrapText } from '../fonts.js';
import type { Contents } from './contents.js';
import type { ReportPdf } from './document.js';
import type { Flow } from './flow.js';
import { COLORS, PAGE_MARGINS } from './theme.js';

/** How a heading is placed: see `Headings.draw`. */
export interface HeadingOptions {
  keepWith?: number;
  newPage?: boolean;
  toc?: boolean;
}

/** The headings of one report PDF: their destinations and the bookmark they go under. */
export class Headings {
  private readonly flow: Flow;
  private readonly contents: Contents;
  private outlineParent: PDFKit.PDFOutline | undefined;
  private destCount = 0;

  constructor(flow: Flow, contents: Contents) {
    this.flow = flow;
    this.contents = contents;
  }

  /**
   * A heading. Level 1 starts a new page; every heading keeps `keepWith` points of the content
   * below it on the same page (so it is never orphaned), adds a bookmark and a contents entry.
   */
  draw(pdf: ReportPdf, text: string, level: 1 | 2 | 3, options: HeadingOptions): void {
    const { doc } = pdf;
    const size = level === 1 ? 18 : level === 2 ? 13 : 10.5;
    const keepWith = options.keepWith ?? (level === 3 ? 60 : 120);
    const w = pdf.contentWidth;
    const lines = wrapText(text, w, size, { bold: true, maxLines: 2 });
    const blockHeight = lines.length * size * 1.25 + (level === 1 ? 16 : 8);
    const startPage = (options.newPage ?? level === 1) && !this.flow.onlyASmallChart(pdf);
    if (startPage && (doc.y > PAGE_MARGINS.top + 1 || this.contents.pages.includes(pdf.pageCount - 1)))
      pdf.newPage();
    else if (level !== 1 && doc.y > PAGE_MARGINS.top + 1) doc.y += level === 2 ? 10 : 4;
    pdf.ensureSpace(blockHeight + keepWith);
    this.mark(pdf, text, level, options);
    doc
      .font(FONT_FAMILY_BOLD)
      .fontSize(size)
      .fillColor(level === 3 ? COLORS.ink : COLORS.accent);
    let y = doc.y;
    pdf.tags.block(pdf.tags.headingTag(level), () => {
      for (const line of lines) {
        doc.text(line, pdf.left, y, { lineBreak: false });
        y += size * 1.25;
      }
    });
    if (level === 1) {
      const ry = y + 2;
      pdf.tags.artifact(() =>
        doc
          .moveTo(pdf.left, ry)
          .lineTo(pdf.left + w, ry)
          .lineWidth(1)
          .strokeColor(COLORS.accent)
          .stroke(),
      );
      y += 12;
    } else {
      y += 4;
    }
    doc.x = pdf.left;
    doc.y = y;
    doc.font(FONT_FAMILY).fillColor(COLORS.ink);
  }

  /** The heading's named destination at the current y, and (levels 1 and 2) its contents entry and bookmark. */
  private mark(pdf: ReportPdf, text: string, level: 1 | 2 | 3, options: HeadingOptions): void {
    const { doc } = pdf;
    const dest = `h${++this.destCount}`;
    doc.addNamedDestination(
      dest,
      'XYZ',
      null as unknown as number,
      doc.page.height - doc.y + 4,
      null as unknown as number,
    );
    if (level !== 3 && options.toc !== false) {
      pdf.toc.push({ title: text, level, page: pdf.pageCount - 1, dest });
      if (level === 1) this.outlineParent = doc.outline.addItem(text, { expanded: true });
      else (this.outlineParent ?? doc.outline).addItem(text);
    }
  }
}
