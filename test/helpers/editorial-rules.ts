/**
 * The editorial rules a report's files can be checked against (docs/reports.md, "Editorial
 * style"), read back from the files a reader gets: the PDF's text (pdftotext), its words' places
 * (pdftotext -bbox), its link annotations and tagged structure (pdf-structure.ts), the workbook's
 * cells and hyperlinks (exceljs) and the CSV files' cells. Each rule, precisely:
 *
 * - `private-url`: a URL whose host is loopback or private (reports/links.ts `isPrivateHost`) in
 *   the PDF's text or link annotations (/URI), in a workbook cell's text or hyperlink, or in a CSV
 *   cell. In text, a URL is `http(s)://…`, or a bare `localhost`/IPv4 host followed by a port or
 *   a path (`127.0.0.1:8787/…`); there a host of one label other than `localhost` (`http://x`
 *   inside a company's name) is taken for data, not an address.
 * - `raw-stage-key`: a service stage key (`RAW_STAGE_KEYS`: `series-a`, `pre-seed`, …) as a
 *   word of its own (not inside a longer key) in the PDF's text or a workbook cell, except in the
 *   columns the caller names as machine columns (`machineColumns`) and inside URLs. Keys are
 *   lower case, so the match is too: `Pre-seed`, the stage's word (`stageLabel`), is not a key.
 * - `cut-text`: in the PDF, any "…" or "..." at all: ReportPdf only ever writes one when it cuts
 *   text that did not fit, so each is a cut, unless its line matches the caller's
 *   `pdfEllipsisAllowed`. In a workbook or CSV, a cell of a column the caller names as full-text
 *   (`fullTextColumns`: why, reason, analyst note, founders, investors) whose text ends in "…"
 *   or "...".
 * - `partial-year`: the as-of date's year while it is partial (any day but 31 Dec) shown as a
 *   label without "YTD": in the PDF, a layout cell (pdftotext -layout text between runs of two or
 *   more spaces, or a whole line) that is exactly that year, which is how an axis tick, a
 *   legend entry or a table's row label prints (a year inside a date or a sentence is part of a
 *   longer cell); in a workbook, a cell of a year column (header "Year" or one the caller names
 *   in `yearColumns`) whose value is that year, as a number or as text.
 * - `lone-chart`: a PDF page whose content is charts alone: one chart (a tagged `Figure`) or a
 *   row of them, and fewer than `loneChartMinWords` (default 30) words besides. Words inside a
 *   figure's box (its labels), its caption (the line right under it) and the page's footer do
 *   not count; a heading and a sentence or two do, so a chart with its text passes.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import ExcelJS from 'exceljs';
import { isPartialYear, RAW_STAGE_KEYS } from '../../reports/editorial.js';
import { isPrivateHost } from '../../reports/links.js';
import { readPdfStructure, structNodes } from './pdf-structure.js';
import type { StructNode } from './pdf-structure.js';

/** The rules the checker knows. */
export type EditorialRule = 'private-url' | 'raw-stage-key' | 'cut-text' | 'partial-year' | 'lone-chart';

/** One place a file breaks a rule. */
export interface Violation {
  rule: EditorialRule;
  /** The file's name (not its folder). */
  file: string;
  /** Where in it: `page 3`, `page 3, link`, `Prospects!F12`, `row 4, Why`. */
  where: string;
  /** The offending text (a line, a cell, a URL). */
  text: string;
}

/** What to check and how the caller's files name their columns. */
export interface EditorialInput {
  /** The data's as-of date (ISO), which decides whether its year is partial. */
  asOf: string;
  pdf?: string;
  workbook?: string;
  csv?: readonly string[];
  /** Headers of columns meant for machines (service keys, ISO dates): no stage-key check there. */
  machineColumns?: readonly (string | RegExp)[];
  /** Headers of columns a reader acts on, never cut: why, reason, analyst note, founders, investors. */
  fullTextColumns?: readonly (string | RegExp)[];
  /** Headers of year columns besides "Year". */
  yearColumns?: readonly (string | RegExp)[];
  /** PDF lines where "…" is the writer's own (not a cut). */
  pdfEllipsisAllowed?: readonly (string | RegExp)[];
  /** Fewer words than this beside a page's charts make them charts alone on the page. Default 30. */
  loneChartMinWords?: number;
}

/** URLs in running text: http(s) ones, and a bare local host with a port or a path. */
const URL_IN_TEXT =
  /\bhttps?:\/\/[^\s"'<>)\]]+|(?<![\w.-])(?:localhost|\d{1,3}(?:\.\d{1,3}){3})(?::\d{1,5}(?:\/[^\s"'<>)\]]*)?|\/[^\s"'<>)\]]+)/gi;

const STAGE_KEY = new RegExp(
  `(?<![\\w-])(${[...RAW_STAGE_KEYS]
    .sort((a, b) => b.length - a.length)
    .map((k) => k.replace(/[-]/g, '\\-'))
    .join('|')})(?![\\w-])`,
);

const ELLIPSIS = /…|\.\.\./;
const ENDS_CUT = /(…|\.\.\.)\s*$/;

/** Whether `text` matches one of `patterns` (a string: the same text, any case; a RegExp: a match). */
function named(text: string, patterns: readonly (string | RegExp)[] | undefined): boolean {
  const t = text.trim();
  return (patterns ?? []).some((p) =>
    typeof p === 'string' ? p.toLowerCase() === t.toLowerCase() : p.test(t),
  );
}

/** The loopback or private URLs in `text`. */
export function privateUrls(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(URL_IN_TEXT)) {
    const raw = m[0].replace(/[.,;:]+$/, '');
    const url = /^https?:\/\//i.test(raw) ? raw : `http://${raw}`;
    try {
      const host = new URL(url).hostname;
      // In printed text a one-label host other than localhost ("http://x" in a name) is data,
      // not an address; links and hyperlinks are judged by isPrivateHost alone.
      if (!host.includes('.') && !host.includes(':') && host !== 'localhost') continue;
      if (isPrivateHost(host)) out.push(raw);
    } catch {
      // not a URL after all
    }
  }
  return out;
}

/** Whether a link target (an annotation's /URI, a cell's hyperlink) is loopback or private. */
function privateTarget(url: string): boolean {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) return false;
  try {
    return isPrivateHost(new URL(url).hostname);
  } catch {
    return false;
  }
}

/** The raw stage key in `text` (URLs left out), or null. */
export function rawStageKey(text: string): string | null {
  const m = STAGE_KEY.exec(text.replace(URL_IN_TEXT, ' '));
  return m ? (m[1] ?? null) : null;
}

/** The year of `asOf` when it is partial, or null. */
function partialYear(asOf: string): number | null {
  const d = new Date(asOf);
  if (Number.isNaN(d.getTime())) throw new Error(`asOf is not a date: ${asOf}`);
  const y = d.getUTCFullYear();
  return isPartialYear(y, asOf) ? y : null;
}

/** One word of a PDF page and its box (top-down coordinates, points). */
interface PageWord {
  text: string;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}

/** Every page's size and words, from `pdftotext -bbox`. */
function pdfWords(path: string): { width: number; height: number; words: PageWord[] }[] {
  const html = execFileSync('pdftotext', ['-bbox', path, '-'], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  const pages: { width: number; height: number; words: PageWord[] }[] = [];
  const decode = (s: string) =>
    s
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&amp;/g, '&');
  for (const m of html.matchAll(
    /<page width="([\d.]+)" height="([\d.]+)">|<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g,
  )) {
    if (m[1] !== undefined) pages.push({ width: Number(m[1]), height: Number(m[2]), words: [] });
    else
      pages[pages.length - 1]?.words.push({
        text: decode(m[7] ?? ''),
        xMin: Number(m[3]),
        yMin: Number(m[4]),
        xMax: Number(m[5]),
        yMax: Number(m[6]),
      });
  }
  return pages;
}

/** The page's footer band: below the bottom margin (ReportPdf writes the footer 36 pt above the edge). */
const FOOTER_BAND = 56;
/** The caption's band under a figure (ReportPdf: 4 pt gap, 7.5 pt text). */
const CAPTION_BAND = 16;

/** The figure's box on its page in top-down coordinates, from its /BBox (bottom-up). */
function figureBox(node: StructNode, pageHeight: number): [number, number, number, number] | null {
  const raw = node.attributes['BBox'];
  const nums = typeof raw === 'string' ? (JSON.parse(raw) as unknown) : null;
  if (!Array.isArray(nums) || nums.length !== 4 || !nums.every((n) => typeof n === 'number')) return null;
  const [l, b, r, t] = nums as [number, number, number, number];
  return [l, pageHeight - t, r, pageHeight - b];
}

/** The PDF's violations. */
function checkPdf(path: string, input: EditorialInput, year: number | null): Violation[] {
  const file = basename(path);
  const out: Violation[] = [];
  const text = execFileSync('pdftotext', ['-layout', path, '-'], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  text.split('\f').forEach((pageText, i) => {
    const where = `page ${i + 1}`;
    for (const raw of pageText.split('\n')) {
      const line = raw.trim();
      if (line === '') continue;
      for (const url of privateUrls(line)) out.push({ rule: 'private-url', file, where, text: url });
      const key = rawStageKey(line);
      if (key) out.push({ rule: 'raw-stage-key', file, where, text: line });
      if (ELLIPSIS.test(line) && !named(line, input.pdfEllipsisAllowed))
        out.push({ rule: 'cut-text', file, where, text: line });
      if (year !== null && line.split(/\s{2,}/).some((cell) => cell === String(year)))
        out.push({ rule: 'partial-year', file, where, text: line });
    }
  });

  const structure = readPdfStructure(path);
  for (const { page, uri } of structure.pageLinks) {
    if (uri !== null && privateTarget(uri))
      out.push({ rule: 'private-url', file, where: `page ${page}, link`, text: uri });
  }

  const figures = structNodes(structure.roots).filter((n) => n.type === 'Figure' && n.page !== null);
  const words = pdfWords(path);
  const minWords = input.loneChartMinWords ?? 30;
  const byPage = new Map<number, StructNode[]>();
  for (const f of figures) byPage.set(f.page!, [...(byPage.get(f.page!) ?? []), f]);
  for (const [page, figs] of byPage) {
    const p = words[page - 1];
    if (!p) continue;
    const boxes = figs.map((f) => figureBox(f, p.height));
    const other = p.words.filter((w) => {
      const cx = (w.xMin + w.xMax) / 2;
      const cy = (w.yMin + w.yMax) / 2;
      if (cy > p.height - FOOTER_BAND) return false;
      return boxes.every((box) => {
        if (!box) return true;
        const [l, t, r, b] = box;
        const inside = cx >= l - 1 && cx <= r + 1 && cy >= t - 1 && cy <= b + 1;
        const caption = cy > b && cy <= b + CAPTION_BAND;
        return !inside && !caption;
      });
    });
    if (other.length < minWords) {
      const alts = figs.map((f) => f.alt ?? 'no alt').join(' | ');
      const what = figs.length === 1 ? 'one chart' : `${figs.length} charts`;
      out.push({
        rule: 'lone-chart',
        file,
        where: `page ${page}`,
        text: `${what} and ${other.length} other words: ${alts}`,
      });
    }
  }
  return out;
}

/** A cell's text as a reader sees it, and its hyperlink. */
function cellContent(cell: ExcelJS.Cell): { text: string; link: string | null } {
  const v = cell.value;
  if (v === null || v === undefined) return { text: '', link: null };
  if (v instanceof Date) return { text: v.toISOString(), link: null };
  if (typeof v === 'object') {
    if ('richText' in v) return { text: v.richText.map((r) => r.text).join(''), link: null };
    if ('hyperlink' in v)
      return {
        text: typeof v.text === 'string' ? v.text : JSON.stringify(v.text),
        link: typeof v.hyperlink === 'string' ? v.hyperlink : null,
      };
    if ('formula' in v || 'sharedFormula' in v) {
      const r = (v as { result?: unknown }).result;
      return { text: typeof r === 'string' || typeof r === 'number' ? String(r) : '', link: null };
    }
    if ('error' in v) return { text: String(v.error), link: null };
  }
  return { text: String(v), link: cell.hyperlink || null };
}

/** For each sheet, the header text of every column's cells: a table's header row, or a bold cell above. */
function headerOf(ws: ExcelJS.Worksheet): (row: number, col: number) => string | null {
  const tableHeads = new Set<string>();
  const tables = Object.values(
    (
      ws as unknown as {
        tables?: Record<string, { table?: { ref?: string; tableRef?: string; columns?: unknown[] } }>;
      }
    ).tables ?? {},
  );
  // Read back, a table has its range as `tableRef`; built in memory, its top-left cell as `ref`.
  for (const t of tables) {
    const ref = t.table?.tableRef ?? t.table?.ref;
    if (!ref) continue;
    const top = ws.getCell(ref.split(':')[0]!);
    const n = t.table?.columns?.length ?? 0;
    for (let c = 0; c < n; c++) tableHeads.add(`${Number(top.row)}:${Number(top.col) + c}`);
  }
  const empty = (row: number) => !ws.getRow(row).hasValues;
  return (row, col) => {
    for (let r = row - 1; r >= 1 && !empty(r); r--) {
      const c = ws.getCell(r, col);
      const text = cellContent(c).text.trim();
      if (text !== '' && (tableHeads.has(`${r}:${col}`) || c.font?.bold === true)) return text;
    }
    return null;
  };
}

/** The workbook's violations. */
async function checkWorkbook(path: string, input: EditorialInput, year: number | null): Promise<Violation[]> {
  const file = basename(path);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(path);
  const out: Violation[] = [];
  wb.eachSheet((ws) => {
    const header = headerOf(ws);
    ws.eachRow({ includeEmpty: false }, (row, r) => {
      row.eachCell({ includeEmpty: false }, (cell, c) => {
        const where = `${ws.name}!${cell.address}`;
        const { text, link } = cellContent(cell);
        for (const url of privateUrls(text)) out.push({ rule: 'private-url', file, where, text: url });
        if (link && privateTarget(link)) out.push({ rule: 'private-url', file, where, text: link });
        const head = header(r, c);
        const machine = head !== null && named(head, input.machineColumns);
        if (!machine && rawStageKey(text)) out.push({ rule: 'raw-stage-key', file, where, text });
        if (head !== null && named(head, input.fullTextColumns) && ENDS_CUT.test(text))
          out.push({ rule: 'cut-text', file, where, text });
        if (
          year !== null &&
          head !== null &&
          named(head, ['Year', ...(input.yearColumns ?? [])]) &&
          text.trim() === String(year)
        )
          out.push({ rule: 'partial-year', file, where, text });
      });
    });
  });
  return out;
}

/** Rows of a CSV file (RFC 4180: quoted fields, doubled quotes, CRLF or LF; a BOM dropped). */
export function parseCsv(source: string): string[][] {
  const s = source.replace(/^\uFEFF/, '');
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (quoted) {
      if (ch === '"' && s[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && s[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/** A CSV file's violations (its first row is the header). */
function checkCsv(path: string, input: EditorialInput): Violation[] {
  const file = basename(path);
  const [head = [], ...rows] = parseCsv(readFileSync(path, 'utf8'));
  const out: Violation[] = [];
  rows.forEach((cells, i) =>
    cells.forEach((text, c) => {
      const where = `row ${i + 2}, ${head[c] ?? `column ${c + 1}`}`;
      for (const url of privateUrls(text)) out.push({ rule: 'private-url', file, where, text: url });
      if (named(head[c] ?? '', input.fullTextColumns) && ENDS_CUT.test(text))
        out.push({ rule: 'cut-text', file, where, text });
    }),
  );
  return out;
}

/**
 * Every place the given report files break an editorial rule (see the module's comment for the
 * rules), PDF first, then the workbook, then the CSV files, each place and text once; an empty
 * list when they follow all.
 *
 * @example
 * const v = await editorialViolations({ asOf: '2026-11-26', pdf, workbook, fullTextColumns: ['Why'] });
 * expect(v).toEqual([]);
 */
export async function editorialViolations(input: EditorialInput): Promise<Violation[]> {
  const year = partialYear(input.asOf);
  const all = [
    ...(input.pdf ? checkPdf(input.pdf, input, year) : []),
    ...(input.workbook ? await checkWorkbook(input.workbook, input, year) : []),
    ...(input.csv ?? []).flatMap((p) => checkCsv(p, input)),
  ];
  // A cell whose text is its own hyperlink is one violation, not two.
  const seen = new Set<string>();
  return all.filter((v) => {
    const id = JSON.stringify([v.rule, v.file, v.where, v.text]);
    return seen.has(id) ? false : (seen.add(id), true);
  });
}

/** Violations counted per rule, for a report of where a kind stands. */
export function countByRule(violations: readonly Violation[]): Partial<Record<EditorialRule, number>> {
  const out: Partial<Record<EditorialRule, number>> = {};
  for (const v of violations) out[v.rule] = (out[v.rule] ?? 0) + 1;
  return out;
}
