/**
 * The weekly market report as a PDF: cover, contents, executive summary, one section per
 * country, the data agent's answers, a cross-country comparison and the methodology.
 */
import { safeUrl } from '../excel/safe.js';
import { formatDate, formatDateTime, formatDuration, formatInt, formatNumber, formatPct, formatUsd } from '../format.js';
import { humanizeKey, unitFromKey } from '../charts/index.js';
import { ReportPdf } from '../pdf/index.js';
import type { KeyFigure, TableColumn, TableOptions } from '../pdf/index.js';
import { COMPARE_CAPITAL, COMPARE_DEALS, countryChartId, serviceChartId } from './charts.js';
import type { PlannedChart, RenderedCharts } from './charts.js';
import { countryFigures, summaryParagraphs, totals, trendOf, yearRows } from './figures.js';
import type { AgentAnswer, CountrySection, InvestorRow, MarketReportModel } from './model.js';

interface Ctx {
  pdf: ReportPdf;
  model: MarketReportModel;
  charts: RenderedCharts;
  planned: Map<string, PlannedChart>;
  drawn: Set<string>;
}

const MAX_TABLE_ROWS = 25;

function yoyNote(p: number | null | undefined, label = 'YoY'): string | undefined {
  return typeof p === 'number' && Number.isFinite(p) ? `${formatPct(p, true)} ${label}` : undefined;
}

function drawChart(ctx: Ctx, id: string): void {
  const c = ctx.charts.get(id);
  if (!c) return;
  ctx.pdf.chart(c, { caption: ctx.planned.get(id)?.source ?? '' });
  ctx.drawn.add(id);
}

/** A level-2 (or 3) heading kept on the page with the table that follows it, then the table. */
function headedTable(ctx: Ctx, title: string, columns: TableColumn[], rows: string[][], options: TableOptions = {}, level: 2 | 3 = 2): void {
  ctx.pdf.heading(title, level, { keepWith: ctx.pdf.tableKeepHeight(columns, rows, options) });
  ctx.pdf.table(columns, rows, options);
}

/** A heading kept with the chart that follows it. */
function chartKeep(ctx: Ctx, id: string): number {
  const c = ctx.charts.get(id);
  return c ? ctx.pdf.chartHeight(c, { caption: 'x' }) : 60;
}

function link(url: string | null | undefined): string | null {
  return safeUrl(url);
}

/** Title of the report as printed. */
export function reportTitle(model: MarketReportModel): string {
  return model.job.title.trim() || 'Weekly market report';
}

function cover(ctx: Ctx): void {
  const { model, pdf } = ctx;
  const names = model.countries.map((c) => c.country);
  pdf.cover({
    kicker: 'Venture market report',
    title: reportTitle(model),
    subtitle: names.length > 0 ? names.join(' · ') : model.job.countries.join(' · '),
    lines: [
      `Period: ${formatDate(model.period.from)} to ${formatDate(model.period.to)}`,
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

function executiveSummary(ctx: Ctx): void {
  const { model, pdf } = ctx;
  const t = totals(model);
  pdf.heading('Executive summary', 1);
  const tiles: KeyFigure[] = [
    { label: `Deals ${t.lastFullYear}`, value: formatInt(t.deals), ...withTrend(t.dealsYoy) },
    { label: `Capital ${t.lastFullYear}`, value: formatUsd(t.capital), ...withTrend(t.capitalYoy) },
    { label: `Deals ${t.ytdYear} YTD`, value: formatInt(t.ytdDeals), note: `to ${formatDate(model.period.asOf)}` },
    { label: `Capital ${t.ytdYear} YTD`, value: formatUsd(t.ytdCapital), note: `to ${formatDate(model.period.asOf)}` },
    { label: 'Countries', value: formatInt(model.countries.length), note: model.countries.map((c) => c.country).join(', ') },
    { label: 'New startups', value: formatInt(model.comparison.newStartups.length), note: model.comparison.previousRunAt ? `since ${formatDate(model.comparison.previousRunAt)}` : 'first run' },
    { label: 'New top investors', value: formatInt(model.comparison.newTopInvestors.length), note: model.comparison.previousRunAt ? `since ${formatDate(model.comparison.previousRunAt)}` : 'first run' },
    { label: 'Agent answers', value: formatInt(model.answers.filter((a) => !a.skipped).length), note: `${model.answers.filter((a) => a.skipped).length} skipped` },
  ];
  pdf.keyFigures(tiles, 4);
  for (const p of summaryParagraphs(model)) pdf.paragraph(p);

  const changes = model.comparison.changes;
  if (changes.length > 0) {
    headedTable(
      ctx,
      'Changes since the previous run and year on year',
      [{ header: 'Country', width: 2 }, { header: 'Deals vs last run', align: 'right' }, { header: 'Capital vs last run', align: 'right' }, { header: 'Deals YTD YoY', align: 'right' }, { header: 'Capital YTD YoY', align: 'right' }],
      changes.map((c) => [c.country, formatPct(c.deals_vs_last_run_pct, true), formatPct(c.capital_vs_last_run_pct, true), formatPct(c.deals_yoy_pct, true), formatPct(c.capital_yoy_pct, true)]),
      {},
      3,
    );
  }
  const cmp = model.comparison;
  if (cmp.newStartups.length > 0 || cmp.newTopInvestors.length > 0) {
    pdf.heading('New since the previous run', 3, { keepWith: 50 });
    const items = [
      ...cmp.newStartups.slice(0, 12).map((s) => `Startup: ${s.name}${s.country ? ` (${s.country})` : ''}`),
      ...cmp.newTopInvestors.slice(0, 12).map((s) => `Top investor: ${s.name}${s.country ? ` (${s.country})` : ''}`),
    ];
    const more = cmp.newStartups.length + cmp.newTopInvestors.length - items.length;
    pdf.bullets(more > 0 ? [...items, `and ${more} more (see the workbook)`] : items);
  }
}

function withTrend(p: number | null): Pick<KeyFigure, 'note' | 'trend'> {
  const note = yoyNote(p);
  return note ? { note, trend: trendOf(p) } : {};
}

function investorTable(ctx: Ctx, title: string, rows: InvestorRow[]): void {
  const list = rows.slice(0, MAX_TABLE_ROWS);
  headedTable(
    ctx,
    title,
    [
      { header: '#', width: 0.35, align: 'right' },
      { header: 'Investor', width: 2.6 },
      { header: 'Type', width: 1.3 },
      { header: 'HQ', width: 1.6 },
      { header: 'Score', width: 0.8, align: 'right' },
      { header: 'Investments', width: 1.1, align: 'right' },
    ],
    list.map((r, i) => [String(i + 1), r.name, r.type ?? '—', [r.hq_city, r.hq_country].filter(Boolean).join(', ') || '—', formatNumber(r.score, 1), formatInt(r.investments)]),
    { links: list.map((r) => [null, link(r.url)]), emptyText: 'No investors returned.' },
  );
}

function countrySection(ctx: Ctx, c: CountrySection, index: number): void {
  const { model, pdf } = ctx;
  const f = countryFigures(model, c);
  pdf.heading(c.country, 1);
  const tiles: KeyFigure[] = [
    { label: `Deals ${f.lastFullYear}`, value: formatInt(f.lastFull.deals), ...withTrend(f.lastFull.dealsYoy) },
    { label: `Capital ${f.lastFullYear}`, value: formatUsd(f.lastFull.capital), ...withTrend(f.lastFull.capitalYoy) },
    { label: `Deals ${f.ytdYear} YTD`, value: formatInt(f.ytd.deals), ...(f.change?.deals_yoy_pct != null ? withTrend(f.change.deals_yoy_pct) : { note: `to ${formatDate(model.period.asOf)}` }) },
    { label: `Capital ${f.ytdYear} YTD`, value: formatUsd(f.ytd.capital), ...(f.change?.capital_yoy_pct != null ? withTrend(f.change.capital_yoy_pct) : { note: `to ${formatDate(model.period.asOf)}` }) },
  ];
  pdf.keyFigures(tiles, 4);
  const prose: string[] = [];
  if (c.summary) prose.push(c.summary.trim());
  const facts = [
    f.earlyShare !== null ? `Seed and earlier rounds make up ${formatPct(f.earlyShare)} of deals over the last three years.` : '',
    f.topSector ? `The leading sector is ${f.topSector}.` : '',
    f.topInvestor ? `The most active investor is ${f.topInvestor}.` : '',
    c.as_of ? `Country data as of ${formatDate(c.as_of)}.` : '',
  ].filter(Boolean);
  if (facts.length > 0) prose.push(facts.join(' '));
  for (const p of prose) pdf.paragraph(p);

  const years = yearRows(c, f.ytdYear);
  headedTable(
    ctx,
    'Deals and capital by year',
    [{ header: 'Year', width: 1.2 }, { header: 'Deals', align: 'right' }, { header: 'Deals YoY', align: 'right' }, { header: 'Capital', align: 'right' }, { header: 'Capital YoY', align: 'right' }, { header: 'Avg. deal', align: 'right' }],
    years.map((y) => [
      y.partial ? `${y.year} (YTD)` : String(y.year),
      formatInt(y.deals),
      formatPct(y.deals_yoy_pct, true),
      formatUsd(y.capital_usd),
      formatPct(y.capital_yoy_pct, true),
      formatUsd(y.deals > 0 ? y.capital_usd / y.deals : null),
    ]),
    { emptyText: 'No yearly figures returned.' },
  );
  drawChart(ctx, countryChartId(index, 'years'));

  if (c.stage_mix.length > 0) {
    const total = c.stage_mix.reduce((s, x) => s + x.deals, 0) || 1;
    headedTable(
      ctx,
      'Stage mix',
      [{ header: 'Stage', width: 1.6 }, { header: 'Deals', align: 'right' }, { header: 'Share of deals', align: 'right' }, { header: 'Capital', align: 'right' }],
      c.stage_mix.map((s) => [s.stage, formatInt(s.deals), formatPct((s.deals / total) * 100), formatUsd(s.capital_usd)]),
    );
    drawChart(ctx, countryChartId(index, 'stages'));
  }

  if (c.top_sectors.length > 0) {
    pdf.heading('Top sectors', 2, { keepWith: chartKeep(ctx, countryChartId(index, 'sectors')) });
    drawChart(ctx, countryChartId(index, 'sectors'));
    pdf.table(
      [{ header: 'Sector', width: 2.4 }, { header: 'Deals', align: 'right' }, { header: 'Capital', align: 'right' }],
      c.top_sectors.slice(0, MAX_TABLE_ROWS).map((s) => [s.sector, formatInt(s.deals), formatUsd(s.capital_usd)]),
    );
  }

  if (c.most_active_investors.length > 0) {
    const list = c.most_active_investors.slice(0, MAX_TABLE_ROWS);
    headedTable(
      ctx,
      'Most active investors',
      [{ header: '#', width: 0.35, align: 'right' }, { header: 'Investor', width: 3 }, { header: 'Deals', align: 'right' }, { header: 'As lead', align: 'right' }],
      list.map((m, i) => [String(i + 1), m.name, formatInt(m.deals), formatInt(m.lead_deals)]),
      { links: list.map((m) => [null, link(m.url)]) },
    );
    drawChart(ctx, countryChartId(index, 'investors'));
  }

  investorTable(ctx, 'Top investors by score', c.top_investors_by_score);
  investorTable(ctx, 'Top investors by number of investments', c.top_investors_by_investments);

  const startups = c.notable_startups.slice(0, MAX_TABLE_ROWS);
  headedTable(
    ctx,
    'Notable startups',
    [
      { header: 'Startup', width: 2 },
      { header: 'Sector', width: 2 },
      { header: 'Stage', width: 1 },
      { header: 'Total raised', width: 1, align: 'right' },
      { header: 'Last round', width: 1.5, align: 'right' },
    ],
    startups.map((s) => [
      s.name,
      s.sector ?? '—',
      s.stage ?? '—',
      formatUsd(s.total_raised_usd),
      [formatUsd(s.last_round_amount_usd), s.last_round_date ? formatDate(s.last_round_date) : ''].filter((x) => x && x !== '—').join(', ') || '—',
    ]),
    { links: startups.map((s) => [link(s.url)]), emptyText: 'No startups returned.' },
  );

  const profiles = c.profiles ?? [];
  if (profiles.length > 0) {
    pdf.heading('Investor profiles', 2, { keepWith: 80 });
    for (const p of profiles) {
      pdf.heading([p.name, p.type, p.hq].filter(Boolean).join(' · '), 3, { keepWith: 50 });
      if (p.thesis) pdf.paragraph(p.thesis);
      const portfolio = p.recent_portfolio ?? [];
      if (portfolio.length > 0) {
        pdf.bullets(
          portfolio.slice(0, 8).map((r) => [r.name, r.stage, formatUsd(r.amount_usd) === '—' ? null : formatUsd(r.amount_usd), r.date ? formatDate(r.date) : null].filter(Boolean).join(' · ')),
          { size: 8.5 },
        );
      }
    }
  }

  if (c.charts.length > 0) {
    pdf.heading('Charts from the service', 2, { keepWith: chartKeep(ctx, serviceChartId(index, 0)) });
    c.charts.forEach((_, j) => drawChart(ctx, serviceChartId(index, j)));
  }
  if (c.url && link(c.url)) {
    pdf.paragraph(`Interactive country view: ${c.url}`, { size: 8, color: '#5b6470' });
  }
}

function answerColumns(a: AgentAnswer): string[] {
  const rows = a.rows ?? [];
  const cols = a.columns && a.columns.length > 0 ? a.columns : Object.keys(rows[0] ?? {});
  return cols.slice(0, 6);
}

function cellText(v: unknown, column: string): string {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'number') {
    const unit = unitFromKey(column);
    if (unit === 'usd') return formatUsd(v);
    if (unit === 'pct') return formatPct(v);
    return Number.isInteger(v) ? formatInt(v) : formatNumber(v, 2);
  }
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  return JSON.stringify(v);
}

function answersSection(ctx: Ctx): void {
  const { model, pdf } = ctx;
  if (model.answers.length === 0) return;
  pdf.heading('Data agent answers', 1);
  pdf.paragraph('Questions put to the service’s data agent (ask) for this report, with the rows it returned. Answers are the agent’s own words.', { color: '#5b6470' });
  model.answers.forEach((a, i) => {
    pdf.heading(`${i + 1}. ${a.question}`, 2, { keepWith: 80 });
    if (a.country) pdf.paragraph(`Country: ${a.country}`, { size: 8.5, color: '#5b6470', gap: 2 });
    if (a.skipped) {
      pdf.paragraph(`Not asked: ${a.skipped}`, { color: '#c0392b' });
      return;
    }
    if (a.answer) pdf.paragraph(a.answer);
    const rows = a.rows ?? [];
    const cols = answerColumns(a);
    if (rows.length > 0 && cols.length > 0) {
      const shown = rows.slice(0, MAX_TABLE_ROWS);
      pdf.table(
        cols.map((c, j) => ({ header: humanizeKey(c), width: j === 0 ? 2 : 1, align: shown.every((r) => typeof r[c] === 'number' || r[c] == null) ? 'right' : 'left' }) satisfies TableColumn),
        shown.map((r) => cols.map((c) => cellText(r[c], c))),
      );
      if (rows.length > shown.length) pdf.paragraph(`${rows.length - shown.length} more rows in the workbook.`, { size: 8, color: '#5b6470' });
    }
    for (const [id] of ctx.planned) if (id.startsWith(`a${i}-`)) drawChart(ctx, id);
    if (a.url && link(a.url)) pdf.paragraph(`Full answer: ${a.url}`, { size: 8, color: '#5b6470' });
  });
}

function comparisonSection(ctx: Ctx): void {
  const { model, pdf } = ctx;
  if (model.countries.length === 0) return;
  const figs = model.countries.map((c) => countryFigures(model, c));
  const lfy = figs[0]?.lastFullYear ?? 0;
  const ytd = figs[0]?.ytdYear ?? 0;
  const t = totals(model);
  pdf.heading('Cross-country comparison', 1);
  pdf.paragraph(`Capital and deals per country for the last full year (${lfy}) and ${ytd} to ${formatDate(model.period.asOf)}. Shares are of the total across the countries in this report.`);
  pdf.table(
    [
      { header: 'Country', width: 1.6 },
      { header: `Deals ${lfy}`, align: 'right' },
      { header: 'YoY', width: 0.8, align: 'right' },
      { header: `Capital ${lfy}`, align: 'right' },
      { header: 'YoY', width: 0.8, align: 'right' },
      { header: 'Share', width: 0.8, align: 'right' },
      { header: `Deals ${ytd} YTD`, align: 'right' },
      { header: `Capital ${ytd} YTD`, align: 'right' },
    ],
    [
      ...figs.map((f) => [
        f.country,
        formatInt(f.lastFull.deals),
        formatPct(f.lastFull.dealsYoy, true),
        formatUsd(f.lastFull.capital),
        formatPct(f.lastFull.capitalYoy, true),
        t.capital > 0 ? formatPct(((f.lastFull.capital ?? 0) / t.capital) * 100) : '—',
        formatInt(f.ytd.deals),
        formatUsd(f.ytd.capital),
      ]),
      ['Total', formatInt(t.deals), formatPct(t.dealsYoy, true), formatUsd(t.capital), formatPct(t.capitalYoy, true), t.capital > 0 ? '100%' : '—', formatInt(t.ytdDeals), formatUsd(t.ytdCapital)],
    ],
  );
  drawChart(ctx, COMPARE_CAPITAL);
  drawChart(ctx, COMPARE_DEALS);
}

function methodology(ctx: Ctx): void {
  const { model, pdf } = ctx;
  const s = model.stats;
  pdf.heading('Methodology', 1);
  pdf.keyFigures(
    [
      { label: 'API calls made', value: formatInt(s.callsMade) },
      { label: 'Credits spent', value: `${formatInt(s.creditsSpent)}${s.creditBudget !== null ? ` of ${formatInt(s.creditBudget)}` : ''}`, note: s.creditBudget !== null ? 'budget' : 'no budget set' },
      { label: 'Run time', value: formatDuration(s.durationMs) },
      { label: 'Status', value: s.partial ? 'Partial' : 'Complete', trend: s.partial ? 'down' : 'up', note: s.partial ? `${s.partialReasons.length} reason(s) below` : 'all steps ran' },
    ],
    4,
  );
  pdf.heading('Sources', 3, { keepWith: 40 });
  pdf.bullets(s.sources.length > 0 ? s.sources : ['Venture Intelligence Service']);
  headedTable(
    ctx,
    'Operations called',
    [{ header: 'Operation', width: 2 }, { header: 'Calls', align: 'right' }, { header: 'Credits', align: 'right' }],
    [...s.operations.map((o) => [o.operation, formatInt(o.calls), formatInt(o.credits ?? 0)]), ['Total', formatInt(s.callsMade), formatInt(s.creditsSpent)]],
    {},
    3,
  );
  const extra: string[] = [];
  if (typeof s.retries === 'number') extra.push(`${formatInt(s.retries)} retried calls`);
  if (typeof s.rateLimitWaits === 'number') extra.push(`${formatInt(s.rateLimitWaits)} waits for the rate limit`);
  if (typeof s.creditsRemaining === 'number') extra.push(`${formatInt(s.creditsRemaining)} credits left on the account after the run`);
  if (extra.length > 0) pdf.paragraph(`The run made ${extra.join(', ')}.`);
  pdf.heading(s.partial ? 'What is partial and why' : 'Completeness', 3, { keepWith: 40 });
  if (s.partial) pdf.bullets(s.partialReasons.length > 0 ? s.partialReasons : ['The run stopped early.']);
  else pdf.paragraph('Every planned call ran; no section of this report is missing data because of the run budget or limits.');
  pdf.heading('Definitions and notes', 3, { keepWith: 60 });
  pdf.bullets([
    `Data as of ${formatDate(model.period.asOf)}. Venture data is revised as rounds are reported late: past periods can change between runs.`,
    'Deals are funding rounds with a known date; capital is the sum of disclosed round amounts in US dollars. Undisclosed amounts count as deals, not as capital.',
    'YoY compares a full year with the year before. YTD is the current year up to the as-of date; YTD YoY compares it with the same period of the previous year.',
    'Stage mix, top sectors and most active investors cover the last three years, as returned by country_overview.',
    'Top investors come from search_investors (sorted by the service’s investor score, and by number of investments); notable startups from search_startups.',
    'Changes since the previous run compare this run’s figures and lists with the last completed run of the same job.',
  ]);
}

/** Number of contents entries (levels 1 and 2) the report will have. */
function estimateEntries(model: MarketReportModel): number {
  let n = 3 + model.countries.length * 9 + (model.answers.length > 0 ? 1 + model.answers.length : 0);
  n += model.countries.filter((c) => (c.profiles ?? []).length > 0).length;
  return n;
}

/** Lays out the market report PDF; returns the document (call `finish`) and charts drawn. */
export function buildMarketPdf(model: MarketReportModel, charts: RenderedCharts, planned: PlannedChart[], options: { creationDate?: Date } = {}): { pdf: ReportPdf; drawn: Set<string> } {
  const title = reportTitle(model);
  const pdf = new ReportPdf({
    title,
    subject: `Venture market report: ${model.countries.map((c) => c.country).join(', ')}`,
    keywords: ['venture', 'market report', ...model.countries.map((c) => c.country)].join(', '),
    creationDate: options.creationDate ?? new Date(model.generatedAt),
    footerText: `${title} · data as of ${formatDate(model.period.asOf)}`,
  });
  const ctx: Ctx = { pdf, model, charts, planned: new Map(planned.map((p) => [p.id, p])), drawn: new Set() };
  cover(ctx);
  pdf.reserveContents(estimateEntries(model));
  executiveSummary(ctx);
  model.countries.forEach((c, i) => countrySection(ctx, c, i));
  answersSection(ctx);
  comparisonSection(ctx);
  methodology(ctx);
  return { pdf, drawn: ctx.drawn };
}

