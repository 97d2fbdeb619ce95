/**
 * What a pdfkit document needs to pass PDF/UA-1 (ISO 14289-1) in veraPDF, found by experiment
 * and kept here as the reference for tagging the report PDFs:
 *
 *  - document options: pdfVersion '1.7' (1.3, pdfkit's default, writes no XMP metadata at all),
 *    tagged: true (MarkInfo /Marked true + StructTreeRoot), displayTitle: true
 *    (ViewerPreferences /DisplayDocTitle), lang (catalog /Lang), info.Title (dc:title in the XMP);
 *  - the PDF/UA identification (pdfuaid:part 1) in the XMP, added with doc.appendXML rather than
 *    pdfkit's `subset: 'PDF/UA'`: that option also writes a CIDSet for each embedded font (pdfkit
 *    takes UA part 1 for PDF/A-1), and the CIDSet misses the component glyphs of composite glyphs
 *    (é, ï, ...), which fails 7.21.4.2-2 as soon as the text has an accented letter;
 *  - info strings XML-escaped in the XMP: pdfkit writes Title/Author/Subject/Keywords into the XMP
 *    raw, so a title with & or < makes the XMP unreadable (5-1 and 7.1-9 fail);
 *  - fonts embedded: the DejaVu TTFs registered with registerFont (the 14 standard fonts such as
 *    Helvetica are never embedded: 7.21.4.1-1);
 *  - every piece of page content inside either a structure element's marked content
 *    (doc.struct(type, () => draw)) or an Artifact (doc.markContent('Artifact') ...
 *    doc.endMarkedContent()), never both and never nested: 7.1-3;
 *  - tables: Table > TR > TH/TD, each TH with a Scope (pdfkit's struct option `scope`, missing
 *    from @types/pdfkit): 7.5-1; lists: L > LI > Lbl + LBody; figures: Figure with `alt` (7.3-1),
 *    and a bbox (Layout attribute) for good measure;
 *  - links: a Link structure element holding both the link text and the annotation (structParent),
 *    and the annotation's /Contents a non-empty PDF string (7.18.1-2, 7.18.5-1, 7.18.5-2). text()'s
 *    `link` option writes an empty Contents and `goTo` none at all, so links are drawn with
 *    doc.link / doc.goTo and the options below;
 *  - content written after the fact (bufferPages: the contents page, footers) works: a structure
 *    element added to the tree early in reading order can be filled later from switchToPage, and
 *    footers/page numbers are Artifacts.
 */
import { createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import PDFDocument from 'pdfkit';
import SVGtoPDF from 'svg-to-pdfkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FONT_FAMILY, FONT_FAMILY_BOLD, FONT_FILES } from '../../reports/fonts.js';
import { describeFailures, ruleKey, validatePdfUa, type VeraReport } from '../helpers/verapdf.js';

type Doc = PDFKit.PDFDocument;
type StructElement = ReturnType<Doc['struct']>;

/** Structure element options pdfkit 0.20 supports but @types/pdfkit does not declare. */
interface StructOptions extends PDFKit.Mixins.StructureElementOptions {
  /** TH: writes the attribute /A << /O /Table /Scope /Column >>. */
  scope?: 'Row' | 'Column' | 'Both';
  /** Figure: a Layout attribute BBox, in pdfkit's top-down coordinates [x1, y1, x2, y2]. */
  bbox?: [number, number, number, number];
}

/** A tagged link's annotation options: its Link element and a non-empty Contents (a PDF string, not a name). */
function linkAnnotation(link: StructElement, contents: string): PDFKit.Mixins.AnnotationOption {
  // pdfkit writes a JS string as a PDF name; a String object is written as a PDF string.
  return { structParent: link, Contents: new String(contents) } as unknown as PDFKit.Mixins.AnnotationOption;
}

const PDFUA_XMP =
  '<rdf:Description xmlns:pdfuaid="http://www.aiim.org/pdfua/ns/id/" rdf:about="">' +
  '<pdfuaid:part>1</pdfuaid:part></rdf:Description>';

function xmlEscape(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * pdfkit writes the Info dictionary first and then, in endMetadata, the same info strings into the
 * XMP without escaping them: the escaped copies are swapped in for endMetadata only.
 */
function escapeXmpInfo(doc: Doc): void {
  const d = doc as unknown as { endMetadata(): void; info: Record<string, unknown> };
  const endMetadata = d.endMetadata.bind(d);
  d.endMetadata = () => {
    const info = d.info;
    d.info = Object.fromEntries(
      Object.entries(info).map(([k, v]) => [k, typeof v === 'string' ? xmlEscape(v) : v]),
    );
    try {
      endMetadata();
    } finally {
      d.info = info;
    }
  };
}

/** Each fix the tagged sample applies; a variant leaves one out to show the rule it answers. */
interface Fixes {
  pdfuaXmp: boolean;
  /** pdfkit's own `subset: 'PDF/UA'` instead of the XMP snippet (writes the faulty CIDSet). */
  pdfkitSubset: boolean;
  escapeXmp: boolean;
  displayTitle: boolean;
  thScope: boolean;
  figureAlt: boolean;
  artifacts: boolean;
  taggedLinks: boolean;
}

const ALL_FIXES: Fixes = {
  pdfuaXmp: true,
  pdfkitSubset: false,
  escapeXmp: true,
  displayTitle: true,
  thScope: true,
  figureAlt: true,
  artifacts: true,
  taggedLinks: true,
};

const CHART_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="120">' +
  '<rect x="0" y="0" width="300" height="120" fill="#eef3f8"/>' +
  '<rect x="20" y="40" width="100" height="60" fill="#3a6ea5"/><rect x="160" y="60" width="100" height="40" fill="#c8553d"/>' +
  '<text x="20" y="22" font-family="DejaVu Sans" font-size="12">Sales by région</text>' +
  '<line x1="10" y1="100" x2="290" y2="100" stroke="#333"/></svg>';

/** Writes the tagged sample: cover-less two-page report with contents, table, list, chart and links. */
async function writeTagged(path: string, fixes: Partial<Fixes> = {}): Promise<void> {
  const f = { ...ALL_FIXES, ...fixes };
  const options: PDFKit.PDFDocumentOptions = {
    size: 'A4',
    margins: { top: 60, bottom: 60, left: 50, right: 50 },
    bufferPages: true,
    autoFirstPage: false,
    pdfVersion: '1.7',
    tagged: true,
    displayTitle: f.displayTitle,
    lang: 'en-GB',
    info: {
      Title: 'Sales & costs <Q1>',
      Author: 'Venture Intelligence report runner',
      Subject: 'PDF/UA sample',
    },
  };
  if (f.pdfkitSubset) (options as { subset?: string }).subset = 'PDF/UA';
  const doc = new PDFDocument(options);
  const done = finished(doc.pipe(createWriteStream(path)));
  doc.registerFont(FONT_FAMILY, FONT_FILES.regular);
  doc.registerFont(FONT_FAMILY_BOLD, FONT_FILES.bold);
  if (f.escapeXmp) escapeXmpInfo(doc);
  if (f.pdfuaXmp && !f.pdfkitSubset) doc.appendXML(PDFUA_XMP);

  /** Page decoration: an Artifact, outside any structure element's content. */
  const decoration = (draw: () => void, type?: 'Pagination' | 'Layout'): void => {
    if (f.artifacts) doc.markContent('Artifact', type ? { type } : undefined);
    draw();
    if (f.artifacts) doc.endMarkedContent();
  };
  const rule = (x1: number, x2: number, y: number): void => {
    doc.save().moveTo(x1, y).lineTo(x2, y).lineWidth(0.5).strokeColor('#888888').stroke().restore();
  };

  const left = 50;
  const right = 545;
  const root = doc.struct('Document');
  doc.addStructure(root);

  // Page 1: the title, then the contents, which are written at the end (like ReportPdf's
  // reserveContents): their Sect goes into the tree now, in reading order, and is filled later.
  doc.addPage();
  root.add(
    doc.struct('H1', {}, () => {
      doc
        .font(FONT_FAMILY_BOLD)
        .fontSize(22)
        .fillColor('black')
        .text('Sales & costs', left, 60, { lineBreak: false });
    }),
  );
  const contents = doc.struct('Sect');
  root.add(contents);

  // Page 2: the body.
  doc.addPage();
  doc.addNamedDestination('summary');
  doc.outline.addItem('Summary');
  root.add(
    doc.struct('H1', {}, () => {
      doc.font(FONT_FAMILY_BOLD).fontSize(18).fillColor('black').text('Summary', left, 60);
    }),
  );
  root.add(
    doc.struct('P', {}, () => {
      doc
        .font(FONT_FAMILY)
        .fontSize(11)
        .text(
          'The quarter in short: sales grew in the north, costs fell in the south. Café, naïve – “quotes”.',
          left,
          doc.y + 6,
          {
            width: right - left,
          },
        );
    }),
  );

  // A paragraph with a link: Link element = the link text + the annotation.
  {
    const y = doc.y + 8;
    const p = doc.struct('P');
    root.add(p);
    const before = 'Figures from ';
    const label = 'the sales system';
    p.add(() =>
      doc.font(FONT_FAMILY).fontSize(11).fillColor('black').text(before, left, y, { lineBreak: false }),
    );
    const x = left + doc.widthOfString(before);
    if (f.taggedLinks) {
      const link = doc.struct('Link');
      p.add(link);
      link.add(() => doc.fillColor('#1f5fa8').text(label, x, y, { lineBreak: false, underline: true }));
      doc.link(
        x,
        y,
        doc.widthOfString(label),
        doc.currentLineHeight(),
        'https://example.com/sales',
        linkAnnotation(link, `${label}: https://example.com/sales`),
      );
      link.end();
    } else {
      p.add(
        doc.struct('Link', {}, () =>
          doc.fillColor('#1f5fa8').text(label, x, y, { lineBreak: false, link: 'https://example.com/sales' }),
        ),
      );
    }
    p.add(() => doc.fillColor('black').text('.', x + doc.widthOfString(label), y, { lineBreak: false }));
    p.end();
    doc.y = y + 24;
  }

  // A table: TH with a scope, TD; the rules between rows are decoration.
  doc.outline.addItem('Regions');
  root.add(doc.struct('H2', {}, () => doc.font(FONT_FAMILY_BOLD).fontSize(14).text('Regions', left, doc.y)));
  {
    const table = doc.struct('Table');
    root.add(table);
    const rows = [
      ['Region', 'Sales', 'Costs'],
      ['North', '120', '80'],
      ['South', '95', '70'],
    ];
    const colX = [left, left + 170, left + 340];
    let y = doc.y + 6;
    rows.forEach((row, r) => {
      const tr = doc.struct('TR');
      table.add(tr);
      row.forEach((text, c) => {
        const th = r === 0;
        const opts: StructOptions = th && f.thScope ? { scope: 'Column' } : {};
        tr.add(
          doc.struct(th ? 'TH' : 'TD', opts, () => {
            doc
              .font(th ? FONT_FAMILY_BOLD : FONT_FAMILY)
              .fontSize(10)
              .text(text, (colX[c] ?? left) + 4, y + 4, { width: 160, lineBreak: false });
          }),
        );
      });
      tr.end();
      decoration(() => rule(left, right, y + 20));
      y += 22;
    });
    table.end();
    doc.y = y + 10;
  }

  // A list: L > LI > Lbl + LBody.
  doc.outline.addItem('Findings');
  root.add(doc.struct('H2', {}, () => doc.font(FONT_FAMILY_BOLD).fontSize(14).text('Findings', left, doc.y)));
  {
    const list = doc.struct('L');
    root.add(list);
    for (const [label, body] of [
      ['1.', 'Sales grew by 12 % in the north.'],
      ['2.', 'Costs fell by 5 % in the south.'],
    ] as const) {
      const y = doc.y + 4;
      const li = doc.struct('LI');
      list.add(li);
      li.add(
        doc.struct('Lbl', {}, () =>
          doc.font(FONT_FAMILY).fontSize(11).text(label, left, y, { width: 20, lineBreak: false }),
        ),
      );
      li.add(doc.struct('LBody', {}, () => doc.text(body, left + 22, y, { width: right - left - 22 })));
      li.end();
    }
    list.end();
  }

  // A chart drawn from SVG (as ReportPdf.chart does) as a Figure with alternate text and a BBox.
  {
    const y = doc.y + 12;
    const opts: StructOptions = { bbox: [left, y, left + 300, y + 120] };
    if (f.figureAlt) opts.alt = 'Bar chart of sales by region: north 120, south 95.';
    root.add(
      doc.struct('Figure', opts, () => {
        SVGtoPDF(doc, CHART_SVG, left, y, {
          width: 300,
          height: 120,
          fontCallback: (_family: string, bold: boolean) => (bold ? FONT_FAMILY_BOLD : FONT_FAMILY),
        });
      }),
    );
    doc.y = y + 130;
  }

  // The contents on page 1, written after the fact: heading + TOC > TOCI > Reference > Link.
  doc.switchToPage(0);
  {
    let y = 110;
    contents.add(
      doc.struct('H2', {}, () =>
        doc.font(FONT_FAMILY_BOLD).fontSize(14).text('Contents', left, y, { lineBreak: false }),
      ),
    );
    const toc = doc.struct('TOC');
    contents.add(toc);
    y += 26;
    for (const [title, page] of [['Summary', 2]] as const) {
      const item = doc.struct('TOCI');
      toc.add(item);
      const ref = doc.struct('Reference');
      item.add(ref);
      const link = doc.struct('Link');
      ref.add(link);
      link.add(() =>
        doc.font(FONT_FAMILY).fontSize(11).fillColor('black').text(title, left, y, { lineBreak: false }),
      );
      link.add(() => doc.text(String(page), right - 10, y, { lineBreak: false }));
      if (f.taggedLinks) {
        doc.goTo(
          left,
          y,
          right - left,
          doc.currentLineHeight(),
          'summary',
          linkAnnotation(link, `${title}, page ${page}`),
        );
      } else {
        doc.goTo(left, y, right - left, doc.currentLineHeight(), 'summary');
      }
      link.end();
      ref.end();
      item.end();
      decoration(() => {
        doc
          .save()
          .moveTo(left + 60, y + 9)
          .lineTo(right - 16, y + 9)
          .dash(1, { space: 2 })
          .stroke()
          .undash()
          .restore();
      });
      y += 18;
    }
    toc.end();
    contents.end();
  }
  root.end();

  // Header and footer on every page: rules and page numbers are Artifacts (type Pagination).
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    decoration(() => {
      rule(left, right, 40);
      rule(left, right, doc.page.height - 45);
      doc
        .font(FONT_FAMILY)
        .fontSize(8)
        .fillColor('#555555')
        .text(`Page ${i + 1} of ${range.count}`, left, doc.page.height - 38, {
          width: right - left,
          align: 'right',
          lineBreak: false,
        });
    }, 'Pagination');
    doc.page.margins.bottom = bottom;
  }
  doc.end();
  await done;
}

/** pdfkit's defaults: untagged, Helvetica (not embedded), no language, no XMP, a link. */
async function writeUntagged(path: string): Promise<void> {
  const doc = new PDFDocument({ info: { Title: 'Untagged' } });
  const done = finished(doc.pipe(createWriteStream(path)));
  doc.fontSize(18).text('An untagged report');
  doc
    .fontSize(11)
    .text('Plain text in Helvetica, with a ', { continued: true })
    .text('link', { link: 'https://example.com/' });
  doc.moveTo(72, 200).lineTo(500, 200).stroke();
  doc.end();
  await done;
}

const dir = mkdtempSync(join(tmpdir(), 'verapdf-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Each variant of the tagged sample with one fix left out, and the rules that then fail. */
const VARIANTS: { name: string; fixes: Partial<Fixes>; fails: string[] }[] = [
  {
    name: "pdfkit's subset: 'PDF/UA' (CIDSet without the composite glyphs' components)",
    fixes: { pdfkitSubset: true },
    fails: ['7.21.4.2-2'],
  },
  { name: 'no PDF/UA identification in the XMP', fixes: { pdfuaXmp: false }, fails: ['5-1'] },
  { name: 'XMP info not escaped (title with & and <)', fixes: { escapeXmp: false }, fails: ['5-1', '7.1-9'] },
  { name: 'no displayTitle', fixes: { displayTitle: false }, fails: ['7.1-10'] },
  { name: 'TH without scope', fixes: { thScope: false }, fails: ['7.5-1'] },
  { name: 'Figure without alt', fixes: { figureAlt: false }, fails: ['7.3-1'] },
  { name: 'decoration not marked as Artifact', fixes: { artifacts: false }, fails: ['7.1-3'] },
  {
    name: "links from text()'s link option and goTo without a Link element",
    fixes: { taggedLinks: false },
    fails: ['7.18.1-2', '7.18.5-1', '7.18.5-2'],
  },
];

describe('PDF/UA-1 with veraPDF', () => {
  const untagged = join(dir, 'untagged.pdf');
  const tagged = join(dir, 'tagged.pdf');
  const variants = VARIANTS.map((v, i) => ({ ...v, path: join(dir, `variant-${i}.pdf`) }));
  const reports = new Map<string, VeraReport>();

  beforeAll(async () => {
    await writeUntagged(untagged);
    await writeTagged(tagged);
    for (const v of variants) await writeTagged(v.path, v.fixes);
    const paths = [untagged, tagged, ...variants.map((v) => v.path)];
    // One JVM for all files.
    const results = await validatePdfUa(paths);
    results.forEach((r, i) => reports.set(paths[i]!, r));
  }, 180_000);

  it("finds pdfkit's default output not compliant, naming the clauses it breaks", () => {
    const r = reports.get(untagged)!;
    expect(r.error).toBeUndefined();
    expect(r.compliant).toBe(false);
    const rules = r.failures.map(ruleKey);
    expect(rules).toEqual(
      expect.arrayContaining([
        '6.2-1', // no MarkInfo /Marked true
        '7.1-3', // content neither tagged nor an Artifact
        '7.1-8', // no XMP metadata
        '7.1-10', // no DisplayDocTitle
        '7.1-11', // no StructTreeRoot
        '7.2-34', // no natural language
        '7.21.4.1-1', // Helvetica not embedded
      ]),
    );
    expect(r.failures.some((f) => f.clause.startsWith('7.18'))).toBe(true); // the untagged link
    for (const f of r.failures) {
      expect(f.clause).toMatch(/^\d+(\.\d+)*$/);
      expect(f.count).toBeGreaterThan(0);
      expect(f.description).toBeTruthy();
    }
  });

  it('finds the tagged sample compliant', () => {
    const r = reports.get(tagged)!;
    expect(r.error).toBeUndefined();
    expect(r.failures, describeFailures(r)).toEqual([]);
    expect(r.compliant).toBe(true);
  });

  it.each(variants)('without one fix it fails the rule that fix answers: $name', (v) => {
    const r = reports.get(v.path)!;
    expect(r.compliant).toBe(false);
    expect(r.failures.map(ruleKey).sort(), describeFailures(r)).toEqual([...v.fails].sort());
  });

  it('reports a missing file and a file that is not a PDF as errors, and still checks the others', async () => {
    const bogus = join(dir, 'bogus.pdf');
    writeFileSync(bogus, 'not a pdf');
    const [missing, notPdf, ok] = await validatePdfUa([join(dir, 'missing.pdf'), bogus, tagged]);
    expect(missing?.error).toMatch(/no such file/);
    expect(notPdf?.error).toMatch(/Parsing/i);
    expect([missing?.compliant, notPdf?.compliant, ok?.compliant]).toEqual([false, false, true]);
  });
});
