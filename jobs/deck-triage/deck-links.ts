/**
 * Deck links a job names, checked before the run: analyze_deck takes a direct public https link
 * to a PDF or PPTX file, never a viewer page. The check refuses at least what the service's
 * sandbox refuses (viewer pages of Google, Dropbox, DocSend, SlideShare, Pitch, Canva, Notion,
 * OneDrive, plain http, links with a user name, a path naming a web page or another file type),
 * each with a reason a person can act on. Pure (no I/O): the job's schema calls it, and so does
 * the collection for every redirect a link takes.
 */

/** A host (and optionally a path) that serves a viewer page instead of the file itself. */
interface ViewerPage {
  host: RegExp;
  path?: RegExp;
  /** What the page is, in words ("a Google Slides page"). */
  name: string;
  /** The page becomes the file itself with this query (Dropbox's dl=1, SharePoint's download=1). */
  unlessQuery?: RegExp;
  /** How to get a direct link instead. */
  hint: string;
}

const DOWNLOAD_HINT = 'download the deck as a PDF or PPTX file and give a direct https link to that file';

const VIEWER_PAGES: readonly ViewerPage[] = [
  {
    host: /^docs\.google\.com$/,
    path: /^\/presentation\//,
    name: 'a Google Slides page',
    hint: `in Slides, File > Download > PDF; then ${DOWNLOAD_HINT}`,
  },
  {
    host: /^docs\.google\.com$/,
    name: 'a Google Docs page',
    hint: DOWNLOAD_HINT,
  },
  { host: /^slides\.google\.com$/, name: 'a Google Slides page', hint: DOWNLOAD_HINT },
  {
    host: /^drive\.google\.com$/,
    // /uc?export=download is Drive's download link (the bytes are checked when fetched).
    path: /^\/(?!uc\/?$)/,
    name: 'a Google Drive page',
    hint: DOWNLOAD_HINT,
  },
  {
    host: /(^|\.)docsend\.com$|^docsend\.dropbox\.com$/,
    name: 'a DocSend page',
    hint: `DocSend shows decks in its viewer only; ${DOWNLOAD_HINT}`,
  },
  {
    host: /(^|\.)dropbox\.com$/,
    name: 'a Dropbox page',
    unlessQuery: /(^|&)(dl=1|raw=1)(&|$)/,
    hint: 'for a Dropbox share link, end it with dl=1 (not dl=0) so that it gives the file',
  },
  { host: /(^|\.)slideshare\.net$/, name: 'a SlideShare page', hint: DOWNLOAD_HINT },
  {
    host: /(^|\.)pitch\.com$/,
    name: 'a Pitch presentation page',
    hint: `export it as PDF; then ${DOWNLOAD_HINT}`,
  },
  { host: /(^|\.)canva\.com$/, name: 'a Canva page', hint: `export it as PDF; then ${DOWNLOAD_HINT}` },
  { host: /(^|\.)notion\.(so|site)$/, name: 'a Notion page', hint: DOWNLOAD_HINT },
  { host: /(^|\.)onedrive\.live\.com$/, name: 'a OneDrive viewer page', hint: DOWNLOAD_HINT },
  { host: /^1drv\.ms$/, name: 'a OneDrive share page', hint: DOWNLOAD_HINT },
  {
    host: /(^|\.)sharepoint\.com$/,
    path: /^\/:[a-z]:\//,
    name: 'a SharePoint share page',
    unlessQuery: /(^|&)download=1(&|$)/,
    hint: 'for a SharePoint share link, add download=1 so that it gives the file',
  },
  { host: /(^|\.)box\.com$/, path: /^\/s\//, name: 'a Box share page', hint: DOWNLOAD_HINT },
  { host: /(^|\.)(wetransfer\.com|we\.tl)$/, name: 'a WeTransfer download page', hint: DOWNLOAD_HINT },
  { host: /(^|\.)papermark\.(io|com)$/, name: 'a Papermark page', hint: DOWNLOAD_HINT },
  {
    host: /(^|\.)gamma\.app$/,
    name: 'a Gamma presentation page',
    hint: `export it as PDF; then ${DOWNLOAD_HINT}`,
  },
  { host: /(^|\.)prezi\.com$/, name: 'a Prezi page', hint: `export it as PDF; then ${DOWNLOAD_HINT}` },
  { host: /(^|\.)figma\.com$/, name: 'a Figma page', hint: `export it as PDF; then ${DOWNLOAD_HINT}` },
];

/** Extensions that name a web page. */
const PAGE_EXTENSIONS = new Set(['html', 'htm', 'xhtml', 'php', 'asp', 'aspx', 'jsp', 'cfm']);

/** Other document types people send as decks, with what to do instead. */
const OTHER_FILES: Record<string, string> = {
  ppt: 'an old PowerPoint file (.ppt): save it as .pptx or PDF',
  key: 'a Keynote file (.key): export it as PDF or PPTX',
  odp: 'an OpenDocument presentation (.odp): save it as .pptx or PDF',
  pps: 'a PowerPoint show (.pps): save it as .pptx or PDF',
  ppsx: 'a PowerPoint show (.ppsx): save it as .pptx or PDF',
  pptm: 'a PowerPoint file with macros (.pptm): save it as .pptx or PDF',
  doc: 'a Word document (.doc), not a deck',
  docx: 'a Word document (.docx), not a deck',
  xls: 'an Excel workbook (.xls), not a deck',
  xlsx: 'an Excel workbook (.xlsx), not a deck',
  zip: 'a ZIP archive: give a link to the PDF or PPTX file itself',
};

/** The deck file types analyze_deck reads, by the extension a path ends in. */
export const DECK_EXTENSIONS = { pdf: 'pdf', pptx: 'pptx' } as const;

/**
 * How a reader knows a link: the link without its query and fragment (a query may hold a
 * token or a signature, which never enters a report).
 *
 * @example deckLinkLabel('https://files.example.com/acme.pdf?token=abc') // 'https://files.example.com/acme.pdf'
 */
export function deckLinkLabel(url: string): string {
  try {
    const u = new URL(url.trim());
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return url.trim().replace(/[?#].*$/, '');
  }
}

/**
 * Why a link cannot be given to analyze_deck, or null when it may be: it must be an https link
 * without a user name, not a viewer page (Google Slides, Docs and Drive, DocSend, Dropbox
 * without dl=1 or raw=1, SlideShare, Pitch, Canva, Notion, OneDrive, SharePoint, Box,
 * WeTransfer, ...), and its path must not name a web page or another file type. A path without
 * .pdf or .pptx is allowed (the file type is checked from the bytes when the link is fetched).
 *
 * @example
 * checkDeckLink('https://files.example.com/acme-seed.pdf') // null
 * checkDeckLink('https://www.dropbox.com/s/abc/deck.pdf?dl=0') // 'the link opens a Dropbox page …'
 */
export function checkDeckLink(url: string): string | null {
  const text = url.trim();
  const fix = 'give a direct https link to the PDF or PPTX file';
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    return `the link is not a URL: ${fix}`;
  }
  if (u.protocol !== 'https:') {
    const scheme = u.protocol.replace(/:$/, '');
    return scheme === 'http'
      ? `the link is http, not https: the service fetches decks over https only; ${fix}`
      : `the link is a ${scheme}: link, not a web address: ${fix}`;
  }
  if (u.username || u.password) {
    return `the link holds a user name or password: the service fetches public links only; ${fix}`;
  }
  const host = u.hostname.toLowerCase().replace(/\.$/, '');
  const query = u.search.slice(1);
  for (const viewer of VIEWER_PAGES) {
    if (!viewer.host.test(host)) continue;
    if (viewer.path && !viewer.path.test(u.pathname)) continue;
    if (viewer.unlessQuery?.test(query)) continue;
    const dl0 =
      /(^|&)dl=0(&|$)/.test(query) && viewer.name === 'a Dropbox page' ? ' (dl=0 opens the preview)' : '';
    return `the link opens ${viewer.name}${dl0}, a viewer, not the file: ${viewer.hint}`;
  }
  let last: string;
  try {
    last = decodeURIComponent(u.pathname.split('/').pop() ?? '');
  } catch {
    return `the link's path has a broken percent-escape (%XX): ${fix}`;
  }
  const dot = last.lastIndexOf('.');
  const ext = dot > 0 ? last.slice(dot + 1).toLowerCase() : '';
  if (!/^[a-z][a-z0-9]{0,4}$/.test(ext) || ext in DECK_EXTENSIONS) return null;
  if (PAGE_EXTENSIONS.has(ext)) return `the link points to a web page (.${ext}), not the file: ${fix}`;
  const other = OTHER_FILES[ext];
  if (other) return `the link points to ${other}; the service reads PDF and PPTX decks only`;
  return `the link points to a .${ext} file: the service reads PDF and PPTX decks only`;
}
