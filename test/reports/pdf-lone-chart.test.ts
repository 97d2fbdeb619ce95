/**
 * No page left mostly empty by a lone small chart: a chart that misses the rest of the page by a
 * little is drawn smaller there, with its text; one that moves to a page of its own has the next
 * section follow it on that page.
 */
import { describe, expect, it } from 'vitest';
import { ReportPdf } from '../../reports/pdf/index.js';
import type { ChartImage } from '../../reports/pdf/index.js';

/** A chart of `height` points at the content width (495 pt). */
const chart = (height: number): ChartImage => ({
  svg: `<svg xmlns="http://www.w3.org/2000/svg" width="495" height="${height}"><rect width="495" height="${height}" fill="#1f4e79"/></svg>`,
  width: 495,
  height,
});

/** A PDF whose first section fills its page down to `room` points above the bottom. */
function filled(room: number): ReportPdf {
  const pdf = new ReportPdf({ title: 'Lone chart', creationDate: new Date('2026-01-01T00:00:00Z') });
  pdf.heading('Answers', 1);
  while (pdf.remaining > room + 40)
    pdf.paragraph('A line of text that belongs to the answer above its chart.');
  pdf.space(pdf.remaining - room);
  return pdf;
}

describe('charts and the page end', () => {
  it('draws a chart that misses the page by less than a fifth of its height smaller, on the page of its text', () => {
    const pdf = filled(200);
    const pages = pdf.pageCount;
    // 200 pt of room, 24 of them for caption and gaps: a 200 pt chart fits at 88%.
    pdf.chart(chart(200), { caption: 'Service chart (ask)' });
    expect(pdf.pageCount).toBe(pages);
    expect(pdf.remaining).toBeGreaterThanOrEqual(0);
  });

  it('moves a chart that misses by more to the next page, and the next section follows it there', () => {
    const pdf = filled(100);
    const pages = pdf.pageCount;
    pdf.chart(chart(180), { caption: 'Service chart (ask)' });
    expect(pdf.pageCount).toBe(pages + 1);
    pdf.heading('Cross-country comparison', 1);
    // The page of the lone chart is not left mostly empty: no new page for the section.
    expect(pdf.pageCount).toBe(pages + 1);
  });

  it('starts a section on a new page as before after a chart that fills most of a page, or after text', () => {
    const big = filled(100);
    big.chart(chart(420), { caption: 'Service chart (ask)' });
    const pages = big.pageCount;
    big.heading('Next', 1);
    expect(big.pageCount).toBe(pages + 1);
    const text = filled(100);
    text.chart(chart(180));
    text.paragraph('A note under the chart.');
    const n = text.pageCount;
    text.heading('Next', 1);
    expect(text.pageCount).toBe(n + 1);
  });
});
