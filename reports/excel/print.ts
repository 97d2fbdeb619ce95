/**
 * How a report sheet prints: A4, fit to one page wide (as many pages high as it takes),
 * landscape when the sheet is wider than a portrait page, the header row repeated, the job's
 * title, the sheet's name and "Page X of Y" in the header and footer; column widths measured
 * from the longest value (capped, wrapped beyond the cap); and manual page breaks so that no
 * page edge cuts a chart image.
 *
 * A4, not letter: the PDF reports are A4 and the readers are mostly in Europe and Israel; a
 * sheet fitted to one A4 page wide prints on letter with a shrink of about 3 percent, while a
 * letter layout printed on A4 would be cut at the bottom of every page.
 *
 * Widths are measured in the report's font (DejaVu Sans, through fontkit). Spreadsheets draw
 * cells in Calibri (Excel) or its stand-in (Carlito, or Noto Sans where LibreOffice has no
 * Carlito, as here); DejaVu Sans is the widest of them, so a width measured in it fits in all.
 */
import { fontCovers, measureText } from '../fonts.js';

/** Paper and margins, inches. */
export const PRINT_PAPER = {
  /** Excel's paperSize code for A4. */
  paperSize: 9,
  widthIn: 8.27,
  heightIn: 11.69,
  margins: { left: 0.5, right: 0.5, top: 0.75, bottom: 0.75, header: 0.3, footer: 0.3 },
} as const;

/** Widest a column gets from its content (characters); longer text wraps. */
export const WIDTH_CAP = 60;
/** Pixels a unit of column width (Calibri 11's digit width), the same in Excel and LibreOffice. */
export const PX_PER_WIDTH_UNIT = 7;
/** Height of a row whose height is not set, in points, taken high so that breaks err early. */
export const DEFAULT_ROW_PT = 16;
/** Share of a page's printable height the break planner fills (spreadsheets round scales down). */
const PAGE_FILL = 0.95;
const PT_PER_PX = 0.75;

const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\uff00-\uff60]/u;

/**
 * The column width (Excel units, a character each) that shows `text` in an 11 pt cell without
 * clipping: its measured width plus the cell's padding. Characters the font lacks (CJK) count a
 * full em, as wide fonts draw them.
 *
 * @example measuredWidth('Artificial Intelligence & Data') // ≈ 31
 */
export function measuredWidth(text: string, options: { bold?: boolean; size?: number } = {}): number {
  const size = options.size ?? 11;
  let longest = 0;
  for (const line of text.split('\n')) {
    let px: number;
    if (fontCovers(line)) px = measureText(line, size, options.bold ?? false);
    else {
      px = 0;
      for (const ch of line)
        px += WIDE.test(ch) || !fontCovers(ch) ? size : measureText(ch, size, options.bold);
    }
    // Points to pixels, plus a few pixels of cell padding either side.
    longest = Math.max(longest, (px / PT_PER_PX + 10) / PX_PER_WIDTH_UNIT);
  }
  return Math.ceil(longest * 10) / 10;
}

/**
 * The width of a column holding `texts`: the widest measured text, at least `min`, at most
 * `cap`; `wrap` is true when some text is wider than the cap (its cells must wrap).
 *
 * @example fitColumnWidth(['Foster Bennett Partners'], { min: 10 }) // { width: ≈ 25, wrap: false, widest: ≈ 25 }
 */
export function fitColumnWidth(
  texts: Iterable<string>,
  options: { min?: number; cap?: number; bold?: boolean } = {},
): { width: number; wrap: boolean; widest: number } {
  const cap = options.cap ?? WIDTH_CAP;
  let widest = 0;
  for (const t of texts) if (t) widest = Math.max(widest, measuredWidth(t, { bold: options.bold }));
  return { width: Math.min(cap, Math.max(options.min ?? 0, widest)), wrap: widest > cap, widest };
}

/**
 * Lines a text takes in a wrapping cell `width` units wide (measured, word by word).
 *
 * @example wrappedLines('a long answer ...', 40) // 3
 */
export function wrappedLines(text: string, width: number): number {
  let lines = 0;
  for (const para of text.split('\n')) {
    let line = '';
    let n = 1;
    for (const word of para.split(/\s+/)) {
      const next = line ? `${line} ${word}` : word;
      if (line && measuredWidth(next) > width) {
        n++;
        line = word;
      } else line = next;
    }
    lines += n;
  }
  return Math.max(1, lines);
}

/** Printable width and height of a page, in points. */
export function printableArea(orientation: 'portrait' | 'landscape'): { width: number; height: number } {
  const m = PRINT_PAPER.margins;
  const w = PRINT_PAPER.widthIn - m.left - m.right;
  const h = PRINT_PAPER.heightIn - m.top - m.bottom;
  const [width, height] =
    orientation === 'portrait'
      ? [w, h]
      : [PRINT_PAPER.heightIn - m.left - m.right, PRINT_PAPER.widthIn - m.top - m.bottom];
  return { width: width * 72, height: height * 72 };
}

/** Landscape when the sheet is wider than a portrait page's printable width. */
export function orientationFor(contentWidthPx: number): 'portrait' | 'landscape' {
  return contentWidthPx * PT_PER_PX > printableArea('portrait').width ? 'landscape' : 'portrait';
}

/** The scale a spreadsheet prints at to fit `contentWidthPx` on one page wide (at most 1). */
export function fitScale(contentWidthPx: number, orientation: 'portrait' | 'landscape'): number {
  const w = contentWidthPx * PT_PER_PX;
  return w <= 0 ? 1 : Math.min(1, printableArea(orientation).width / w);
}

/** An image on a sheet: its top row (1-based) and height in screen pixels. */
export interface PlacedImage {
  row: number;
  heightPx: number;
}

/**
 * Rows after which a manual page break goes so that no page cuts an image: rows are laid out
 * page by page at `scale` (a page holds `pageHeightPt / scale` points of the sheet, less the
 * repeated `titleRows`); an image that would run past the bottom of its page starts the next
 * one. An image taller than a page, or already at the top of one, gets no break.
 *
 * @example imagePageBreaks(() => 15, [{ row: 30, heightPx: 300 }], { pageHeightPt: 500, scale: 1 }) // [28]
 */
export function imagePageBreaks(
  rowHeightPt: (row: number) => number,
  images: readonly PlacedImage[],
  page: { pageHeightPt: number; scale: number; titleRows?: number; lastRow?: number },
): number[] {
  if (images.length === 0) return [];
  const pageH = (page.pageHeightPt * PAGE_FILL) / Math.max(0.01, page.scale);
  const titleRows = page.titleRows ?? 0;
  let titleH = 0;
  for (let r = 1; r <= titleRows; r++) titleH += rowHeightPt(r);
  // The tallest image starting at each row, in points.
  const starts = new Map<number, number>();
  for (const im of images) starts.set(im.row, Math.max(starts.get(im.row) ?? 0, im.heightPx * PT_PER_PX));
  const last = Math.max(page.lastRow ?? 0, ...images.map((i) => i.row));
  /** Height from the top of `row` to the bottom of the row in which `pt` points below it end. */
  const span = (row: number, pt: number): number => {
    let h = 0;
    for (let r = row; h < pt; r++) h += rowHeightPt(r);
    return h;
  };
  const breaks: number[] = [];
  let y = 0;
  for (let r = 1; r <= last; r++) {
    const h = rowHeightPt(r);
    const top = r > titleRows ? titleH : 0;
    // The row does not fit on the page: a break of our own above it, where a reader would put
    // its own. Set, not left to the reader: LibreOffice fits a sheet to the page width at a
    // smaller scale than Excel's rule gives (more rows a page), so its own breaks fall lower
    // and would cut an image placed for Excel's; with every break set, a smaller scale only
    // leaves more room at the bottom of each page.
    if (y + h > pageH && y > top) {
      breaks.push(r - 1);
      y = top;
    }
    const image = starts.get(r);
    if (image !== undefined && y > top) {
      const need = span(r, image);
      // The break goes above the row before the image (the gap row above a chart), so that the
      // page before does not end on the image's top edge: LibreOffice draws an image touching
      // a page's bottom edge on that page too (clipped to nothing).
      const lead = r > titleRows + 2 ? rowHeightPt(r - 1) : 0;
      if (y + need > pageH && top + lead + need <= pageH) {
        breaks.push(lead > 0 ? r - 2 : r - 1);
        y = top + lead;
      }
    }
    y += h;
  }
  return breaks;
}

/** Text in a sheet header or footer: `&` doubled, as the codes start with it. */
export function headerText(text: string): string {
  return text.replace(/&/g, '&&').replace(/[\r\n]+/g, ' ');
}
