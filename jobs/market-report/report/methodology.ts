/** The PDF's methodology: the sources, what is partial and why, and the definitions. */
import { yearLabel } from '../../../reports/editorial.js';
import { formatDate } from '../../../reports/format.js';
import { totals } from './figures.js';
import { COMPUTED_FIGURES, sourcesSentence } from './provenance.js';
import type { Ctx } from './pdf-layout.js';

export function methodology(ctx: Ctx): void {
  const { model, pdf } = ctx;
  const s = model.stats;
  pdf.heading('Methodology', 1);
  pdf.heading('Sources', 3, { keepWith: 40 });
  pdf.bullets([
    ...(s.sources.length > 0 ? s.sources : ['Venture Intelligence Service']),
    // The answers themselves are listed in the workbook and counted in the appendix.
    ...(model.sources
      ? [`${sourcesSentence(model.sources.length)} The appendix counts them by operation.`]
      : []),
  ]);
  pdf.heading(s.partial ? 'What is partial and why' : 'Completeness', 3, { keepWith: 40 });
  if (s.partial) pdf.bullets(s.partialReasons.length > 0 ? s.partialReasons : ['The run stopped early.']);
  else
    pdf.paragraph(
      'Every planned call ran; no section of this report is missing data because of the run budget or limits.',
    );
  pdf.heading('Definitions and notes', 3, { keepWith: 60 });
  const ytd = yearLabel(totals(model).ytdYear, model.period.asOf);
  pdf.bullets([
    `Data as of ${formatDate(model.period.asOf)}. Venture data is revised as rounds are reported late: past periods can change between runs.`,
    'The week: the rounds and capital the service added for a country between the previous run and this one (its deals and capital over every year now, minus at the previous run), so a round reported late counts in the week it appears. The previous week is the previous run’s; the average is over the last four runs where they exist. The largest rounds of the week are the rounds the data agent’s answers list with a date in the seven days to the as-of date.',
    'Deals are funding rounds with a known date; capital is the sum of disclosed round amounts in US dollars. Undisclosed amounts count as deals, not as capital.',
    `YoY compares a full year with the year before. ${ytd} is the current year up to the as-of date, and is compared with the same period of the year before.`,
    'Stage mix, top sectors and most active investors (deals, and deals as lead) cover the last three years, as returned by country_overview.',
    'Top investors come from search_investors (sorted by the service’s investor score, and by investments, all time); notable startups from search_startups. Startup names link to the company’s website where the service gives one.',
    'Changes since the previous run compare this run’s figures and lists with the last completed run of the same job.',
    COMPUTED_FIGURES,
  ]);
}
