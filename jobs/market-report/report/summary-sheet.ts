/**
 * The workbook's Summary sheet: the title line, the highlights in sentences, the key figures
 * (the week, the year to date, the last full year, what is new, the status), the table
 * comparing the countries and, under it, the comparison charts.
 */
import {
  formatDateRange,
  moneyHeader,
  moneyUnit,
  yearLabel,
  type MoneyUnit,
} from '../../../reports/editorial.js';
import type { DataColumn, KeyFigureCell } from '../../../reports/excel/index.js';
import { formatDate, formatDateTime } from '../../../reports/format.js';
import { COMPARE_CAPITAL, COMPARE_DEALS } from './charts.js';
import { summaryParts, weekSentences, weekTotals } from './figures.js';
import { moneyColumn, placeCharts } from './sheet-helpers.js';
import type { SheetCtx } from './sheet-helpers.js';
import { reportTitle } from './title.js';

export function writeSummarySheet(ctx: SheetCtx): void {
  const { book, model, totals: t, figs } = ctx;
  const summary = book.addSheet('Summary', { tabColor: 'FF1F4E79' });
  let row = book.addTitle(
    summary,
    reportTitle(model),
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
  const ytdLabel = yearLabel(t.ytdYear, model.period.asOf);
  const sumUnit = moneyUnit([
    t.capital,
    t.ytdCapital,
    ...figs.flatMap((f) => [f.ytd.capital, f.lastFull.capital]),
  ]);
  row = book.addKeyFigures(summary, keyFigures(ctx, ytdLabel, sumUnit), row);
  const cmp = book.addDataTable(summary, {
    name: 'CountryComparison',
    origin: { row, col: 1 },
    columns: comparisonColumns(ctx, ytdLabel, sumUnit),
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
  placeCharts(
    ctx,
    summary,
    ctx.planned.filter((p) => p.place.kind === 'compare'),
    cmp.lastRow + 2,
    1,
    {
      byId: new Map([
        [COMPARE_CAPITAL, { table: cmp.cells, keys: { full: 'capital', ytd: 'ytdCapital' } }],
        [COMPARE_DEALS, { table: cmp.cells, keys: { full: 'deals', ytd: 'ytdDeals' } }],
      ]),
    },
  );
  summary.views = [{ showGridLines: false }];
}

/** The Summary's key figures: the week, the year to date, the last full year, what is new, the status. */
function keyFigures(ctx: SheetCtx, ytdLabel: string, sumUnit: MoneyUnit): KeyFigureCell[] {
  const { model, totals: t } = ctx;
  const firstRun = !model.comparison.previousRunAt;
  const runNote = firstRun
    ? 'first run: no previous run to compare'
    : `since the previous run on ${formatDateTime(model.comparison.previousRunAt)}`;
  const wt = weekTotals(model);
  const weekNote = model.week?.since
    ? `added since ${formatDate(model.week.since)}`
    : 'first run: counted from the next run';
  return [
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
}

/** The country comparison's columns; the changes since the last run only when there was one. */
function comparisonColumns(ctx: SheetCtx, ytdLabel: string, sumUnit: MoneyUnit): DataColumn[] {
  const t = ctx.totals;
  const firstRun = !ctx.model.comparison.previousRunAt;
  return [
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
}
