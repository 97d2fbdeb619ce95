/**
 * A report PDF on pdfkit: DejaVu Sans embedded (and the fallback fonts a name in another script
 * needs, subset), a cover, a contents page with links and PDF
 * bookmarks, headings that never sit orphaned at a page bottom, paragraphs, key-figure tiles,
 * tables that break across pages with their header repeated, vector charts, and
 * "Page i of n" footers.
 */
import { writeFile } from 'node:fs/promises';
import PDFDocument from 'pdfkit';
import SVGtoPDF from 'svg-to-pdfkit';
import {
  FONT_FAMILY,
  FONT_FAMILY_BOLD,
  fontBuffers,
  measureText,
  truncateToWidth,
  wrapText,
} from '../fonts.js';
import { pdfFontFor, svgWithFallbackFonts } from '../charts/svg-fonts.js';
import { installFallbackText, registerFontChain, withMarksDrawn } from './fallback-text.js';
import { Tags, xmlText } from './tags.js';
import type { LinkTarget, StructElement } from './tags.js';

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

export interface TocEntry {
  title: string;
  level: 1 | 2;
  /** 0-based page index. */
  page: number;
  dest: string;
}

export interface KeyFigure {
  label: string;
  value: string;
  /** A short line under the value, e.g. "+12.5% YoY". */
  note?: string;
  /** Colours the note: up green, down red. */
  trend?: 'up' | 'down' | 'flat';
}

export interface TableColumn {
  header: string;
  /** Relative width (weights are normalised to the content width). Default 1. */
  width?: number;
  align?: 'left' | 'right' | 'center';
}

export interface TableOptions {
  /** Lines a cell may wrap to before it is cut with an ellipsis. Default 2. */
  maxLines?: number;
  fontSize?: number;
  /** Shown in place of rows when there are none. */
  emptyText?: string;
  /** Zebra striping. Default true. */
  zebra?: boolean;
  /** Link targets per cell (same shape as rows); a cell with a url links its text. */
  links?: (string | null | undefined)[][];
}

export interface ChartImage {
  svg: string;
  width: number;
  height: number;
  /** What the chart shows, the Figure's alternative text (`chartAltText`). */
  alt?: string;
}

/** One cell of a `row`: measured and drawn inside its own column frame. */
export interface RowCell {
  /** Relative width (weights are normalised to the content width). Default 1. */
  weight?: number;
  /** Height the cell's content takes at the cell's width (`contentWidth` is the cell's width). */
  measure: () => number;
  /** Draws the cell's content from the current y (`left` and `contentWidth` are the cell's). */
  draw: () => void;
}

export const COLORS = {
  ink: '#1f2328',
  muted: '#5b6470',
  accent: '#1f4e79',
  rule: '#c9d1d9',
  tile: '#f2f5f9',
  zebra: '#f6f8fa',
  header: '#1f4e79',
  up: '#1a7f37',
  down: '#c0392b',
} as const;

const PAGE_MARGINS = { top: 56, bottom: 60, left: 50, right: 50 };
/** A4's width in points. */
const A4_WIDTH = 595.28;
/** Gap between key figure tiles, and a tile's text padding (left and right together), points. */
const TILE_GAP = 8;
const TILE_PADDING = 18;

/**
 * The width (points) a key figure's note has on an A4 page's full width with `perRow` tiles to a
 * row: the note is one line of 7.5 pt text and a longer one is cut, so a report whose notes vary
 * in length picks one that fits (measured with `measureText(note, 7.5)`).
 */
export function keyFigureNoteWidth(perRow: number): number {
  const content = A4_WIDTH - PAGE_MARGINS.left - PAGE_MARGINS.right;
  return (content - TILE_GAP * (perRow - 1)) / perRow - TILE_PADDING;
}
/** Smallest share of its size a chart is drawn at to stay on the page with its text. */
const MIN_CHART_SHRINK = 0.8;

/** Builds one report PDF. Call `finish()` once at the end to get the bytes. */
export class ReportPdf {
  readonly doc: PDFKit.PDFDocument;
  readonly toc: TocEntry[] = [];
  /** The structure tree: every ReportPdf is a tagged PDF (PDF/UA-1). */
  readonly tags: Tags;
  /** Where the contents go in the structure tree (after the cover), filled by `finish()`. */
  private contentsSect: StructElement | null = null;
  private readonly options: PdfOptions;
  private contentsPages: number[] = [];
  /** The column a `row` cell is drawn in; null: the full content width. */
  private frame: { x: number; w: number } | null = null;
  /** The last chart drawn at the top of a page, and where it ended (see `onlyASmallChart`). */
  private loneChart: { page: number; endY: number } | null = null;
  /** Charts drawn so far (a row of cells counts the ones it drew). */
  private chartsDrawn = 0;
  private outlineParent: PDFKit.PDFOutline | undefined;
  private destCount = 0;
  private readonly chunks: Buffer[] = [];
  private readonly done: Promise<Buffer>;

  constructor(options: PdfOptions) {
    this.options = options;
    const date = options.creationDate ?? new Date();
    this.doc = new PDFDocument({
      size: 'A4',
      margins: PAGE_MARGINS,
      bufferPages: true,
      autoFirstPage: false,
      // Tagged PDF/UA-1: the structure tree (`tags`), /Lang, the title shown, pdfuaid in the XMP
      // (below: pdfkit's `subset: 'PDF/UA'` would also write a CIDSet, taking UA part 1 for
      // PDF/A-1, and that CIDSet misses the components of composite glyphs: 7.21.4.2-2 fails).
      tagged: true,
      displayTitle: true,
      lang: options.lang ?? 'en-GB',
      pdfVersion: '1.7',
      info: {
        Title: options.title,
        Author: options.author ?? 'Venture Intelligence report runner',
        Subject: options.subject ?? options.title,
        Keywords: options.keywords ?? '',
        Creator: 'venture-intelligence-runner',
        Producer: 'pdfkit',
        CreationDate: date,
        ModDate: date,
      },
    });
    const fonts = fontBuffers();
    this.doc.registerFont(FONT_FAMILY, fonts.regular);
    this.doc.registerFont(FONT_FAMILY_BOLD, fonts.bold);
    // One-line text in every script: runs DejaVu Sans lacks are drawn in the chain's fonts.
    installFallbackText(this.doc);
    escapeXmpInfo(this.doc);
    this.doc.appendXML(PDFUA_ID);
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
    return this.frame?.w ?? this.pageContentWidth;
  }

  /** Left edge of the content, or of the row cell being drawn. */
  get left(): number {
    return this.frame?.x ?? PAGE_MARGINS.left;
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
    if (this.frame === null && this.remaining < height) this.newPage();
  }

  /**
   * Cells side by side, e.g. a table next to its chart or two charts. The row moves to the next
   * page whole when it does not fit; when a cell is taller than a page, the cells are drawn one
   * under the other at the full width instead. Returns the row's height.
   */
  row(cells: RowCell[], options: { gap?: number } = {}): number {
    const frames = this.rowFrames(cells, options.gap ?? 16);
    const height = this.measureRow(cells, options);
    if (height > this.pageBody) {
      for (const c of cells) c.draw();
      return height;
    }
    this.ensureSpace(height);
    const y0 = this.doc.y;
    const charts0 = this.chartsDrawn;
    let maxY = y0;
    cells.forEach((c, i) => {
      this.doc.y = y0;
      this.inFrame(frames[i] ?? null, () => c.draw());
      maxY = Math.max(maxY, this.doc.y);
    });
    this.doc.y = maxY;
    this.doc.x = this.left;
    // A row of charts only (an empty cell aside) at the top of a page counts as a lone chart.
    const drawn = cells.filter((c, i) => this.inFrame(frames[i] ?? null, () => c.measure()) > 0).length;
    this.loneChart =
      this.frame === null && y0 <= PAGE_MARGINS.top + 1 && this.chartsDrawn - charts0 === drawn
        ? { page: this.pageCount, endY: maxY }
        : null;
    return height;
  }

  /** Height `row` would take with these cells. */
  measureRow(cells: RowCell[], options: { gap?: number } = {}): number {
    const frames = this.rowFrames(cells, options.gap ?? 16);
    return Math.max(0, ...cells.map((c, i) => this.inFrame(frames[i] ?? null, () => c.measure())));
  }

  private rowFrames(cells: RowCell[], gap: number): { x: number; w: number }[] {
    const total = cells.reduce((s, c) => s + (c.weight ?? 1), 0) || 1;
    const usable = this.pageContentWidth - gap * (cells.length - 1);
    let x = PAGE_MARGINS.left;
    return cells.map((c) => {
      const f = { x, w: (usable * (c.weight ?? 1)) / total };
      x += f.w + gap;
      return f;
    });
  }

  private inFrame<T>(frame: { x: number; w: number } | null, fn: () => T): T {
    const saved = this.frame;
    this.frame = frame;
    try {
      return fn();
    } finally {
      this.frame = saved;
    }
  }

  /** A full-page cover: title, subtitle and lines of facts. */
  cover(input: { kicker?: string; title: string; subtitle?: string; lines?: string[]; note?: string }): void {
    const { doc, tags } = this;
    const w = this.contentWidth;
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
          .text(kicker.toUpperCase(), this.left, y, { lineBreak: false }),
      );
      y += 24;
    }
    doc.font(FONT_FAMILY_BOLD).fontSize(28).fillColor('white');
    tags.block(tags.headingTag(1), () => {
      for (const line of wrapText(input.title, w, 28, { bold: true, maxLines: 3 })) {
        doc.text(line, this.left, y, { lineBreak: false });
        y += 34;
      }
    });
    y = Math.max(y + 40, 290);
    if (input.subtitle) {
      const subtitle = input.subtitle;
      doc.font(FONT_FAMILY).fontSize(15).fillColor(COLORS.ink);
      tags.block('P', () => {
        for (const line of wrapText(subtitle, w, 15, { maxLines: 3 })) {
          doc.text(line, this.left, y, { lineBreak: false });
          y += 20;
        }
      });
      y += 14;
    }
    doc.font(FONT_FAMILY).fontSize(11).fillColor(COLORS.muted);
    for (const line of input.lines ?? []) {
      tags.block('P', () => {
        for (const l of wrapText(line, w, 11, { maxLines: 3 })) {
          doc.text(l, this.left, y, { lineBreak: false });
          y += 16;
        }
      });
      y += 4;
    }
    if (input.note) {
      doc.fontSize(8.5).fillColor(COLORS.muted);
      const lines = wrapText(input.note, w, 8.5, { maxLines: 6 });
      let ny = this.bottom - lines.length * 12;
      tags.artifact(() =>
        doc
          .moveTo(this.left, ny - 10)
          .lineTo(this.left + w, ny - 10)
          .lineWidth(0.5)
          .strokeColor(COLORS.rule)
          .stroke(),
      );
      tags.block('P', () => {
        for (const l of lines) {
          doc.text(l, this.left, ny, { lineBreak: false });
          ny += 12;
        }
      });
    }
    doc.fillColor(COLORS.ink);
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
    // The contents are read where they print, after the cover: their place in the tree is kept.
    this.contentsSect ??= this.tags.element('Sect');
    for (let i = 0; i < Math.max(1, pages); i++) {
      this.newPage();
      this.contentsPages.push(this.pageCount - 1);
    }
  }

  /** Contents pages reserved. */
  get contentsPageCount(): number {
    return this.contentsPages.length;
  }

  /**
   * How many pages the contents need for the headings added so far. A document laid out with
   * a different reservation should be laid out again with this many (page numbers move).
   */
  contentsPagesNeeded(): number {
    return this.contentsLayout().pages;
  }

  /** Where each contents entry goes: its page (0-based among the contents pages) and y. */
  private contentsLayout(): { pages: number; at: { page: number; y: number }[] } {
    const top = PAGE_MARGINS.top + 36;
    let page = 0;
    let y = top;
    const at: { page: number; y: number }[] = [];
    for (const e of this.toc) {
      const step = e.level === 1 ? 20 : 15;
      if (y + step > this.bottom) {
        page++;
        y = top;
      }
      const ey = y + (e.level === 1 ? 4 : 0);
      at.push({ page, y: ey });
      y = ey + step;
    }
    return { pages: page + 1, at };
  }

  /**
   * A heading. Level 1 starts a new page; every heading keeps `keepWith` points of the content
   * below it on the same page (so it is never orphaned), adds a bookmark and a contents entry.
   */
  heading(
    text: string,
    level: 1 | 2 | 3 = 2,
    options: { keepWith?: number; newPage?: boolean; toc?: boolean } = {},
  ): void {
    const { doc } = this;
    const size = level === 1 ? 18 : level === 2 ? 13 : 10.5;
    const keepWith = options.keepWith ?? (level === 3 ? 60 : 120);
    const w = this.contentWidth;
    const lines = wrapText(text, w, size, { bold: true, maxLines: 2 });
    const blockHeight = lines.length * size * 1.25 + (level === 1 ? 16 : 8);
    const startPage = (options.newPage ?? level === 1) && !this.onlyASmallChart();
    if (startPage && (doc.y > PAGE_MARGINS.top + 1 || this.contentsPages.includes(this.pageCount - 1)))
      this.newPage();
    else if (level !== 1 && doc.y > PAGE_MARGINS.top + 1) doc.y += level === 2 ? 10 : 4;
    this.ensureSpace(blockHeight + keepWith);
    const dest = `h${++this.destCount}`;
    doc.addNamedDestination(
      dest,
      'XYZ',
      null as unknown as number,
      this.doc.page.height - doc.y + 4,
      null as unknown as number,
    );
    if (level !== 3 && options.toc !== false) {
      this.toc.push({ title: text, level, page: this.pageCount - 1, dest });
      if (level === 1) this.outlineParent = doc.outline.addItem(text, { expanded: true });
      else (this.outlineParent ?? doc.outline).addItem(text);
    }
    doc
      .font(FONT_FAMILY_BOLD)
      .fontSize(size)
      .fillColor(level === 3 ? COLORS.ink : COLORS.accent);
    let y = doc.y;
    this.tags.block(this.tags.headingTag(level), () => {
      for (const line of lines) {
        doc.text(line, this.left, y, { lineBreak: false });
        y += size * 1.25;
      }
    });
    if (level === 1) {
      const ry = y + 2;
      this.tags.artifact(() =>
        doc
          .moveTo(this.left, ry)
          .lineTo(this.left + w, ry)
          .lineWidth(1)
          .strokeColor(COLORS.accent)
          .stroke(),
      );
      y += 12;
    } else {
      y += 4;
    }
    doc.x = this.left;
    doc.y = y;
    doc.font(FONT_FAMILY).fillColor(COLORS.ink);
  }

  /**
   * A paragraph of body text; flows onto the next page when long. With `link` (an http(s) url)
   * the text is a clickable link, in the accent colour.
   */
  paragraph(
    text: string,
    options: { size?: number; color?: string; gap?: number; link?: string } = {},
  ): void {
    const { doc } = this;
    const size = options.size ?? 9.5;
    const lines = wrapText(text, this.contentWidth, size);
    const lh = size * 1.35;
    doc
      .font(FONT_FAMILY)
      .fontSize(size)
      .fillColor(options.link ? COLORS.accent : (options.color ?? COLORS.ink));
    // Keep at least two lines together at a page bottom.
    this.ensureSpace(Math.min(lines.length, 2) * lh);
    const p = this.tags.element('P');
    for (const line of lines) {
      this.ensureSpace(lh);
      const y = doc.y;
      if (options.link) this.linkedText(p, { url: options.link }, text, line, this.left, y);
      else this.tags.mark(p, () => doc.text(line, this.left, y, { lineBreak: false }));
      doc.y = y + lh;
    }
    doc.y += options.gap ?? 6;
    doc.x = this.left;
    doc.fillColor(COLORS.ink);
  }

  /** Height `paragraph` takes (gap included). */
  paragraphHeight(text: string, options: { size?: number; gap?: number } = {}): number {
    const size = options.size ?? 9.5;
    return wrapText(text, this.contentWidth, size).length * size * 1.35 + (options.gap ?? 6);
  }

  /** A bulleted list; each item wraps under its own indent. */
  bullets(items: string[], options: { size?: number } = {}): void {
    const { doc } = this;
    const size = options.size ?? 9.5;
    const lh = size * 1.35;
    const indent = 12;
    doc.font(FONT_FAMILY).fontSize(size).fillColor(COLORS.ink);
    const list = items.length > 0 ? this.tags.element('L') : null;
    for (const item of items) {
      const lines = wrapText(item, this.contentWidth - indent, size);
      this.ensureSpace(Math.min(lines.length, 2) * lh);
      const { label, body } = this.listItem(list as StructElement);
      lines.forEach((line, i) => {
        this.ensureSpace(lh);
        const y = doc.y;
        if (i === 0) this.tags.mark(label, () => doc.text('•', this.left + 2, y, { lineBreak: false }));
        this.tags.mark(body, () => doc.text(line, this.left + indent, y, { lineBreak: false }));
        doc.y = y + lh;
      });
      doc.y += 2;
    }
    doc.y += 4;
    doc.x = this.left;
  }

  /** A list item of `list`: its label (the bullet) and its body. */
  listItem(list: StructElement): { label: StructElement; body: StructElement } {
    const li = this.tags.element('LI', {}, list);
    return { label: this.tags.element('Lbl', {}, li), body: this.tags.element('LBody', {}, li) };
  }

  /** Key figures as tiles, `perRow` to a row. */
  keyFigures(tiles: KeyFigure[], perRow = 4): void {
    const { doc } = this;
    const gap = TILE_GAP;
    const w = (this.contentWidth - gap * (perRow - 1)) / perRow;
    const h = 58;
    const { tags } = this;
    // Each tile a Div of paragraphs (label, value, note) in a Div of the key figures.
    const group = tiles.length > 0 ? tags.element('Div') : null;
    for (let i = 0; i < tiles.length; i += perRow) {
      this.ensureSpace(h + gap);
      const y = doc.y;
      tiles.slice(i, i + perRow).forEach((t, j) => {
        const x = this.left + j * (w + gap);
        const tile = tags.element('Div', {}, group as StructElement);
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
      });
      doc.y = y + h + gap;
    }
    doc.x = this.left;
    doc.y += 4;
    doc.fillColor(COLORS.ink);
  }

  private tableLayout(columns: TableColumn[], rows: string[][], options: TableOptions) {
    const size = options.fontSize ?? 8;
    const maxLines = options.maxLines ?? 2;
    const pad = 3.5;
    const lh = size * 1.3;
    const total = columns.reduce((s, c) => s + (c.width ?? 1), 0) || 1;
    const widths = columns.map((c) => ((c.width ?? 1) / total) * this.contentWidth);
    const headerLines = columns.map((c, i) =>
      wrapText(c.header, (widths[i] ?? 20) - 2 * pad, size, { bold: true, maxLines: 2 }),
    );
    const headerHeight = Math.max(...headerLines.map((l) => l.length)) * lh + 2 * pad;
    const cells = rows.map((row) =>
      columns.map((_, i) => wrapText(row[i] ?? '', (widths[i] ?? 20) - 2 * pad, size, { maxLines })),
    );
    const heights =
      cells.length > 0
        ? cells.map((lines) => Math.max(1, ...lines.map((l) => l.length)) * lh + 2 * pad)
        : [lh + 2 * pad];
    return { size, pad, lh, widths, headerLines, headerHeight, cells, heights };
  }

  /** Height a table would take, spacing after it included (for keep-together decisions). */
  measureTable(columns: TableColumn[], rows: string[][], options: TableOptions = {}): number {
    const l = this.tableLayout(columns, rows, options);
    return l.headerHeight + l.heights.reduce((a, b) => a + b, 0) + 10;
  }

  /** What a heading above this table must keep with it: the whole table when it is kept whole, else its header and two rows. */
  tableKeepHeight(columns: TableColumn[], rows: string[][], options: TableOptions = {}): number {
    const l = this.tableLayout(columns, rows, options);
    const total = l.headerHeight + l.heights.reduce((a, b) => a + b, 0);
    return total <= (this.bottom - PAGE_MARGINS.top) / 3
      ? total
      : l.headerHeight + (l.heights[0] ?? 0) + (l.heights[1] ?? 0);
  }

  /** Height `chart` takes on the page, caption included. */
  chartHeight(chart: ChartImage, options: { caption?: string; maxWidth?: number } = {}): number {
    return this.chartBox(chart, options).h + (options.caption ? 16 : 0) + 12;
  }

  private chartBox(
    chart: ChartImage,
    options: { caption?: string; maxWidth?: number },
  ): { w: number; h: number } {
    const maxWidth = Math.min(options.maxWidth ?? this.contentWidth, this.contentWidth);
    const captionHeight = options.caption ? 16 : 0;
    const pageHeight = this.bottom - PAGE_MARGINS.top - captionHeight - 10;
    let scale = Math.min(1, maxWidth / Math.max(1, chart.width));
    if (chart.height * scale > pageHeight) scale = pageHeight / chart.height;
    return { w: chart.width * scale, h: chart.height * scale };
  }

  /**
   * A table. Rows that do not fit move to the next page under a repeated header; cell text
   * wraps to `maxLines` and is cut with an ellipsis beyond, so nothing overflows its cell.
   * A short table (up to a third of a page) is kept whole; a long one never leaves a single
   * row alone at the top or bottom of a page.
   */
  table(columns: TableColumn[], rows: string[][], options: TableOptions = {}): void {
    const { doc } = this;
    const { size, pad, lh, widths, headerLines, headerHeight, cells, heights } = this.tableLayout(
      columns,
      rows,
      options,
    );
    const total = headerHeight + heights.reduce((a, b) => a + b, 0);
    const pageBody = this.bottom - PAGE_MARGINS.top;
    const { tags } = this;
    // Table > TR > TH (scope Column) / TD; a header repeated on a later page is an artifact.
    const table = tags.element('Table');

    const drawHeader = (repeated: boolean): void => {
      const y = doc.y;
      const draw = (cell: (i: number, draw: () => void) => void): void => {
        doc.font(FONT_FAMILY_BOLD).fontSize(size).fillColor('white');
        let x = this.left;
        columns.forEach((c, i) => {
          const cw = widths[i] ?? 0;
          const cx = x;
          cell(i, () =>
            (headerLines[i] ?? []).forEach((line, k) => {
              this.put(line, cx + pad, y + pad + k * lh, { width: cw - 2 * pad, align: c.align ?? 'left' });
            }),
          );
          x += cw;
        });
      };
      const background = (): void => {
        doc.save();
        doc.rect(this.left, y, this.contentWidth, headerHeight).fill(COLORS.header);
        doc.restore();
      };
      if (repeated)
        tags.artifact(() => {
          background();
          draw((_, d) => d());
        }, 'Pagination');
      else {
        tags.artifact(background);
        const tr = tags.element('TR', {}, table);
        draw((_, d) => tags.mark(tags.element('TH', { scope: 'Column' }, tr), d));
      }
      doc.y = y + headerHeight;
    };

    const keepWhole = total <= pageBody / 3;
    const firstTwo = headerHeight + (heights[0] ?? 0) + (heights[1] ?? 0);
    this.ensureSpace(keepWhole ? total : firstTwo);
    drawHeader(false);
    if (rows.length === 0) {
      const td = tags.element('TD', { colSpan: columns.length }, tags.element('TR', {}, table));
      tags.mark(td, () =>
        doc
          .font(FONT_FAMILY)
          .fontSize(size)
          .fillColor(COLORS.muted)
          .text(options.emptyText ?? 'No data.', this.left + pad, doc.y + pad, { lineBreak: false }),
      );
      doc.y += lh + 2 * pad;
    }
    rows.forEach((_, r) => {
      const lines = cells[r] ?? [];
      const h = heights[r] ?? lh;
      // Break before this row when it does not fit, or when it would leave the last row alone.
      const lastTwo = r === rows.length - 2 && r > 1 ? h + (heights[r + 1] ?? 0) : h;
      if (doc.y + lastTwo > this.bottom) {
        this.newPage();
        drawHeader(true);
      }
      const y = doc.y;
      if ((options.zebra ?? true) && r % 2 === 1) {
        tags.artifact(() => {
          doc.save();
          doc.rect(this.left, y, this.contentWidth, h).fill(COLORS.zebra);
          doc.restore();
        });
      }
      doc.font(FONT_FAMILY).fontSize(size).fillColor(COLORS.ink);
      const tr = tags.element('TR', {}, table);
      let x = this.left;
      columns.forEach((c, i) => {
        const cw = widths[i] ?? 0;
        const link = options.links?.[r]?.[i] ?? undefined;
        const td = tags.element('TD', {}, tr);
        const cellLines = lines[i] ?? [];
        if (link) {
          doc.fillColor(COLORS.accent);
          const description = rows[r]?.[i] || link;
          cellLines.forEach((line, k) => {
            this.linkedText(td, { url: link }, description, line, x + pad, y + pad + k * lh, {
              width: cw - 2 * pad,
              align: c.align ?? 'left',
            });
          });
          doc.fillColor(COLORS.ink);
        } else {
          const cx = x;
          tags.mark(td, () =>
            cellLines.forEach((line, k) => {
              this.put(line, cx + pad, y + pad + k * lh, { width: cw - 2 * pad, align: c.align ?? 'left' });
            }),
          );
        }
        x += cw;
      });
      tags.artifact(() =>
        doc
          .moveTo(this.left, y + h)
          .lineTo(this.left + this.contentWidth, y + h)
          .lineWidth(0.4)
          .strokeColor(COLORS.rule)
          .stroke(),
      );
      doc.y = y + h;
    });
    doc.x = this.left;
    doc.y += 10;
  }

  /**
   * True when the current page holds one chart and nothing else, less than a third of the page
   * high: the next section follows it there rather than leaving the page mostly empty.
   */
  private onlyASmallChart(): boolean {
    const c = this.loneChart;
    return (
      c !== null &&
      c.page === this.pageCount &&
      c.endY === this.doc.y &&
      this.doc.y - PAGE_MARGINS.top < this.pageBody / 3
    );
  }

  /**
   * A vector chart from SVG, scaled to at most the content width (never up), aspect kept,
   * centred, and shrinks to one page at most. Kept with the text above it: a chart that misses
   * the rest of the page by at most a fifth of its height is drawn that much smaller there
   * (charts are rendered larger than they print, so labels stay above 6 pt); a larger one moves
   * to the next page.
   */
  chart(chart: ChartImage, options: { caption?: string; maxWidth?: number; alt?: string } = {}): void {
    const { doc } = this;
    const captionHeight = options.caption ? 16 : 0;
    let { w, h } = this.chartBox(chart, options);
    const room = this.remaining - captionHeight - 8;
    if (this.frame === null && h > room && room >= h * MIN_CHART_SHRINK) {
      w *= room / h;
      h = room;
    }
    this.ensureSpace(h + captionHeight + 8);
    const x = this.left + (this.contentWidth - w) / 2;
    const y = doc.y;
    const atTop = y <= PAGE_MARGINS.top + 1;
    registerFontChain(doc);
    const svg = svgWithFallbackFonts(chart.svg, 'pdfkit');
    // A Figure whose alternative text says what the chart shows; the caption a paragraph under it.
    const alt = options.alt ?? chart.alt ?? options.caption ?? 'Chart';
    this.tags.block(
      'Figure',
      () =>
        withMarksDrawn(doc, svg, () =>
          SVGtoPDF(doc, svg, x, y, {
            width: w,
            height: h,
            preserveAspectRatio: 'xMidYMid meet',
            fontCallback: (family, bold) => pdfFontFor(family, bold),
          }),
        ),
      { alt, bbox: [x, y, x + w, y + h] },
    );
    doc.y = y + h + 4;
    if (options.caption) {
      const caption = options.caption;
      doc.font(FONT_FAMILY).fontSize(7.5).fillColor(COLORS.muted);
      this.tags.block('P', () =>
        this.put(truncateToWidth(caption, this.contentWidth, 7.5), this.left, doc.y, {
          width: this.contentWidth,
          align: 'center',
        }),
      );
      doc.y += captionHeight - 4;
    }
    doc.x = this.left;
    doc.y += 8;
    doc.fillColor(COLORS.ink);
    this.chartsDrawn++;
    if (this.frame === null) this.loneChart = atTop ? { page: this.pageCount, endY: doc.y } : null;
  }

  /**
   * One line of text at (x, y) in the current font, aligned in `width` without pdfkit's line
   * wrapper (which could add a page); callers have wrapped or truncated the text to fit.
   */
  private put(
    text: string,
    x: number,
    y: number,
    options: { width?: number; align?: 'left' | 'right' | 'center' } = {},
  ): void {
    this.doc.text(text, this.placed(text, x, options).x, y, { lineBreak: false });
  }

  /** Where `put` draws `text` (aligned in `width`) and how wide it is, in the current font. */
  private placed(
    text: string,
    x: number,
    options: { width?: number; align?: 'left' | 'right' | 'center' },
  ): { x: number; w: number } {
    const state = this.doc as unknown as { _font?: { name?: string }; _fontSize: number };
    const bold = state._font?.name?.includes('Bold') ?? false;
    const tw = measureText(text, state._fontSize, bold);
    if (options.width === undefined || !options.align || options.align === 'left') return { x, w: tw };
    return { x: options.align === 'right' ? x + options.width - tw : x + (options.width - tw) / 2, w: tw };
  }

  /**
   * One line of linked text, as `put` draws it, in a `Link` element of `parent` with one link
   * annotation over the line (not one a font run), described by `description`.
   */
  private linkedText(
    parent: StructElement,
    target: LinkTarget,
    description: string,
    line: string,
    x: number,
    y: number,
    options: { width?: number; align?: 'left' | 'right' | 'center' } = {},
  ): void {
    const at = this.placed(line, x, options);
    const rect = { x: at.x, y, w: at.w, h: this.doc.currentLineHeight() };
    this.tags.link(parent, target, rect, description, () => this.put(line, x, y, options));
  }

  /** Vertical space. */
  space(points: number): void {
    this.doc.y += points;
  }

  private writeContents(): void {
    const { doc, tags } = this;
    const w = this.contentWidth;
    const layout = this.contentsLayout();
    const sect = this.contentsSect;
    if (!sect) return;
    let opened = -1;
    const open = (idx: number): boolean => {
      const page = this.contentsPages[idx];
      if (page === undefined) return false;
      doc.switchToPage(page);
      doc.y = PAGE_MARGINS.top;
      const y = doc.y;
      const title = (): void => {
        doc
          .font(FONT_FAMILY_BOLD)
          .fontSize(18)
          .fillColor(COLORS.accent)
          .text(idx === 0 ? 'Contents' : 'Contents (continued)', this.left, y, { lineBreak: false });
      };
      // "Contents" is a heading; its repetition on a further page is pagination.
      if (idx === 0) tags.mark(tags.element('H1', {}, sect), title);
      else tags.artifact(title, 'Pagination');
      doc.y += 30;
      tags.artifact(() =>
        doc
          .moveTo(this.left, doc.y - 6)
          .lineTo(this.left + w, doc.y - 6)
          .lineWidth(1)
          .strokeColor(COLORS.accent)
          .stroke(),
      );
      opened = idx;
      return true;
    };
    open(0);
    const list = tags.element('TOC', {}, sect);
    for (const [i, e] of this.toc.entries()) {
      const at = layout.at[i];
      if (!at) break;
      if (at.page !== opened && !open(at.page)) break;
      const size = e.level === 1 ? 11 : 9.5;
      const indent = e.level === 1 ? 0 : 16;
      const num = String(e.page + 1);
      const font = e.level === 1 ? FONT_FAMILY_BOLD : FONT_FAMILY;
      const numWidth = measureText(num, size, e.level === 1);
      const titleMax = w - indent - numWidth - 30;
      const title = truncateToWidth(e.title, titleMax, size, e.level === 1);
      const y = at.y;
      doc.font(font).fontSize(size).fillColor(COLORS.ink);
      // TOCI > Reference > Link (title), Link (page number): both go to the heading.
      const ref = tags.element('Reference', {}, tags.element('TOCI', {}, list));
      const target = { goTo: e.dest };
      this.linkedText(ref, target, `${e.title}, page ${num}`, title, this.left + indent, y);
      const titleWidth = measureText(title, size, e.level === 1);
      const dotsFrom = this.left + indent + titleWidth + 6;
      const dotsTo = this.left + w - numWidth - 6;
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
      this.linkedText(ref, target, `${e.title}, page ${num}`, num, this.left + w - numWidth, y);
    }
  }

  private writeFooters(): void {
    const { doc } = this;
    const range = doc.bufferedPageRange();
    const footer = this.options.footerText ?? this.options.title;
    for (let i = range.start; i < range.start + range.count; i++) {
      if (i === 0 && this.options.coverPage !== false) continue; // the cover carries no footer
      doc.switchToPage(i);
      const bottomMargin = doc.page.margins.bottom;
      doc.page.margins.bottom = 0; // writing below the margin must not add a page
      const y = doc.page.height - 36;
      const w = this.contentWidth;
      // The footer repeats on every page: pagination, not content.
      this.tags.artifact(() => {
        doc
          .moveTo(this.left, y - 6)
          .lineTo(this.left + w, y - 6)
          .lineWidth(0.4)
          .strokeColor(COLORS.rule)
          .stroke();
        const pageText = `Page ${i + 1} of ${range.count}`;
        doc.font(FONT_FAMILY).fontSize(7.5).fillColor(COLORS.muted);
        const pw = measureText(pageText, 7.5);
        doc.text(truncateToWidth(footer, w - pw - 20, 7.5), this.left, y, { lineBreak: false });
        doc.text(pageText, this.left + w - pw, y, { lineBreak: false });
      }, 'Pagination');
      doc.page.margins.bottom = bottomMargin;
    }
  }

  /** Writes the contents and footers, ends the document and returns its bytes. */
  async finish(): Promise<Buffer> {
    this.writeContents();
    this.writeFooters();
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

/** The PDF/UA identification schema of the XMP metadata: part 1. */
const PDFUA_ID = `
        <rdf:Description xmlns:pdfuaid="http://www.aiim.org/pdfua/ns/id/" rdf:about="">
            <pdfuaid:part>1</pdfuaid:part>
        </rdf:Description>`;

/**
 * Makes pdfkit write the document info into the XMP metadata with XML's special characters
 * escaped (it writes them as they are: a title with "&" would make the XMP unreadable); the
 * info dictionary keeps the text as it is.
 */
function escapeXmpInfo(doc: PDFKit.PDFDocument): void {
  const d = doc as unknown as { _addInfo: () => void; info: Record<string, unknown> };
  const addInfo = d._addInfo.bind(d);
  d._addInfo = () => {
    const info = d.info;
    d.info = Object.fromEntries(
      Object.entries(info).map(([k, v]) => [k, typeof v === 'string' ? xmlText(v) : v]),
    );
    try {
      addInfo();
    } finally {
      d.info = info;
    }
  };
}

/** The largest font size in [min, max] at which `text` fits `width`. */
function fitSize(text: string, width: number, max: number, min: number, bold: boolean): number {
  let size = max;
  while (size > min && measureText(text, size, bold) > width) size -= 0.5;
  return size;
}
