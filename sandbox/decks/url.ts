/**
 * Checks a deck_url before anything is fetched: a direct https link to a PDF or PPTX file,
 * never a viewer page (Google Slides, Drive, Dropbox share pages, SlideShare, Pitch, DocSend).
 */
import { SandboxError } from '../types.js';

/** The two file types analyze_deck reads. */
export type DeckKind = 'pdf' | 'pptx';

/** Hosts (and path prefixes) that serve a viewer page instead of the file itself. */
const VIEWER_PAGES: readonly { host: RegExp; path?: RegExp; name: string; unlessQuery?: RegExp }[] = [
  {
    host: /^docs\.google\.com$/,
    path: /^\/(presentation|document|file)\//,
    name: 'a Google Slides/Docs page',
  },
  { host: /^drive\.google\.com$/, path: /^\/(file|open|drive)/, name: 'a Google Drive page' },
  {
    host: /(^|\.)dropbox\.com$/,
    path: /^\/(s|sh|scl)\//,
    name: 'a Dropbox share page',
    unlessQuery: /(^|&)(dl=1|raw=1)(&|$)/,
  },
  { host: /(^|\.)slideshare\.net$/, name: 'a SlideShare page' },
  { host: /(^|\.)pitch\.com$/, name: 'a Pitch presentation page' },
  { host: /(^|\.)docsend\.com$/, name: 'a DocSend page' },
  { host: /(^|\.)canva\.com$/, name: 'a Canva page' },
  { host: /(^|\.)notion\.(so|site)$/, name: 'a Notion page' },
  { host: /(^|\.)onedrive\.live\.com$/, name: 'a OneDrive viewer page' },
  { host: /^1drv\.ms$/, name: 'a OneDrive share page' },
];

/** File extensions that are decks, and some common ones that are not (for a clear message). */
const DECK_EXTENSIONS: Record<string, DeckKind> = { pdf: 'pdf', pptx: 'pptx' };
const PAGE_EXTENSIONS = new Set(['html', 'htm', 'php', 'asp', 'aspx', 'jsp']);

const invalid = (why: string) => new SandboxError(400, 'invalid_input', `deck_url ${why}`);

/** The result of checking a deck_url: the parsed URL and the kind its extension names (if any). */
export interface CheckedDeckUrl {
  url: URL;
  /** 'pdf' or 'pptx' from the path's extension; null when the path has no extension. */
  kindFromPath: DeckKind | null;
}

/**
 * Validates a deck_url and tells which file type its path names.
 * Throws SandboxError 400 invalid_input saying why the link cannot be used.
 *
 * @example
 * checkDeckUrl('https://example.com/deck.pdf').kindFromPath; // 'pdf'
 * checkDeckUrl('http://example.com/deck.pdf'); // throws: deck_url must be an https link ...
 */
export function checkDeckUrl(raw: string): CheckedDeckUrl {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw invalid('is not a valid URL: give a direct https link to a PDF or PPTX file');
  }
  if (url.protocol !== 'https:') {
    throw invalid(
      `must be an https link (got ${url.protocol.replace(/:$/, '')}): give a direct https link to a PDF or PPTX file`,
    );
  }
  if (url.username || url.password) throw invalid('must not carry credentials');
  const host = url.hostname.toLowerCase();
  for (const viewer of VIEWER_PAGES) {
    if (!viewer.host.test(host)) continue;
    if (viewer.path && !viewer.path.test(url.pathname)) continue;
    if (viewer.unlessQuery?.test(url.search.slice(1))) continue;
    throw invalid(
      `points to ${viewer.name}, which is a viewer, not the file: give a direct https link to the PDF or PPTX file` +
        (viewer.unlessQuery ? ' (for Dropbox, a link ending in dl=1)' : ''),
    );
  }
  let last: string;
  try {
    last = decodeURIComponent(url.pathname.split('/').pop() ?? '');
  } catch {
    throw invalid('has a broken percent-escape in its path (%XX)');
  }
  const dot = last.lastIndexOf('.');
  const ext = dot > 0 ? last.slice(dot + 1).toLowerCase() : '';
  if (!/^[a-z][a-z0-9]{0,4}$/.test(ext)) return { url, kindFromPath: null };
  const kind = DECK_EXTENSIONS[ext];
  if (kind) return { url, kindFromPath: kind };
  if (PAGE_EXTENSIONS.has(ext)) throw invalid(`points to a web page (.${ext}), not a PDF or PPTX file`);
  throw invalid(`points to a .${ext} file: only PDF and PPTX decks can be analysed`);
}
