/**
 * The PDF's last appendix, for the operator: the run's own figures (calls, credits, run time,
 * status), the operations it called, its retries and waits, the credits left, and the stored
 * answers the report was made from, by operation (the workbook's Sources sheet lists each).
 */
import { plural } from '../../../reports/editorial.js';
import { formatDuration, formatInt } from '../../../reports/format.js';
import { drawSourcesSection } from '../../../reports/sources.js';
import { headedTable, MUTED } from './pdf-layout.js';
import type { Ctx } from './pdf-layout.js';

/** The run's own figures (calls, credits, time), for the operator: an appendix at the end. */
export function runAppendix(ctx: Ctx): void {
  const { model, pdf } = ctx;
  const s = model.stats;
  pdf.heading('Appendix: run statistics', 1);
  pdf.paragraph(
    'How this report was produced: the calls the run made, the credits it spent and how long it took.',
    {
      color: MUTED,
    },
  );
  pdf.keyFigures(
    [
      { label: 'API calls made', value: formatInt(s.callsMade) },
      {
        label: 'Credits spent',
        value: `${formatInt(s.creditsSpent)}${s.creditBudget !== null ? ` of ${formatInt(s.creditBudget)}` : ''}`,
        note: s.creditBudget !== null ? 'budget' : 'no budget set',
      },
      { label: 'Run time', value: formatDuration(s.durationMs) },
      {
        label: 'Status',
        value: s.partial ? 'Partial' : 'Complete',
        trend: s.partial ? 'down' : 'up',
        note: s.partial ? 'see the methodology' : 'all steps ran',
      },
    ],
    4,
  );
  headedTable(
    ctx,
    'Operations called',
    [
      { header: 'Operation', width: 2 },
      { header: 'Calls', align: 'right' },
      { header: 'Credits', align: 'right' },
    ],
    [
      ...s.operations.map((o) => [o.operation, formatInt(o.calls), formatInt(o.credits ?? 0)]),
      ['Total', formatInt(s.callsMade), formatInt(s.creditsSpent)],
    ],
    {},
    3,
  );
  const extra: string[] = [];
  if (typeof s.retries === 'number') extra.push(`${plural(s.retries, 'retried call')}`);
  if (typeof s.rateLimitWaits === 'number')
    extra.push(`${plural(s.rateLimitWaits, 'wait')} for the rate limit`);
  const sentences: string[] = [];
  if (extra.length > 0) sentences.push(`The run made ${extra.join(', ')}.`);
  if (typeof s.creditsRemaining === 'number')
    sentences.push(`The account had ${formatInt(s.creditsRemaining)} credits left after the run.`);
  if (sentences.length > 0) pdf.paragraph(sentences.join(' '));
  drawSourcesSection(pdf, model.sources, {
    heading: 'Sources: the stored answers',
    level: 3,
    ...(ctx.runKey ? { runKey: ctx.runKey } : {}),
  });
}
