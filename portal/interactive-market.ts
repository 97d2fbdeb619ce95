/**
 * The market report as an interactive page: the PDF's title, key figures and week, each country's
 * tables with its charts, the data agent's answers and the comparison of countries. Every chart
 * is the Vega-Lite spec the PDF renders (`toVegaLite(planned.spec, planned.layout)`, the same
 * call `renderChart` makes), drawn by vega-embed in the browser.
 */
import { toVegaLite } from '../reports/charts/index.js';
import { formatDateRange, moneyHeader, moneyUnit, stageLabel, yearLabel } from '../reports/editorial.js';
import { formatDate, formatInt, formatNumber, headlineText } from '../reports/format.js';
import { readerSentence } from '../reports/editorial.js';
import { readerUrl, type ServiceLinks } from '../reports/links.js';
import {
  answerCellText,
  answerColumnsForPdf,
  answerHeader,
  answerTitle,
  answerUnits,
  isDateColumn,
  isNumericColumn,
} from '../jobs/market-report/report/answers.js';
import type { ChartGroup, PlannedChart } from '../jobs/market-report/report/charts.js';
import { planCharts } from '../jobs/market-report/report/charts.js';
import { notableStartupRows } from '../jobs/market-report/report/country-startups.js';
import {
  countryFigures,
  openingFigures,
  openingHeadline,
  sectorsByChart,
  summaryParagraphs,
  yearRows,
} from '../jobs/market-report/report/figures.js';
import type { CountrySection, InvestorRow, MarketReportModel } from '../jobs/market-report/report/model.js';
import { formatMoneyIn, formatPctFixed } from '../reports/editorial.js';
import { reportTitle } from '../jobs/market-report/report/title.js';
import {
  chartRow,
  esc,
  pair,
  paragraphs,
  section,
  table,
  type Cell,
  type PageChart,
  type PageParts,
} from './interactive-html.js';

/** Rows a table shows, as in the PDF. */
const MAX_ROWS = 25;

/** A planned chart as the page embeds it: the same Vega-Lite spec the PDF renderer is given. */
export function marketPageChart(p: PlannedChart): PageChart {
  return {
    id: p.id,
    title: typeof p.spec.title === 'string' && p.spec.title ? p.spec.title : 'Chart',
    vegaLite: toVegaLite(p.spec, p.layout),
    data: p.spec,
    caption: p.source,
    size: p.size,
  };
}

/** Every chart of the market report's page, in the PDF's order. */
export function marketPageCharts(model: MarketReportModel): PageChart[] {
  return planCharts(model).map(marketPageChart);
}

const link = (text: string, url: string | null | undefined, links: ServiceLinks | null): Cell => ({
  text,
  href: readerUrl(url, links),
});
const pct = (p: number | null | undefined, signed = false) => formatPctFixed(p, signed);

function countryPart(
  model: MarketReportModel,
  c: CountrySection,
  i: number,
  charts: PageChart[],
  planned: PlannedChart[],
  links: ServiceLinks | null,
): string {
  const f = countryFigures(model, c);
  const of = (group: ChartGroup) =>
    planned
      .map((p, k) => ({ p, chart: charts[k] }))
      .filter(({ p }) => p.place.kind === 'country' && p.place.country === i && p.place.group === group)
      .flatMap(({ chart }) => (chart ? [chart] : []));
  const asOf = model.period.asOf;
  const years = yearRows(c, f.ytdYear);
  const yUnit = moneyUnit(years.map((y) => y.capital_usd));
  const stageTotal = c.stage_mix.reduce((s, x) => s + x.deals, 0) || 1;
  const sUnit = moneyUnit(c.stage_mix.map((s) => s.capital_usd));
  const secUnit = moneyUnit(c.top_sectors.map((s) => s.capital_usd));
  const { startups, raisedUnit, lastUnit, cells } = notableStartupRows(c);
  const investors = (title: string, rows: InvestorRow[]) =>
    section(
      title,
      [
        table(
          null,
          [
            { header: '#', numeric: true },
            { header: 'Investor' },
            { header: 'Type' },
            { header: 'HQ' },
            { header: 'Score', numeric: true },
            { header: 'Investments, all time', numeric: true },
          ],
          rows
            .slice(0, MAX_ROWS)
            .map((r, k) => [
              String(k + 1),
              link(r.name, r.url, links),
              r.type ?? '—',
              hqText(r, c.country),
              formatNumber(r.score, 1),
              formatInt(r.investments),
            ]),
          'No investors returned.',
        ),
      ],
      3,
    );
  return section(
    c.country,
    [
      paragraphs([c.summary]),
      outLink(`The service's view of ${c.country}`, readerUrl(c.url, links)),
      section(
        'Deals and capital by year',
        [
          table(
            null,
            [
              { header: 'Year' },
              { header: 'Deals', numeric: true },
              { header: 'Deals YoY', numeric: true },
              { header: moneyHeader('Capital', yUnit), numeric: true },
              { header: 'Capital YoY', numeric: true },
            ],
            years.map((y) => [
              y.partial ? `${y.year} YTD` : yearLabel(y.year, asOf),
              formatInt(y.deals),
              pct(y.deals_yoy_pct, true),
              formatMoneyIn(y.capital_usd, yUnit),
              pct(y.capital_yoy_pct, true),
            ]),
            'No yearly figures returned.',
          ),
          chartRow(of('years')),
        ],
        3,
      ),
      section(
        'Stage mix, last 3 years',
        [
          pair(
            table(
              null,
              [
                { header: 'Stage' },
                { header: 'Deals', numeric: true },
                { header: 'Share', numeric: true },
                { header: moneyHeader('Capital', sUnit), numeric: true },
              ],
              c.stage_mix.map((s) => [
                stageLabel(s.stage),
                formatInt(s.deals),
                pct((s.deals / stageTotal) * 100),
                formatMoneyIn(s.capital_usd, sUnit),
              ]),
            ),
            chartRow(of('stages')),
          ),
        ],
        3,
      ),
      section(
        'Top sectors, last 3 years',
        [
          pair(
            table(
              null,
              [
                { header: 'Sector' },
                { header: 'Deals', numeric: true },
                { header: moneyHeader('Capital', secUnit), numeric: true },
              ],
              sectorsByChart(c.top_sectors)
                .slice(0, MAX_ROWS)
                .map((s) => [s.sector, formatInt(s.deals), formatMoneyIn(s.capital_usd, secUnit)]),
            ),
            chartRow(of('sectors')),
          ),
        ],
        3,
      ),
      section(
        'Most active investors, last 3 years',
        [
          pair(
            table(
              null,
              [
                { header: '#', numeric: true },
                { header: 'Investor' },
                { header: 'Deals, last 3 years', numeric: true },
                { header: 'As lead, last 3 years', numeric: true },
              ],
              c.most_active_investors
                .slice(0, MAX_ROWS)
                .map((m, k) => [
                  String(k + 1),
                  link(m.name, m.url, links),
                  formatInt(m.deals),
                  formatInt(m.lead_deals),
                ]),
            ),
            chartRow(of('investors')),
          ),
        ],
        3,
      ),
      chartRow(of('other')),
      investors('Top investors by score', c.top_investors_by_score),
      investors('Top investors by investments, all time', c.top_investors_by_investments),
      section(
        'Notable startups',
        [
          table(
            null,
            [
              { header: 'Startup' },
              { header: 'Sector' },
              { header: 'Stage' },
              { header: 'HQ' },
              { header: moneyHeader('Raised', raisedUnit), numeric: true },
              { header: moneyHeader('Last round', lastUnit), numeric: true },
              { header: 'Last round date', numeric: true },
            ],
            startups.map((s) => [link(s.name, s.website ?? s.url, links), ...cells(s)]),
            'No startups returned.',
          ),
        ],
        3,
      ),
    ],
    2,
    `country-${i}`,
  );
}

/** "Berlin" in Germany's own section, else "Berlin, Germany" (as the PDF prints it). */
function hqText(r: InvestorRow, section: string): string {
  const same = !!r.hq_country && r.hq_country.trim().toLowerCase() === section.trim().toLowerCase();
  return [r.hq_city, same && r.hq_city ? null : r.hq_country].filter(Boolean).join(', ') || '—';
}

/** A paragraph with one link the reader can open; nothing when there is none. */
const outLink = (text: string, href: string | null): string =>
  href ? `<p><a href="${esc(href)}" rel="noopener noreferrer">${esc(text)}</a></p>` : '';

function answersPart(
  model: MarketReportModel,
  charts: PageChart[],
  planned: PlannedChart[],
  links: ServiceLinks | null,
): string {
  const parts = model.answers.map((a, i) => {
    const title = `${i + 1}. ${answerTitle(a.question, a.country)}`;
    if (a.skipped) return section(title, [paragraphs([`Not asked: ${a.skipped}`])], 3);
    const rows = a.rows ?? [];
    const { shown } = answerColumnsForPdf(a);
    const units = answerUnits(rows, shown);
    const dates = new Set(shown.filter((c) => isDateColumn(rows, c)));
    const mine = planned
      .map((p, k) => ({ p, chart: charts[k] }))
      .filter(({ p }) => p.place.kind === 'answer' && p.place.answer === i)
      .flatMap(({ chart }) => (chart ? [chart] : []));
    const url = readerUrl(a.url, links);
    return section(
      title,
      [
        paragraphs([`Question as asked: “${a.question}”`, a.answer ? readerSentence(a.answer) : null]),
        rows.length > 0 && shown.length > 0
          ? table(
              null,
              shown.map((c) => ({ header: answerHeader(c), numeric: isNumericColumn(rows, c) })),
              rows
                .slice(0, MAX_ROWS)
                .map((r) => shown.map((c) => answerCellText(r[c], c, dates.has(c), units.get(c)))),
            )
          : '',
        chartRow(mine),
        outLink('Full answer', url),
      ],
      3,
    );
  });
  return section('Data agent answers', parts, 2, 'answers');
}

/**
 * The market report page's parts: title, key figures, the summary, each country, the answers
 * and the comparison, every chart from `marketPageCharts`.
 */
export function marketReportParts(model: MarketReportModel, links: ServiceLinks | null): PageParts {
  const planned = planCharts(model);
  const charts = planned.map(marketPageChart);
  const compare = planned
    .map((p, k) => ({ p, chart: charts[k] }))
    .filter(({ p }) => p.place.kind === 'compare')
    .flatMap(({ chart }) => (chart ? [chart] : []));
  const headline = openingHeadline(model);
  // The summary without the sentence the page already leads with.
  const summary = summaryParagraphs(model).filter((p) => headlineText(p) !== headline);
  return {
    title: reportTitle(model),
    subtitle: `${model.job.countries.join(', ')} · ${formatDateRange(model.period.from, model.period.to)} · data as of ${formatDate(model.period.asOf)}`,
    headline,
    figures: openingFigures(model),
    body: [
      section('Summary', [paragraphs(summary)], 2, 'summary'),
      ...model.countries.map((c, i) => countryPart(model, c, i, charts, planned, links)),
      answersPart(model, charts, planned, links),
      section('Cross-country comparison', [chartRow(compare)], 2, 'compare'),
    ],
  };
}
