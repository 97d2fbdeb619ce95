/**
 * The numbers the market report prints, derived from the model: year-on-year changes, last
 * full year and year to date per country, totals, the executive summary's sentences, and the
 * key figures and headline the report opens with.
 */
import { formatDate, formatInt, formatNumber, headlineText, pctChange } from '../../../reports/format.js';
import type { KeyFigure } from '../../../reports/pdf/index.js';
import {
  formatDateRange,
  formatMoneyIn,
  formatPctFixed,
  moneyUnit,
  plural,
  stageLabel,
  yearLabel,
  type MoneyUnit,
} from '../../../reports/editorial.js';
import type { CountryChange, CountrySection, MarketReportModel, YearFigures } from './model.js';

export interface YearRow extends YearFigures {
  deals_yoy_pct: number | null;
  capital_yoy_pct: number | null;
  partial: boolean;
  /** True when the runner computed the change from the rows (the service gave none). */
  deals_yoy_computed: boolean;
  capital_yoy_computed: boolean;
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
    /** True when the runner computed a YoY of the year (the service gave none). */
    yoyComputed: boolean;
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
    const deals = y.deals_yoy_pct ?? (prev && !partial ? pctChange(y.deals, prev.deals) : null);
    const capital =
      y.capital_yoy_pct ?? (prev && !partial ? pctChange(y.capital_usd, prev.capital_usd) : null);
    return {
      ...y,
      partial,
      deals_yoy_pct: deals,
      capital_yoy_pct: capital,
      deals_yoy_computed: (y.deals_yoy_pct ?? null) === null && deals !== null,
      capital_yoy_computed: (y.capital_yoy_pct ?? null) === null && capital !== null,
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
      yoyComputed: !!last && (last.deals_yoy_computed || last.capital_yoy_computed),
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
  return typeof p === 'number' && Number.isFinite(p) ? formatPctFixed(p, true) : 'n/a';
}

/** An amount with its unit symbol (`$1.2B`), one decimal: prose and tiles. */
export function money(usd: number | null | undefined, unit?: MoneyUnit): string {
  return formatMoneyIn(usd, unit ?? moneyUnit([usd]), { symbol: true });
}

/** The week's totals over every country that has a week (null when none has). */
export function weekTotals(model: MarketReportModel): {
  week: { deals: number; capital_usd: number } | null;
  previous: { deals: number; capital_usd: number } | null;
  average: { deals: number; capital_usd: number; runs: number } | null;
} {
  const cs = model.week?.countries ?? [];
  const sum = (list: ({ deals: number; capital_usd: number } | null)[]) => {
    const known = list.filter((w): w is { deals: number; capital_usd: number } => w !== null);
    return known.length === 0 || known.length < list.length
      ? null
      : known.reduce((t, w) => ({ deals: t.deals + w.deals, capital_usd: t.capital_usd + w.capital_usd }), {
          deals: 0,
          capital_usd: 0,
        });
  };
  const avgs = cs.map((c) => c.average);
  const runs = Math.min(...avgs.map((a) => a?.runs ?? 0));
  const average = cs.length > 0 && runs > 0 ? sum(avgs) : null;
  return {
    week: cs.length > 0 ? sum(cs.map((c) => c.week)) : null,
    previous: cs.length > 0 ? sum(cs.map((c) => c.previous)) : null,
    average: average ? { ...average, runs } : null,
  };
}

/** The week's opening sentences: the counts, what they compare with, and how they are counted. */
export function weekSentences(model: MarketReportModel): { lead: string; basis: string } {
  const w = model.week;
  const names = model.countries.map((c) => c.country);
  const list =
    names.length <= 1 ? (names[0] ?? 'no country') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  const to = formatDate(model.period.asOf);
  if (!w || !w.since) {
    // A first run has no previous run to count the week against: say so, and give what the run
    // has of the week (the largest rounds the data agent's answers date in it).
    const rounds = w?.rounds ?? [];
    const amounts = rounds.map((r) => r.amount_usd).filter((a): a is number => typeof a === 'number');
    const seen =
      rounds.length > 0
        ? ` What this run shows of the week: the ${plural(rounds.length, 'largest round')} dated ${formatDateRange(w?.from, w?.to)} in the data agent's answers` +
          (amounts.length > 0 ? `, ${money(amounts.reduce((a, b) => a + b, 0))} together` : '') +
          ', listed below.'
        : '';
    return {
      lead: `This is the first run of this report for ${list}, so there is no previous run to compare with: the week's deals and capital (the rounds the service adds between two runs) are counted from the next run on.${seen} The year to date follows.`,
      basis:
        'How the week is counted: the rounds and capital the service adds for each country between two runs of this job (its deals and capital by year now, minus at the previous run), so a round reported late counts in the week it appears.',
    };
  }
  const t = weekTotals(model);
  const unit = moneyUnit([t.week?.capital_usd, t.previous?.capital_usd, t.average?.capital_usd]);
  const parts: string[] = [];
  if (t.week)
    parts.push(
      `In the week to ${to} the service added ${plural(t.week.deals, 'round')} worth ${money(t.week.capital_usd, unit)} across ${list}`,
    );
  else parts.push(`In the week to ${to} the service reported no comparable figures for every country`);
  const against: string[] = [];
  if (t.previous)
    against.push(
      `${plural(t.previous.deals, 'round')} and ${money(t.previous.capital_usd, unit)} the previous week`,
    );
  if (t.average && t.average.runs > 1)
    against.push(
      `${formatNumber(t.average.deals, 1)} rounds and ${money(t.average.capital_usd, unit)} a week on average over the last ${t.average.runs} runs`,
    );
  const lead = `${parts[0]}${against.length > 0 ? `, against ${against.join(' and ')}` : ''}.`;
  return {
    lead,
    basis:
      `How the week is counted: the rounds and capital the service added for each country since the previous run on ${formatDate(w.since)} ` +
      `(its deals and capital by year now, minus at that run; any round date up to ${to}), so a round reported late counts in the week it appears. ` +
      `The largest rounds below are those dated ${formatDateRange(w.from, w.to)} in the data agent's answers.`,
  };
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
  const ytdLabel = yearLabel(t.ytdYear, model.period.asOf);
  const unit = moneyUnit([t.capital, t.ytdCapital]);
  const ytdFigs = figures.filter((f) => f.ytd.deals !== null);
  const prevDeals = ytdFigs.reduce<number | null>(
    (s, f) =>
      s === null || f.ytd.dealsYoy == null || f.ytd.deals == null
        ? null
        : s + f.ytd.deals / (1 + f.ytd.dealsYoy / 100),
    0,
  );
  const ytdChange = prevDeals !== null && prevDeals > 0 ? pctChange(t.ytdDeals, prevDeals) : null;
  overview.push(
    `Across ${list}, ${plural(t.ytdDeals, 'round')} raised ${money(t.ytdCapital, unit)} in ${ytdLabel} (to ${formatDate(model.period.asOf)}` +
      (ytdChange !== null ? `; ${change(ytdChange)} deals against the same period of ${t.ytdYear - 1}` : '') +
      `). The full year ${t.lastFullYear} counted ${plural(t.deals, 'round')} worth ${money(t.capital, unit)} ` +
      `(${change(t.dealsYoy)} deals and ${change(t.capitalYoy)} capital on ${t.lastFullYear - 1}).`,
  );
  const ranked = [...figures].sort((a, b) => (b.lastFull.capital ?? 0) - (a.lastFull.capital ?? 0));
  const lead = ranked[0];
  if (lead && ranked.length > 1 && t.capital > 0) {
    overview.push(
      `${lead.country} was the largest market by capital in ${lead.lastFullYear} with ${money(lead.lastFull.capital, unit)} ` +
        `(${formatPctFixed(((lead.lastFull.capital ?? 0) / t.capital) * 100)} of the total across the countries covered).`,
    );
  }
  const countries = figures.map((f) => {
    const parts = [
      `${formatInt(f.ytd.deals)} deals and ${money(f.ytd.capital, unit)} in ${yearLabel(f.ytdYear, model.period.asOf)}` +
        (f.ytd.dealsYoy != null || f.ytd.capitalYoy != null
          ? ` (${change(f.ytd.dealsYoy)} deals, ${change(f.ytd.capitalYoy)} capital against the same period of ${f.ytdYear - 1})`
          : ''),
      `${formatInt(f.lastFull.deals)} deals and ${money(f.lastFull.capital, unit)} in ${f.lastFullYear} (${change(f.lastFull.dealsYoy)} deals, ${change(f.lastFull.capitalYoy)} capital on ${f.lastFullYear - 1})`,
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
        : `${plural(cmp.newStartups.length, 'startup')} and ${plural(cmp.newTopInvestors.length, 'investor')} entered the lists`;
    const figuresMoved =
      moves.length === 0
        ? ''
        : still
          ? `; ${yearLabel(asOfYear(model), model.period.asOf)} figures are unchanged`
          : `; ${yearLabel(asOfYear(model), model.period.asOf)} figures moved ${moves.join('; ')}`;
    changes.push(`Since the previous run on ${formatDate(cmp.previousRunAt)}: ${entered}${figuresMoved}.`);
  } else {
    changes.push(
      'No previous run to compare the lists with: changes since the previous run appear from the next run on.',
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
  return typeof p === 'number' && Number.isFinite(p) ? `${formatPctFixed(p, true)} ${label}` : undefined;
}

/** A tile's note and colour for a year-on-year change (nothing when the change is unknown). */
export function withTrend(p: number | null, label = 'YoY'): Pick<KeyFigure, 'note' | 'trend'> {
  const note = yoyNote(p, label);
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
  const w = weekTotals(model);
  const ytd = yearLabel(t.ytdYear, model.period.asOf);
  const vsPrev = (now: number, prev: number | undefined): Pick<KeyFigure, 'note' | 'trend'> => {
    if (prev === undefined) return { note: since ? `added ${since}` : 'first run' };
    const p = pctChange(now, prev);
    return p === null
      ? { note: 'previous week: none' }
      : { note: `${formatPctFixed(p, true)} vs previous week`, trend: trendOf(p) };
  };
  const unit = moneyUnit([w.week?.capital_usd, t.ytdCapital]);
  return [
    w.week
      ? {
          label: 'Deals this week',
          value: formatInt(w.week.deals),
          ...vsPrev(w.week.deals, w.previous?.deals),
        }
      : { label: 'Deals this week', value: 'First run', note: 'counted from the next run' },
    w.week
      ? {
          label: 'Capital this week',
          value: money(w.week.capital_usd),
          ...vsPrev(w.week.capital_usd, w.previous?.capital_usd),
        }
      : { label: 'Capital this week', value: 'First run', note: 'counted from the next run' },
    { label: `Deals ${ytd}`, value: formatInt(t.ytdDeals), note: `to ${formatDate(model.period.asOf)}` },
    {
      label: `Capital ${ytd}`,
      value: money(t.ytdCapital, unit),
      note: `to ${formatDate(model.period.asOf)}`,
    },
    firstRun
      ? { label: 'New startups', value: 'First run', note: 'no previous run' }
      : { label: 'New startups', value: formatInt(cmp.newStartups.length), note: since },
    firstRun
      ? { label: 'New top investors', value: 'First run', note: 'no previous run' }
      : { label: 'New top investors', value: formatInt(cmp.newTopInvestors.length), note: since },
    {
      label: 'Agent answers',
      value: formatInt(model.answers.filter((a) => !a.skipped).length),
      note: `${model.answers.filter((a) => a.skipped).length} skipped`,
    },
  ];
}

/** The report's opening sentence (the week's, then the year to date's), as a headline. */
export function openingHeadline(model: MarketReportModel): string {
  const lead = model.week?.since ? weekSentences(model).lead : summaryParts(model).overview[0];
  return headlineText(lead ?? '');
}

/** A stage as the report prints it. */
export const stageText = stageLabel;

/**
 * A country's top sectors in the order the report's sector chart plots them: by capital when the
 * service gives capital, else by deals (the table beside the chart follows the same order).
 */
export function sectorsByChart<T extends { deals: number; capital_usd?: number | null }>(sectors: T[]): T[] {
  const byCapital = sectors.some((s) => typeof s.capital_usd === 'number');
  return [...sectors].sort((a, b) =>
    byCapital ? (b.capital_usd ?? 0) - (a.capital_usd ?? 0) || b.deals - a.deals : b.deals - a.deals,
  );
}
