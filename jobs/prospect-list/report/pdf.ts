/**
 * The prospect list's brief for a sales lead: at most three A4 pages. Title and date, the
 * list's size in tiles, the briefs and searches (what each gave, credits charged), the top 25
 * targets, the five charts as vector graphics (each captioned with the answers it counts) and
 * what was left out or capped (counts by reason, malformed suppression rows quoted, limits);
 * last, the appendix: the run's credits and calls, and its stored answers by operation.
 *
 * Three pages whatever the list: the brief is laid out with a budget of source rows, limits,
 * quoted rows and lines a cell; when that takes more than three pages it is laid out again with
 * a smaller budget. What a budget leaves out is counted in a line that points to the workbook.
 */
import { formatFit, plural, stageLabel } from '../../../reports/editorial.js';
import { measureText, printableName } from '../../../reports/fonts.js';
import { formatDate, formatInt, formatNumber, oneLine } from '../../../reports/format.js';
import type { ServiceLinks } from '../../../reports/links.js';
import { readerUrl } from '../../../reports/links.js';
import { chartRows, COLORS, firstFitting, ReportPdf, sizedColumns } from '../../../reports/pdf/index.js';
import type { TableColumn } from '../../../reports/pdf/index.js';
import {
  drawSourcesSection,
  sourceCaption,
  sourcesByOperation,
  sourceSpan,
} from '../../../reports/sources.js';
import type { ProspectRow, ProspectSummary } from '../types.js';
import type { ProspectChart } from './charts.js';
import { openingFigures, TILES_PER_ROW } from './opening.js';
import { briefTitle, gaveText, leftOutLines, reasonText, sourceLines } from './text.js';
import type { SourceLine } from './text.js';

/** The most pages the brief takes. */
export const MAX_BRIEF_PAGES = 3;

/** Lines a reason may take in the top targets table: enough that none is ever cut. */
const WHY_LINES = 40;

/** How much of the long lists one layout of the brief prints. */
export interface BriefBudget {
  /** Source rows (briefs and searches). */
  sources: number;
  /** Limit sentences. */
  limits: number;
  /** Malformed suppression rows quoted. */
  examples: number;
  /** Lines a cell of the sources table may wrap to (the targets' reasons are never cut). */
  cellLines: number;
  /** Rows of the top targets table. */
  topRows: number;
  /** Characters a quoted row or limit keeps. */
  quote: number;
  /**
   * The appendix's stored answers as a table by operation (`drawSourcesSection`); false: the
   * same counts in a sentence (tried before a smaller budget drops targets).
   */
  answersTable: boolean;
}

/**
 * The budgets tried in order, each first with the appendix's table of stored answers, then with
 * its sentence; the last one fits three pages whatever the summary holds.
 */
export const BRIEF_BUDGETS: readonly BriefBudget[] = [
  { sources: 8, limits: 8, examples: 5, cellLines: 3, topRows: 25, quote: 400 },
  { sources: 5, limits: 4, examples: 3, cellLines: 3, topRows: 20, quote: 300 },
  { sources: 3, limits: 3, examples: 2, cellLines: 2, topRows: 15, quote: 300 },
  { sources: 3, limits: 2, examples: 2, cellLines: 2, topRows: 10, quote: 220 },
].flatMap((b) => [
  { ...b, answersTable: true },
  { ...b, answersTable: false },
]);

const TABLE_SIZE = 7.5;
const NOTE_SIZE = 7.5;

function more(n: number, what: string): string {
  return `… and ${formatInt(n)} more ${what} (the workbook's Summary sheet lists them all).`;
}

function cut(text: string, chars: number): string {
  const t = oneLine(text);
  const cs = Array.from(t);
  return cs.length <= chars ? t : `${cs.slice(0, chars - 1).join('')}…`;
}

function header(pdf: ReportPdf, summary: ProspectSummary): void {
  pdf.heading(briefTitle(summary), 1);
  const crm = summary.job.crm.join(', ');
  const rules = [
    summary.job.keepClosed ? 'closed and acquired companies kept, flagged' : 'no closed or acquired company',
    ...(summary.job.raisedWithin && summary.raisedSince
      ? [`last round since ${formatDate(summary.raisedSince)} (${summary.job.raisedWithin})`]
      : []),
  ];
  pdf.paragraph(
    `Prospect list of ${formatDate(summary.date)} · ${rules.join(' · ')} · CSV for ${crm}` +
      (summary.stats.partial ? ' · partial run (see the end of this brief)' : ''),
    { size: 9, color: COLORS.muted },
  );
  pdf.keyFigures(openingFigures(summary), TILES_PER_ROW);
}

/**
 * At most `n` of the sources (the briefs first in `lines`, then the searches): briefs and
 * searches share the rows, half each, the rest to whichever has more.
 */
function pickSources(lines: readonly SourceLine[], briefs: number, n: number): SourceLine[] {
  const b = lines.slice(0, briefs);
  const s = lines.slice(briefs);
  const fromBriefs = Math.min(b.length, Math.max(Math.ceil(n / 2), n - s.length));
  return [...b.slice(0, fromBriefs), ...s.slice(0, n - fromBriefs)];
}

function sources(pdf: ReportPdf, summary: ProspectSummary, budget: BriefBudget): void {
  const lines = sourceLines(summary);
  const shown = pickSources(lines, summary.briefs.length, budget.sources);
  const columns: TableColumn[] = [
    { header: 'Brief or search', width: 1.0 },
    { header: 'What was asked', width: 3.2 },
    { header: 'Gave', width: 1.2, align: 'right' },
    { header: 'Credits', width: 0.75, align: 'right' },
    { header: 'Note', width: 2.1 },
  ];
  const rows = shown.map((s) => [
    s.label,
    oneLine(s.asked),
    gaveText(s),
    s.credits === null ? '—' : formatInt(s.credits),
    oneLine(s.note),
  ]);
  const options = { fontSize: TABLE_SIZE, maxLines: budget.cellLines, emptyText: 'No brief and no search.' };
  pdf.heading('Briefs and searches', 2, { keepWith: pdf.tableKeepHeight(columns, rows, options) });
  pdf.table(columns, rows, options);
  const c = summary.counts;
  const notes = [
    ...(lines.length > shown.length ? [more(lines.length - shown.length, 'briefs and searches')] : []),
    `${formatInt(c.sourceRecords)} records from ${plural(summary.briefs.length, 'brief')} and ` +
      `${plural(summary.searches.length, 'search', 'searches')}, merged by key and domain into ` +
      `${plural(c.merged, 'company', 'companies')}; ${formatInt(c.listed)} listed.`,
  ];
  for (const n of notes) pdf.paragraph(n, { size: NOTE_SIZE, color: COLORS.muted, gap: 2 });
}

/** The name as printed: itself, or its domain (key) marked when the font lacks its script. */
function printedName(r: ProspectRow): string {
  return printableName(r.name, r.domain ?? r.key ?? '(name)');
}

/**
 * The reasons as the service gave them (its most telling first), whole, with their dates in the
 * report's format; the last round beside them when the service gave its date and no reason
 * already names that day, so a seller sees how recent it is.
 */
function whyText(r: ProspectRow): string {
  const why = r.why.map((w) => reasonText(oneLine(w))).filter((w) => w !== '');
  const day = r.lastRoundDate !== null ? formatDate(r.lastRoundDate) : null;
  const round =
    day !== null && !why.some((w) => w.includes(day))
      ? `Last round ${day}${r.lastRoundStage ? ` (${stageLabel(r.lastRoundStage)})` : ''}.`
      : '';
  return [why.join(' · '), round].filter((t) => t !== '').join(' · ') || '—';
}

function topRow(r: ProspectRow): string[] {
  return [
    String(r.rank),
    printedName(r),
    r.country ?? '—',
    r.stage === null ? '—' : stageLabel(r.stage),
    r.fitPct === null ? 'not scored' : formatFit(r.fitPct),
    r.momentum === null ? '—' : formatNumber(r.momentum, 0),
    whyText(r),
  ];
}

function topTargets(pdf: ReportPdf, summary: ProspectSummary, budget: BriefBudget): void {
  const top = summary.top.slice(0, budget.topRows);
  const rows = top.map(topRow);
  // The company's name links to its website (an http(s) address on a public host).
  const links = top.map((r) => [null, readerUrl(r.website), null, null, null, null, null]);
  const col = (i: number) => rows.map((r) => r[i] ?? '');
  // Short columns take what their longest value needs (domain, country and stage at most a
  // share); the name and the reason share the rest.
  const columns = sizedColumns(
    pdf.pageContentWidth,
    [
      { header: '#', values: col(0), align: 'right' },
      { header: 'Company', share: 0.3 },
      { header: 'Country', values: col(2), max: 0.12 },
      { header: 'Stage', values: col(3), max: 0.12 },
      { header: 'Fit', values: col(4), align: 'right' },
      { header: 'Momentum', values: col(5), align: 'right' },
      { header: "Why (the service's reasons, most telling first)", share: 0.7 },
    ],
    TABLE_SIZE,
  );
  const options = { fontSize: TABLE_SIZE, maxLines: WHY_LINES, emptyText: 'The list is empty.', links };
  const title =
    rows.length > 0 ? `Top ${rows.length} of ${plural(summary.counts.listed, 'target')}` : 'Top targets';
  pdf.heading(title, 2, { keepWith: pdf.tableKeepHeight(columns, rows, options) });
  pdf.table(columns, rows, options);
  if (rows.length === 0) return;
  const unprintable = summary.top.some((r) => printedName(r) !== (oneLine(r.name) || '—'));
  pdf.paragraph(
    (unprintable
      ? "* The company's name is in a script this brief's fonts cannot print: its domain " +
        'stands in; the workbook has the name. '
      : '') +
      'Fit: how well the company matches the briefs (find_customers), in percent; momentum: the ' +
      "service's score of its recent growth, 0 to 100. Not scored: found by a search only. A " +
      "company's name links to its website. The workbook has every row with its website, " +
      'funding, founders and investors.',
    { size: NOTE_SIZE, color: COLORS.muted },
  );
}

/** Size of a chart's caption (as the chart figure draws it). */
const CAPTION_SIZE = 7.5;

/**
 * The caption naming what a chart counts, the longest that fits the chart's width whole: its
 * answers by operation with their ids (`Source: find_customers (S1); search_startups (S2–S9)`),
 * else the operations and all their ids, else the ids alone (`Source: all stored answers
 * (S1–S1012)`); none for a run from before sources were kept.
 */
export function chartSource(summary: ProspectSummary, id: ProspectChart['id'], width: number): string | null {
  // Fit and momentum are find_customers' scores; stage, sector and country come from every
  // answer a row was read from (a profile fills what the searches left out).
  const sources =
    id === 'fit' || id === 'momentum'
      ? (summary.sources ?? []).filter((s) => s.operation === 'find_customers')
      : (summary.sources ?? []);
  const ids = sources.map((s) => s.id);
  const full = sourceCaption(summary.sources, ids);
  if (full === null) return null;
  const operations = [...new Set(sources.map((s) => s.operation))].join(', ');
  const span = sourceSpan(ids);
  const shortest =
    ids.length === summary.sources?.length ? `Source: all stored answers (${span})` : `Source: ${span}`;
  return (
    [full, `Source: ${operations} (${span})`].find((c) => measureText(c, CAPTION_SIZE) <= width) ?? shortest
  );
}

/**
 * The appendix's stored answers: the table by operation when the budget has room, else the
 * same in a sentence; a run from before sources were kept says why it has none.
 */
function answersSection(
  pdf: ReportPdf,
  summary: ProspectSummary,
  budget: BriefBudget,
  runKey?: string,
): void {
  const options = { level: 3 as const, ...(runKey ? { runKey } : {}) };
  if (budget.answersTable || !summary.sources) {
    drawSourcesSection(pdf, summary.sources, options);
    return;
  }
  const ops = sourcesByOperation(summary.sources)
    .map((o) => `${o.operation} ${formatInt(o.answers)} (${sourceSpan(o.ids)})`)
    .join(', ');
  const text =
    `${plural(summary.sources.length, 'stored answer')} of the service: ${ops || 'none'}. The ` +
    "workbook's Sources sheet lists each with its parameters, time, credits and store reference; " +
    'every data row names the ones it came from.';
  pdf.heading('Sources', 3, { keepWith: pdf.paragraphHeight(text, { size: NOTE_SIZE }) });
  pdf.paragraph(text, { size: NOTE_SIZE, color: COLORS.muted });
}

function chartsSection(pdf: ReportPdf, summary: ProspectSummary, charts: readonly ProspectChart[]): void {
  // Charts go two to a row (a lone one beside an empty cell): each a half of the width.
  const width = (pdf.pageContentWidth - 16) / 2;
  const byId = new Map(charts.map((c) => [c.id, { ...c, source: chartSource(summary, c.id, width) }]));
  // Sectors beside countries (both horizontal bars), the two score bands together, stages last.
  const pairs = [['sectors', 'countries'], ['momentum', 'fit'], ['stages']] as const;
  chartRows(
    pdf,
    'The list in charts',
    pairs.map((ids) => ids.flatMap((id) => byId.get(id) ?? [])),
  );
}

function leftOut(pdf: ReportPdf, summary: ProspectSummary, budget: BriefBudget): void {
  pdf.heading('Left out and limits', 2, { keepWith: 50 });
  const size = 8.5;
  pdf.bullets(leftOutLines(summary), { size });
  const s = summary.suppression;
  if (s) {
    const quoted = s.examples.slice(0, budget.examples);
    pdf.paragraph(
      `Suppression list ${s.file}: ${formatInt(s.rows)} ${s.rows === 1 ? 'row' : 'rows'} read, ${formatInt(s.malformed)} malformed` +
        (quoted.length > 0 ? ', the first of them:' : '.'),
      { size },
    );
    if (quoted.length > 0)
      pdf.bullets(
        quoted.map((e) => cut(e, budget.quote)),
        { size: NOTE_SIZE },
      );
    const unquoted = Math.max(s.examples.length, s.malformed) - quoted.length;
    if (unquoted > 0 && quoted.length > 0)
      pdf.paragraph(more(unquoted, 'malformed rows'), { size: NOTE_SIZE, color: COLORS.muted });
  }
  const limits = summary.limits.slice(0, budget.limits);
  if (limits.length > 0) {
    pdf.paragraph('Limits:', { size, gap: 2 });
    pdf.bullets(
      limits.map((l) => cut(l, budget.quote)),
      { size: NOTE_SIZE },
    );
    if (summary.limits.length > limits.length)
      pdf.paragraph(more(summary.limits.length - limits.length, 'limits'), {
        size: NOTE_SIZE,
        color: COLORS.muted,
      });
  }
  const notes = [
    ...(summary.notProvided.length > 0
      ? [`Not provided by the service for any company: ${summary.notProvided.join(', ')}.`]
      : []),
    ...(summary.stats.partial
      ? [`Partial run: ${summary.stats.reasons.join('; ') || 'see the run log'}.`]
      : []),
  ];
  for (const n of notes) pdf.paragraph(cut(n, budget.quote * 2), { size: NOTE_SIZE, color: COLORS.muted });
}

/**
 * The run's own figures (credits, calls, balance), last and apart from what the sales lead acts
 * on (the manifest has them too), and the stored answers the list was read from, by operation.
 */
function runAppendix(pdf: ReportPdf, summary: ProspectSummary, budget: BriefBudget, runKey?: string): void {
  const s = summary.stats;
  pdf.heading('Appendix: the run', 2, { keepWith: 30 });
  pdf.paragraph(
    `${plural(s.creditsSpent, 'credit')} spent` +
      (s.creditsBudget > 0 ? ` of a budget of ${formatInt(s.creditsBudget)}` : ' (no budget set)') +
      ` · ${plural(s.callsMade, 'call')} to the service` +
      (s.accountBalance !== null ? ` · ${formatInt(s.accountBalance)} credits left on the account` : '') +
      ` · job ${summary.job.id}.`,
    { size: NOTE_SIZE, color: COLORS.muted },
  );
  answersSection(pdf, summary, budget, runKey);
}

/** Lays the brief out with one budget (see `writeProspectBrief`, which picks the budget). */
export function buildProspectBrief(
  summary: ProspectSummary,
  charts: readonly ProspectChart[],
  budget: BriefBudget,
  options: { creationDate?: Date; runKey?: string } = {},
): ReportPdf {
  const title = briefTitle(summary);
  const pdf = new ReportPdf({
    title,
    subject: `Prospect list of ${formatDate(summary.date)}`,
    keywords: 'prospect list, sales, venture intelligence',
    footerText: `${title} · ${formatDate(summary.date)}`,
    coverPage: false,
    ...(options.creationDate ? { creationDate: options.creationDate } : {}),
  });
  header(pdf, summary);
  topTargets(pdf, summary, budget);
  leftOut(pdf, summary, budget);
  sources(pdf, summary, budget);
  chartsSection(pdf, summary, charts);
  runAppendix(pdf, summary, budget, options.runKey);
  return pdf;
}

/**
 * Writes the brief to `path`: at most three pages, the first budget whose layout fits.
 * Returns the page count.
 *
 * @example
 * const charts = await renderProspectCharts(summary);
 * const { pages } = await writeProspectBrief(summary, 'out/brief.pdf', charts);
 */
export async function writeProspectBrief(
  summary: ProspectSummary,
  path: string,
  charts: readonly ProspectChart[],
  options: { creationDate?: Date; links?: ServiceLinks; runKey?: string } = {},
): Promise<{ pages: number }> {
  const pdf = firstFitting(
    BRIEF_BUDGETS,
    (budget) => buildProspectBrief(summary, charts, budget, options),
    (built) => built.pageCount <= MAX_BRIEF_PAGES,
  );
  return { pages: await pdf.writeTo(path) };
}
