/**
 * The weekly market report as a workbook: Summary (key figures, comparison, charts), one sheet
 * per country (figures and charts), data sheets as Excel tables (Investors, Startups, Rounds by
 * year, Agent answers, one sheet per answer's rows) and Methodology. Every text cell from the
 * service is formula-safe; numbers stay numbers; links go to the service's http(s) urls only.
 */
import type { Worksheet } from 'exceljs';
import { ReportWorkbook, tableChartOf } from '../../../reports/excel/index.js';
import { normalizeChart } from '../../../reports/charts/index.js';
import type { ColumnKind, DataColumn, KeyFigureCell, TableCells } from '../../../reports/excel/index.js';
import { formatDate, formatDateTime } from '../../../reports/format.js';
import { formatDateRange } from '../../../reports/editorial.js';
import { isIdentifierKey, unitFromKey } from '../../../reports/charts/index.js';
import type { RenderedChart } from '../../../reports/charts/index.js';
import { answerColumnsForSheet, answerHeader, isDateColumn, isNumericColumn } from './answers.js';
import { COMPARE_CAPITAL, COMPARE_DEALS, answerChartId, countryChartId } from './charts.js';
import type { PlannedChart, RenderedCharts } from './charts.js';
import { countryFigures, sectorsByChart, summaryParts, totals, weekSentences, yearRows } from './figures.js';
import type { AgentAnswer, MarketReportModel } from './model.js';
import { reportTitle } from './title.js';
import {
  moneyHeader,
  moneyUnit,
  readerSentence,
  stageLabel,
  yearLabel,
  type MoneyUnit,
} from '../../../reports/editorial.js';
import { readerUrl, type ServiceLinks } from '../../../reports/links.js';
import { weekTotals } from './figures.js';

/** The Excel number format of an amount in USD shown in a unit (the unit named in the header). */
function unitFormat(unit: MoneyUnit): string {
  return unit === 'B' ? '#,##0.0,,,' : unit === 'M' ? '#,##0.0,,' : '#,##0.0,';
}

/** A money column in a table's unit: the value stays in US dollars, shown in the unit. */
function moneyColumn(label: string, key: string, unit: MoneyUnit, width?: number): DataColumn {
  return {
    header: moneyHeader(label, unit),
    key,
    kind: 'number',
    numFmt: unitFormat(unit),
    ...(width ? { width } : {}),
  };
}

/** On-screen width of a chart image: half-width PDF charts are shown larger (their PNG is 2×). */
function imageSize(c: RenderedChart, size: PlannedChart['size']): { width: number; height: number } {
  const target = size === 'half' ? Math.min(460, c.width * 1.4) : Math.min(620, c.width);
  const scale = target / Math.max(1, c.width);
  return { width: Math.round(c.width * scale), height: Math.round(c.height * scale) };
}

/**
 * The tables of a sheet a native chart can plot: by chart id, the table a report chart is drawn
 * from (`keys` maps the chart's data keys to the table's where they differ); `any`, the tables
 * a chart with its own data (a service chart) plots when they hold exactly that data.
 */
interface ChartTables {
  byId?: Map<string, { table: TableCells; keys?: Record<string, string> }>;
  any?: TableCells[];
}

/** The table and chart of the native chart beside `p`'s image, if a table holds its data. */
function nativeFor(book: ReportWorkbook, p: PlannedChart, tables: ChartTables) {
  const own = tables.byId?.get(p.id);
  if (own) {
    const chart = tableChartOf(p.spec, own.keys);
    return chart ? { table: own.table, chart } : null;
  }
  const chart = tableChartOf(p.spec);
  if (!chart) return null;
  const rows = normalizeChart(p.spec).rows;
  const table = tables.any?.find((t) => book.tableHolds(t, chart, rows));
  return table ? { table, chart } : null;
}

/**
 * Places charts one under the other from `row` at column `col`, each image with the native,
 * editable chart of its table (if it has one) at its right, the same size. Returns the next
 * free row, the images and the native charts placed.
 */
function placeCharts(
  book: ReportWorkbook,
  ws: Worksheet,
  charts: PlannedChart[],
  rendered: RenderedCharts,
  row: number,
  col: number,
  tables: ChartTables = {},
  images = false,
): { next: number; placed: number; native: number } {
  let r = row;
  let placed = 0;
  let native = 0;
  for (const p of charts) {
    const c = rendered.get(p.id);
    if (!c) continue;
    const size = imageSize(c, p.size);
    const n = nativeFor(book, p, tables);
    if (images) {
      // Pictures asked for (job option chartImages): each image, its native chart beside it.
      const next = book.addImage(ws, c.png, { row: r, col }, size);
      if (
        n &&
        book.addTableChart(
          ws,
          n.table,
          n.chart,
          { row: r, col: book.columnRightOf(ws, col, size.width) },
          size,
        )
      )
        native++;
      r = next;
      placed++;
    } else if (n) {
      // By default native charts only: one chart of the data, printed once.
      const rows = Math.ceil(size.height / 20) + 1;
      if (book.addTableChart(ws, n.table, n.chart, { row: r, col }, size)) {
        native++;
        r += rows;
      }
    }
  }
  return { next: r, placed, native };
}

/** How an answer column is written: ids and years as plain numbers, amounts in dollars, dates as dates. */
function answerKind(a: AgentAnswer, column: string): ColumnKind {
  const rows = a.rows ?? [];
  if (isNumericColumn(rows, column)) {
    if (isIdentifierKey(column)) return 'id';
    const unit = unitFromKey(column);
    if (unit === 'usd') return 'usd';
    if (unit === 'pct') return 'pct';
    return rows.every((r) => typeof r[column] !== 'number' || Number.isInteger(r[column])) ? 'int' : 'number';
  }
  return isDateColumn(rows, column) ? 'date' : 'text';
}

/**
 * Builds the market report workbook. Returns the workbook, the number of images placed and of
 * native charts (beside the images of the charts whose data is a table on the same sheet).
 */
export function buildMarketWorkbook(
  model: MarketReportModel,
  charts: RenderedCharts,
  planned: PlannedChart[],
  options: { created?: Date; links?: ServiceLinks | null; chartImages?: boolean } = {},
): { book: ReportWorkbook; images: number; nativeCharts: number } {
  const title = reportTitle(model);
  const links = options.links ?? null;
  const pictures = options.chartImages ?? false;
  const url = (u: string | null | undefined): string | null => readerUrl(u, links);
  const asOf = model.period.asOf;
  const book = new ReportWorkbook({ title, created: options.created ?? new Date(model.generatedAt) });
  let images = 0;
  let nativeCharts = 0;
  const t = totals(model);
  const figs = model.countries.map((c) => countryFigures(model, c));
  const firstRun = !model.comparison.previousRunAt;

  // Summary
  const summary = book.addSheet('Summary', { tabColor: 'FF1F4E79' });
  let row = book.addTitle(
    summary,
    title,
    `${model.countries.map((c) => c.country).join(', ')} · week ${formatDateRange(model.period.from, model.period.to)} · data as of ${formatDate(model.period.asOf)} · generated ${formatDateTime(model.generatedAt)}`,
  );
  const parts = summaryParts(model);
  const week = weekSentences(model);
  row = book.addParagraphs(
    summary,
    [week.lead, week.basis, ...parts.overview, ...parts.countries, ...parts.changes],
    row,
    {
      heading: 'Highlights',
      span: 9,
    },
  );
  const runNote = firstRun
    ? 'first run: no previous run to compare'
    : `since the previous run on ${formatDateTime(model.comparison.previousRunAt)}`;
  const wt = weekTotals(model);
  const ytdLabel = yearLabel(t.ytdYear, asOf);
  const sumUnit = moneyUnit([
    t.capital,
    t.ytdCapital,
    ...figs.flatMap((f) => [f.ytd.capital, f.lastFull.capital]),
  ]);
  const weekNote = model.week?.since
    ? `added since ${formatDate(model.week.since)}`
    : 'first run: counted from the next run';
  const keyFigures: KeyFigureCell[] = [
    { label: 'Deals this week', value: wt.week?.deals ?? null, kind: 'int', note: weekNote },
    { label: 'Deals, previous week', value: wt.previous?.deals ?? null, kind: 'int' },
    {
      label: moneyHeader('Capital this week', sumUnit),
      value: wt.week?.capital_usd ?? null,
      kind: 'number',
      note: weekNote,
    },
    {
      label: moneyHeader('Capital, previous week', sumUnit),
      value: wt.previous?.capital_usd ?? null,
      kind: 'number',
    },
    { label: `Deals ${ytdLabel}`, value: t.ytdDeals, kind: 'int' },
    { label: moneyHeader(`Capital ${ytdLabel}`, sumUnit), value: t.ytdCapital, kind: 'number' },
    { label: `Deals ${t.lastFullYear}`, value: t.deals, kind: 'int' },
    { label: `Deals ${t.lastFullYear} YoY`, value: t.dealsYoy, kind: 'pct' },
    { label: moneyHeader(`Capital ${t.lastFullYear}`, sumUnit), value: t.capital, kind: 'number' },
    { label: `Capital ${t.lastFullYear} YoY`, value: t.capitalYoy, kind: 'pct' },
    firstRun
      ? { label: 'New startups since the previous run', value: 'First run', note: runNote }
      : {
          label: 'New startups since the previous run',
          value: model.comparison.newStartups.length,
          kind: 'int',
          note: runNote,
        },
    firstRun
      ? { label: 'New top investors since the previous run', value: 'First run', note: runNote }
      : {
          label: 'New top investors since the previous run',
          value: model.comparison.newTopInvestors.length,
          kind: 'int',
          note: runNote,
        },
    {
      label: 'Status',
      value: model.stats.partial ? 'Partial' : 'Complete',
      note: model.stats.partialReasons.join('; '),
    },
  ];
  row = book.addKeyFigures(summary, keyFigures, row);
  const cmpColumns: DataColumn[] = [
    { header: 'Country', key: 'country', width: 32 },
    { header: `Deals ${ytdLabel}`, key: 'ytdDeals', kind: 'int', width: 16 },
    { header: `Deals ${ytdLabel} vs same period`, key: 'ytdDealsYoy', kind: 'pct', width: 18 },
    moneyColumn(`Capital ${ytdLabel}`, 'ytdCapital', sumUnit, 18),
    { header: `Capital ${ytdLabel} vs same period`, key: 'ytdCapitalYoy', kind: 'pct', width: 18 },
    { header: `Deals ${t.lastFullYear}`, key: 'deals', kind: 'int', width: 16 },
    { header: `Deals ${t.lastFullYear} YoY`, key: 'dealsYoy', kind: 'pct', width: 16 },
    moneyColumn(`Capital ${t.lastFullYear}`, 'capital', sumUnit, 18),
    { header: `Capital ${t.lastFullYear} YoY`, key: 'capitalYoy', kind: 'pct', width: 16 },
    // On a first run there is nothing to compare with: no empty columns.
    ...(firstRun
      ? []
      : ([
          { header: 'Deals vs last run', key: 'dealsRun', kind: 'pct', width: 16 },
          { header: 'Capital vs last run', key: 'capitalRun', kind: 'pct', width: 16 },
        ] satisfies DataColumn[])),
  ];
  const cmp = book.addDataTable(summary, {
    name: 'CountryComparison',
    origin: { row, col: 1 },
    columns: cmpColumns,
    rows: figs.map((f) => ({
      country: f.country,
      deals: f.lastFull.deals,
      dealsYoy: f.lastFull.dealsYoy,
      capital: f.lastFull.capital,
      capitalYoy: f.lastFull.capitalYoy,
      ytdDeals: f.ytd.deals,
      ytdDealsYoy: f.ytd.dealsYoy,
      ytdCapital: f.ytd.capital,
      ytdCapitalYoy: f.ytd.capitalYoy,
      dealsRun: f.change?.deals_vs_last_run_pct ?? null,
      capitalRun: f.change?.capital_vs_last_run_pct ?? null,
    })),
  });
  const placedSummary = placeCharts(
    book,
    summary,
    planned.filter((p) => p.place.kind === 'compare'),
    charts,
    cmp.lastRow + 2,
    1,
    {
      byId: new Map([
        [COMPARE_CAPITAL, { table: cmp.cells, keys: { full: 'capital', ytd: 'ytdCapital' } }],
        [COMPARE_DEALS, { table: cmp.cells, keys: { full: 'deals', ytd: 'ytdDeals' } }],
      ]),
    },
    pictures,
  );
  images += placedSummary.placed;
  nativeCharts += placedSummary.native;
  summary.views = [{ showGridLines: false }];

  // One sheet per country: figures and tables on the left (A to G), charts on the right (from I).
  model.countries.forEach((c, i) => {
    const f = figs[i];
    if (!f) return;
    const ws = book.addSheet(c.country);
    const yrs = yearRows(c, f.ytdYear);
    const tileUnit = moneyUnit([f.lastFull.capital, f.ytd.capital]);
    const yearUnit = moneyUnit(yrs.map((y) => y.capital_usd));
    const avgUnit = moneyUnit(yrs.map((y) => (y.deals > 0 ? y.capital_usd / y.deals : null)));
    const stageUnit = moneyUnit(c.stage_mix.map((x) => x.capital_usd));
    const sectorUnit = moneyUnit(c.top_sectors.map((x) => x.capital_usd));
    let r = book.addTitle(
      ws,
      c.country,
      (c.summary ? readerSentence(c.summary) : undefined) ??
        (c.as_of ? `Data as of ${formatDate(c.as_of)}` : undefined),
    );
    if (book.addLink(ws, r - 1, 1, 'Interactive country view', url(c.url))) r++;
    if (c.not_provided && c.not_provided.length > 0)
      r =
        book.addParagraphs(ws, [`Not provided by the service: ${c.not_provided.join('; ')}.`], r, {
          span: 7,
        }) - 1;
    r = book.addKeyFigures(
      ws,
      [
        { label: `Deals ${yearLabel(f.ytdYear, asOf)}`, value: f.ytd.deals, kind: 'int' },
        { label: `Deals ${yearLabel(f.ytdYear, asOf)} vs same period`, value: f.ytd.dealsYoy, kind: 'pct' },
        {
          label: moneyHeader(`Capital ${yearLabel(f.ytdYear, asOf)}`, tileUnit),
          value: f.ytd.capital,
          kind: 'number',
        },
        {
          label: `Capital ${yearLabel(f.ytdYear, asOf)} vs same period`,
          value: f.ytd.capitalYoy,
          kind: 'pct',
        },
        { label: `Deals ${f.lastFullYear}`, value: f.lastFull.deals, kind: 'int' },
        { label: `Deals ${f.lastFullYear} YoY`, value: f.lastFull.dealsYoy, kind: 'pct' },
        {
          label: moneyHeader(`Capital ${f.lastFullYear}`, tileUnit),
          value: f.lastFull.capital,
          kind: 'number',
        },
        { label: `Capital ${f.lastFullYear} YoY`, value: f.lastFull.capitalYoy, kind: 'pct' },
        { label: 'Seed and earlier, share of deals', value: f.earlyShare, kind: 'pct' },
        { label: 'Leading sector', value: f.topSector },
        { label: 'Most active investor', value: f.topInvestor },
      ],
      r,
    );
    const years = book.addDataTable(ws, {
      name: `${c.country}_ByYear`,
      origin: { row: r, col: 1 },
      columns: [
        { header: 'Year', key: 'label' },
        { header: 'Period', key: 'period' },
        { header: 'Deals', key: 'deals', kind: 'int' },
        { header: 'Deals YoY', key: 'deals_yoy_pct', kind: 'pct' },
        moneyColumn('Capital', 'capital_usd', yearUnit),
        { header: 'Capital YoY', key: 'capital_yoy_pct', kind: 'pct' },
        moneyColumn('Avg. deal', 'avg', avgUnit),
      ],
      rows: yrs.map((y) => ({
        ...y,
        label: y.partial ? `${y.year} YTD` : yearLabel(y.year, asOf),
        period: y.partial ? `Year to date, to ${formatDate(asOf)}` : 'Full year',
        avg: y.deals > 0 ? y.capital_usd / y.deals : null,
      })),
    });
    const stageTotal = c.stage_mix.reduce((s, x) => s + x.deals, 0);
    const stages = book.addDataTable(ws, {
      name: `${c.country}_Stages`,
      origin: { row: years.lastRow + 2, col: 1 },
      columns: [
        { header: 'Stage', key: 'stage' },
        { header: 'Deals, last 3 years', key: 'deals', kind: 'int' },
        { header: 'Share of deals', key: 'share', kind: 'pct' },
        moneyColumn('Capital, last 3 years', 'capital_usd', stageUnit),
      ],
      rows: c.stage_mix.map((s) => ({
        ...s,
        stage: stageLabel(s.stage),
        share: stageTotal > 0 ? (s.deals / stageTotal) * 100 : null,
      })),
    });
    const sectors = book.addDataTable(ws, {
      name: `${c.country}_Sectors`,
      origin: { row: stages.lastRow + 2, col: 1 },
      columns: [
        { header: 'Sector', key: 'sector' },
        { header: 'Deals, last 3 years', key: 'deals', kind: 'int' },
        moneyColumn('Capital, last 3 years', 'capital_usd', sectorUnit),
      ],
      rows: sectorsByChart(c.top_sectors).map((s) => ({ ...s })),
    });
    const investors = book.addDataTable(ws, {
      name: `${c.country}_ActiveInvestors`,
      origin: { row: sectors.lastRow + 2, col: 1 },
      columns: [
        { header: 'Most active investor', key: 'name', linkKey: 'url' },
        { header: 'Deals, last 3 years', key: 'deals', kind: 'int' },
        { header: 'As lead, last 3 years', key: 'lead_deals', kind: 'int' },
      ],
      rows: c.most_active_investors.map((m) => ({ ...m, url: url(m.url) })),
    });
    // One set of widths for the stacked tables and the key figures (whose notes spill right),
    // at least what their longest values need.
    [36, 14, 14, 14, 14, 14, 14, 3].forEach((w, k) => {
      const col = ws.getColumn(k + 1);
      col.width = k === 7 ? w : Math.max(col.width ?? 0, w);
    });
    const own = planned.filter((p) => p.place.kind === 'country' && p.place.country === i);
    const placed = placeCharts(
      book,
      ws,
      own,
      charts,
      1,
      9,
      {
        byId: new Map([
          // The image's categories are "2024", "2025 YTD": the table has the year and the period.
          [countryChartId(i, 'years'), { table: years.cells, keys: { period: 'label' } }],
          [countryChartId(i, 'stages'), { table: stages.cells }],
          [countryChartId(i, 'sectors'), { table: sectors.cells }],
          [countryChartId(i, 'investors'), { table: investors.cells }],
        ]),
        any: [years.cells, stages.cells, sectors.cells, investors.cells],
      },
      pictures,
    );
    images += placed.placed;
    nativeCharts += placed.native;
  });

  // Data sheets.
  const investorRows = model.countries.flatMap((c) => [
    ...c.top_investors_by_score.map((r, k) => ({
      ...r,
      url: url(r.url),
      country: c.country,
      list: 'By score',
      rank: k + 1,
    })),
    ...c.top_investors_by_investments.map((r, k) => ({
      ...r,
      url: url(r.url),
      country: c.country,
      list: 'By investments, all time',
      rank: k + 1,
    })),
  ]);
  const investorColumns: DataColumn[] = [
    { header: 'Country', key: 'country' },
    { header: 'List', key: 'list' },
    { header: 'Rank', key: 'rank', kind: 'int', width: 8 },
    { header: 'Investor', key: 'name', linkKey: 'url' },
    { header: 'Type', key: 'type' },
    { header: 'HQ city', key: 'hq_city' },
    { header: 'HQ country', key: 'hq_country' },
    { header: 'Score', key: 'score', kind: 'number' },
    { header: 'Investments, all time', key: 'investments', kind: 'int' },
    { header: 'Key', key: 'key' },
    { header: 'URL', key: 'url', kind: 'url' },
  ];
  book.addDataTable(book.addSheet('Investors'), {
    name: 'Investors',
    columns: investorColumns,
    rows: investorRows,
  });

  const cmpNew = model.comparison;
  if (cmpNew.newStartups.length > 0 || cmpNew.newTopInvestors.length > 0) {
    book.addDataTable(book.addSheet('New since last run'), {
      name: 'NewSinceLastRun',
      columns: [
        { header: 'Kind', key: 'kind' },
        { header: 'Name', key: 'name', linkKey: 'url' },
        { header: 'Country', key: 'country' },
        { header: 'URL', key: 'url', kind: 'url' },
      ],
      rows: [
        ...cmpNew.newStartups.map((s) => ({ ...s, url: url(s.url), kind: 'Startup' })),
        ...cmpNew.newTopInvestors.map((s) => ({ ...s, url: url(s.url), kind: 'Top investor' })),
      ],
    });
  }

  const active = model.countries.flatMap((c) =>
    c.most_active_investors.map((m, k) => ({ ...m, url: url(m.url), country: c.country, rank: k + 1 })),
  );
  book.addDataTable(book.addSheet('Active investors'), {
    name: 'ActiveInvestors',
    columns: [
      { header: 'Country', key: 'country' },
      { header: 'Rank', key: 'rank', kind: 'int', width: 8 },
      { header: 'Investor', key: 'name', linkKey: 'url' },
      { header: 'Deals, last 3 years', key: 'deals', kind: 'int' },
      { header: 'As lead, last 3 years', key: 'lead_deals', kind: 'int' },
    ],
    rows: active,
  });

  const startupRows = model.countries.flatMap((c) =>
    c.notable_startups.map((s) => ({
      ...s,
      stage: s.stage ? stageLabel(s.stage) : null,
      website: readerUrl(s.website),
      url: url(s.url),
      country: c.country,
    })),
  );
  book.addDataTable(book.addSheet('Startups'), {
    name: 'Startups',
    columns: [
      { header: 'Country', key: 'country' },
      { header: 'Startup', key: 'name', linkKey: 'website' },
      { header: 'Sector', key: 'sector' },
      { header: 'Stage', key: 'stage' },
      { header: 'HQ city', key: 'hq_city' },
      { header: 'Total raised', key: 'total_raised_usd', kind: 'usd' },
      { header: 'Last round date', key: 'last_round_date', kind: 'date' },
      { header: 'Last round amount', key: 'last_round_amount_usd', kind: 'usd' },
      { header: 'Website', key: 'website', kind: 'url' },
      { header: 'Key', key: 'key' },
      { header: 'Service profile', key: 'url', kind: 'url' },
    ],
    rows: startupRows,
  });

  const yearData = model.countries.flatMap((c) =>
    yearRows(c, t.ytdYear).map((y) => ({
      ...y,
      country: c.country,
      label: y.partial ? `${y.year} YTD` : yearLabel(y.year, asOf),
      period: y.partial ? `Year to date, to ${formatDate(asOf)}` : 'Full year',
    })),
  );
  const allYearsUnit = moneyUnit(yearData.map((y) => y.capital_usd));
  book.addDataTable(book.addSheet('Rounds by year'), {
    name: 'RoundsByYear',
    columns: [
      { header: 'Country', key: 'country' },
      { header: 'Year', key: 'label', width: 10 },
      { header: 'Period', key: 'period' },
      { header: 'Deals', key: 'deals', kind: 'int' },
      { header: 'Deals YoY', key: 'deals_yoy_pct', kind: 'pct' },
      moneyColumn('Capital', 'capital_usd', allYearsUnit),
      { header: 'Capital YoY', key: 'capital_yoy_pct', kind: 'pct' },
    ],
    rows: yearData,
  });

  const profiles = model.countries.flatMap((c) =>
    (c.profiles ?? []).map((p) => ({
      ...p,
      url: url(p.url),
      country: c.country,
      portfolio: (p.recent_portfolio ?? []).map((r) => r.name).join(', '),
    })),
  );
  if (profiles.length > 0) {
    book.addDataTable(book.addSheet('Investor profiles'), {
      name: 'InvestorProfiles',
      columns: [
        { header: 'Country', key: 'country' },
        { header: 'Investor', key: 'name', linkKey: 'url' },
        { header: 'Type', key: 'type' },
        { header: 'HQ', key: 'hq' },
        { header: 'Thesis', key: 'thesis', width: 60 },
        { header: 'Recent portfolio', key: 'portfolio', width: 60 },
      ],
      rows: profiles,
    });
  }

  book.addDataTable(book.addSheet('Agent answers'), {
    name: 'AgentAnswers',
    columns: [
      { header: '#', key: 'n', kind: 'int', width: 6 },
      { header: 'Question', key: 'question', width: 50, wrap: true },
      { header: 'Country', key: 'country' },
      { header: 'Answer', key: 'answer', width: 80, linkKey: 'url', wrap: true },
      { header: 'Rows', key: 'rowCount', kind: 'int', width: 8 },
      { header: 'Skipped because', key: 'skipped', width: 40, wrap: true },
      { header: 'Rows sheet', key: 'sheet', width: 16 },
    ],
    rows: model.answers.map((a, i) => ({
      ...a,
      answer: a.answer ? readerSentence(a.answer) : a.answer,
      url: url(a.url),
      n: i + 1,
      rowCount: a.rows?.length ?? 0,
      sheet: (a.rows?.length ?? 0) > 0 ? `Answer ${i + 1}` : null,
    })),
  });
  model.answers.forEach((a, i) => {
    const rows = a.rows ?? [];
    if (rows.length === 0) return;
    const cols = answerColumnsForSheet(a);
    const ws = book.addSheet(`Answer ${i + 1}`);
    const table = book.addDataTable(ws, {
      name: `Answer${i + 1}`,
      columns: cols.map((c) => ({ header: answerHeader(c), key: c, kind: answerKind(a, c) })),
      rows: rows.map((r) =>
        Object.fromEntries(
          Object.entries(r).map(([k, v]) => [
            k,
            typeof v === 'string' && /(^|_)stage$/i.test(k)
              ? stageLabel(v)
              : /(^|_)url$/i.test(k)
                ? url(typeof v === 'string' ? v : null)
                : v,
          ]),
        ),
      ),
    });
    const own = planned.filter((p) => p.place.kind === 'answer' && p.place.answer === i);
    // The chart the report draws from the rows (when the service sent none) plots the table.
    const fromRows = own.find((p) => p.id === answerChartId(i, 0) && !p.fromService);
    const placed = placeCharts(
      book,
      ws,
      own,
      charts,
      1,
      cols.length + 2,
      {
        byId: new Map(fromRows ? [[fromRows.id, { table: table.cells }]] : []),
        any: [table.cells],
      },
      pictures,
    );
    images += placed.placed;
    nativeCharts += placed.native;
  });

  // Methodology
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
    model.stats.sources.length > 0 ? model.stats.sources : ['Venture Intelligence Service'],
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

  // Run statistics: the operator's figures, on their own sheet at the end.
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

  return { book, images, nativeCharts };
}
