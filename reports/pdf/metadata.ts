/**
 * The pdfkit options of a report PDF (A4, tagged PDF/UA-1, its info dictionary) and its XMP
 * metadata: the info escaped for XML and the PDF/UA identification added.
 */
import type { PdfOptions } from './document.js';
import { PAGE_MARGINS } from './theme.js';
import { xmlText } from './tags.js';

/** The options `new PDFDocument` gets for a report PDF with `options`, created at `date`. */
export function documentOptions(options: PdfOptions, date: Date): PDFKit.PDFDocumentOptions {
  return {
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
  };
}

/** The XMP metadata of a report PDF: the info escaped for XML, and the PDF/UA identification. */
export function writeXmpMetadata(doc: PDFKit.PDFDocument): void {
  escapeXmpInfo(doc);
  doc.appendXML(PDFUA_ID);
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
