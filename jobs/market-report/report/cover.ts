/** The PDF's cover: the report's title, its countries, the week, the dates and the sources. */
import { formatDateRange } from '../../../reports/editorial.js';
import { formatDate, formatDateTime } from '../../../reports/format.js';
import type { Ctx } from './pdf-layout.js';
import { reportTitle } from './title.js';

export function cover(ctx: Ctx): void {
  const { model, pdf } = ctx;
  const names = model.countries.map((c) => c.country);
  pdf.cover({
    kicker: 'Venture market report',
    title: reportTitle(model),
    subtitle: names.length > 0 ? names.join(' · ') : model.job.countries.join(' · '),
    lines: [
      `Week: ${formatDateRange(model.period.from, model.period.to)}`,
      `Data as of ${formatDate(model.period.asOf)}`,
      `Generated ${formatDateTime(model.generatedAt)}`,
      ...(model.stats.partial ? ['Status: partial (see Methodology)'] : []),
    ],
    note:
      'Source: Venture Intelligence Service (country_overview, search_investors, search_startups, get_investor, ask). ' +
      'Amounts in US dollars. Figures for past periods may be revised as data comes in; the as-of date above applies. ' +
      `Job ${model.job.id}.`,
  });
}
