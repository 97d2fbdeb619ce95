/**
 * The digest's details, after its first page: the charts (first, so the lists after them share
 * their page); on a baseline the whole batch; otherwise the new matches the first page had no
 * room for, the startups still matched (fit now, fit change with its sign, rank change with an
 * arrow), the dropped with their reason in words, every watchlist event (a new round with its
 * stage, amount, date and lead investors).
 */
import { printableText } from '../../../reports/fonts.js';
import { readerUrl } from '../../../reports/links.js';
import type { ServiceLinks } from '../../../reports/links.js';
import { formatDate, formatInt } from '../../../reports/format.js';
import { chartCell, COLORS, sizedColumns } from '../../../reports/pdf/index.js';
import type { ReportPdf, RowCell, SizedColumn } from '../../../reports/pdf/index.js';
import type { FundDigest } from '../digest.js';
import type { FundChart } from './charts.js';
import { matchTable, NOTE_SIZE, TABLE_SIZE } from './first-page.js';
import type { FirstPageBudget } from './first-page.js';
import {
  DROP_REASONS,
  EVENT_KINDS,
  fitChangeText,
  fitText,
  notableEvents,
  previousRun,
  printedName,
  rankChangeText,
  serviceText,
  stageText,
  standInNote,
  tellingFirst,
  whereNow,
} from './text.js';

/** A table under a level-2 heading kept with its first rows, then notes in small grey type; a sentence when it has no rows. */
function section(
  pdf: ReportPdf,
  title: string,
  columns: SizedColumn[],
  rows: string[][],
  emptyText: string,
  notes: string[] = [],
  links?: (string | null)[][],
): void {
  if (rows.length === 0) {
    pdf.heading(title, 2, { keepWith: 30 });
    pdf.paragraph(emptyText, { size: 8.5 });
    return;
  }
  const cols = sizedColumns(pdf.pageContentWidth, columns, TABLE_SIZE);
  // Cells wrap whole: the row grows, nothing is cut.
  const options = {
    fontSize: TABLE_SIZE,
    maxLines: Number.POSITIVE_INFINITY,
    ...(links ? { links } : {}),
  };
  pdf.heading(title, 2, { keepWith: pdf.tableKeepHeight(cols, rows, options) });
  pdf.table(cols, rows, options);
  for (const n of notes) pdf.paragraph(n, { size: NOTE_SIZE, color: COLORS.muted, gap: 2 });
}

const values = (rows: string[][], i: number): string[] => rows.map((r) => r[i] ?? '');

/** Each row's startup cell linked to its website (when the service gives one a reader can open). */
const siteLinks = (
  list: readonly { key: string }[],
  digest: FundDigest,
  at: number,
  links?: ServiceLinks | null,
): (string | null)[][] => {
  const site = new Map(digest.batch.map((b) => [b.key, b.website ?? null]));
  return list.map((x) => {
    const row: (string | null)[] = [];
    row[at] = readerUrl(site.get(x.key) ?? null, links);
    return row;
  });
};

function wholeBatch(pdf: ReportPdf, digest: FundDigest, links?: ServiceLinks | null): void {
  const rows = digest.batch.map((b) => {
    const why = tellingFirst(b.why)[0];
    return [
      String(b.rank),
      printedName(b.name, b.key) + (b.conflict ? ' ⚠ conflict' : ''),
      fitText(b.fitPct),
      printableText(b.sector ?? '—'),
      stageText(b.stage),
      printableText(b.country ?? '—'),
      why ? serviceText(why, b) : '—',
    ];
  });
  section(
    pdf,
    `The batch (${formatInt(rows.length)})`,
    [
      { header: '#', values: values(rows, 0), align: 'right' },
      { header: 'Startup', share: 0.35 },
      { header: 'Fit', values: values(rows, 2), align: 'right' },
      { header: 'Sector', values: values(rows, 3), max: 0.25 },
      { header: 'Stage', values: values(rows, 4), max: 0.1 },
      { header: 'Country', values: values(rows, 5), max: 0.12 },
      { header: 'Why (most telling reason)', share: 0.65 },
    ],
    rows,
    'The batch is empty.',
    standInNote(rows),
    siteLinks(digest.batch, digest, 1, links),
  );
}

function still(pdf: ReportPdf, digest: FundDigest, links?: ServiceLinks | null): void {
  const since = new Map(digest.history.map((h) => [h.key, h.firstSeen]));
  const before = previousRun(digest);
  const rows = digest.still.map((s) => [
    String(s.rank),
    printedName(s.name, s.key),
    fitText(s.fitPct),
    fitChangeText(s.fitChange),
    rankChangeText(s.rankChange),
    formatDate(since.get(s.key) ?? null),
  ]);
  section(
    pdf,
    `Still matched (${formatInt(rows.length)})`,
    [
      { header: '#', values: values(rows, 0), align: 'right' },
      { header: 'Startup', share: 1 },
      { header: 'Fit now', values: values(rows, 2), align: 'right' },
      { header: 'Fit change (points)', values: values(rows, 3), align: 'right' },
      { header: 'Rank change', values: values(rows, 4), align: 'right' },
      { header: 'Matched since', values: values(rows, 5) },
    ],
    rows,
    'No startup of this batch was matched by the last run.',
    [
      `Fit change in points and rank change in places since the run of ${formatDate(before?.date ?? null)} ` +
        '(↑ moved up, ↓ down, = same place): a rank also falls when new matches come in above. A startup back after a gap is compared with its last match.',
      ...standInNote(rows),
    ],
    siteLinks(digest.still, digest, 1, links),
  );
}

function dropped(pdf: ReportPdf, digest: FundDigest): void {
  const rows = digest.dropped.map((d) => [
    printedName(d.name, d.key),
    DROP_REASONS[d.reason],
    serviceText(d.detail, d),
  ]);
  section(
    pdf,
    `Dropped (${formatInt(rows.length)})`,
    [
      { header: 'Startup', share: 0.35 },
      { header: 'Why it left the batch', values: values(rows, 1) },
      { header: 'Detail', share: 0.65 },
    ],
    rows,
    'No startup dropped out of the batch since the last run.',
  );
}

function events(pdf: ReportPdf, digest: FundDigest): void {
  const rows = notableEvents(digest.events).flatMap((s) =>
    s.events.map((e) => [
      printedName(e.name, e.key),
      EVENT_KINDS[e.kind],
      serviceText(e.detail, e),
      whereNow(digest, s),
    ]),
  );
  section(
    pdf,
    `Watchlist events (${formatInt(rows.length)})`,
    [
      { header: 'Startup', share: 0.4 },
      { header: 'Event', values: values(rows, 1) },
      { header: 'Detail', share: 0.6 },
      { header: 'Now', values: values(rows, 3) },
    ],
    rows,
    'No new round, stage or status change among the startups followed since the last run.',
  );
}

/** An empty cell: a lone chart in a row of two keeps half the width, like the charts above it. */
const EMPTY_CELL: RowCell = { measure: () => 0, draw: () => undefined };

/**
 * The charts under one heading, kept on one page when they fit one: the fit bands and the sector
 * mix side by side, then the stage mix, then the trend across the page (when it is not drawn,
 * its note sits beside the stage mix).
 */
function charts(pdf: ReportPdf, list: readonly FundChart[]): void {
  const byId = new Map(list.map((c) => [c.id, c]));
  const cell = (id: FundChart['id']): RowCell | null => {
    const c = byId.get(id);
    return c ? chartCell(pdf, c) : null;
  };
  const present = (cells: (RowCell | null)[]): RowCell[] => cells.filter((c): c is RowCell => c !== null);
  const trendDrawn = byId.get('trend')?.rendered != null;
  const halves = [
    present([cell('fit'), cell('sectors')]),
    present([cell('stages'), trendDrawn ? null : cell('trend')]),
  ]
    .filter((r) => r.length > 0)
    .map((r) => (r.length === 1 ? [...r, EMPTY_CELL] : r));
  const rows = [...halves, ...(trendDrawn ? [present([cell('trend')])] : [])];
  if (rows.length === 0) return;
  const heights = rows.map((r) => pdf.measureRow(r));
  const all = heights.reduce((a, b) => a + b, 0);
  // The whole section when a page holds it (a heading takes about 40 points), else its first row.
  pdf.heading('The batch in charts', 2, { keepWith: all + 40 <= pdf.pageBody ? all : (heights[0] ?? 0) });
  for (const r of rows) pdf.row(r);
}

/** Lays out the details: the lists after the first page, then the charts. */
export function details(
  pdf: ReportPdf,
  digest: FundDigest,
  list: readonly FundChart[],
  budget: FirstPageBudget,
  links?: ServiceLinks | null,
): void {
  pdf.heading('Details', 1);
  // The charts first: the lists after them fill their page, so no page holds charts alone.
  charts(pdf, list);
  if (digest.baseline) wholeBatch(pdf, digest, links);
  else {
    const rest = digest.newMatches.slice(budget.matches);
    if (rest.length > 0) {
      pdf.heading(`New matches, continued (${formatInt(rest.length)} more)`, 2, { keepWith: 60 });
      for (const n of matchTable(pdf, rest, budget, links))
        pdf.paragraph(n, { size: NOTE_SIZE, color: COLORS.muted, gap: 2 });
    }
    still(pdf, digest, links);
    dropped(pdf, digest);
    events(pdf, digest);
  }
}
