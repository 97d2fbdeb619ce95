/**
 * The contents pages of a report PDF: reserved before the content, laid out and written once
 * the headings' pages are known, each entry linked to its heading.
 */
import { FONT_FAMILY, FONT_FAMILY_BOLD, measureText, truncateToWidth } from '../fonts.js';
import type { ReportPdf } from './document.js';
import type { StructElement } from './tags.js';
import { linkedLine } from './text-line.js';
import { COLORS, PAGE_MARGINS } from './theme.js';

export interface TocEntry {
  title: string;
  level: 1 | 2;
  /** 0-based page index. */
  page: number;
  dest: string;
}

/** Where each contents entry goes: its page (0-based among the contents pages) and y. */
export function contentsLayout(
  toc: readonly TocEntry[],
  bottom: number,
): { pages: number; at: { page: number; y: number }[] } {
  const top = PAGE_MARGINS.top + 36;
  let page = 0;
  let y = top;
  const at: { page: number; y: number }[] = [];
  for (const e of toc) {
    const step = e.level === 1 ? 20 : 15;
    if (y + step > bottom) {
      page++;
      y = top;
    }
    const ey = y + (e.level === 1 ? 4 : 0);
    at.push({ page, y: ey });
    y = ey + step;
  }
  return { pages: page + 1, at };
}

/** The contents of one report PDF: the pages reserved for them and their place in the structure tree. */
export class Contents {
  /** Where the contents go in the structure tree (after the cover), filled by `write`. */
  private sect: StructElement | null = null;
  /** The reserved pages, 0-based. */
  readonly pages: number[] = [];

  /** Reserves exactly `pages` contents pages from the current page on. */
  reserve(pdf: ReportPdf, pages: number): void {
    // The contents are read where they print, after the cover: their place in the tree is kept.
    this.sect ??= pdf.tags.element('Sect');
    for (let i = 0; i < Math.max(1, pages); i++) {
      pdf.newPage();
      this.pages.push(pdf.pageCount - 1);
    }
  }

  /** Writes the entries of `pdf.toc` on the reserved pages (nothing when none was reserved). */
  write(pdf: ReportPdf): void {
    const { tags } = pdf;
    const layout = contentsLayout(pdf.toc, pdf.bottom);
    const sect = this.sect;
    if (!sect) return;
    let opened = -1;
    const open = (idx: number): boolean => {
      if (!this.openPage(pdf, sect, idx)) return false;
      opened = idx;
      return true;
    };
    open(0);
    const list = tags.element('TOC', {}, sect);
    for (const [i, e] of pdf.toc.entries()) {
      const at = layout.at[i];
      if (!at) break;
      if (at.page !== opened && !open(at.page)) break;
      writeEntry(pdf, list, e, at.y);
    }
  }

  /** Starts contents page `idx` (0-based among them) with its title; false when it was not reserved. */
  private openPage(pdf: ReportPdf, sect: StructElement, idx: number): boolean {
    const { doc, tags } = pdf;
    const w = pdf.contentWidth;
    const page = this.pages[idx];
    if (page === undefined) return false;
    doc.switchToPage(page);
    doc.y = PAGE_MARGINS.top;
    const y = doc.y;
    const title = (): void => {
      doc
        .font(FONT_FAMILY_BOLD)
        .fontSize(18)
        .fillColor(COLORS.accent)
        .text(idx === 0 ? 'Contents' : 'Contents (continued)', pdf.left, y, { lineBreak: false });
    };
    // "Contents" is a heading; its repetition on a further page is pagination.
    if (idx === 0) tags.mark(tags.element('H1', {}, sect), title);
    else tags.artifact(title, 'Pagination');
    doc.y += 30;
    tags.artifact(() =>
      doc
        .moveTo(pdf.left, doc.y - 6)
        .lineTo(pdf.left + w, doc.y - 6)
        .lineWidth(1)
        .strokeColor(COLORS.accent)
        .stroke(),
    );
    return true;
  }
}

/** One contents entry at `y`: its title and page number, both linked to the heading, dots between. */
function writeEntry(pdf: ReportPdf, list: StructElement, e: TocEntry, y: number): void {
  const { doc, tags } = pdf;
  const w = pdf.contentWidth;
  const size = e.level === 1 ? 11 : 9.5;
  const indent = e.level === 1 ? 0 : 16;
  const num = String(e.page + 1);
  const font = e.level === 1 ? FONT_FAMILY_BOLD : FONT_FAMILY;
  const numWidth = measureText(num, size, e.level === 1);
  const titleMax = w - indent - numWidth - 30;
  const title = truncateToWidth(e.title, titleMax, size, e.level === 1);
  doc.font(font).fontSize(size).fillColor(COLORS.ink);
  // TOCI > Reference > Link (title), Link (page number): both go to the heading.
  const ref = tags.element('Reference', {}, tags.element('TOCI', {}, list));
  const target = { goTo: e.dest };
  linkedLine(pdf, ref, target, `${e.title}, page ${num}`, title, pdf.left + indent, y);
  const titleWidth = measureText(title, size, e.level === 1);
  const dotsFrom = pdf.left + indent + titleWidth + 6;
  const dotsTo = pdf.left + w - numWidth - 6;
  if (dotsTo > dotsFrom) {
    tags.artifact(() => {
      doc.save();
      doc
        .moveTo(dotsFrom, y + size * 0.85)
        .lineTo(dotsTo, y + size * 0.85)
        .lineWidth(0.6)
        .dash(1, { space: 2.5 })
        .strokeColor('#9aa4ae')
        .stroke();
      doc.undash();
      doc.restore();
    });
  }
  linkedLine(pdf, ref, target, `${e.title}, page ${num}`, num, pdf.left + w - numWidth, y);
}
