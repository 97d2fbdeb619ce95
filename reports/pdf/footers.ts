/** The footers of a report PDF: a rule, the footer text and "Page i of n" on every page but the cover. */
import { FONT_FAMILY, measureText, truncateToWidth } from '../fonts.js';
import type { PdfOptions, ReportPdf } from './document.js';
import { COLORS } from './theme.js';
import { houseStyle } from '../house-style.js';

/** Writes the footer of every page (the cover's aside, when the document has one). */
export function writeFooters(pdf: ReportPdf, options: PdfOptions): void {
  const { doc } = pdf;
  const range = doc.bufferedPageRange();
  const footer = options.footerText ?? options.title;
  const { notice } = houseStyle();
  for (let i = range.start; i < range.start + range.count; i++) {
    if (i === 0 && options.coverPage !== false) continue; // the cover carries no footer
    doc.switchToPage(i);
    const bottomMargin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0; // writing below the margin must not add a page
    const y = doc.page.height - 36;
    const w = pdf.contentWidth;
    // The footer repeats on every page: pagination, not content.
    pdf.tags.artifact(() => {
      doc
        .moveTo(pdf.left, y - 6)
        .lineTo(pdf.left + w, y - 6)
        .lineWidth(0.4)
        .strokeColor(COLORS.rule)
        .stroke();
      const pageText = `Page ${i + 1} of ${range.count}`;
      doc.font(FONT_FAMILY).fontSize(7.5).fillColor(COLORS.muted);
      const pw = measureText(pageText, 7.5);
      doc.text(truncateToWidth(footer, w - pw - 20, 7.5), pdf.left, y, { lineBreak: false });
      doc.text(pageText, pdf.left + w - pw, y, { lineBreak: false });
      // The worker's notice (VIR_REPORT_NOTICE) on a line of its own: it cuts nothing above.
      if (notice) {
        const text = truncateToWidth(notice, w, 7);
        doc.fontSize(7).text(text, pdf.left + (w - measureText(text, 7)) / 2, y + 10, { lineBreak: false });
      }
    }, 'Pagination');
    doc.page.margins.bottom = bottomMargin;
  }
}
