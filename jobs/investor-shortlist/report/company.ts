/**
 * A portfolio company's section of the shortlist: what the job asked and how the service read
 * the company, its ranked investors (rank, name linked to the service's page, fit, NEW when new
 * since the last run, type, HQ, the first reasons, check size and thesis when enriched), its
 * charts (or why one is left out) and the link to the service's full report. A company without
 * a list says why in a red box.
 */
import { safeUrl } from '../../../reports/excel/index.js';
import { formatInt } from '../../../reports/format.js';
import { callout, chartRows, COLORS } from '../../../reports/pdf/index.js';
import type { ReportPdf, SizedColumn } from '../../../reports/pdf/index.js';
import type { CompanySection, ShortlistReport, ShortlistRow } from '../types.js';
import { companyCharts } from './charts.js';
import type { ShortlistChart } from './charts.js';
import { NOTE_SIZE, tableSection } from './first-page.js';
import { checkText, fitText, hqText, NEW_MARK, printedName, problemSentence, serviceText } from './text.js';

/** Reasons a row shows (the first ones). */
const REASONS = 2;
/** Lines a cell may wrap to. */
const CELL_LINES = 4;

const values = (rows: string[][], i: number): string[] => rows.map((r) => r[i] ?? '');

/** The enriched facts of a row: check size, then the thesis. */
function enrichedCell(r: ShortlistRow): string {
  if (!r.enriched) return '—';
  const check = checkText(r.checkMinUsd, r.checkMaxUsd);
  return (
    [check !== '—' ? `Check ${check}` : null, r.thesis ? serviceText(r.thesis) : null]
      .filter((x): x is string => x !== null)
      .join('\n') || '—'
  );
}

/** A column of the investors' table: how it is sized and what a row prints in it. */
interface InvestorColumn {
  column: SizedColumn;
  cell: (r: ShortlistRow) => string;
  /** A one-line column, as wide as its widest text. */
  fit?: boolean;
}

function investorColumns(withNew: boolean, withEnriched: boolean): InvestorColumn[] {
  return [
    { column: { header: '#', align: 'right' }, cell: (r) => String(r.rank), fit: true },
    {
      column: { header: 'Investor', share: withEnriched ? 0.27 : 0.3 },
      cell: (r) => printedName(r.name, r.key),
    },
    ...(withNew
      ? [{ column: { header: 'New' }, cell: (r: ShortlistRow) => (r.isNew ? NEW_MARK : ''), fit: true }]
      : []),
    { column: { header: 'Fit', align: 'right' }, cell: (r) => fitText(r.fitPct), fit: true },
    {
      column: { header: 'Type', max: 0.12 },
      cell: (r) => serviceText(r.investorType ?? '') || '—',
      fit: true,
    },
    { column: { header: 'HQ', max: 0.16 }, cell: hqText, fit: true },
    {
      column: { header: 'Why (first reasons)', share: withEnriched ? 0.37 : 0.7 },
      cell: (r) => r.why.slice(0, REASONS).map(serviceText).join('; ') || '—',
    },
    ...(withEnriched
      ? [{ column: { header: 'Check, thesis (enriched)', share: 0.36 }, cell: enrichedCell }]
      : []),
  ];
}

function investors(pdf: ReportPdf, report: ShortlistReport, c: CompanySection): void {
  const withNew = !report.baseline;
  const withEnriched = c.investors.some((r) => r.enriched);
  const cols = investorColumns(withNew, withEnriched);
  const rows = c.investors.map((r) => cols.map((col) => col.cell(r)));
  const columns = cols.map((col, i) => (col.fit ? { ...col.column, values: values(rows, i) } : col.column));
  // The investor's name links to its page at the service.
  const links = c.investors.map((r) =>
    cols.map((col) => (col.column.header === 'Investor' ? safeUrl(r.url) : null)),
  );
  const notes = [
    ...(withNew && c.newCount > 0 ? [`${NEW_MARK}: not on this company's list at the job's last run.`] : []),
    ...(withEnriched
      ? [
          'Check size and thesis for the investors enriched with their profile; the workbook adds their recent portfolio.',
        ]
      : []),
  ];
  tableSection(pdf, `Investors ranked for ${printedName(c.name, c.name)}`, columns, rows, {
    maxLines: CELL_LINES,
    links,
    notes,
    notesFirst: true,
  });
}

function summaryLine(report: ShortlistReport, c: CompanySection): string {
  const enriched = c.investors.filter((r) => r.enriched).length;
  return [
    `${formatInt(c.investors.length)} ${c.investors.length === 1 ? 'investor' : 'investors'} ranked by the service`,
    report.baseline ? 'the baseline of this company' : `${formatInt(c.newCount)} new since the last run`,
    enriched > 0 ? `the top ${formatInt(enriched)} enriched with their profile` : null,
    `${formatInt(c.charged)} ${c.charged === 1 ? 'credit' : 'credits'} charged`,
  ]
    .filter((x): x is string => x !== null)
    .join(' · ');
}

function charts(pdf: ReportPdf, list: readonly ShortlistChart[], i: number, name: string): void {
  const { drawn, notes } = companyCharts(list, i);
  const pairs: ShortlistChart[][] = [];
  for (let k = 0; k < drawn.length; k += 2) pairs.push(drawn.slice(k, k + 2));
  if (drawn.length > 0) chartRows(pdf, `The service's match overview for ${printedName(name, name)}`, pairs);
  for (const n of notes) pdf.paragraph(serviceText(n), { size: NOTE_SIZE, color: COLORS.muted, gap: 2 });
}

/** Lays out company `i`'s section on a new page. */
export function companySection(
  pdf: ReportPdf,
  report: ShortlistReport,
  list: readonly ShortlistChart[],
  i: number,
): void {
  const c = report.companies[i];
  if (!c) return;
  // A company without a list is a few lines: it does not take a page of its own.
  pdf.heading(printedName(c.name, `Company ${i + 1}`), 1, c.problem === null ? {} : { newPage: false });
  pdf.paragraph(`Asked: ${serviceText(c.asked)}`, { size: 9 });
  if (c.readAs) pdf.paragraph(`Read by the service as: ${serviceText(c.readAs)}`, { size: 9 });
  if (c.problem !== null) {
    callout(
      pdf,
      `No investors listed for ${printedName(c.name, `company ${i + 1}`)}`,
      [serviceText(problemSentence(c.problem))],
      { tone: 'alert' },
    );
  } else if (c.investors.length === 0) {
    pdf.paragraph('The service listed no investor for this company.', { size: 9 });
  } else {
    pdf.paragraph(summaryLine(report, c), { size: 9, color: COLORS.muted });
    investors(pdf, report, c);
  }
  charts(pdf, list, i, c.name);
  const url = safeUrl(c.reportUrl);
  if (url) {
    pdf.paragraph("The service's full report of this match (online):", { size: 9, gap: 0 });
    pdf.paragraph(url, { size: 9, link: url });
  }
}
