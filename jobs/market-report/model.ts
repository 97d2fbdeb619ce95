/**
 * Maps what a run gathered (read-country.ts, read-answers.ts, previous-run.ts) onto the report
 * renderer's model (report/model.ts). Plain data in, plain data out.
 */
import type { MarketReportJob } from './job.js';
import type {
  AgentAnswer,
  CountrySection,
  MarketReportModel,
  WeekFigures,
  WeekRound,
} from './report/model.js';
import type { CountryComparison, CountryWeekData, RunSnapshot } from './previous-run.js';
import type { AnswerData } from './read-answers.js';
import type { CountryData } from './read-country.js';
import type { RunStats, SourceRow } from '../../shared/types.js';

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

function pct(now: number | null | undefined, before: number | null | undefined): number | null {
  if (now === undefined || now === null || before === undefined || before === null || before === 0)
    return null;
  return Math.round(((now - before) / before) * 1000) / 10;
}

function section(c: CountryData, top: { investors: number; startups: number }): CountrySection {
  const o = c.overview;
  const profiles = c.investorProfiles.map((p) => {
    const hq = [p.hq_city, p.hq_country].filter(Boolean).join(', ');
    return {
      key: p.key,
      name: p.name,
      thesis: p.thesis,
      type: p.investor_type,
      hq: hq || null,
      url: p.url,
      recent_portfolio: p.recent_portfolio.slice(0, 5).map((r) => ({
        name: r.name ?? '',
        date: r.date,
        stage: r.stage,
        amount_usd: r.amount_usd,
      })),
      ...sourceOf(p),
    };
  });
  const out: CountrySection = {
    // The country the job asked for (the section's name), whatever the service calls it.
    country: c.country,
    region: o?.region ?? null,
    as_of: o?.as_of ?? null,
    by_year: (o?.by_year ?? []).map((y) => ({
      year: y.year,
      deals: y.deals,
      capital_usd: y.capital_usd,
      deals_yoy_pct: y.yoy_deals_pct,
      capital_yoy_pct: y.yoy_capital_pct,
    })),
    stage_mix: (o?.stage_mix ?? []).map((s) => ({
      stage: s.label,
      deals: s.deals,
      capital_usd: s.capital_usd,
    })),
    top_sectors: (o?.top_sectors ?? []).map((s) => ({
      sector: s.label,
      deals: s.deals,
      capital_usd: s.capital_usd,
    })),
    most_active_investors: (o?.most_active_investors ?? []).map((i) => ({
      ...(i.key !== null ? { key: i.key } : {}),
      name: i.name,
      deals: i.deals,
      lead_deals: i.lead_deals,
      url: i.url,
    })),
    charts: c.overviewCharts,
    url: c.overviewUrl,
    summary: c.overviewSummary,
    top_investors_by_score: c.investorsByScore.slice(0, top.investors).map(investorRow),
    top_investors_by_investments: c.investorsByInvestments.slice(0, top.investors).map(investorRow),
    notable_startups: c.startups.slice(0, top.startups).map((s) => ({
      key: s.key,
      name: s.name,
      sector: s.sector,
      stage: s.stage,
      hq_city: s.hq_city,
      total_raised_usd: s.total_raised_usd,
      last_round_date: s.last_round_date,
      last_round_amount_usd: s.last_round_amount_usd,
      website: s.website,
      url: s.url,
      ...sourceOf(s),
    })),
    profiles,
  };
  if (c.notProvided.length > 0) out.not_provided = [...c.notProvided];
  if (c.overviewSource !== undefined) out.source = c.overviewSource;
  return out;
}

function investorRow(i: CountryData['investorsByScore'][number]) {
  return {
    key: i.key,
    name: i.name,
    type: i.investor_type,
    hq_city: i.hq_city,
    hq_country: i.hq_country,
    score: i.score,
    investments: i.investments_count,
    url: i.url,
    ...sourceOf(i),
  };
}

/** A record's `source` (the id of the stored answer it was read from), when it was read with one. */
function sourceOf(r: { source?: string | null }): { source?: string | null } {
  return r.source !== undefined ? { source: r.source } : {};
}

function answer(a: AnswerData): AgentAnswer {
  return {
    question: a.question,
    country: a.country,
    answer: a.answer,
    columns: a.columns,
    rows: a.rows,
    charts: a.charts,
    url: a.url,
    skipped: a.skipped,
    ...sourceOf(a),
  };
}

const DAY_MS = 86_400_000;

/** The first of a row's keys that holds a value of the given type. */
function pick(row: Record<string, unknown>, keys: string[], type: 'string' | 'number'): unknown {
  for (const k of keys) if (typeof row[k] === type) return row[k];
  return undefined;
}

/**
 * The rounds the data agent's answers list with a date from `from` to `to` and an amount: the
 * week's rounds, each once (same startup, date and amount), largest first, at most ten.
 */
export function weekRounds(
  answers: AnswerData[],
  from: string,
  to: string,
): { rounds: WeekRound[]; asked: boolean } {
  const seen = new Set<string>();
  const rounds: WeekRound[] = [];
  let asked = false;
  for (const a of answers) {
    if (a.skipped) continue;
    for (const row of a.rows) {
      const date = pick(row, ['date', 'round_date', 'last_round_date'], 'string');
      const startup = pick(row, ['startup', 'startup_name', 'company', 'name'], 'string');
      const amount = pick(row, ['amount_usd', 'round_amount_usd', 'amount'], 'number');
      if (typeof date !== 'string' || typeof startup !== 'string' || typeof amount !== 'number') continue;
      asked = true;
      const day = date.slice(0, 10);
      if (day < from || day > to) continue;
      const id = `${startup}|${day}|${amount}`;
      if (seen.has(id)) continue;
      seen.add(id);
      const stage = pick(row, ['stage', 'round_stage'], 'string');
      const lead = pick(row, ['lead_investor', 'lead', 'lead_investor_name'], 'string');
      const country = pick(row, ['country', 'hq_country'], 'string');
      rounds.push({
        country: typeof country === 'string' ? country : a.country,
        startup,
        stage: typeof stage === 'string' ? stage : null,
        amount_usd: amount,
        date: day,
        lead_investor: typeof lead === 'string' ? lead : null,
        ...sourceOf(a),
      });
    }
  }
  rounds.sort((x, y) => (y.amount_usd ?? 0) - (x.amount_usd ?? 0) || y.date.localeCompare(x.date));
  return { rounds: rounds.slice(0, 10), asked };
}

function weekOf(
  weeks: CountryWeekData[],
  answers: AnswerData[],
  previous: RunSnapshot | null,
  from: string,
  to: string,
): WeekFigures {
  const count = (w: { deals: number; capital_usd: number } | null) =>
    w ? { deals: w.deals, capital_usd: w.capital_usd } : null;
  const { rounds, asked } = weekRounds(answers, from, to);
  return {
    since: previous?.runAt ?? null,
    from,
    to,
    countries: weeks.map((w) => ({
      country: w.country,
      week: count(w.week),
      previous: count(w.previous),
      average: w.average ? { ...w.average } : null,
    })),
    rounds,
    roundsAsked: asked,
  };
}

/** The renderer's model of one run. */
export function toMarketReportModel(input: {
  job: MarketReportJob;
  /** Each country's week (previous-run.ts weekFigures); none: the report has no week. */
  weeks?: CountryWeekData[];
  countries: CountryData[];
  answers: AnswerData[];
  comparisons: CountryComparison[];
  previous: RunSnapshot | null;
  stats: RunStats;
  asOf: string;
  generatedAt?: string;
  /** The stored answers read (SourceBook rows); absent: the model lists none. */
  sources?: SourceRow[];
}): MarketReportModel {
  const { job, countries, stats, previous, asOf } = input;
  const asOfYear = Number(asOf.slice(0, 4));
  const from = new Date(Date.parse(`${asOf}T00:00:00Z`) - 6 * DAY_MS).toISOString().slice(0, 10);
  const creditsByOp: Record<string, number> = {};
  for (const a of input.answers) creditsByOp.ask = (creditsByOp.ask ?? 0) + a.charged;
  const notes: string[] = [];
  for (const c of countries) {
    if (c.investorsCapped)
      notes.push(
        `${c.country}: investor lists capped at ${job.paging.maxInvestorsPerCountry} of ${c.investorsTotal ?? 'more'} (job setting)`,
      );
    if (c.startupsCapped)
      notes.push(
        `${c.country}: startup list capped at ${job.paging.maxStartupsPerCountry} of ${c.startupsTotal ?? 'more'} (job setting)`,
      );
    if (c.duplicatesDropped > 0)
      notes.push(
        `${c.country}: ${c.duplicatesDropped} records met twice across pages (the data moved while paging) were counted once`,
      );
    for (const what of c.notProvided) notes.push(`${c.country}: ${what} not provided by the service`);
    for (const note of c.readingNotes) notes.push(`${c.country}: ${note}`);
  }
  return {
    job: {
      id: job.id,
      title: job.title,
      countries: job.countries,
      chartImages: job.chartImages,
    },
    period: { from, to: asOf, asOf },
    ...(input.weeks ? { week: weekOf(input.weeks, input.answers, previous, from, asOf) } : {}),
    generatedAt: input.generatedAt ?? new Date().toISOString(),
    countries: countries.map((c) => section(c, job.top)),
    answers: input.answers.map(answer),
    comparison: {
      previousRunAt: previous?.runAt ?? null,
      newTopInvestors: input.comparisons.flatMap((cmp) =>
        cmp.newTopInvestors.map((i) => {
          const read = countries
            .find((c) => c.country === cmp.country)
            ?.investorsByScore.find((x) => x.key === i.key);
          return { name: i.name, country: cmp.country, url: read?.url ?? null, ...sourceOf(read ?? {}) };
        }),
      ),
      newStartups: input.comparisons.flatMap((cmp) =>
        cmp.newTopStartups.map((s) => {
          const read = countries
            .find((c) => c.country === cmp.country)
            ?.startups.find((x) => x.key === s.key);
          return { name: s.name, country: cmp.country, url: read?.url ?? null, ...sourceOf(read ?? {}) };
        }),
      ),
      changes: input.comparisons.map((cmp) => {
        const c = countries.find((x) => x.country === cmp.country);
        const nowYear = c?.overview?.by_year?.find((y) => y.year === asOfYear);
        const prevYear = previous?.countries[cmp.country]?.byYear.find((y) => y.year === asOfYear);
        return {
          country: cmp.country,
          deals_vs_last_run_pct: pct(nowYear?.deals, prevYear?.deals),
          capital_vs_last_run_pct: pct(nowYear?.capital_usd, prevYear?.capital_usd),
          // The service's change of the year to date against the same period of last year.
          deals_yoy_pct: num(nowYear?.yoy_deals_pct),
          capital_yoy_pct: num(nowYear?.yoy_capital_pct),
        };
      }),
    },
    stats: {
      operations: Object.entries(stats.callsByOperation)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([operation, calls]) => ({ operation, calls, credits: creditsByOp[operation] ?? 0 })),
      callsMade: stats.callsMade,
      creditsSpent: stats.creditsSpent,
      creditBudget: stats.creditsBudget,
      creditsRemaining: stats.accountBalance,
      // Up to when the workflow stopped the run's clock: the manifest's durationMs is the same.
      // (A model built from stats without it, before the clock was added, counts up to now.)
      durationMs:
        (stats.finishedAt ? Date.parse(stats.finishedAt) : Date.now()) - Date.parse(stats.startedAt),
      partial: stats.partial,
      partialReasons: [...stats.reasons],
      sources: [
        'Venture Intelligence Service: country_overview, search_investors, search_startups, get_investor, get_startup, ask',
        `Searches paged at 100 records a page, deduplicated by key; caps per country: ${job.paging.maxInvestorsPerCountry} investors, ${job.paging.maxStartupsPerCountry} startups`,
        ...notes,
      ],
    },
    ...(input.sources ? { sources: input.sources } : {}),
  };
}
