/**
 * The PDF's executive summary: the opening key figures and the week in sentences, the week by
 * country (the rounds the service added since the previous run) and the week's largest rounds,
 * the year to date by country, and the names new since the previous run.
 */
import {
  formatDateRange,
  moneyHeader,
  moneyUnit,
  stageLabel,
  yearLabel,
  type MoneyUnit,
} from '../../../reports/editorial.js';
import { formatDate, formatInt, formatNumber } from '../../../reports/format.js';
import type { TableColumn } from '../../../reports/pdf/index.js';
import {
  countryFigures,
  openingFigures,
  summaryParts,
  totals,
  weekSentences,
  weekTotals,
} from './figures.js';
import type { WeekFigures } from './model.js';
import { headedTable, inUnit, MUTED, pct } from './pdf-layout.js';
import type { Ctx } from './pdf-layout.js';

export function executiveSummary(ctx: Ctx): void {
  const { model, pdf } = ctx;
  pdf.heading('Executive summary', 1);
  pdf.keyFigures(openingFigures(model), 4);
  const week = weekSentences(model);
  pdf.paragraph(week.lead);
  pdf.paragraph(week.basis, { size: 8.5, color: MUTED });

  const w = model.week;
  if (w?.since) weekByCountry(ctx, w, w.since);
  if (w) weekRounds(ctx, w);
  yearToDate(ctx);
  newSinceLastRun(ctx);
}

/** The week table's columns: the average week's only when it averages more than one run. */
function weekColumns(unit: MoneyUnit, avgHeader: string | null): TableColumn[] {
  return [
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
  ];
}

/** The week by country: the rounds added since the previous run, against the earlier weeks. */
function weekByCountry(ctx: Ctx, w: WeekFigures, since: string): void {
  const { model, pdf } = ctx;
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
    `The week by country: rounds added since ${formatDate(since)}`,
    weekColumns(unit, avgHeader),
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

/** The largest rounds dated in the week, or why there are none. */
function weekRounds(ctx: Ctx, w: WeekFigures): void {
  const { pdf } = ctx;
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

/** The year to date against the same period of the year before: in sentences and by country. */
function yearToDate(ctx: Ctx): void {
  const { model, pdf } = ctx;
  const t = totals(model);
  const ytd = yearLabel(t.ytdYear, model.period.asOf);
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
}

/** The startups and investors new to the lists since the previous run, by country. */
function newSinceLastRun(ctx: Ctx): void {
  const { pdf } = ctx;
  const cmp = ctx.model.comparison;
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
