/**
 * The numbers the market report prints, derived from the model: year-on-year changes, last
 * full year and year to date per country, totals, the executive summary's sentences, and the
 * key figures and headline the report opens with.
 */
import {
  formatDate,
  formatInt,
  formatPct,
  formatUsd,
  headlineText,
  pctChange,
} from '../../../reports/format.js';
import type { KeyFigure } from '../../../reports/pdf/index.js';
import type { CountryChange, CountrySection, MarketReportModel, YearFigures } from './model.js';

export interface YearRow extends YearFigures {
  deals_yoy_pct: number | null;
  capital_yoy_pct: number | null;
  partial: boolean;
}

export interface CountryFigures {
  country: string;
  lastFullYear: number;
  ytdYear: number;
  lastFull: {
    deals: number | null;
    capital: number | null;
    dealsYoy: number | null;
    capitalYoy: number | null;
  };
  /** Year to date, and its change vs the same period of the previous year in percent. */
  ytd: { deals: number | null; capital: number | null; dealsYoy: number | null; capitalYoy: number | null };
  change: CountryChange | null;
  /** Share of deals at seed and earlier, in percent. */
  earlyShare: number | null;
  topSector: string | null;
  topInvestor: string | null;
}

/** The year of the data's as-of date (the year to date). */
export function asOfYear(model: MarketReportModel): number {
  const d = new Date(model.period.asOf);
  return Number.isNaN(d.getTime()) ? new Date(model.generatedAt).getUTCFullYear() : d.getUTCFullYear();
}

/** by_year sorted by year with YoY filled in where the service did not give it. */
export function yearRows(section: CountrySection, ytdYear: number): YearRow[] {
  const sorted = [...section.by_year].sort((a, b) => a.year - b.year);
  return sorted.map((y, i) => {
    const prev = i > 0 ? sorted[i - 1] : undefined;
    const partial = y.partial ?? y.year >= ytdYear;
    return {
      ...y,
      partial,
      deals_yoy_pct: y.deals_yoy_pct ?? (prev && !partial ? pctChange(y.deals, prev.deals) : null),
      capital_yoy_pct:
        y.capital_yoy_pct ?? (prev && !partial ? pctChange(y.capital_usd, prev.capital_usd) : null),
    };
  });
}

const EARLY = /pre-?seed|seed|angel/i;

/** A country's headline figures. */
export function countryFigures(model: MarketReportModel, section: CountrySection): CountryFigures {
  const ytdYear = asOfYear(model);
  const rows = yearRows(section, ytdYear);
  const full = rows.filter((r) => !r.partial);
  const last = full[full.length - 1];
  const ytd = rows.find((r) => r.year === ytdYear && r.partial);
  const totalDeals = section.stage_mix.reduce((s, x) => s + x.deals, 0);
  const early = section.stage_mix.filter((x) => EARLY.test(x.stage)).reduce((s, x) => s + x.deals, 0);
  const runChange = model.comparison.changes.find((c) => c.country === section.country) ?? null;
  const topSector = [...section.top_sectors].sort(
    (a, b) => (b.capital_usd ?? b.deals) - (a.capital_usd ?? a.deals),
  )[0];
  return {
    country: section.country,
    lastFullYear: last?.year ?? ytdYear - 1,
    ytdYear,
    lastFull: {
      deals: last?.deals ?? null,
      capital: last?.capital_usd ?? null,
      dealsYoy: last?.deals_yoy_pct ?? null,
      capitalYoy: last?.capital_yoy_pct ?? null,
    },
    ytd: {
      deals: ytd?.deals ?? null,
      capital: ytd?.capital_usd ?? null,
      // The service's own year-to-date change on the partial year's row comes first: it is the
      // figure the by-year table prints next to it.
      dealsYoy: ytd?.deals_yoy_pct ?? runChange?.deals_yoy_pct ?? null,
      capitalYoy: ytd?.capital_yoy_pct ?? runChange?.capital_yoy_pct ?? null,
    },
    change: runChange,
    earlyShare: totalDeals > 0 ? (early / totalDeals) * 100 : null,
    topSector: topSector?.sector ?? null,
    topInvestor: section.most_active_investors[0]?.name ?? null,
  };
}

export interface Totals {
  lastFullYear: number;
  ytdYear: number;
  deals: number;
  capital: number;
  dealsPrev: number;
  capitalPrev: number;
  dealsYoy: number | null;
  capitalYoy: number | null;
  ytdDeals: number;
  ytdCapital: number;
}

/** Sums over all countries for the last full year (with YoY) and the year to date. */
export function totals(model: MarketReportModel): Totals {
  const ytdYear = asOfYear(model);
  const lastFullYear = ytdYear - 1;
  const t = { deals: 0, capital: 0, dealsPrev: 0, capitalPrev: 0, ytdDeals: 0, ytdCapital: 0 };
  for (const c of model.countries) {
    for (const y of c.by_year) {
      if (y.year === lastFullYear) {
        t.deals += y.deals;
        t.capital += y.capital_usd;
      } else if (y.year === lastFullYear - 1) {
        t.dealsPrev += y.deals;
        t.capitalPrev += y.capital_usd;
      } else if (y.year === ytdYear) {
        t.ytdDeals += y.deals;
        t.ytdCapital += y.capital_usd;
      }
    }
  }
  return {
    ...t,
    lastFullYear,
    ytdYear,
    dealsYoy: pctChange(t.deals, t.dealsPrev),
    capitalYoy: pctChange(t.capital, t.capitalPrev),
  };
}

/** "+12.5%" / "-3%" / "n/a" for prose. */
function change(p: number | null | undefined): string {
  return typeof p === 'number' && Number.isFinite(p) ? formatPct(p, true) : 'n/a';
}

/** Trend of a change for colouring. */
export function trendOf(p: number | null | undefined): 'up' | 'down' | 'flat' {
  if (typeof p !== 'number' || !Number.isFinite(p) || Math.abs(p) < 0.05) return 'flat';
  return p > 0 ? 'up' : 'down';
}

export interface SummaryParts {
  /** The whole market: totals, the largest market. */
  overview: string[];
  /** One sentence per country. */
  countries: string[];
  /** Changes since the previous run (or that this is the first run) and partial status. */
  changes: string[];
}

/** The executive summary in prose with numbers: an overview, a line per country, the changes. */
export function summaryParts(model: MarketReportModel): SummaryParts {
  const t = totals(model);
  const figures = model.countries.map((c) => countryFigures(model, c));
  const overview: string[] = [];
  const names = model.countries.map((c) => c.country);
  const list =
    names.length <= 1
      ? (names[0] ?? 'no country')
      : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
  overview.push(
    `Across ${list}, startups closed ${formatInt(t.deals)} rounds worth ${formatUsd(t.capital)} in ${t.lastFullYear} ` +
      `(${change(t.dealsYoy)} deals and ${change(t.capitalYoy)} capital year on year). ` +
      `In ${t.ytdYear} to ${formatDate(model.period.asOf)}, ${formatInt(t.ytdDeals)} rounds raised ${formatUsd(t.ytdCapital)}.`,
  );
  const ranked = [...figures].sort((a, b) => (b.lastFull.capital ?? 0) - (a.lastFull.capital ?? 0));
  const lead = ranked[0];
  if (lead && ranked.length > 1 && t.capital > 0) {
    overview.push(
      `${lead.country} was the largest market by capital in ${lead.lastFullYear} with ${formatUsd(lead.lastFull.capital)} ` +
        `(${formatPct(((lead.lastFull.capital ?? 0) / t.capital) * 100)} of the total across the countries covered).`,
    );
  }
  const countries = figures.map((f) => {
    const parts = [
      `${formatInt(f.lastFull.deals)} deals and ${formatUsd(f.lastFull.capital)} in ${f.lastFullYear} (${change(f.lastFull.dealsYoy)} deals, ${change(f.lastFull.capitalYoy)} capital YoY)`,
      `${formatInt(f.ytd.deals)} deals and ${formatUsd(f.ytd.capital)} in ${f.ytdYear} to date` +
        (f.ytd.dealsYoy != null || f.ytd.capitalYoy != null
          ? ` (${change(f.ytd.dealsYoy)} deals, ${change(f.ytd.capitalYoy)} capital vs the same period last year)`
          : ''),
    ];
    if (f.topSector) parts.push(`leading sector ${f.topSector}`);
    return `${f.country}: ${parts.join('; ')}.`;
  });
  const changes: string[] = [];
  const cmp = model.comparison;
  if (cmp.previousRunAt) {
    const moved = figures
      .map((f) => f.change)
      .filter(
        (c): c is CountryChange =>
          !!c && (c.deals_vs_last_run_pct != null || c.capital_vs_last_run_pct != null),
      );
    const still = moved.every(
      (c) => Math.abs(c.deals_vs_last_run_pct ?? 0) < 0.05 && Math.abs(c.capital_vs_last_run_pct ?? 0) < 0.05,
    );
    const moves = moved.map(
      (c) =>
        `${c.country} ${change(c.deals_vs_last_run_pct)} deals, ${change(c.capital_vs_last_run_pct)} capital`,
    );
    const entered =
      cmp.newStartups.length + cmp.newTopInvestors.length === 0
        ? 'no new startup or investor entered the lists'
        : `${cmp.newStartups.length} ${cmp.newStartups.length === 1 ? 'startup' : 'startups'} and ${cmp.newTopInvestors.length} ${cmp.newTopInvestors.length === 1 ? 'investor' : 'investors'} entered the lists`;
    const figuresMoved =
      moves.length === 0
        ? ''
        : still
          ? '; year-to-date figures are unchanged'
          : `; year-to-date figures moved ${moves.join('; ')}`;
    changes.push(`Since the previous run on ${formatDate(cmp.previousRunAt)}: ${entered}${figuresMoved}.`);
  } else {
    changes.push(
      'This is the first run of this report: there is no previous run to compare with. Changes since the previous run appear from the next run on.',
    );
  }
  if (model.stats.partial) {
    changes.push(
      `This report is partial: ${model.stats.partialReasons.join('; ') || 'the run stopped early'}. Sections affected say so.`,
    );
  }
  return { overview, countries, changes };
}

/** The executive summary as paragraphs of prose with numbers. */
export function summaryParagraphs(model: MarketReportModel): string[] {
  const p = summaryParts(model);
  return [...p.overview, ...p.countries, ...p.changes];
}

/** `+12.5% YoY` for a finite change, else nothing. */
function yoyNote(p: number | null | undefined, label = 'YoY'): string | undefined {
  return typeof p === 'number' && Number.isFinite(p) ? `${formatPct(p, true)} ${label}` : undefined;
}

/** A tile's note and colour for a year-on-year change (nothing when the change is unknown). */
export function withTrend(p: number | null): Pick<KeyFigure, 'note' | 'trend'> {
  const note = yoyNote(p);
  return note ? { note, trend: trendOf(p) } : {};
}

/**
 * The key figures the report opens with (the executive summary's tiles), in order: the PDF
 * draws them and the render activity returns them for the messages that deliver the report.
 */
export function openingFigures(model: MarketReportModel): KeyFigure[] {
  const t = totals(model);
  const cmp = model.comparison;
  const firstRun = !cmp.previousRunAt;
  const since = cmp.previousRunAt ? `since ${formatDate(cmp.previousRunAt)}` : '';
  return [
    { label: `Deals ${t.lastFullYear}`, value: formatInt(t.deals), ...withTrend(t.dealsYoy) },
    { label: `Capital ${t.lastFullYear}`, value: formatUsd(t.capital), ...withTrend(t.capitalYoy) },
    {
      label: `Deals ${t.ytdYear} YTD`,
      value: formatInt(t.ytdDeals),
      note: `to ${formatDate(model.period.asOf)}`,
    },
    {
      label: `Capital ${t.ytdYear} YTD`,
      value: formatUsd(t.ytdCapital),
      note: `to ${formatDate(model.period.asOf)}`,
    },
    {
      label: 'Countries',
      value: formatInt(model.countries.length),
      note: model.countries.map((c) => c.country).join(', '),
    },
    firstRun
      ? { label: 'New startups', value: 'First run', note: 'no previous run to compare' }
      : { label: 'New startups', value: formatInt(cmp.newStartups.length), note: since },
    firstRun
      ? { label: 'New top investors', value: 'First run', note: 'no previous run to compare' }
      : { label: 'New top investors', value: formatInt(cmp.newTopInvestors.length), note: since },
    {
      label: 'Agent answers',
      value: formatInt(model.answers.filter((a) => !a.skipped).length),
      note: `${model.answers.filter((a) => a.skipped).length} skipped`,
    },
  ];
}

/** The report's opening sentence (the executive summary's first paragraph), as a headline. */
export function openingHeadline(model: MarketReportModel): string {
  return headlineText(summaryParts(model).overview[0] ?? '');
}
