/**
 * The weekly market report as a PDF: cover, contents, executive summary, one section per
 * country, the data agent's answers, a cross-country comparison and the methodology.
 *
 * Layout: a table and its chart share a row when the table is narrow; charts go two by two;
 * each chart the service returned is drawn once, in the subsection it belongs to (see
 * `planCharts`); a heading stays with the block under it, and a block moves to the next page
 * only when it does not fit.
 */
import {
  formatDateRange,
  formatMoneyIn,
  formatPctFixed,
  moneyHeader,
  moneyUnit,
  plural,
  readerSentence,
  stageLabel,
  yearLabel,
  type MoneyUnit,
} from '../../../reports/editorial.js';
import { readerUrl, type ServiceLinks } from '../../../reports/links.js';
import { measureText } from '../../../reports/fonts.js';
import {
  formatDate,
  formatDateTime,
  formatDuration,
  formatInt,
  formatNumber,
} from '../../../reports/format.js';
import { ReportPdf } from '../../../reports/pdf/index.js';
import type { KeyFigure, RowCell, TableColumn, TableOptions } from '../../../reports/pdf/index.js';
import {
  answerCellText,
  answerColumnsForPdf,
  answerUnits,
  answerHeader,
  isDateColumn,
  isNumericColumn,
} from './answers.js';
import type { ChartGroup, PlannedChart, RenderedCharts } from './charts.js';
import {
  countryFigures,
  money,
  openingFigures,
  sectorsByChart,
  summaryParts,
  totals,
  weekSentences,
  weekTotals,
  withTrend,
  yearRows,
} from './figures.js';
import { answerTitle } from './answers.js';
import type { CountrySection, InvestorRow, MarketReportModel } from './model.js';

interface Ctx {
  pdf: ReportPdf;
  model: MarketReportModel;
  charts: RenderedCharts;
  planned: PlannedChart[];
  drawn: Set<string>;
  links: ServiceLinks | null;
}

/** A percentage as every table prints it: one decimal, signed for changes. */
const pct = (p: number | null | undefined, signed = false): string => formatPctFixed(p, signed);
/** An amount in a table's unit (named once in its header). */
const inUnit = (usd: number | null | undefined, unit: MoneyUnit): string => formatMoneyIn(usd, unit);

const MAX_TABLE_ROWS = 25;
const MUTED = '#5b6470';

interface TableBlock {
  columns: TableColumn[];
  rows: string[][];
  options?: TableOptions;
}

function drawChart(ctx: Ctx, p: PlannedChart): void {
  const c = ctx.charts.get(p.id);
  if (!c) return;
  ctx.pdf.chart(c, { caption: p.source });
  ctx.drawn.add(p.id);
}

function chartCell(ctx: Ctx, p: PlannedChart): RowCell | null {
  const c = ctx.charts.get(p.id);
  if (!c) return null;
  return { measure: () => ctx.pdf.chartHeight(c, { caption: p.source }), draw: () => drawChart(ctx, p) };
}

function tableCell(ctx: Ctx, t: TableBlock): RowCell {
  return {
    measure: () => ctx.pdf.measureTable(t.columns, t.rows, t.options),
    draw: () => ctx.pdf.table(t.columns, t.rows, t.options),
  };
}

/** A block of the layout: drawn, and how tall it is (for the heading above it). */
interface Block {
  height: () => number;
  draw: () => void;
}

/**
 * A table and its planned charts as blocks: the first half-width chart beside the table (when
 * `beside`), then the charts two by two (half width) or alone (full width).
 */
function tableAndCharts(
  ctx: Ctx,
  table: TableBlock | null,
  charts: PlannedChart[],
  beside: boolean,
): Block[] {
  const { pdf } = ctx;
  const blocks: Block[] = [];
  const rest = [...charts];
  if (table) {
    const first = rest[0];
    const firstCell = first && first.size === 'half' && beside ? chartCell(ctx, first) : null;
    if (firstCell) {
      rest.shift();
      const cells = [tableCell(ctx, table), firstCell];
      blocks.push({ height: () => pdf.measureRow(cells), draw: () => pdf.row(cells) });
    } else {
      blocks.push({
        height: () => pdf.tableKeepHeight(table.columns, table.rows, table.options),
        draw: () => pdf.table(table.columns, table.rows, table.options),
      });
    }
  }
  while (rest.length > 0) {
    const a = rest.shift();
    if (!a) break;
    const b = a.size === 'half' && rest[0]?.size === 'half' ? rest.shift() : undefined;
    const cells = [a, b]
      .filter((x): x is PlannedChart => !!x)
      .map((p) => chartCell(ctx, p))
      .filter((x): x is RowCell => !!x);
    if (cells.length === 0) continue;
    if (cells.length === 1 && a.size === 'full') {
      const c = ctx.charts.get(a.id);
      blocks.push({
        height: () => (c ? pdf.chartHeight(c, { caption: a.source }) : 0),
        draw: () => drawChart(ctx, a),
      });
    } else {
      // A lone half-width chart sits in the left half, like the charts above it.
      const row = cells.length === 1 ? [...cells, { measure: () => 0, draw: () => undefined }] : cells;
      blocks.push({ height: () => pdf.measureRow(row), draw: () => pdf.row(row) });
    }
  }
  return blocks;
}

/** A heading kept on the page with the first block under it, then the blocks. */
function headed(ctx: Ctx, title: string, level: 2 | 3, blocks: Block[]): void {
  const first = blocks[0];
  ctx.pdf.heading(title, level, { keepWith: first ? Math.min(first.height(), ctx.pdf.pageBody * 0.6) : 40 });
  for (const b of blocks) b.draw();
}

/** A level-2 (or 3) heading kept on the page with the table that follows it, then the table. */
function headedTable(
  ctx: Ctx,
  title: string,
  columns: TableColumn[],
  rows: string[][],
  options: TableOptions = {},
  level: 2 | 3 = 2,
): void {
  ctx.pdf.heading(title, level, { keepWith: ctx.pdf.tableKeepHeight(columns, rows, options) });
  ctx.pdf.table(columns, rows, options);
}

function countryCharts(ctx: Ctx, index: number, group: ChartGroup): PlannedChart[] {
  return ctx.planned.filter(
    (p) => p.place.kind === 'country' && p.place.country === index && p.place.group === group,
  );
}

/** A link the reader can open (readerUrl), or null. */
function link(ctx: Ctx, url: string | null | undefined): string | null {
  return readerUrl(url, ctx.links);
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

function executiveSummary(ctx: Ctx): void {
  const { model, pdf } = ctx;
  const t = totals(model);
  const cmp = model.comparison;
  const asOf = model.period.asOf;
  const ytd = yearLabel(t.ytdYear, asOf);
  pdf.heading('Executive summary', 1);
  pdf.keyFigures(openingFigures(model), 4);
  const week = weekSentences(model);
  pdf.paragraph(week.lead);
  pdf.paragraph(week.basis, { size: 8.5, color: MUTED });

  const w = model.week;
  if (w?.since) {
    const tw = weekTotals(model);
    const rows = w.countries.map((c) => ({ name: c.country, ...c }));
    const all = { name: 'All countries', week: tw.week, previous: tw.previous, average: tw.average };
    const unit = moneyUnit(
      [...rows, all].flatMap((r) => [r.week?.capital_usd, r.previous?.capital_usd, r.average?.capital_usd]),
    );
    const runs = Math.max(0, ...rows.map((r) => r.average?.runs ?? 0));
    const avgHeader = runs > 1 ? `${runs}-run avg.` : null;
    const change = (now: number | undefined, prev: number | undefined) =>
      now === undefined || prev === undefined || prev === 0
        ? '—'
        : pct(((now - prev) / Math.abs(prev)) * 100, true);
    headedTable(
      ctx,
      `The week by country: rounds added since ${formatDate(w.since)}`,
      [
        { header: 'Country', width: 1.7 },
        { header: 'Deals', width: 0.7, align: 'right' },
        { header: 'Prev. week', width: 0.8, align: 'right' },
        ...(avgHeader ? [{ header: avgHeader, width: 0.8, align: 'right' } satisfies TableColumn] : []),
        { header: 'Change', width: 0.8, align: 'right' },
        { header: moneyHeader('Capital', unit), width: 0.9, align: 'right' },
        { header: `Prev. week (${unit === 'K' ? '$K' : `$${unit}`})`, width: 0.9, align: 'right' },
        ...(avgHeader
          ? [
              {
                header: `${avgHeader} (${unit === 'K' ? '$K' : `$${unit}`})`,
                width: 0.9,
                align: 'right',
              } satisfies TableColumn,
            ]
          : []),
      ],
      [...rows, all].map((r) => [
        r.name,
        r.week ? formatInt(r.week.deals) : '—',
        r.previous ? formatInt(r.previous.deals) : '—',
        ...(avgHeader ? [r.average ? formatNumber(r.average.deals, 1) : '—'] : []),
        change(r.week?.deals, r.previous?.deals),
        inUnit(r.week?.capital_usd, unit),
        inUnit(r.previous?.capital_usd, unit),
        ...(avgHeader ? [inUnit(r.average?.capital_usd, unit)] : []),
      ]),
      {},
      3,
    );
    pdf.paragraph(
      `Prev. week: the previous run's week. ${avgHeader ? `${avgHeader}: the average week of the last ${runs} runs. ` : ''}Change: deals against the previous week.`,
      { size: 8, color: MUTED },
    );
  }
  if (w) {
    const title = `Largest rounds dated ${formatDateRange(w.from, w.to)}`;
    if (w.rounds.length > 0) {
      const unit = moneyUnit(w.rounds.map((r) => r.amount_usd));
      headedTable(
        ctx,
        title,
        [
          { header: 'Startup', width: 1.8 },
          { header: 'Country', width: 1.3 },
          { header: 'Stage', width: 0.9 },
          { header: moneyHeader('Amount', unit), width: 0.9, align: 'right' },
          { header: 'Date', width: 0.9 },
          { header: 'Lead investor', width: 1.8 },
        ],
        w.rounds.map((r) => [
          r.startup,
          r.country ?? '—',
          stageLabel(r.stage),
          inUnit(r.amount_usd, unit),
          formatDate(r.date),
          r.lead_investor ?? 'not disclosed',
        ]),
        {},
        3,
      );
    } else {
      pdf.heading(title, 3, { keepWith: 30 });
      pdf.paragraph(
        w.roundsAsked
          ? 'The data agent listed no round dated in these seven days.'
          : 'None of this job’s questions to the data agent lists rounds (for example “largest rounds of the last 7 days in {country}”), so the week’s rounds are not named.',
        { size: 8.5, color: MUTED },
      );
    }
  }

  const figs = model.countries.map((c) => countryFigures(model, c));
  pdf.heading(`The year to date: ${ytd} against the same period of ${t.ytdYear - 1}`, 2, { keepWith: 120 });
  const parts = summaryParts(model);
  for (const p of parts.overview) pdf.paragraph(p);
  if (figs.length > 0) {
    const unit = moneyUnit(figs.flatMap((f) => [f.ytd.capital, f.lastFull.capital]));
    headedTable(
      ctx,
      `${ytd} by country`,
      [
        { header: 'Country', width: 1.8 },
        { header: `Deals ${ytd}`, align: 'right' },
        { header: `vs same period ${t.ytdYear - 1}`, align: 'right' },
        { header: moneyHeader(`Capital ${ytd}`, unit), width: 1.3, align: 'right' },
        { header: `vs same period ${t.ytdYear - 1}`, align: 'right' },
        { header: `Deals ${t.lastFullYear}`, align: 'right' },
        { header: moneyHeader(`Capital ${t.lastFullYear}`, unit), align: 'right' },
      ],
      figs.map((f) => [
        f.country,
        formatInt(f.ytd.deals),
        pct(f.ytd.dealsYoy, true),
        inUnit(f.ytd.capital, unit),
        pct(f.ytd.capitalYoy, true),
        formatInt(f.lastFull.deals),
        inUnit(f.lastFull.capital, unit),
      ]),
      {},
      3,
    );
  }
  if (parts.countries.length > 0) pdf.bullets(parts.countries);
  for (const p of parts.changes) pdf.paragraph(p);
  if (cmp.newStartups.length > 0 || cmp.newTopInvestors.length > 0) {
    pdf.heading('New since the previous run', 3, { keepWith: 40 });
    // One paragraph per list, names grouped by country: compact even with dozens of names.
    const lists: [string, typeof cmp.newStartups][] = [
      ['Startups new to the notable lists', cmp.newStartups],
      ['Investors new to the top lists', cmp.newTopInvestors],
    ];
    for (const [label, names] of lists) {
      if (names.length === 0) continue;
      pdf.paragraph(`${label} (${names.length}): ${namesByCountry(names, 24)}`, { size: 8.5 });
    }
  }
}

/** "A, B (Germany); C (France) and 3 more (see the workbook)": at most `max` names. */
function namesByCountry(names: { name: string; country?: string | null }[], max: number): string {
  const shown = names.slice(0, max);
  const groups = new Map<string, string[]>();
  for (const n of shown) {
    const key = n.country ?? '';
    groups.set(key, [...(groups.get(key) ?? []), n.name]);
  }
  const text = [...groups.entries()]
    .map(([country, list]) => `${list.join(', ')}${country ? ` (${country})` : ''}`)
    .join('; ');
  const more = names.length - shown.length;
  return more > 0 ? `${text}; and ${more} more (see the workbook).` : `${text}.`;
}

/** "San Francisco" in a section about the city's own country, else "San Francisco, United States". */
function hqText(
  city: string | null | undefined,
  country: string | null | undefined,
  section: string,
): string {
  const sameCountry = !!country && country.trim().toLowerCase() === section.trim().toLowerCase();
  return [city, sameCountry && city ? null : country].filter(Boolean).join(', ') || '—';
}

function investorTable(ctx: Ctx, title: string, rows: InvestorRow[], section: string): void {
  const list = rows.slice(0, MAX_TABLE_ROWS);
  headedTable(
    ctx,
    title,
    [
      { header: '#', width: 0.35, align: 'right' },
      { header: 'Investor', width: 2.8 },
      { header: 'Type', width: 1.2 },
      { header: 'HQ', width: 1.6 },
      { header: 'Score', width: 0.7, align: 'right' },
      { header: 'Investments, all time', width: 1.15, align: 'right' },
    ],
    list.map((r, i) => [
      String(i + 1),
      r.name,
      r.type ?? '—',
      hqText(r.hq_city, r.hq_country, section),
      formatNumber(r.score, 1),
      formatInt(r.investments),
    ]),
    { links: list.map((r) => [null, link(ctx, r.url)]), emptyText: 'No investors returned.' },
  );
}

function countrySection(ctx: Ctx, c: CountrySection, index: number): void {
  const { model, pdf } = ctx;
  const f = countryFigures(model, c);
  pdf.heading(c.country, 1);
  const url = link(ctx, c.url);
  if (url) pdf.paragraph(`Interactive country view: ${url}`, { size: 8, link: url, gap: 6 });
  const asOf = model.period.asOf;
  const ytdLabel = yearLabel(f.ytdYear, asOf);
  const ytdNote = (p: number | null): Pick<KeyFigure, 'note' | 'trend'> =>
    // The tile's label names the year to date; "same period" is of the year before (fits the tile).
    p != null ? withTrend(p, 'vs same period') : { note: `to ${formatDate(asOf)}` };
  const tileUnit = moneyUnit([f.lastFull.capital, f.ytd.capital]);
  pdf.keyFigures(
    [
      { label: `Deals ${ytdLabel}`, value: formatInt(f.ytd.deals), ...ytdNote(f.ytd.dealsYoy) },
      { label: `Capital ${ytdLabel}`, value: money(f.ytd.capital, tileUnit), ...ytdNote(f.ytd.capitalYoy) },
      {
        label: `Deals ${f.lastFullYear}`,
        value: formatInt(f.lastFull.deals),
        ...withTrend(f.lastFull.dealsYoy),
      },
      {
        label: `Capital ${f.lastFullYear}`,
        value: money(f.lastFull.capital, tileUnit),
        ...withTrend(f.lastFull.capitalYoy),
      },
    ],
    4,
  );
  const prose: string[] = [];
  if (c.summary) prose.push(readerSentence(c.summary.trim()));
  const facts = [
    f.earlyShare !== null
      ? `Seed and earlier rounds make up ${pct(f.earlyShare)} of deals over the last three years.`
      : '',
    f.topSector ? `The leading sector is ${f.topSector}.` : '',
    f.topInvestor ? `The most active investor over the last three years is ${f.topInvestor}.` : '',
    c.as_of ? `Country data as of ${formatDate(c.as_of)}.` : '',
  ].filter(Boolean);
  if (facts.length > 0) prose.push(facts.join(' '));
  for (const p of prose) pdf.paragraph(p);
  if (c.not_provided && c.not_provided.length > 0)
    pdf.paragraph(`Not provided by the service: ${c.not_provided.join('; ')}.`, { size: 8, color: MUTED });

  const years = yearRows(c, f.ytdYear);
  const yearUnit = moneyUnit(years.map((y) => y.capital_usd));
  const avgUnit = moneyUnit(years.map((y) => (y.deals > 0 ? y.capital_usd / y.deals : null)));
  headed(
    ctx,
    'Deals and capital by year',
    2,
    tableAndCharts(
      ctx,
      {
        columns: [
          { header: 'Year', width: 1.2 },
          { header: 'Deals', align: 'right' },
          { header: 'Deals YoY', align: 'right' },
          { header: moneyHeader('Capital', yearUnit), align: 'right' },
          { header: 'Capital YoY', align: 'right' },
          { header: moneyHeader('Avg. deal', avgUnit), align: 'right' },
        ],
        rows: years.map((y) => [
          y.partial ? `${y.year} YTD` : yearLabel(y.year, asOf),
          formatInt(y.deals),
          pct(y.deals_yoy_pct, true),
          inUnit(y.capital_usd, yearUnit),
          pct(y.capital_yoy_pct, true),
          inUnit(y.deals > 0 ? y.capital_usd / y.deals : null, avgUnit),
        ]),
        options: { emptyText: 'No yearly figures returned.' },
      },
      countryCharts(ctx, index, 'years'),
      false,
    ),
  );

  const stageCharts = countryCharts(ctx, index, 'stages');
  if (c.stage_mix.length > 0 || stageCharts.length > 0) {
    const total = c.stage_mix.reduce((s, x) => s + x.deals, 0) || 1;
    const unit = moneyUnit(c.stage_mix.map((s) => s.capital_usd));
    const table: TableBlock | null =
      c.stage_mix.length > 0
        ? {
            columns: [
              { header: 'Stage', width: 1.5 },
              { header: 'Deals', align: 'right' },
              { header: 'Share', width: 0.8, align: 'right' },
              { header: moneyHeader('Capital', unit), align: 'right' },
            ],
            rows: c.stage_mix.map((s) => [
              stageLabel(s.stage),
              formatInt(s.deals),
              pct((s.deals / total) * 100),
              inUnit(s.capital_usd, unit),
            ]),
          }
        : null;
    headed(ctx, 'Stage mix, last 3 years', 2, tableAndCharts(ctx, table, stageCharts, true));
  }

  const sectorCharts = countryCharts(ctx, index, 'sectors');
  if (c.top_sectors.length > 0 || sectorCharts.length > 0) {
    const unit = moneyUnit(c.top_sectors.map((s) => s.capital_usd));
    const table: TableBlock | null =
      c.top_sectors.length > 0
        ? {
            columns: [
              { header: 'Sector', width: 2.4 },
              { header: 'Deals', width: 0.8, align: 'right' },
              { header: moneyHeader('Capital', unit), width: 0.9, align: 'right' },
            ],
            // Sorted as the chart beside it plots them (sectorsByChart).
            rows: sectorsByChart(c.top_sectors)
              .slice(0, MAX_TABLE_ROWS)
              .map((s) => [s.sector, formatInt(s.deals), inUnit(s.capital_usd, unit)]),
          }
        : null;
    headed(ctx, 'Top sectors, last 3 years', 2, tableAndCharts(ctx, table, sectorCharts, true));
  }

  const investorCharts = countryCharts(ctx, index, 'investors');
  if (c.most_active_investors.length > 0 || investorCharts.length > 0) {
    const list = c.most_active_investors.slice(0, MAX_TABLE_ROWS);
    const table: TableBlock | null =
      list.length > 0
        ? {
            columns: [
              { header: '#', width: 0.4, align: 'right' },
              { header: 'Investor', width: 2.1 },
              { header: 'Deals, last 3 years', width: 1.25, align: 'right' },
              { header: 'As lead, last 3 years', width: 1.25, align: 'right' },
            ],
            rows: list.map((m, i) => [String(i + 1), m.name, formatInt(m.deals), formatInt(m.lead_deals)]),
            options: { links: list.map((m) => [null, link(ctx, m.url)]) },
          }
        : null;
    headed(
      ctx,
      `Most active investors, last 3 years: ${c.country}`,
      2,
      tableAndCharts(ctx, table, investorCharts, true),
    );
  }

  investorTable(ctx, 'Top investors by score', c.top_investors_by_score, c.country);
  investorTable(ctx, 'Top investors by investments, all time', c.top_investors_by_investments, c.country);

  const startups = c.notable_startups.slice(0, MAX_TABLE_ROWS);
  const raisedUnit = moneyUnit(startups.map((s) => s.total_raised_usd));
  const lastUnit = moneyUnit(startups.map((s) => s.last_round_amount_usd));
  headedTable(
    ctx,
    'Notable startups',
    [
      { header: 'Startup', width: 1.5 },
      { header: 'Sector', width: 1.9 },
      { header: 'Stage', width: 0.95 },
      { header: 'HQ', width: 1.05 },
      { header: moneyHeader('Raised', raisedUnit), width: 0.9, align: 'right' },
      { header: moneyHeader('Last round', lastUnit), width: 1.05, align: 'right' },
      // Wide enough for "13 Apr 2025" on one line (a date is never split).
      { header: 'Last round date', width: 1.15, align: 'right' },
    ],
    startups.map((s) => [
      s.name,
      s.sector ?? '—',
      stageLabel(s.stage),
      s.hq_city ?? '—',
      inUnit(s.total_raised_usd, raisedUnit),
      inUnit(s.last_round_amount_usd, lastUnit),
      s.last_round_date ? formatDate(s.last_round_date) : '—',
    ]),
    {
      links: startups.map((s) => [link(ctx, s.website) ?? link(ctx, s.url)]),
      emptyText: 'No startups returned.',
    },
  );

  const profiles = c.profiles ?? [];
  if (profiles.length > 0) {
    pdf.heading('Investor profiles', 2, { keepWith: 80 });
    for (const p of profiles) {
      pdf.heading([p.name, p.type, p.hq].filter(Boolean).join(' · '), 3, { keepWith: 40 });
      if (p.thesis) pdf.paragraph(p.thesis, { size: 8.5, gap: 3 });
      const portfolio = (p.recent_portfolio ?? []).slice(0, 8);
      if (portfolio.length > 0) {
        const items = portfolio.map((r) => {
          const detail = [
            r.stage ? stageLabel(r.stage) : null,
            typeof r.amount_usd === 'number' ? money(r.amount_usd) : null,
            r.date ? formatDate(r.date) : null,
          ]
            .filter(Boolean)
            .join(', ');
          return detail ? `${r.name} (${detail})` : r.name;
        });
        pdf.paragraph(`Recent portfolio: ${items.join('; ')}.`, { size: 8, color: MUTED });
      }
    }
  }

  const other = countryCharts(ctx, index, 'other');
  if (other.length > 0)
    headed(ctx, 'Other charts from the service', 2, tableAndCharts(ctx, null, other, false));
}

function answersSection(ctx: Ctx): void {
  const { model, pdf } = ctx;
  if (model.answers.length === 0) return;
  pdf.heading('Data agent answers', 1);
  pdf.paragraph(
    'Questions put to the service’s data agent (ask) for this report, with the rows it returned. Answers are the agent’s own words.',
    { color: MUTED },
  );
  model.answers.forEach((a, i) => {
    pdf.heading(`${i + 1}. ${answerTitle(a.question, a.country)}`, 2, { keepWith: 80 });
    pdf.paragraph(`Question as asked: “${a.question}”`, { size: 8, color: MUTED, gap: 2 });
    if (a.skipped) {
      pdf.paragraph(`Not asked: ${a.skipped}`, { color: '#c0392b' });
      return;
    }
    if (a.answer) pdf.paragraph(readerSentence(a.answer));
    const rows = a.rows ?? [];
    const { shown, left } = answerColumnsForPdf(a);
    let table: TableBlock | null = null;
    if (rows.length > 0 && shown.length > 0) {
      const list = rows.slice(0, MAX_TABLE_ROWS);
      const dates = new Set(shown.filter((c) => isDateColumn(rows, c)));
      const units = answerUnits(list, shown);
      const widths = fitWidths(
        shown.map((c) => columnWeight(c, list, dates.has(c))),
        pdf.pageContentWidth,
      );
      table = {
        columns: shown.map(
          (c, k) =>
            ({
              header: answerHeader(c),
              width: widths[k] ?? 1,
              align: isNumericColumn(list, c) ? 'right' : 'left',
            }) satisfies TableColumn,
        ),
        rows: list.map((r) => shown.map((c) => answerCellText(r[c], c, dates.has(c), units.get(c)))),
      };
    }
    const charts = ctx.planned.filter((p) => p.place.kind === 'answer' && p.place.answer === i);
    for (const b of tableAndCharts(ctx, table, charts, true)) b.draw();
    const notes: string[] = [];
    if (rows.length > MAX_TABLE_ROWS) notes.push(`${rows.length - MAX_TABLE_ROWS} more rows in the workbook`);
    if (left.length > 0)
      notes.push(
        `${left.length} more column${left.length > 1 ? 's' : ''} in the workbook (${left.map(answerHeader).join(', ')})`,
      );
    if (notes.length > 0) pdf.paragraph(`${notes.join('; ')}.`, { size: 8, color: MUTED });
    const url = link(ctx, a.url);
    if (url) pdf.paragraph(`Full answer: ${url}`, { size: 8, link: url });
  });
}

/**
 * Width of an answer column in points (the table scales the widths to the page): room for
 * the widest value up to 160 pt and for the longest word of the header, so that neither a
 * date nor a header word is split.
 */
function columnWeight(column: string, rows: Record<string, unknown>[], dates: boolean): number {
  const values = rows.slice(0, 30).map((r) => measureText(answerCellText(r[column], column, dates), 8));
  const words = answerHeader(column)
    .split(/\s+/)
    .map((w) => measureText(w, 8, true));
  return Math.max(Math.min(160, Math.max(0, ...values)), ...words, 24) + 8;
}

/**
 * Widths that fill `total`: when the natural widths are too wide, only the part of each
 * column beyond `floor` shrinks (long names and sectors wrap; dates, stages and amounts keep
 * their width); when they are narrower, every column grows in proportion.
 */
export function fitWidths(natural: number[], total: number, floor = 72): number[] {
  const sum = natural.reduce((a, b) => a + b, 0);
  if (sum <= total || sum === 0) return natural;
  const excess = sum - total;
  const shrinkable = natural.reduce((a, w) => a + Math.max(0, w - floor), 0);
  if (shrinkable < excess) return natural.map((w) => (w / sum) * total);
  return natural.map((w) => w - (Math.max(0, w - floor) / shrinkable) * excess);
}

function comparisonSection(ctx: Ctx): void {
  const { model, pdf } = ctx;
  if (model.countries.length === 0) return;
  const figs = model.countries.map((c) => countryFigures(model, c));
  const lfy = figs[0]?.lastFullYear ?? 0;
  const ytdYear = figs[0]?.ytdYear ?? 0;
  const ytd = yearLabel(ytdYear, model.period.asOf);
  const t = totals(model);
  const unit = moneyUnit([
    t.capital,
    t.ytdCapital,
    ...figs.flatMap((f) => [f.lastFull.capital, f.ytd.capital]),
  ]);
  pdf.heading('Cross-country comparison', 1);
  pdf.paragraph(
    `Capital and deals per country in ${ytd} (to ${formatDate(model.period.asOf)}) and in the last full year, ${lfy}. Each country's ${lfy} share is of the ${lfy} capital across the countries in this report.`,
  );
  const table: TableBlock = {
    columns: [
      // Widths that keep every header on two lines at most (a header is never cut).
      { header: 'Country', width: 1.15 },
      { header: `Deals ${ytd}`, align: 'right' },
      { header: moneyHeader(`Capital ${ytd}`, unit), width: 1.05, align: 'right' },
      { header: `Deals ${lfy}`, width: 0.85, align: 'right' },
      { header: `Deals ${lfy} YoY`, width: 0.85, align: 'right' },
      { header: moneyHeader(`Capital ${lfy}`, unit), width: 1.05, align: 'right' },
      { header: `Capital ${lfy} YoY`, width: 0.9, align: 'right' },
      { header: `${lfy} share`, width: 0.9, align: 'right' },
    ],
    rows: [
      ...figs.map((f) => [
        f.country,
        formatInt(f.ytd.deals),
        inUnit(f.ytd.capital, unit),
        formatInt(f.lastFull.deals),
        pct(f.lastFull.dealsYoy, true),
        inUnit(f.lastFull.capital, unit),
        pct(f.lastFull.capitalYoy, true),
        t.capital > 0 ? pct(((f.lastFull.capital ?? 0) / t.capital) * 100) : '—',
      ]),
      [
        'Total',
        formatInt(t.ytdDeals),
        inUnit(t.ytdCapital, unit),
        formatInt(t.deals),
        pct(t.dealsYoy, true),
        inUnit(t.capital, unit),
        pct(t.capitalYoy, true),
        t.capital > 0 ? pct(100) : '—',
      ],
    ],
  };
  const charts = ctx.planned.filter((p) => p.place.kind === 'compare');
  for (const b of tableAndCharts(ctx, table, charts, false)) b.draw();
}

function methodology(ctx: Ctx): void {
  const { model, pdf } = ctx;
  const s = model.stats;
  pdf.heading('Methodology', 1);
  pdf.heading('Sources', 3, { keepWith: 40 });
  pdf.bullets(s.sources.length > 0 ? s.sources : ['Venture Intelligence Service']);
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
  ]);
}

/** The run's own figures (calls, credits, time), for the operator: an appendix at the end. */
function runAppendix(ctx: Ctx): void {
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
}

/** Lays the report out with `contentsPages` pages reserved for the contents. */
function layout(
  model: MarketReportModel,
  charts: RenderedCharts,
  planned: PlannedChart[],
  creationDate: Date,
  contentsPages: number,
  links: ServiceLinks | null,
): Ctx {
  const title = reportTitle(model);
  const pdf = new ReportPdf({
    title,
    subject: `Venture market report: ${model.countries.map((c) => c.country).join(', ')}`,
    keywords: ['venture', 'market report', ...model.countries.map((c) => c.country)].join(', '),
    creationDate,
    footerText: `${title} · data as of ${formatDate(model.period.asOf)}`,
  });
  const ctx: Ctx = { pdf, model, charts, planned, drawn: new Set(), links };
  cover(ctx);
  pdf.reserveContentsPages(contentsPages);
  executiveSummary(ctx);
  model.countries.forEach((c, i) => countrySection(ctx, c, i));
  answersSection(ctx);
  comparisonSection(ctx);
  methodology(ctx);
  runAppendix(ctx);
  return ctx;
}

/**
 * Lays out the market report PDF; returns the document (call `finish`) and the charts drawn.
 * The contents get exactly the pages they need: when the headings need more than one page,
 * the report is laid out again with that many reserved (the page numbers move).
 */
export function buildMarketPdf(
  model: MarketReportModel,
  charts: RenderedCharts,
  planned: PlannedChart[],
  options: { creationDate?: Date; links?: ServiceLinks | null } = {},
): { pdf: ReportPdf; drawn: Set<string> } {
  const creationDate = options.creationDate ?? new Date(model.generatedAt);
  const links = options.links ?? null;
  let ctx = layout(model, charts, planned, creationDate, 1, links);
  const needed = ctx.pdf.contentsPagesNeeded();
  if (needed !== ctx.pdf.contentsPageCount) ctx = layout(model, charts, planned, creationDate, needed, links);
  return { pdf: ctx.pdf, drawn: ctx.drawn };
}
