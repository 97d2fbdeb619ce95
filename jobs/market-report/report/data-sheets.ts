/**
 * The workbook's data sheets, one Excel table each, in order: Investors (both top lists), New
 * since last run (when there is anything new), Active investors, Startups, Rounds by year and
 * Investor profiles (when the run enriched any). Each row's Source names the stored answer it
 * was read from (the Sources sheet's id); a Basis column says which figures the runner computed.
 */
import { moneyUnit, stageLabel, yearLabel } from '../../../reports/editorial.js';
import type { DataColumn } from '../../../reports/excel/index.js';
import { formatDate } from '../../../reports/format.js';
import { readerUrl } from '../../../reports/links.js';
import { COMPUTED_BY_RUNNER } from '../../../reports/sources.js';
import { yearRows } from './figures.js';
import { basisText, PREVIOUS_RUN } from './provenance.js';
import { moneyColumn, SOURCE, sourceCell } from './sheet-helpers.js';
import type { SheetCtx } from './sheet-helpers.js';

export function writeDataSheets(ctx: SheetCtx): void {
  investorsSheet(ctx);
  newSinceLastRunSheet(ctx);
  activeInvestorsSheet(ctx);
  startupsSheet(ctx);
  roundsByYearSheet(ctx);
  investorProfilesSheet(ctx);
}

/** Investors: each country's top investors by score, then by investments (all time), ranked. */
function investorsSheet(ctx: SheetCtx): void {
  const { book, model, url } = ctx;
  const investorRows = model.countries.flatMap((c) => [
    ...c.top_investors_by_score.map((r, k) => ({
      ...r,
      url: url(r.url),
      country: c.country,
      list: 'By score',
      rank: k + 1,
      source: sourceCell(r.source),
    })),
    ...c.top_investors_by_investments.map((r, k) => ({
      ...r,
      url: url(r.url),
      country: c.country,
      list: 'By investments, all time',
      rank: k + 1,
      source: sourceCell(r.source),
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
    SOURCE,
  ];
  book.addDataTable(book.addSheet('Investors'), {
    name: 'Investors',
    columns: investorColumns,
    rows: investorRows,
  });
}

/** New since last run: the startups and top investors that were not on the previous run's lists. */
function newSinceLastRunSheet(ctx: SheetCtx): void {
  const { book, url } = ctx;
  const cmpNew = ctx.model.comparison;
  if (cmpNew.newStartups.length > 0 || cmpNew.newTopInvestors.length > 0) {
    book.addDataTable(book.addSheet('New since last run'), {
      name: 'NewSinceLastRun',
      columns: [
        { header: 'Kind', key: 'kind' },
        { header: 'Name', key: 'name', linkKey: 'url' },
        { header: 'Country', key: 'country' },
        { header: 'URL', key: 'url', kind: 'url' },
        SOURCE,
        { header: 'Basis', key: 'basis', width: 44, wrap: true },
      ],
      rows: [
        ...cmpNew.newStartups.map((s) => ({ ...s, url: url(s.url), kind: 'Startup' })),
        ...cmpNew.newTopInvestors.map((s) => ({ ...s, url: url(s.url), kind: 'Top investor' })),
      ].map((r) => ({
        ...r,
        source: sourceCell(r.source),
        // Which names are new is the runner's finding: this run's list against the previous run's.
        basis: `${COMPUTED_BY_RUNNER}: not on the list of ${PREVIOUS_RUN}`,
      })),
    });
  }
}

/** Active investors: each country's most active investors of the last three years, ranked. */
function activeInvestorsSheet(ctx: SheetCtx): void {
  const { book, url } = ctx;
  const active = ctx.model.countries.flatMap((c) =>
    c.most_active_investors.map((m, k) => ({
      ...m,
      url: url(m.url),
      country: c.country,
      rank: k + 1,
      source: sourceCell(c.source),
    })),
  );
  book.addDataTable(book.addSheet('Active investors'), {
    name: 'ActiveInvestors',
    columns: [
      { header: 'Country', key: 'country' },
      { header: 'Rank', key: 'rank', kind: 'int', width: 8 },
      { header: 'Investor', key: 'name', linkKey: 'url' },
      { header: 'Deals, last 3 years', key: 'deals', kind: 'int' },
      { header: 'As lead, last 3 years', key: 'lead_deals', kind: 'int' },
      SOURCE,
    ],
    rows: active,
  });
}

/** Startups: each country's notable startups, stages in words, names linked to their website. */
function startupsSheet(ctx: SheetCtx): void {
  const { book, url } = ctx;
  const startupRows = ctx.model.countries.flatMap((c) =>
    c.notable_startups.map((s) => ({
      ...s,
      stage: s.stage ? stageLabel(s.stage) : null,
      website: readerUrl(s.website),
      url: url(s.url),
      country: c.country,
      source: sourceCell(s.source),
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
      SOURCE,
    ],
    rows: startupRows,
  });
}

/** Rounds by year: every country's deals and capital per year, in one money unit. */
function roundsByYearSheet(ctx: SheetCtx): void {
  const { book, model } = ctx;
  const asOf = model.period.asOf;
  const yearData = model.countries.flatMap((c) =>
    yearRows(c, ctx.totals.ytdYear).map((y) => ({
      ...y,
      country: c.country,
      label: y.partial ? `${y.year} YTD` : yearLabel(y.year, asOf),
      period: y.partial ? `Year to date, to ${formatDate(asOf)}` : 'Full year',
      source: sourceCell(c.source),
      basis: basisText([
        ...(y.deals_yoy_computed ? ['Deals YoY'] : []),
        ...(y.capital_yoy_computed ? ['Capital YoY'] : []),
      ]),
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
      SOURCE,
      { header: 'Basis', key: 'basis' },
    ],
    rows: yearData,
  });
}

/** Investor profiles: the enriched investors' type, HQ, thesis and recent portfolio. */
function investorProfilesSheet(ctx: SheetCtx): void {
  const { book, url } = ctx;
  const profiles = ctx.model.countries.flatMap((c) =>
    (c.profiles ?? []).map((p) => ({
      ...p,
      url: url(p.url),
      country: c.country,
      portfolio: (p.recent_portfolio ?? []).map((r) => r.name).join(', '),
      source: sourceCell(p.source),
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
        SOURCE,
      ],
      rows: profiles,
    });
  }
}
