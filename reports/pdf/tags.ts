/**
 * The structure tree of a tagged report PDF (PDF/UA): a `Document` root, elements appended in
 * drawing order (so the reading order is the order things are drawn), content drawn inside
 * marked-content sequences that belong to an element, decoration drawn as artifacts, and link
 * annotations inside `Link` elements with a description.
 *
 * Marked content is only ever open while one piece is drawn (a line, a cell, a chart) and never
 * across a page break: `ReportPdf` breaks pages between pieces, so a paragraph that flows onto
 * the next page is one `P` with a marked-content sequence on each page.
 */

/** A structure element of pdfkit (`doc.struct`), as far as tagging uses it. */
export interface StructElement {
  add(child: unknown): StructElement;
  end(): void;
  dictionary: { data: Record<string, unknown> };
}

/** pdfkit's marking API (MarkingsMixin, AnnotationsMixin), typed for what is used here. */
interface MarkingDoc {
  struct(type: string, options?: Record<string, unknown>): StructElement;
  addStructure(el: StructElement): unknown;
  markStructureContent(tag: string, options?: Record<string, unknown>): unknown;
  markContent(tag: string, options?: Record<string, unknown> | null): unknown;
  endMarkedContent(): unknown;
  link(x: number, y: number, w: number, h: number, url: string, options?: Record<string, unknown>): unknown;
  goTo(x: number, y: number, w: number, h: number, name: string, options?: Record<string, unknown>): unknown;
}

/** Options of a structure element: alternative text, language, a table header's scope. */
export interface StructOptions {
  alt?: string;
  lang?: string;
  actual?: string;
  /** A table header cell's /Scope (in a /Table attribute dictionary). */
  scope?: 'Column' | 'Row' | 'Both';
  /** A table cell spanning columns (/ColSpan). */
  colSpan?: number;
  /** Where it is on the page, [left, top, right, bottom] (a Layout /BBox: a Figure's). */
  bbox?: [number, number, number, number];
}

/** Where a link goes: an http(s) url or a named destination in the document. */
export type LinkTarget = { url: string } | { goTo: string };

/** Builds the structure tree of one pdfkit document (created with `tagged: true`). */
export class Tags {
  readonly root: StructElement;
  private parent: StructElement;
  /** The level of the last heading tagged (0: none yet). */
  private lastHeading = 0;
  private readonly doc: MarkingDoc;

  constructor(doc: PDFKit.PDFDocument) {
    this.doc = doc as unknown as MarkingDoc;
    this.root = this.doc.struct('Document');
    this.doc.addStructure(this.root);
    this.parent = this.root;
  }

  /** A new element of `type`, appended to `parent` (default: the element being filled). */
  element(type: string, options: StructOptions = {}, parent: StructElement = this.parent): StructElement {
    const { scope, colSpan, ...rest } = options;
    const el = this.doc.struct(type, rest);
    if (scope || colSpan)
      el.dictionary.data['A'] = {
        O: 'Table',
        ...(scope ? { Scope: scope } : {}),
        ...(colSpan ? { ColSpan: colSpan } : {}),
      };
    parent.add(el);
    return el;
  }

  /** Runs `fill` with new elements appended to `el` (a list, a table, a tile). */
  within<T>(el: StructElement, fill: () => T): T {
    const saved = this.parent;
    this.parent = el;
    try {
      return fill();
    } finally {
      this.parent = saved;
    }
  }

  /** Draws `draw` as content of `el`: one marked-content sequence on the current page. */
  mark(el: StructElement, draw: () => void): void {
    const type = String((el.dictionary.data['S'] as string | undefined) ?? 'Span');
    const content = this.doc.markStructureContent(type);
    try {
      draw();
    } finally {
      this.doc.endMarkedContent();
    }
    el.add(content);
  }

  /** A new element of `type` holding what `draw` draws (a line, a cell). */
  block(type: string, draw: () => void, options: StructOptions = {}): StructElement {
    const el = this.element(type, options);
    this.mark(el, draw);
    return el;
  }

  /**
   * Decoration that is not content (rules, fills, page footers, a repeated table header): an
   * artifact, which assistive technology skips. `Pagination` for what repeats on pages.
   */
  artifact(draw: () => void, type: 'Layout' | 'Pagination' = 'Layout'): void {
    this.doc.markContent('Artifact', { type });
    try {
      draw();
    } finally {
      this.doc.endMarkedContent();
    }
  }

  /**
   * The heading tag for a heading of `level`: H1 first, and never more than one level deeper
   * than the heading before (PDF/UA: no skipped levels), whatever size the heading prints at.
   */
  headingTag(level: number): string {
    const tag = Math.max(1, Math.min(level, this.lastHeading + 1));
    this.lastHeading = tag;
    return `H${tag}`;
  }

  /**
   * A `Link` element under `parent` with the text `draw` draws and the link annotation over
   * (x, y, w, h), described by `description` (the annotation's /Contents). Ended at once: its
   * annotation reference records the current page.
   */
  link(
    parent: StructElement,
    target: LinkTarget,
    rect: { x: number; y: number; w: number; h: number },
    description: string,
    draw: () => void,
  ): void {
    const el = this.element('Link', {}, parent);
    this.mark(el, draw);
    const options = { structParent: el, Contents: new String(description) };
    if ('url' in target) this.doc.link(rect.x, rect.y, rect.w, rect.h, target.url, options);
    else this.doc.goTo(rect.x, rect.y, rect.w, rect.h, target.goTo, options);
    el.end();
  }
}

/** Text for XMP: the five XML characters escaped (pdfkit writes the title into XMP as is). */
export function xmlText(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
