/**
 * Where the content of a report PDF flows: the column a row cell is drawn in, and the chart
 * alone at the top of a page that the next section may follow on that page.
 */
import type { ReportPdf } from './document.js';
import { PAGE_MARGINS } from './theme.js';

/** A column of the page: its left edge and width, points. */
export interface Frame {
  x: number;
  w: number;
}

/** The flow state of one report PDF. */
export class Flow {
  /** The column a `row` cell is drawn in; null: the full content width. */
  frame: Frame | null = null;
  /** The last chart drawn at the top of a page, and where it ended (see `onlyASmallChart`). */
  loneChart: { page: number; endY: number } | null = null;
  /** Charts drawn so far (a row of cells counts the ones it drew). */
  chartsDrawn = 0;

  /** Runs `fn` with `frame` as the column (null: the full width), then restores the column. */
  inFrame<T>(frame: Frame | null, fn: () => T): T {
    const saved = this.frame;
    this.frame = frame;
    try {
      return fn();
    } finally {
      this.frame = saved;
    }
  }

  /**
   * True when the current page holds one chart and nothing else, less than a third of the page
   * high: the next section follows it there rather than leaving the page mostly empty.
   */
  onlyASmallChart(pdf: ReportPdf): boolean {
    const c = this.loneChart;
    return (
      c !== null &&
      c.page === pdf.pageCount &&
      c.endY === pdf.doc.y &&
      pdf.doc.y - PAGE_MARGINS.top < pdf.pageBody / 3
    );
  }
}
