/**
 * Deck files as the collection reads them, wherever they come from: the file type told from the
 * first bytes (never from a name or a content type), the SHA-256 a deck is known by, the
 * startup's name from a sidecar (`decks.yaml`) or the file's name, and sizes in words.
 */
import { createHash } from 'node:crypto';
import JSZip from 'jszip';
import { ApplicationFailure } from '@temporalio/common';
import { isMap, isScalar, LineCounter, parseDocument } from 'yaml';

/** The two file types analyze_deck reads. */
export type DeckKind = 'pdf' | 'pptx';

/** The content type a deck's copy is stored and served with. */
export const DECK_CONTENT_TYPES: Record<DeckKind, string> = {
  pdf: 'application/pdf',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
};

/** The names a folder's or prefix's sidecar may have (file name → startup name). */
export const SIDECAR_NAMES = ['decks.yaml', 'decks.yml'] as const;

/** A file name a folder or a bucket may hold a deck under: .pdf or .pptx, any case, not hidden. */
export function isDeckFileName(name: string): boolean {
  return !name.startsWith('.') && /\.(pdf|pptx)$/i.test(name);
}

/** What the first bytes say a file is: a deck of one kind, or what it is instead (in words). */
export type SniffedDeck = { kind: DeckKind } | { kind: null; is: string };

/**
 * Tells a deck's type from its bytes: a PDF starts with `%PDF-`; a PPTX is a ZIP archive with
 * PowerPoint slides (`ppt/slides/slideN.xml`, what the service's reader reads). Anything else
 * is described (a web page, a Word document, an empty file, ...) for the deck's problem.
 *
 * @example
 * await sniffDeck(Buffer.from('%PDF-1.7 ...')) // { kind: 'pdf' }
 * await sniffDeck(Buffer.from('<!doctype html>...')) // { kind: null, is: 'a web page (HTML)' }
 */
export async function sniffDeck(bytes: Uint8Array): Promise<SniffedDeck> {
  if (bytes.length === 0) return { kind: null, is: 'an empty file' };
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  if (head.startsWith('%PDF-')) return { kind: 'pdf' };
  if (head.startsWith('PK\u0003\u0004')) {
    let zip: JSZip;
    try {
      zip = await JSZip.loadAsync(bytes);
    } catch {
      return { kind: null, is: 'a damaged ZIP archive' };
    }
    const names = Object.keys(zip.files);
    if (names.some((n) => /^ppt\/slides\/slide\d+\.xml$/.test(n))) return { kind: 'pptx' };
    if (names.includes('word/document.xml')) return { kind: null, is: 'a Word document (DOCX)' };
    if (names.includes('xl/workbook.xml')) return { kind: null, is: 'an Excel workbook (XLSX)' };
    if (names.some((n) => n.startsWith('ppt/')))
      return { kind: null, is: 'a PowerPoint file without slides' };
    return { kind: null, is: 'a ZIP archive without PowerPoint slides' };
  }
  const text = head.trimStart().toLowerCase();
  if (/^(<!doctype html|<html|<head|<body)/.test(text) || text.includes('<html')) {
    return { kind: null, is: 'a web page (HTML)' };
  }
  if (head.startsWith('\u00d0\u00cf\u0011\u00e0')) {
    return { kind: null, is: 'an old Office file (.ppt or .doc)' };
  }
  return { kind: null, is: 'neither a PDF nor a PPTX file' };
}

/**
 * Why a file is no deck, said of `subject` ("the link serves", "the file is").
 *
 * @example notADeck('the file is', 'a Word document (DOCX)') // 'the file is a Word document (DOCX), not a PDF or PPTX deck'
 */
export function notADeck(subject: string, is: string): string {
  return is.startsWith('neither') ? `${subject} ${is}` : `${subject} ${is}, not a PDF or PPTX deck`;
}

/** The SHA-256 of a deck's bytes, in hex: what a deck is known by across runs. */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** A size as a person reads it: "820 KB", "31.2 MB" (binary units, as the limits are set). */
export function formatSize(n: number): string {
  return n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.ceil(n / 1024))} KB`;
}

/** Words a deck's file name holds that are not the startup's name. */
const NOISE_WORDS = new Set([
  'deck',
  'decks',
  'pitch',
  'pitchdeck',
  'investor',
  'investors',
  'presentation',
  'slides',
  'slide',
  'pre',
  'seed',
  'series',
  'round',
  'final',
  'draft',
  'copy',
  'confidential',
  'update',
  'latest',
  'new',
  'short',
  'full',
  'teaser',
  'onepager',
  'en',
  'eng',
  'de',
  'fr',
]);

/**
 * The startup's name a deck's file name gives, or null when it gives none: the words of the
 * name without the words every deck's name has (deck, pitch, seed, series, final, a version or
 * a date, ...), capitalised when written all in lower case.
 *
 * @example
 * startupNameFromFile('ledgerly-seed-deck.pdf') // 'Ledgerly'
 * startupNameFromFile('Open_Ledger Pitch Deck v3 (2026).pptx') // 'Open Ledger'
 * startupNameFromFile('pitch-deck-final.pdf') // null
 */
export function startupNameFromFile(fileName: string): string | null {
  const base = fileName.replace(/\.[^.]*$/, '');
  const words = base
    .split(/[\s_\-.()[\]{}+,]+/)
    .filter((w) => w !== '')
    .filter((w) => !NOISE_WORDS.has(w.toLowerCase()))
    // A version (v3), a stage letter after "series", a year or date, a number.
    .filter((w) => !/^(v\d+|\d+|[a-c]|q[1-4])$/i.test(w));
  if (words.length === 0 || !words.some((w) => /\p{L}{2,}/u.test(w))) return null;
  const name = words.join(' ');
  if (name.length > 60) return null;
  return name === name.toLowerCase() ? name.replace(/(^|\s)\p{L}/gu, (c) => c.toUpperCase()) : name;
}

/**
 * A sidecar that cannot be read: the file (or object) and the line, with what is wrong. Not
 * retryable (another attempt reads the same text).
 */
export class DeckSidecarError extends ApplicationFailure {
  readonly code = 'deck_sidecar_invalid';
  constructor(
    readonly where: string,
    readonly line: number | null,
    readonly detail: string,
  ) {
    super(`${where}${line === null ? '' : `, line ${line}`}: ${detail}`, 'DeckSidecarInvalid', true);
  }
}

const SIDECAR_SHAPE =
  'a decks.yaml maps each deck file name to its startup name, one a line, like `ledgerly-seed.pdf: Ledgerly`';

/**
 * Reads a sidecar: a YAML mapping of file name → startup name. An empty file maps nothing. A
 * malformed one (not YAML, not a mapping, a value that is no name) is a {@link DeckSidecarError}
 * naming `where` and the line.
 *
 * @example
 * parseDeckSidecar('ledgerly-seed.pdf: Ledgerly\n', 'inbox/decks.yaml') // { 'ledgerly-seed.pdf': 'Ledgerly' }
 */
export function parseDeckSidecar(text: string, where: string): Record<string, string> {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true });
  const lineOf = (offset: number | undefined) => (offset === undefined ? null : lines.linePos(offset).line);
  const err = doc.errors[0];
  if (err) {
    const reason = err.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    const at = err.linePos?.[0]?.line;
    // A problem found past the last line (an unclosed bracket) is on the last line.
    const last = text.replace(/\n$/, '').split('\n').length;
    throw new DeckSidecarError(
      where,
      at === undefined ? null : Math.min(at, last),
      `not valid YAML: ${reason}`,
    );
  }
  const root = doc.contents;
  if (root === null || (isScalar(root) && (root.value === null || root.value === ''))) return {};
  if (!isMap(root)) {
    throw new DeckSidecarError(where, lineOf(root.range?.[0]), `not a mapping: ${SIDECAR_SHAPE}`);
  }
  const names: Record<string, string> = {};
  for (const pair of root.items) {
    const key = pair.key;
    const value = pair.value;
    const keyLine = isScalar(key) ? lineOf(key.range?.[0]) : null;
    if (!isScalar(key) || typeof key.value !== 'string' || key.value.trim() === '') {
      throw new DeckSidecarError(where, keyLine, `a key is not a file name: ${SIDECAR_SHAPE}`);
    }
    const file = key.value.trim();
    const line = isScalar(value) ? lineOf(value.range?.[0]) : keyLine;
    if (!isScalar(value) || (typeof value.value !== 'string' && typeof value.value !== 'number')) {
      throw new DeckSidecarError(
        where,
        line,
        `the startup name of ${JSON.stringify(file)} is not a name: ${SIDECAR_SHAPE}`,
      );
    }
    const name = String(value.value).trim();
    if (name === '' || name.length > 200) {
      throw new DeckSidecarError(
        where,
        line,
        `the startup name of ${JSON.stringify(file)} must be 1 to 200 characters`,
      );
    }
    names[file] = name;
  }
  return names;
}

/** The name a map gives a file: by its exact name, else by its name in any case. */
export function nameFor(map: Record<string, string> | undefined, ...keys: string[]): string | null {
  if (!map) return null;
  for (const k of keys) if (Object.hasOwn(map, k)) return map[k]!;
  const lower = new Map(Object.entries(map).map(([k, v]) => [k.toLowerCase(), v]));
  for (const k of keys) {
    const v = lower.get(k.toLowerCase());
    if (v !== undefined) return v;
  }
  return null;
}
