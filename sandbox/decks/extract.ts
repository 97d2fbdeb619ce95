/**
 * Text extraction from deck files: PDF pages with unpdf, PPTX slides with jszip (the a:t text
 * runs of ppt/slides/slideN.xml, in slide order).
 */
import JSZip from 'jszip';
import { extractText, getDocumentProxy } from 'unpdf';
import { SandboxError } from '../types.js';
import type { DeckKind } from './url.js';

/** The text of a deck, one string per page or slide. */
export interface DeckText {
  kind: DeckKind;
  pages: string[];
}

const unreadable = (why: string) =>
  new SandboxError(400, 'invalid_input', `deck_url file cannot be read: ${why}`);

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeXml(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_m, e: string) => {
    if (e[0] === '#')
      return String.fromCodePoint(
        e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10),
      );
    return XML_ENTITIES[e.toLowerCase()] ?? '';
  });
}

/** The text of one slide's XML: a:t runs joined, one line per paragraph (a:p). */
export function slideXmlText(xml: string): string {
  const lines: string[] = [];
  for (const para of xml.split(/<\/a:p>/)) {
    const runs = [...para.matchAll(/<a:t(?:\s[^>]*)?>([\s\S]*?)<\/a:t>/g)].map((m) => decodeXml(m[1] ?? ''));
    const line = runs.join('').trim();
    if (line) lines.push(line);
  }
  return lines.join('\n');
}

async function pptxText(bytes: Uint8Array): Promise<string[]> {
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(bytes);
  } catch {
    throw unreadable('it looks like a ZIP/PPTX file but the archive is damaged');
  }
  const slides = Object.keys(zip.files)
    .map((name) => ({ name, n: Number(/^ppt\/slides\/slide(\d+)\.xml$/.exec(name)?.[1] ?? NaN) }))
    .filter((s) => Number.isFinite(s.n))
    .sort((a, b) => a.n - b.n);
  if (slides.length === 0) {
    if (zip.file('word/document.xml'))
      throw unreadable('it is a Word document (DOCX), not a PDF or PPTX deck');
    if (zip.file('xl/workbook.xml'))
      throw unreadable('it is an Excel workbook (XLSX), not a PDF or PPTX deck');
    throw unreadable('it is a ZIP archive without PowerPoint slides');
  }
  return Promise.all(slides.map(async (s) => slideXmlText(await zip.file(s.name)!.async('string'))));
}

async function pdfText(bytes: Uint8Array): Promise<string[]> {
  try {
    const doc = await getDocumentProxy(new Uint8Array(bytes));
    const { text } = await extractText(doc, { mergePages: false });
    return text.map((t) => t.replace(/[ \t]+/g, ' ').trim());
  } catch (err) {
    throw unreadable(`the PDF could not be parsed (${(err as Error).message})`);
  }
}

/**
 * Extracts the text of a PDF or PPTX deck, one string per page or slide.
 * Throws 400 invalid_input when the file cannot be parsed or holds no text.
 */
export async function extractDeckText(bytes: Uint8Array, kind: DeckKind): Promise<DeckText> {
  const pages = kind === 'pdf' ? await pdfText(bytes) : await pptxText(bytes);
  if (pages.join('').trim().length === 0) {
    throw unreadable(`the ${kind.toUpperCase()} holds no text to analyse (a deck of images only?)`);
  }
  return { kind, pages };
}
