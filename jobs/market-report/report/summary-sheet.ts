/**
 * The workbook's Summary sheet: the title line, the highlights in sentences, the key figures
 * (the week, the year to date, the last full year, what is new, the status), the table
 * comparing the countries and, under it, the comparison charts. Each key figure's note names
 * its source or says the runner computed it (a sum over the countries, a change, the week);
 * each country's row names its overview (Source) and the figures the runner computed (Basis).
 */
import {
  formatDateRange,
  moneyHeader,
  moneyUnit,
  yearLabel,
  type MoneyUnit,
} from '../../../reports/editorial.js';
import type { DataColumn, KeyFigureCell } from '../../../reports/excel/index.js';
import { computedFrom } from '../../../reports/sources.js';
import { formatDate, formatDateTime } from '../../../reports/format.js';
import { COMPARE_CAPITAL, COMPARE_DEALS } from './charts.js';
import { summaryParts, weekSentences, weekTotals } from './figures.js';
import { basisText, knownIds, overviewIds, PREVIOUS_RUN, readNote, withNote } from './provenance.js';
import { moneyColumn, placeCharts, SOURCE, sourceCell } from './sheet-helpers.js';
import type { SheetCtx } from './sheet-helpers.js';
import { reportTitle } from './title.js';
import type { MarketReportModel } from './model.js';

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
    rows: figs.map((f, i) => ({
      source: sourceCell(model.countries[i]?.source),
      basis: basisText([
        ...(f.lastFull.yoyComputed ? [`${t.lastFullYear} YoY`] : []),
        ...(model.comparison.previousRunAt ? ['changes vs last run'] : []),
      ]),
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
  const n = sourceNotes(ctx);
  const firstRun = !model.comparison.previousRunAt;
  const runNote = firstRun
    ? 'first run: no previous run to compare'
    : `since the previous run on ${formatDateTime(model.comparison.previousRunAt)}`;
  const wt = weekTotals(model);
  const weekNote = model.week?.since
    ? `added since ${formatDate(model.week.since)}`
    : 'first run: counted from the next run';
  const thisWeek = wt.week ? withNote(weekNote, n.week) : weekNote;
  return [
    { label: 'Deals this week', value: wt.week?.deals ?? null, kind: 'int', note: thisWeek },
    {
      label: 'Deals, previous week',
      value: wt.previous?.deals ?? null,
      kind: 'int',
      ...(wt.previous ? { note: n.previousWeek } : {}),
    },
    {
      label: moneyHeader('Capital this week', sumUnit),
      value: wt.week?.capital_usd ?? null,
      kind: 'number',
      note: thisWeek,
    },
    {
      label: moneyHeader('Capital, previous week', sumUnit),
      value: wt.previous?.capital_usd ?? null,
      kind: 'number',
      ...(wt.previous ? { note: n.previousWeek } : {}),
    },
    { label: `Deals ${ytdLabel}`, value: t.ytdDeals, kind: 'int', note: n.sum },
    { label: moneyHeader(`Capital ${ytdLabel}`, sumUnit), value: t.ytdCapital, kind: 'number', note: n.sum },
    { label: `Deals ${t.lastFullYear}`, value: t.deals, kind: 'int', note: n.sum },
    { label: `Deals ${t.lastFullYear} YoY`, value: t.dealsYoy, kind: 'pct', note: n.change },
    {
      label: moneyHeader(`Capital ${t.lastFullYear}`, sumUnit),
      value: t.capital,
      kind: 'number',
      note: n.sum,
    },
    { label: `Capital ${t.lastFullYear} YoY`, value: t.capitalYoy, kind: 'pct', note: n.change },
    firstRun
      ? { label: 'New startups since the previous run', value: 'First run', note: runNote }
      : {
          label: 'New startups since the previous run',
          value: model.comparison.newStartups.length,
          kind: 'int',
          note: withNote(runNote, n.newStartups),
        },
    firstRun
      ? { label: 'New top investors since the previous run', value: 'First run', note: runNote }
      : {
          label: 'New top investors since the previous run',
          value: model.comparison.newTopInvestors.length,
          kind: 'int',
          note: withNote(runNote, n.newInvestors),
        },
    {
      label: 'Status',
      value: model.stats.partial ? 'Partial' : 'Complete',
      note: model.stats.partialReasons.join('; '),
    },
  ];
}

/**
 * Where the Summary's key figures come from: the week and the changes by the runner, against
 * the previous run's snapshot; the totals summed by the runner over the countries' overviews
 * (one country: read from its overview); what is new, from the lists this run read.
 */
function sourceNotes(ctx: SheetCtx) {
  const { model } = ctx;
  const overviews = overviewIds(model);
  const lists = (pick: (c: MarketReportModel['countries'][number]) => { source?: string | null }[]) =>
    knownIds(model.countries.flatMap((c) => pick(c).map((r) => r.source)));
  return {
    week: `${computedFrom(overviews, PREVIOUS_RUN)}: deals and capital by year now, minus at that run`,
    previousWeek: `${computedFrom([], PREVIOUS_RUN)}: that run's week`,
    sum:
      model.countries.length > 1
        ? `${computedFrom(overviews)}: the sum over the countries`
        : readNote(model, overviews),
    change: `${computedFrom(overviews)}: the change on the year before`,
    newStartups: computedFrom(
      lists((c) => c.notable_startups),
      PREVIOUS_RUN,
    ),
    newInvestors: computedFrom(
      lists((c) => c.top_investors_by_score),
      PREVIOUS_RUN,
    ),
  };
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
    SOURCE,
    { header: 'Basis', key: 'basis', width: 30, wrap: true },
  ];
}
