/**
 * The triage's appendix, for whoever runs the job: what the run spent (credits of the budget,
 * credits per deck with what became of it), the decks the budget left unsent, by name, then
 * where the figures come from (the sources by operation). A partner acts on the pages before.
 */
import { formatInt } from '../../../reports/format.js';
import type { ReportPdf } from '../../../reports/pdf/index.js';
import type { DeckTriageReport } from '../types.js';
import { tableSection } from './first-page.js';
import { sourcesPart } from './sources.js';
import { creditsLine, outcomeText, overBudgetLine, printedName, serviceText } from './text.js';

/** The appendix's lines on the run: the credits, the decks the budget left unsent. */
export function runLines(report: DeckTriageReport): string[] {
  const c = report.counts;
  return [
    creditsLine(report),
    `Decks of the run: ${formatInt(report.decks.length)}; analysed this run ${formatInt(c.analysed)}, carried from earlier runs ${formatInt(c.carried)}, ` +
      `failed ${formatInt(c.failed)}, timed out ${formatInt(c.timedOut)}, duplicates ${formatInt(c.duplicates)}.`,
    ...[overBudgetLine(report)].filter((l): l is string => l !== null),
  ];
}

/** Lays out the appendix after the last deck, on its page when it has room. */
export function appendix(pdf: ReportPdf, report: DeckTriageReport, runKey?: string): void {
  pdf.heading('Appendix: about this run', 1);
  for (const line of runLines(report)) pdf.paragraph(line, { size: 9 });
  const rows = report.decks.map((d) => [
    printedName(d),
    serviceText(d.label),
    outcomeText(d),
    formatInt(d.credits),
  ]);
  tableSection(
    pdf,
    'Credits per deck',
    [
      { header: 'Startup', share: 0.4 },
      { header: 'File or link', share: 0.6 },
      { header: 'Outcome', values: rows.map((r) => r[2] ?? '') },
      { header: 'Credits', values: rows.map((r) => r[3] ?? ''), align: 'right' },
    ],
    rows,
    { after: ['Credits per deck: computed by the runner from its books of the paid calls.'] },
  );
  if (report.overBudget.length > 0) {
    pdf.heading(`Left out by the budget (${formatInt(report.overBudget.length)})`, 2, { keepWith: 40 });
    pdf.bullets(
      report.overBudget.map((l) => serviceText(l)),
      { size: 9 },
    );
  }
  sourcesPart(pdf, report, runKey);
}
