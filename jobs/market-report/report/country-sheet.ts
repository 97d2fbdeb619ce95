/**
 * One country's sheet of the workbook: on the left (A to H) the title, the interactive view,
 * the key figures and the overview's tables stacked (years, stages, sectors, most active
 * investors); on the right (from J) the country's charts, native charts of those tables.
 * Every figure names its source: the key figures in their note, each table row in its Source
 * column (the country's overview); what the runner computed (shares, averages, a YoY the service
 * did not give, the leading sector) says so in the note or on the line under its table.
 */
import type { Worksheet } from 'exceljs';
import { moneyHeader, moneyUnit, readerSentence, stageLabel, yearLabel } from '../../../reports/editorial.js';
import type { TableCells } from '../../../reports/excel/index.js';
import { computedFrom } from '../../../reports/sources.js';
import { formatDate } from '../../../reports/format.js';
import { countryChartId } from './charts.js';
import { sectorsByChart, yearRows } from './figures.js';
import type { CountryFigures } from './figures.js';
import type { CountrySection } from './model.js';
import { readNote } from './provenance.js';
import { moneyColumn, placeCharts, SOURCE, sourceCell } from './sheet-helpers.js';
import type { SheetCtx, SheetTable } from './sheet-helpers.js';

/** Where a country's tables are, for the charts that plot them. */
interface CountryTables {
  years: TableCells;
  stages: TableCells;
  sectors: TableCells;
  investors: TableCells;
}

export function writeCountrySheet(ctx: SheetCtx, c: CountrySection, i: number): void {
  const f = ctx.figs[i];
  if (!f) return;
  const ws = ctx.book.addSheet(c.country);
  const row = countryHeading(ctx, ws, c, f);
  const tables = countryTables(ctx, ws, c, f, row);
  // One set of widths for the stacked tables and the key figures (whose notes spill right),
  // at least what their longest values need; a narrow gap column before the charts.
  [36, 14, 14, 14, 14, 14, 14, 10, 3].forEach((w, k) => {
    const col = ws.getColumn(k + 1);
    col.width = k === 8 ? w : Math.max(col.width ?? 0, w);
  });
  const own = ctx.planned.filter((p) => p.place.kind === 'country' && p.place.country === i);
  placeCharts(ctx, ws, own, 1, 10, {
    byId: new Map([
      // The image's categories are "2024", "2025 YTD": the table has the year and the period.
      [countryChartId(i, 'years'), { table: tables.years, keys: { period: 'label' } }],
      [countryChartId(i, 'stages'), { table: tables.stages }],
      [countryChartId(i, 'sectors'), { table: tables.sectors }],
      [countryChartId(i, 'investors'), { table: tables.investors }],
    ]),
    any: [tables.years, tables.stages, tables.sectors, tables.investors],
  });
}

/** The title, the interactive view, what was not provided and the key figures; returns the next row. */
function countryHeading(ctx: SheetCtx, ws: Worksheet, c: CountrySection, f: CountryFigures): number {
  const { book } = ctx;
  const asOf = ctx.model.period.asOf;
  const tileUnit = moneyUnit([f.lastFull.capital, f.ytd.capital]);
  // A figure read from the overview names it; one the runner computed says so.
  const read = readNote(ctx.model, [c.source]);
  const computed = computedFrom([c.source]);
  const last = yearRows(c, f.ytdYear).find((y) => y.year === f.lastFullYear && !y.partial);
  const yoy = (isComputed: boolean | undefined) => (isComputed ? computed : read);
  let r = book.addTitle(
    ws,
    c.country,
    (c.summary ? readerSentence(c.summary) : undefined) ??
      (c.as_of ? `Data as of ${formatDate(c.as_of)}` : undefined),
  );
  if (book.addLink(ws, r - 1, 1, 'Interactive country view', ctx.url(c.url))) r++;
  if (c.not_provided && c.not_provided.length > 0)
    r =
      book.addParagraphs(ws, [`Not provided by the service: ${c.not_provided.join('; ')}.`], r, {
        span: 7,
      }) - 1;
  return book.addKeyFigures(
    ws,
    [
      { label: `Deals ${yearLabel(f.ytdYear, asOf)}`, value: f.ytd.deals, kind: 'int', note: read },
      {
        label: `Deals ${yearLabel(f.ytdYear, asOf)} vs same period`,
        value: f.ytd.dealsYoy,
        kind: 'pct',
        note: read,
      },
      {
        label: moneyHeader(`Capital ${yearLabel(f.ytdYear, asOf)}`, tileUnit),
        value: f.ytd.capital,
        kind: 'number',
        note: read,
      },
      {
        label: `Capital ${yearLabel(f.ytdYear, asOf)} vs same period`,
        value: f.ytd.capitalYoy,
        kind: 'pct',
        note: read,
      },
      { label: `Deals ${f.lastFullYear}`, value: f.lastFull.deals, kind: 'int', note: read },
      {
        label: `Deals ${f.lastFullYear} YoY`,
        value: f.lastFull.dealsYoy,
        kind: 'pct',
        note: yoy(last?.deals_yoy_computed),
      },
      {
        label: moneyHeader(`Capital ${f.lastFullYear}`, tileUnit),
        value: f.lastFull.capital,
        kind: 'number',
        note: read,
      },
      {
        label: `Capital ${f.lastFullYear} YoY`,
        value: f.lastFull.capitalYoy,
        kind: 'pct',
        note: yoy(last?.capital_yoy_computed),
      },
      {
        label: 'Seed and earlier, share of deals',
        value: f.earlyShare,
        kind: 'pct',
        note: `${computed}: the stage mix's Pre-seed, Seed and Angel deals over all its deals`,
      },
      {
        label: 'Leading sector',
        value: f.topSector,
        note: `${computed}: the top sector by capital (by deals without capital)`,
      },
      { label: 'Most active investor', value: f.topInvestor, note: read },
    ],
    r,
  );
}

/** The overview's tables one under the other from `row`, a blank row between them. */
function countryTables(
  ctx: SheetCtx,
  ws: Worksheet,
  c: CountrySection,
  f: CountryFigures,
  row: number,
): CountryTables {
  const years = yearsTable(ctx, ws, c, f, row);
  // What the runner computed in a table is said on the line under it.
  const yearsNote = computedLine(ws, years.lastRow + 1, c.by_year.length > 0, c, [
    'Avg. deal (capital over deals)',
    ...yearRows(c, f.ytdYear).flatMap((y) => [
      ...(y.deals_yoy_computed ? [`Deals YoY of ${y.year}`] : []),
      ...(y.capital_yoy_computed ? [`Capital YoY of ${y.year}`] : []),
    ]),
  ]);
  const stages = stagesTable(ctx, ws, c, yearsNote + 2);
  const stagesNote = computedLine(ws, stages.lastRow + 1, c.stage_mix.length > 0, c, [
    "Share of deals (each stage's deals over all stages')",
  ]);
  const sectors = sectorsTable(ctx, ws, c, stagesNote + 2);
  const investors = ctx.book.addDataTable(ws, {
    name: `${c.country}_ActiveInvestors`,
    origin: { row: sectors.lastRow + 2, col: 1 },
    columns: [
      { header: 'Most active investor', key: 'name', linkKey: 'url' },
      { header: 'Deals, last 3 years', key: 'deals', kind: 'int' },
      { header: 'As lead, last 3 years', key: 'lead_deals', kind: 'int' },
      SOURCE,
    ],
    rows: c.most_active_investors.map((m) => ({ ...m, url: ctx.url(m.url), source: sourceCell(c.source) })),
  });
  return { years: years.cells, stages: stages.cells, sectors: sectors.cells, investors: investors.cells };
}

/** Deals and capital by year, the year to date labelled as such, with the average deal. */
function yearsTable(
  ctx: SheetCtx,
  ws: Worksheet,
  c: CountrySection,
  f: CountryFigures,
  row: number,
): SheetTable {
  const asOf = ctx.model.period.asOf;
  const yrs = yearRows(c, f.ytdYear);
  const yearUnit = moneyUnit(yrs.map((y) => y.capital_usd));
  const avgUnit = moneyUnit(yrs.map((y) => (y.deals > 0 ? y.capital_usd / y.deals : null)));
  return ctx.book.addDataTable(ws, {
    name: `${c.country}_ByYear`,
    origin: { row, col: 1 },
    columns: [
      { header: 'Year', key: 'label' },
      { header: 'Period', key: 'period' },
      { header: 'Deals', key: 'deals', kind: 'int' },
      { header: 'Deals YoY', key: 'deals_yoy_pct', kind: 'pct' },
      moneyColumn('Capital', 'capital_usd', yearUnit),
      { header: 'Capital YoY', key: 'capital_yoy_pct', kind: 'pct' },
      moneyColumn('Avg. deal', 'avg', avgUnit),
      SOURCE,
    ],
    rows: yrs.map((y) => ({
      ...y,
      label: y.partial ? `${y.year} YTD` : yearLabel(y.year, asOf),
      period: y.partial ? `Year to date, to ${formatDate(asOf)}` : 'Full year',
      avg: y.deals > 0 ? y.capital_usd / y.deals : null,
      source: sourceCell(c.source),
    })),
  });
}

/** The stage mix of the last three years, stages in words, with each stage's share of deals. */
function stagesTable(ctx: SheetCtx, ws: Worksheet, c: CountrySection, row: number): SheetTable {
  const stageUnit = moneyUnit(c.stage_mix.map((x) => x.capital_usd));
  const stageTotal = c.stage_mix.reduce((s, x) => s + x.deals, 0);
  return ctx.book.addDataTable(ws, {
    name: `${c.country}_Stages`,
    origin: { row, col: 1 },
    columns: [
      { header: 'Stage', key: 'stage' },
      { header: 'Deals, last 3 years', key: 'deals', kind: 'int' },
      { header: 'Share of deals', key: 'share', kind: 'pct' },
      moneyColumn('Capital, last 3 years', 'capital_usd', stageUnit),
      SOURCE,
    ],
    rows: c.stage_mix.map((s) => ({
      ...s,
      stage: stageLabel(s.stage),
      share: stageTotal > 0 ? (s.deals / stageTotal) * 100 : null,
      source: sourceCell(c.source),
    })),
  });
}

/** The top sectors of the last three years, in the order their chart plots them. */
function sectorsTable(ctx: SheetCtx, ws: Worksheet, c: CountrySection, row: number): SheetTable {
  const sectorUnit = moneyUnit(c.top_sectors.map((x) => x.capital_usd));
  return ctx.book.addDataTable(ws, {
    name: `${c.country}_Sectors`,
    origin: { row, col: 1 },
    columns: [
      { header: 'Sector', key: 'sector' },
      { header: 'Deals, last 3 years', key: 'deals', kind: 'int' },
      moneyColumn('Capital, last 3 years', 'capital_usd', sectorUnit),
      SOURCE,
    ],
    rows: sectorsByChart(c.top_sectors).map((s) => ({ ...s, source: sourceCell(c.source) })),
  });
}

/**
 * The line under a table naming the columns the runner computed from the country's overview
 * ("Computed by the runner from S1: Avg. deal (capital over deals)"), when the table has rows
 * (`shown`). Returns the table's last row: its row, or the one above when none was written.
 */
function computedLine(ws: Worksheet, row: number, shown: boolean, c: CountrySection, what: string[]): number {
  if (!shown) return row - 1;
  const cell = ws.getCell(row, 1);
  cell.value = `${computedFrom([c.source])}: ${what.join('; ')}.`;
  cell.font = { italic: true, size: 9, color: { argb: 'FF5B6470' } };
  return row;
}
