/**
 * A portfolio company's section of the shortlist: what the job asked and how the service read
 * the company, its charts (or why one is left out; first, so the list after them shares their
 * page and no page holds charts alone), its ranked investors (rank, name linked to the
 * investor's website, else to its page at the service when a reader can open it, a partner from
 * its team, fit, NEW when new since the last run, type, HQ, the most telling reasons, check size
 * in one unit for the column and thesis when enriched; every cell whole, the row grows) and the
 * link to the service's full report when a reader can open it. A company without a list says
 * why in a red box.
 */
import { plural } from '../../../reports/editorial.js';
import { readerUrl } from '../../../reports/links.js';
import type { ServiceLinks } from '../../../reports/links.js';
import { callout, chartRows, COLORS } from '../../../reports/pdf/index.js';
import type { ReportPdf, SizedColumn } from '../../../reports/pdf/index.js';
import type { CompanySection, ShortlistReport, ShortlistRow } from '../types.js';
import { companyCharts } from './charts.js';
import type { ShortlistChart } from './charts.js';
import { NOTE_SIZE, tableSection } from './first-page.js';
import {
  checkFormat,
  checkText,
  fitText,
  hqText,
  NEW_MARK,
  partnerText,
  printedName,
  problemSentence,
  reasonText,
  serviceText,
  tellingFirst,
} from './text.js';
import type { CheckFormat } from './text.js';

/** Reasons a row shows, the most telling first (the workbook has them all). */
const REASONS = 3;

const values = (rows: string[][], i: number): string[] => rows.map((r) => r[i] ?? '');

/** The enriched facts of a row: check size (in the column's unit), then the thesis. */
function enrichedCell(r: ShortlistRow, format: CheckFormat): string {
  if (!r.enriched) return '—';
  const check = checkText(r.checkMinUsd, r.checkMaxUsd, format);
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

/** The investor's name, and on a line under it the partner to ask for when the profile names one. */
function investorCell(r: ShortlistRow): string {
  const partner = partnerText(r.partner ?? null);
  return printedName(r.name, r.key) + (partner ? `\n${partner}` : '');
}

/** The reasons a row prints: the most telling first, whole, stage keys in words. */
function whyCell(r: ShortlistRow): string {
  return (
    tellingFirst(r.why)
      .slice(0, REASONS)
      .map((w) => serviceText(reasonText(w)))
      .join('; ') || '—'
  );
}

function investorColumns(withNew: boolean, withEnriched: boolean, format: CheckFormat): InvestorColumn[] {
  return [
    { column: { header: '#', align: 'right' }, cell: (r) => String(r.rank), fit: true },
    {
      column: { header: 'Investor', share: withEnriched ? 0.2 : 0.25 },
      cell: investorCell,
    },
    ...(withNew
      ? [{ column: { header: 'New' }, cell: (r: ShortlistRow) => (r.isNew ? NEW_MARK : ''), fit: true }]
      : []),
    { column: { header: 'Fit', align: 'right' }, cell: (r) => fitText(r.fitPct), fit: true },
    {
      column: { header: 'Type, HQ', share: 0.14 },
      cell: (r) => [serviceText(r.investorType ?? '') || '—', hqText(r)].join('\n'),
    },
    {
      column: { header: 'Why (most telling reasons)', share: withEnriched ? 0.4 : 0.6 },
      cell: whyCell,
    },
    ...(withEnriched
      ? [
          {
            column: { header: 'Check, thesis (enriched)', share: 0.26 },
            cell: (r: ShortlistRow) => enrichedCell(r, format),
          },
        ]
      : []),
  ];
}

/** Where an investor's name links: its website, else its page at the service; only what a reader can open. */
export function investorLink(r: ShortlistRow, links: ServiceLinks | null): string | null {
  return readerUrl(r.website ?? null, links) ?? readerUrl(r.url, links);
}

function investors(
  pdf: ReportPdf,
  report: ShortlistReport,
  c: CompanySection,
  serviceLinks: ServiceLinks | null,
): void {
  const withNew = !report.baseline;
  const withEnriched = c.investors.some((r) => r.enriched);
  const cols = investorColumns(withNew, withEnriched, checkFormat(c.investors.filter((r) => r.enriched)));
  const rows = c.investors.map((r) => cols.map((col) => col.cell(r)));
  const columns = cols.map((col, i) => (col.fit ? { ...col.column, values: values(rows, i) } : col.column));
  const links = c.investors.map((r) =>
    cols.map((col) => (col.column.header === 'Investor' ? investorLink(r, serviceLinks) : null)),
  );
  const notes = [
    ...(withNew && c.newCount > 0 ? [`${NEW_MARK}: not on this company's list at the job's last run.`] : []),
    ...(withEnriched
      ? [
          'Check size, thesis and a partner from the team for the investors enriched with their profile; the workbook adds their recent portfolio and every reason.',
        ]
      : []),
    ...(c.investors.some((r) => readerUrl(r.website ?? null, serviceLinks) !== null)
      ? ["An investor's name links to its website where the service gives one."]
      : []),
  ];
  tableSection(pdf, `Investors ranked for ${printedName(c.name, c.name)}`, columns, rows, {
    links,
    notes,
    notesFirst: true,
  });
}

function summaryLine(report: ShortlistReport, c: CompanySection): string {
  const enriched = c.investors.filter((r) => r.enriched).length;
  return [
    `${plural(c.investors.length, 'investor')} ranked by the service`,
    report.baseline
      ? 'the baseline of this company'
      : `${plural(c.newCount, 'investor')} new since the last run`,
    enriched > 0 ? `the top ${plural(enriched, 'investor')} enriched with their profile` : null,
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
  links: ServiceLinks | null = null,
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
  }
  // The charts before the list: the list fills the rest of their page.
  charts(pdf, list, i, c.name);
  if (c.problem === null && c.investors.length > 0) investors(pdf, report, c, links);
  const url = readerUrl(c.reportUrl, links);
  if (url) {
    pdf.paragraph("The service's full report of this match (online):", { size: 9, gap: 0 });
    pdf.paragraph(url, { size: 9, link: url });
  }
}
