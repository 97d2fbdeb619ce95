/**
 * The digest's first page, what a partner reads in a minute: the title (job, fund, date), the
 * baseline or quiet line, the key figures, the portfolio conflicts in a red box (never hidden),
 * the new matches (on a baseline the batch's top matches) with fit, reasons, the analyst note
 * and founders or investors, the changed and the dropped in a line each, and the notable
 * watchlist events (status changes and new rounds
 * first). What a budget leaves out is counted and pointed to.
 */
import { stageLabel } from '../../../reports/editorial.js';
import { printableText } from '../../../reports/fonts.js';
import { readerUrl } from '../../../reports/links.js';
import type { ServiceLinks } from '../../../reports/links.js';
import { formatDate, formatInt } from '../../../reports/format.js';
import { callout, COLORS, sizedColumns } from '../../../reports/pdf/index.js';
import type { ReportPdf } from '../../../reports/pdf/index.js';
import type { FundDigest, NewMatch } from '../digest.js';
import { openingFigures } from './opening.js';
import {
  BASELINE_LINE,
  digestSubtitle,
  digestTitle,
  fitChangeText,
  fitText,
  notableEvents,
  previousRun,
  printedName,
  quietLine,
  rankChangeText,
  serviceText,
  standInNote,
  tellingFirst,
  whereNow,
} from './text.js';
import type { StartupEvents } from './text.js';

/** How much of the long lists the first page prints. */
export interface FirstPageBudget {
  /** New matches (on a baseline: the batch's top matches). */
  matches: number;
  /** Reasons a match shows (the first ones). */
  reasons: number;
  /** Startups whose watchlist events the first page lists (the notable first). */
  events: number;
  /** Changed startups, and dropped ones, the first page names (the largest moves first). */
  changes: number;
}

export const TABLE_SIZE = 7.5;
export const NOTE_SIZE = 7.5;

const plural = (n: number, one: string, many: string): string => `${formatInt(n)} ${n === 1 ? one : many}`;

function header(pdf: ReportPdf, digest: FundDigest): void {
  pdf.heading(digestTitle(digest), 1);
  pdf.paragraph(digestSubtitle(digest), { size: 9, color: COLORS.muted });
  if (digest.baseline) pdf.paragraph(BASELINE_LINE, { size: 10, color: COLORS.accent });
  else if (digest.quiet) pdf.paragraph(quietLine(digest), { size: 10, color: COLORS.accent });
}

function conflicts(pdf: ReportPdf, digest: FundDigest): void {
  if (digest.conflicts.length === 0) {
    pdf.paragraph('Portfolio conflicts: none marked by the service in this batch.', {
      size: NOTE_SIZE,
      color: COLORS.muted,
    });
    return;
  }
  const rank = new Map(digest.batch.map((b) => [b.key, b.rank]));
  callout(
    pdf,
    `Portfolio conflicts: ${plural(digest.conflicts.length, 'startup', 'startups')} of the batch`,
    digest.conflicts.map(
      (c) => `#${rank.get(c.key) ?? '?'} ${printedName(c.name, c.key)}: ${serviceText(c.conflict, c)}`,
    ),
    { tone: 'alert' },
  );
}

/** Founders and investors in a few words: `Founders: A, B. Investors: C.` */
function people(m: NewMatch): string {
  return printableText(
    [
      m.founders.length > 0 ? `Founders: ${m.founders.join(', ')}.` : '',
      m.investors.length > 0 ? `Investors: ${m.investors.join(', ')}.` : '',
    ]
      .filter(Boolean)
      .join(' '),
  );
}

/** The startup's cell: its name, a conflict flagged, then its stage (in words) and country. */
function startupCell(m: NewMatch): string {
  const facts = printableText(
    [m.stage ? stageLabel(m.stage) : null, m.country].filter((x): x is string => !!x).join(' · '),
  );
  return [
    printedName(m.name, m.key),
    ...(m.conflict ? ['⚠ portfolio conflict'] : []),
    ...(facts ? [facts] : []),
  ].join('\n');
}

/**
 * The matches as a table: rank, startup (linked to its website when the service gives one), fit,
 * the most telling reasons, the analyst note, and founders and investors when any match has
 * them. Cells wrap whole (the row grows): nothing a partner acts on is cut. Returns the note the
 * table needs under it (a name printed as its key), if any.
 */
export function matchTable(
  pdf: ReportPdf,
  matches: readonly NewMatch[],
  budget: Pick<FirstPageBudget, 'reasons'>,
  links?: ServiceLinks | null,
): string[] {
  const withPeople = matches.some((m) => m.founders.length > 0 || m.investors.length > 0);
  const rows = matches.map((m) => [
    String(m.rank),
    startupCell(m),
    fitText(m.fitPct),
    tellingFirst(m.why)
      .slice(0, budget.reasons)
      .map((w) => serviceText(w, m))
      .join('; ') || '—',
    m.note ? serviceText(m.note, m) : '—',
    ...(withPeople ? [people(m) || '—'] : []),
  ]);
  const col = (i: number) => rows.map((r) => r[i] ?? '');
  const columns = sizedColumns(
    pdf.pageContentWidth,
    [
      { header: 'Rank', values: col(0), align: 'right' },
      { header: 'Startup', share: withPeople ? 0.19 : 0.24 },
      { header: 'Fit', values: col(2), align: 'right' },
      {
        header: budget.reasons > 1 ? 'Why (most telling reasons)' : 'Why (most telling reason)',
        share: withPeople ? 0.29 : 0.4,
      },
      { header: 'Analyst note', share: withPeople ? 0.28 : 0.36 },
      ...(withPeople ? [{ header: 'Founders, investors', share: 0.24 }] : []),
    ],
    TABLE_SIZE,
  );
  pdf.table(columns, rows, {
    fontSize: TABLE_SIZE,
    maxLines: Number.POSITIVE_INFINITY,
    links: matches.map((m) => [null, readerUrl(m.website, links)]),
  });
  return standInNote(rows);
}

/** The matches the first page shows: the new ones, or on a baseline the batch's top ones. */
export function firstPageMatches(digest: FundDigest): { title: string; matches: NewMatch[] } {
  if (digest.baseline) return { title: 'Top matches of the baseline batch', matches: [...digest.newMatches] };
  return {
    title:
      digest.newMatches.length > 0 ? `New matches (${formatInt(digest.newMatches.length)})` : 'New matches',
    matches: [...digest.newMatches],
  };
}

function matches(
  pdf: ReportPdf,
  digest: FundDigest,
  budget: FirstPageBudget,
  links?: ServiceLinks | null,
): void {
  const { title, matches: all } = firstPageMatches(digest);
  const shown = all.slice(0, budget.matches);
  pdf.heading(title, 2, { keepWith: 60 });
  if (shown.length === 0) {
    pdf.paragraph(`No new match since the run of ${formatDate(previousRun(digest)?.date ?? null)}.`, {
      size: 8.5,
    });
    return;
  }
  const standIns = matchTable(pdf, shown, budget, links);
  const notes: string[] = [];
  if (all.length > shown.length)
    notes.push(
      digest.baseline
        ? `The other ${plural(all.length - shown.length, 'startup', 'startups')} of the batch are listed in the details (The batch) and the workbook.`
        : `${plural(all.length - shown.length, 'more new match', 'more new matches')} in the details (New matches, continued).`,
    );
  for (const n of [...notes, ...standIns]) pdf.paragraph(n, { size: NOTE_SIZE, color: COLORS.muted, gap: 2 });
}

/** The changed startups, the largest moves first: fit change, then places moved, then rank. */
export function changedStartups(digest: FundDigest): FundDigest['still'] {
  const keys = new Set(digest.changedKeys);
  return digest.still
    .filter((s) => keys.has(s.key))
    .sort(
      (a, b) =>
        Math.abs(b.fitChange ?? 0) - Math.abs(a.fitChange ?? 0) ||
        Math.abs(b.rankChange) - Math.abs(a.rankChange) ||
        a.rank - b.rank,
    );
}

/** A bulleted list under a level-2 heading, at most `max` items, then how many more and where. */
function shortList(pdf: ReportPdf, title: string, items: string[], max: number, where: string): void {
  if (items.length === 0) return;
  // One more than the budget takes the line "1 more in the details" would: it is shown instead.
  const shown = items.length <= max + 1 ? items : items.slice(0, max);
  pdf.heading(`${title} (${formatInt(items.length)})`, 2, { keepWith: 30 });
  pdf.bullets(shown, { size: 8.5 });
  if (items.length > shown.length)
    pdf.paragraph(`${formatInt(items.length - shown.length)} more in the details (${where}).`, {
      size: NOTE_SIZE,
      color: COLORS.muted,
    });
}

/**
 * The still-matched startups that changed and the dropped ones, named with their change or
 * reason, so the counts above are never all a partner sees (nothing on a baseline).
 */
function changedAndDropped(pdf: ReportPdf, digest: FundDigest, budget: FirstPageBudget): void {
  if (digest.baseline) return;
  const changed = changedStartups(digest).map(
    (s) =>
      `${printedName(s.name, s.key)}: fit ${fitText(s.fitPct)} (${fitChangeText(s.fitChange)} points), ` +
      `rank ${s.rank} (${rankChangeText(s.rankChange)})`,
  );
  shortList(pdf, 'Changed', changed, budget.changes, 'Still matched');
  const dropped = digest.dropped.map((d) => `${printedName(d.name, d.key)}: ${serviceText(d.detail, d)}`);
  shortList(pdf, 'Dropped', dropped, budget.changes, 'Dropped');
}

/** A startup's events in a sentence: `Vaultic: status active → acquired (dropped from the batch)`. */
function eventLine(digest: FundDigest, s: StartupEvents): string {
  return `${printedName(s.name, s.key)}: ${s.events.map((e) => serviceText(e.detail, e)).join('; ')} (${whereNow(digest, s)})`;
}

function events(pdf: ReportPdf, digest: FundDigest, budget: FirstPageBudget): void {
  const all = notableEvents(digest.events);
  const count = digest.events.length;
  const title =
    count > 0
      ? `Watchlist: ${plural(count, 'event', 'events')} of ${plural(all.length, 'startup', 'startups')}`
      : 'Watchlist';
  pdf.heading(title, 2, { keepWith: 40 });
  if (all.length === 0) {
    pdf.paragraph(
      digest.baseline
        ? 'The watchlist starts with this batch: new rounds, stage and status changes of every startup matched come with the next runs.'
        : 'No watchlist event since the last run: no new round, stage or status change among the startups followed.',
      { size: 8.5 },
    );
    return;
  }
  const shown = all.slice(0, budget.events);
  pdf.bullets(
    shown.map((s) => eventLine(digest, s)),
    { size: 8.5 },
  );
  if (all.length > shown.length)
    pdf.paragraph(
      `${plural(all.length - shown.length, 'more startup', 'more startups')} with events in the details (Watchlist events, every event).`,
      { size: NOTE_SIZE, color: COLORS.muted },
    );
}

/** Lays out the first page with `budget`. */
export function firstPage(
  pdf: ReportPdf,
  digest: FundDigest,
  budget: FirstPageBudget,
  links?: ServiceLinks | null,
): void {
  header(pdf, digest);
  pdf.keyFigures(openingFigures(digest), 5);
  conflicts(pdf, digest);
  matches(pdf, digest, budget, links);
  changedAndDropped(pdf, digest, budget);
  events(pdf, digest, budget);
}
