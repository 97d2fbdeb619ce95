/**
 * A report PDF on pdfkit: DejaVu Sans embedded (and the fallback fonts a name in another script
 * needs, subset), a cover, a contents page with links and PDF
 * bookmarks, headings that never sit orphaned at a page bottom, paragraphs, key-figure tiles,
 * tables that break across pages with their header repeated, vector charts, and
 * "Page i of n" footers.
 *
 * `ReportPdf` is the surface reports build with: it keeps the page geometry and hands each
 * block to its module (cover.ts, contents.ts, headings.ts, text-blocks.ts, key-figures.ts,
 * table.ts, chart-figure.ts, rows.ts, footers.ts; the pdfkit options and XMP in metadata.ts).
 */
import { writeFile } from 'node:fs/promises';
import PDFDocument from 'pdfkit';
import { FONT_FAMILY, FONT_FAMILY_BOLD, fontBuffers } from '../fonts.js';
import { chartHeight, drawChart } from './chart-figure.js';
import type { ChartImage } from './chart-figure.js';
import { Contents, contentsLayout } from './contents.js';
import type { TocEntry } from './contents.js';
import { drawCover } from './cover.js';
import type { CoverInput } from './cover.js';
import { installFallbackText } from './fallback-text.js';
import { Flow } from './flow.js';
import { writeFooters } from './footers.js';
import { Headings } from './headings.js';
import type { HeadingOptions } from './headings.js';
import { drawKeyFigures } from './key-figures.js';
import type { KeyFigure } from './key-figures.js';
import { documentOptions, writeXmpMetadata } from './metadata.js';
import { drawRow, measureRow } from './rows.js';
import type { RowCell } from './rows.js';
import { drawTable } from './table.js';
import { measureTable, tableKeepHeight } from './table-layout.js';
import type { TableColumn, TableOptions } from './table-layout.js';
import { Tags } from './tags.js';
import type { StructElement } from './tags.js';
import { drawBullets, drawParagraph, listItem, paragraphHeight } from './text-blocks.js';
import type { ParagraphOptions } from './text-blocks.js';
import { PAGE_MARGINS } from './theme.js';

export interface PdfOptions {
  title: string;
  author?: string;
  subject?: string;
  keywords?: string;
  /** Fixed creation date (tests, reproducible output). Default: now. */
  creationDate?: Date;
  /** Text at the left of every footer; default the title. */
  footerText?: string;
  /** The document's language (BCP 47), for the tagged PDF's /Lang. Default en-GB. */
  lang?: string;
  /** The first page is a cover, without a footer. Default true; false for a brief that starts with its content. */
  coverPage?: boolean;
}

/** Builds one report PDF. Call `finish()` once at the end to get the bytes. */
export class ReportPdf {
  readonly doc: PDFKit.PDFDocument;
  readonly toc: TocEntry[] = [];
  /** The structure tree: every ReportPdf is a tagged PDF (PDF/UA-1). */
  readonly tags: Tags;
  private readonly options: PdfOptions;
  /** The contents pages, filled by `finish()`. */
  private readonly contents = new Contents();
  /** The row cell's column and the lone chart at a page top. */
  private readonly flow = new Flow();
  private readonly headings = new Headings(this.flow, this.contents);
  private readonly chunks: Buffer[] = [];
  private readonly done: Promise<Buffer>;

  constructor(options: PdfOptions) {
    this.options = options;
    this.doc = new PDFDocument(documentOptions(options, options.creationDate ?? new Date()));
    const fonts = fontBuffers();
    this.doc.registerFont(FONT_FAMILY, fonts.regular);
    this.doc.registerFont(FONT_FAMILY_BOLD, fonts.bold);
    // One-line text in every script: runs DejaVu Sans lacks are drawn in the chain's fonts.
    installFallbackText(this.doc);
    writeXmpMetadata(this.doc);
    this.tags = new Tags(this.doc);
    this.done = new Promise<Buffer>((resolve, reject) => {
      this.doc.on('data', (c: Buffer) => this.chunks.push(c));
      this.doc.on('end', () => resolve(Buffer.concat(this.chunks)));
      this.doc.on('error', reject);
    });
    this.doc.addPage();
    this.doc.font(FONT_FAMILY);
  }

  /** Width between the side margins, or of the row cell being drawn. */
  get contentWidth(): number {
    return this.flow.frame?.w ?? this.pageContentWidth;
  }

  /** Left edge of the content, or of the row cell being drawn. */
  get left(): number {
    return this.flow.frame?.x ?? PAGE_MARGINS.left;
  }

  /** Width between the side margins, whatever the frame. */
  get pageContentWidth(): number {
    return this.doc.page.width - PAGE_MARGINS.left - PAGE_MARGINS.right;
  }

  /** Height of a page's body, between the top and bottom margins. */
  get pageBody(): number {
    return this.bottom - PAGE_MARGINS.top;
  }

  /** Lowest y content may reach on this page. */
  get bottom(): number {
    return this.doc.page.height - PAGE_MARGINS.bottom;
  }

  /** Space left on the current page. */
  get remaining(): number {
    return this.bottom - this.doc.y;
  }

  /** Number of pages so far. */
  get pageCount(): number {
    return this.doc.bufferedPageRange().count;
  }

  newPage(): void {
    this.doc.addPage();
    this.doc.x = this.left;
    this.doc.y = PAGE_MARGINS.top;
  }

  /** Starts a new page unless `height` points fit on this one (never inside a row cell: the row made room). */
  ensureSpace(height: number): void {
    if (this.flow.frame === null && this.remaining < height) this.newPage();
  }

  /**
   * Cells side by side, e.g. a table next to its chart or two charts. The row moves to the next
   * page whole when it does not fit; when a cell is taller than a page, the cells are drawn one
   * under the other at the full width instead. Returns the row's height.
   */
  row(cells: RowCell[], options: { gap?: number } = {}): number {
    return drawRow(this, this.flow, cells, options);
  }

  /** Height `row` would take with these cells. */
  measureRow(cells: RowCell[], options: { gap?: number } = {}): number {
    return measureRow(this, this.flow, cells, options);
  }

  /** A full-page cover: title, subtitle and lines of facts. */
  cover(input: CoverInput): void {
    drawCover(this, input);
  }

  /**
   * Reserves page(s) for the contents, filled in by `finish()` once page numbers are known.
   * `entries` is how many headings the contents will list (levels 1 and 2).
   */
  reserveContents(entries: number): void {
    // Level-2 lines (15 pt) are the most common; a page holds about 45 of them.
    this.reserveContentsPages(Math.max(1, Math.ceil((entries + 2) / 45)));
  }

  /** Reserves exactly `pages` contents pages (see `contentsPagesNeeded`). */
  reserveContentsPages(pages: number): void {
    this.contents.reserve(this, pages);
  }

  /** Contents pages reserved. */
  get contentsPageCount(): number {
    return this.contents.pages.length;
  }

  /**
   * How many pages the contents need for the headings added so far. A document laid out with
   * a different reservation should be laid out again with this many (page numbers move).
   */
  contentsPagesNeeded(): number {
    return contentsLayout(this.toc, this.bottom).pages;
  }

  /**
   * A heading. Level 1 starts a new page; every heading keeps `keepWith` points of the content
   * below it on the same page (so it is never orphaned), adds a bookmark and a contents entry.
   */
  heading(text: string, level: 1 | 2 | 3 = 2, options: HeadingOptions = {}): void {
    this.headings.draw(this, text, level, options);
  }

  /**
   * A paragraph of body text; flows onto the next page when long. With `link` (an http(s) url)
   * the text is a clickable link, in the accent colour.
   */
  paragraph(text: string, options: ParagraphOptions = {}): void {
    drawParagraph(this, text, options);
  }

  /** Height `paragraph` takes (gap included). */
  paragraphHeight(text: string, options: { size?: number; gap?: number } = {}): number {
    return paragraphHeight(this, text, options);
  }

  /** A bulleted list; each item wraps under its own indent. */
  bullets(items: string[], options: { size?: number } = {}): void {
    drawBullets(this, items, options);
  }

  /** A list item of `list`: its label (the bullet) and its body. */
  listItem(list: StructElement): { label: StructElement; body: StructElement } {
    return listItem(this, list);
  }

  /** Key figures as tiles, `perRow` to a row. */
  keyFigures(tiles: KeyFigure[], perRow = 4): void {
    drawKeyFigures(this, tiles, perRow);
  }

  /** Height a table would take, spacing after it included (for keep-together decisions). */
  measureTable(columns: TableColumn[], rows: string[][], options: TableOptions = {}): number {
    return measureTable(this, columns, rows, options);
  }

  /** What a heading above this table must keep with it: the whole table when it is kept whole, else its header and two rows. */
  tableKeepHeight(columns: TableColumn[], rows: string[][], options: TableOptions = {}): number {
    return tableKeepHeight(this, columns, rows, options);
  }

  /** Height `chart` takes on the page, caption included. */
  chartHeight(chart: ChartImage, options: { caption?: string; maxWidth?: number } = {}): number {
    return chartHeight(this, chart, options);
  }

  /**
   * A table. Rows that do not fit move to the next page under a repeated header; cell text
   * wraps to `maxLines` and is cut with an ellipsis beyond, so nothing overflows its cell.
   * A short table (up to a third of a page) is kept whole; a long one never leaves a single
   * row alone at the top or bottom of a page.
   */
  table(columns: TableColumn[], rows: string[][], options: TableOptions = {}): void {
    drawTable(this, columns, rows, options);
  }

  /**
   * A vector chart from SVG, scaled to at most the content width (never up), aspect kept,
   * centred, and shrinks to one page at most. Kept with the text above it: a chart that misses
   * the rest of the page by at most a fifth of its height is drawn that much smaller there
   * (charts are rendered larger than they print, so labels stay above 6 pt); a larger one moves
   * to the next page.
   */
  chart(chart: ChartImage, options: { caption?: string; maxWidth?: number; alt?: string } = {}): void {
    drawChart(this, this.flow, chart, options);
  }

  /** Vertical space. */
  space(points: number): void {
    this.doc.y += points;
  }

  /** Writes the contents and footers, ends the document and returns its bytes. */
  async finish(): Promise<Buffer> {
    this.contents.write(this);
    writeFooters(this, this.options);
    this.doc.end();
    return this.done;
  }

  /** `finish()` and write the bytes to `path`. Returns the page count. */
  async writeTo(path: string): Promise<number> {
    const pages = this.pageCount;
    const bytes = await this.finish();
    await writeFile(path, bytes);
    return pages;
  }
}
