/**
 * The shortlist's appendix, after the companies: what the run spent and asked (the credits of
 * the budget, each company's credits, the lists and profiles asked), then where the figures
 * come from (the sources by operation). Run statistics are for whoever runs the job; a reader
 * of the shortlist acts on the pages before.
 */
import { plural } from '../../../reports/editorial.js';
import { formatInt } from '../../../reports/format.js';
import type { ReportPdf } from '../../../reports/pdf/index.js';
import type { ShortlistReport } from '../types.js';
import { tableSection } from './first-page.js';
import { sourcesPart } from './sources.js';
import { creditsLine, printedName } from './text.js';

/** The appendix's lines: the credits, the lists and the profiles the run asked. */
export function runLines(report: ShortlistReport): string[] {
  const asked = report.companies.filter((c) => c.problem === null || c.charged > 0).length;
  const profiles = report.companies.reduce((n, c) => n + c.investors.filter((r) => r.enriched).length, 0);
  return [
    creditsLine(report),
    `Lists asked (find_investors, paid): ${plural(asked, 'company', 'companies')} of ${formatInt(report.companies.length)}; ` +
      `profiles read (get_investor, free): ${plural(profiles, 'investor')}.`,
  ];
}

/** Lays out the appendix after the last company, on its page when it has room. */
export function appendix(pdf: ReportPdf, report: ShortlistReport, runKey?: string): void {
  pdf.heading('Appendix: about this run', 1, { newPage: false });
  for (const line of runLines(report)) pdf.paragraph(line, { size: 9 });
  const rows = report.companies.map((c) => [printedName(c.name, c.name), formatInt(c.charged)]);
  tableSection(
    pdf,
    'Credits charged per company',
    [
      { header: 'Company', share: 1 },
      { header: 'Credits', values: rows.map((r) => r[1] ?? ''), align: 'right' },
    ],
    rows,
    { standIn: false },
  );
  sourcesPart(pdf, report, runKey);
}
