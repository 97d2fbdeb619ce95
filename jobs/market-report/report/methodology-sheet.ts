/** The workbook's Methodology sheet: the definitions, the sources, and what is partial and why. */
import { formatDate } from '../../../reports/format.js';
import { noSourcesNote } from '../../../reports/sources.js';
import { COMPUTED_FIGURES, sourcesSentence } from './provenance.js';
import type { SheetCtx } from './sheet-helpers.js';

export function writeMethodologySheet(ctx: SheetCtx): void {
  const { book, model } = ctx;
  const m = book.addSheet('Methodology');
  let mr = book.addTitle(
    m,
    'Methodology',
    `Data as of ${formatDate(model.period.asOf)}; past periods may be revised as data comes in.`,
  );
  mr = book.addParagraphs(
    m,
    [
      'The week: the rounds and capital the service added for a country between the previous run and this one (its deals and capital over every year now, minus at the previous run); a round reported late counts in the week it appears. The largest rounds of the week are the rounds the data agent’s answers list with a date in the seven days to the as-of date.',
      'Money: each table shows amounts in one unit, named in its header ($M or $B), as in the PDF; the cells hold US dollars.',
    ],
    mr,
    { heading: 'Definitions', span: 3, charsPerLine: 90 },
  );
  mr = book.addParagraphs(
    m,
    [
      ...(model.stats.sources.length > 0 ? model.stats.sources : ['Venture Intelligence Service']),
      model.sources ? sourcesSentence(model.sources.length) : noSourcesNote(ctx.runKey),
      COMPUTED_FIGURES,
    ],
    mr,
    { heading: 'Sources', span: 3, charsPerLine: 90 },
  );
  if (model.stats.partial)
    book.addParagraphs(
      m,
      model.stats.partialReasons.length > 0 ? model.stats.partialReasons : ['The run stopped early.'],
      mr,
      { heading: 'What is partial and why', span: 3, charsPerLine: 90 },
    );
}
