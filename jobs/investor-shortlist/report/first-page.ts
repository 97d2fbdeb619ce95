/**
 * The shortlist's opening, what a platform team reads first: the title (job, date), the baseline
 * line, the plan's note, key figures, an overview of the companies (each linked to its website;
 * investors listed, new since the last run, top fit and top investor, or why a company has no
 * list) and the investors who fit several of the companies. What the run spent is in the
 * appendix (appendix.ts), not here.
 */
import { formatInt } from '../../../reports/format.js';
import { readerUrl } from '../../../reports/links.js';
import type { ServiceLinks } from '../../../reports/links.js';
import { callout, COLORS, sizedColumns } from '../../../reports/pdf/index.js';
import type { ReportPdf, SizedColumn } from '../../../reports/pdf/index.js';
import type { ShortlistReport } from '../types.js';
import { openingFigures } from './opening.js';
import {
  BASELINE_LINE,
  fitText,
  printedName,
  problemSentence,
  serviceText,
  shortlistSubtitle,
  shortlistTitle,
  standInNote,
  topFit,
} from './text.js';

export const TABLE_SIZE = 7.5;
export const NOTE_SIZE = 7.5;

const values = (rows: string[][], i: number): string[] => rows.map((r) => r[i] ?? '');

/**
 * A table under a level-2 heading kept with its first rows, then notes in small grey type (the
 * stand-in note too, unless `standIn` is false). Cells wrap whole, the row grows: nothing a
 * reader acts on is cut. Returns true when the stand-in note was printed.
 */
export function tableSection(
  pdf: ReportPdf,
  title: string,
  columns: SizedColumn[],
  rows: string[][],
  options: {
    maxLines?: number;
    notes?: string[];
    links?: (string | null)[][];
    standIn?: boolean;
    /** The notes go under the heading, before the table, so a long table never leaves them alone on a page. */
    notesFirst?: boolean;
  } = {},
): boolean {
  const cols = sizedColumns(pdf.pageContentWidth, columns, TABLE_SIZE);
  const table = {
    fontSize: TABLE_SIZE,
    maxLines: options.maxLines ?? Number.POSITIVE_INFINITY,
    ...(options.links ? { links: options.links } : {}),
  };
  const standIn = options.standIn === false ? [] : standInNote(rows);
  const notes = [...(options.notes ?? []), ...standIn];
  const note = (n: string) => pdf.paragraph(n, { size: NOTE_SIZE, color: COLORS.muted, gap: 2 });
  const before = options.notesFirst === true ? notes : [];
  const notesHeight = before.reduce((h, n) => h + pdf.paragraphHeight(n, { size: NOTE_SIZE, gap: 2 }), 0);
  pdf.heading(title, 2, { keepWith: notesHeight + pdf.tableKeepHeight(cols, rows, table) });
  for (const n of before) note(n);
  pdf.table(cols, rows, table);
  if (options.notesFirst !== true) for (const n of notes) note(n);
  return standIn.length > 0;
}

function header(pdf: ReportPdf, report: ShortlistReport): void {
  pdf.heading(shortlistTitle(report), 1);
  pdf.paragraph(shortlistSubtitle(report), { size: 9, color: COLORS.muted });
  if (report.baseline) pdf.paragraph(BASELINE_LINE, { size: 10, color: COLORS.accent });
  if (report.planNote) callout(pdf, 'Your plan limits this run', [problemSentence(report.planNote)]);
}

/** The companies at a glance, each name linked to its website; returns true when it printed the stand-in note. */
function overview(pdf: ReportPdf, report: ShortlistReport, links: ServiceLinks | null): boolean {
  const rows = report.companies.map((c) => {
    const top = c.investors[0];
    return [
      printedName(c.name, c.name),
      c.problem === null ? formatInt(c.investors.length) : '—',
      c.problem !== null ? '—' : report.baseline ? 'baseline' : formatInt(c.newCount),
      fitText(topFit(c)),
      c.problem !== null
        ? serviceText(problemSentence(c.problem))
        : top
          ? printedName(top.name, top.key)
          : 'The service listed no investor.',
    ];
  });
  return tableSection(
    pdf,
    'Your companies at a glance',
    [
      { header: 'Company', share: 0.4 },
      { header: 'Investors', values: values(rows, 1), align: 'right' },
      { header: 'New since last run', values: values(rows, 2), align: 'right' },
      { header: 'Top fit', values: values(rows, 3), align: 'right' },
      { header: 'Top investor, or why no list', share: 0.6 },
    ],
    rows,
    { links: report.companies.map((c) => [readerUrl(c.website ?? null, links)]) },
  );
}

/** The investors on several lists; the stand-in note only when the overview has not printed it. */
function shared(pdf: ReportPdf, report: ShortlistReport, standIn: boolean): void {
  const title = `Investors who fit several of your companies (${formatInt(report.shared.length)})`;
  if (report.shared.length === 0) {
    pdf.heading(title, 2, { keepWith: 30 });
    pdf.paragraph("No investor is on more than one company's list.", { size: 8.5 });
    return;
  }
  const rows = report.shared.map((s) => [
    printedName(s.name, s.key),
    formatInt(s.companies.length),
    s.companies.map((c) => printedName(c, c)).join(', '),
    fitText(s.bestFit),
  ]);
  tableSection(
    pdf,
    title,
    [
      { header: 'Investor', share: 0.35 },
      { header: 'Companies', values: values(rows, 1), align: 'right' },
      { header: 'Which', share: 0.65 },
      { header: 'Best fit', values: values(rows, 3), align: 'right' },
    ],
    rows,
    {
      notes: ['One introduction can serve several companies: these investors are on two or more lists.'],
      standIn,
    },
  );
}

/** Lays out the opening: header, key figures, the overview and the shared investors. */
export function firstPage(pdf: ReportPdf, report: ShortlistReport, links: ServiceLinks | null = null): void {
  header(pdf, report);
  const figures = openingFigures(report);
  pdf.keyFigures(figures, figures.length);
  const noted = overview(pdf, report, links);
  shared(pdf, report, !noted);
}
