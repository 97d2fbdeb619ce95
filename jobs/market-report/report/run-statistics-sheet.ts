/**
 * The workbook's last sheet, Run statistics, for the operator: the run's key figures (calls,
 * credits, run time, status, retries and waits) and the operations it called.
 */
import type { SheetCtx } from './sheet-helpers.js';

/** Run statistics: the operator's figures, on their own sheet at the end. */
export function writeRunStatisticsSheet(ctx: SheetCtx): void {
  const { book, model } = ctx;
  const rs = book.addSheet('Run statistics');
  let rr = book.addTitle(rs, 'Run statistics', 'How this report was produced: calls, credits and run time.');
  rr = book.addKeyFigures(
    rs,
    [
      { label: 'API calls made', value: model.stats.callsMade, kind: 'int' },
      { label: 'Credits spent', value: model.stats.creditsSpent, kind: 'int' },
      {
        label: 'Credit budget',
        value: model.stats.creditBudget,
        kind: 'int',
        note: model.stats.creditBudget === null ? 'no budget set' : '',
      },
      { label: 'Run time (seconds)', value: Math.round(model.stats.durationMs / 100) / 10, kind: 'number' },
      {
        label: 'Status',
        value: model.stats.partial ? 'Partial' : 'Complete',
        note: model.stats.partialReasons.join('; '),
      },
      ...(typeof model.stats.retries === 'number'
        ? [{ label: 'Retried calls', value: model.stats.retries, kind: 'int' as const }]
        : []),
      ...(typeof model.stats.rateLimitWaits === 'number'
        ? [{ label: 'Waits for the rate limit', value: model.stats.rateLimitWaits, kind: 'int' as const }]
        : []),
      ...(typeof model.stats.creditsRemaining === 'number'
        ? [{ label: 'Credits left after the run', value: model.stats.creditsRemaining, kind: 'int' as const }]
        : []),
    ],
    rr,
  );
  rs.getCell(rr, 1).value = 'Operations called';
  rs.getCell(rr, 1).font = { bold: true, size: 12, color: { argb: 'FF1F4E79' } };
  rr++;
  book.addDataTable(rs, {
    name: 'Operations',
    origin: { row: rr, col: 1 },
    columns: [
      { header: 'Operation', key: 'operation', width: 32 },
      { header: 'Calls', key: 'calls', kind: 'int', width: 16 },
      { header: 'Credits', key: 'credits', kind: 'int', width: 16 },
    ],
    rows: model.stats.operations.map((o) => ({ ...o, credits: o.credits ?? 0 })),
  });
}
