/**
 * The weekly market report's input: everything the renderer needs, as plain JSON-serialisable
 * data (it crosses Temporal activities by claim check). The workflow gathers it from
 * country_overview, search_investors, search_startups, get_investor and ask; the renderer
 * computes nothing from the service beyond sums and changes.
 *
 * Conventions: amounts in USD (not millions); percentages in percent units (12.5 = 12.5%);
 * dates and times as ISO 8601 strings; `url` is the service's link (http/https) or null.
 */
import type { ChartSpec } from '../../../api/envelope.js';
import type { ServiceLinks } from '../../../reports/links.js';
import type { SourceRow } from '../../../shared/types.js';

/** One year of a country's market (country_overview by_year). */
export interface YearFigures {
  year: number;
  deals: number;
  capital_usd: number;
  /** Change vs the previous year in percent; computed from the rows when absent. */
  deals_yoy_pct?: number | null;
  capital_yoy_pct?: number | null;
  /** True for the current, incomplete year (year to date). Default: year of `period.asOf`. */
  partial?: boolean;
}

export interface StageFigures {
  stage: string;
  deals: number;
  capital_usd?: number | null;
}

export interface SectorFigures {
  sector: string;
  deals: number;
  capital_usd?: number | null;
}

export interface ActiveInvestor {
  key?: string;
  name: string;
  deals: number;
  lead_deals?: number | null;
  url?: string | null;
}

/** A top investor (search_investors, sorted by score or by investments). */
export interface InvestorRow {
  key: string;
  name: string;
  type?: string | null;
  hq_city?: string | null;
  hq_country?: string | null;
  score?: number | null;
  investments?: number | null;
  url?: string | null;
  /** The id of the stored search page it was read from (the Sources sheet's); absent in older models. */
  source?: string | null;
}

/** A notable startup (search_startups). */
export interface StartupRow {
  key: string;
  name: string;
  sector?: string | null;
  stage?: string | null;
  hq_city?: string | null;
  total_raised_usd?: number | null;
  last_round_date?: string | null;
  last_round_amount_usd?: number | null;
  /** The company's own website, as the service gives it (a domain or a URL). */
  website?: string | null;
  url?: string | null;
  /** The id of the stored search page it was read from; absent in older models. */
  source?: string | null;
}

/** An investor profile read with get_investor, when the job asked for enrichment. */
export interface InvestorProfile {
  key: string;
  name: string;
  thesis?: string | null;
  type?: string | null;
  hq?: string | null;
  url?: string | null;
  recent_portfolio?: {
    name: string;
    date?: string | null;
    stage?: string | null;
    amount_usd?: number | null;
  }[];
  /** The id of the stored get_investor answer; absent in older models. */
  source?: string | null;
}

/** One country's section (country_overview plus searches). */
export interface CountrySection {
  country: string;
  region?: string | null;
  /** The overview's own as-of date. */
  as_of?: string | null;
  by_year: YearFigures[];
  stage_mix: StageFigures[];
  top_sectors: SectorFigures[];
  most_active_investors: ActiveInvestor[];
  /** The chart specs the service returned for this country, drawn as they are. */
  charts: ChartSpec[];
  /** The service's link to the interactive country view. */
  url?: string | null;
  /** The service's short readable summary of the country. */
  summary?: string | null;
  top_investors_by_score: InvestorRow[];
  top_investors_by_investments: InvestorRow[];
  notable_startups: StartupRow[];
  profiles?: InvestorProfile[];
  /** What the service did not provide for this country ("stage mix"), named in the section. */
  not_provided?: string[];
  /**
   * The id of the stored country_overview answer the section's figures, tables and service
   * charts were read from (null: none was stored); absent in older models.
   */
  source?: string | null;
}

/** A question put to the data agent (ask) and what it answered, or why it was skipped. */
export interface AgentAnswer {
  question: string;
  country?: string | null;
  answer?: string | null;
  columns?: string[];
  rows?: Record<string, unknown>[];
  charts?: ChartSpec[];
  url?: string | null;
  /** Why the question was not asked (budget, plan, error). */
  skipped?: string | null;
  /** The id of the stored ask answer (null: not asked); absent in older models. */
  source?: string | null;
}

/** A country's change since the previous run and year on year. */
export interface CountryChange {
  country: string;
  /** Deals / capital of the current year to date now vs at the previous run, in percent. */
  deals_vs_last_run_pct?: number | null;
  capital_vs_last_run_pct?: number | null;
  /** Year-to-date vs the same period of last year, in percent. */
  deals_yoy_pct?: number | null;
  capital_yoy_pct?: number | null;
}

/** A name new to a list since the previous run. */
export interface NewName {
  name: string;
  country?: string | null;
  url?: string | null;
  /** The id of the stored search page this run read it from; absent in older models. */
  source?: string | null;
}

export interface RunComparison {
  /** When the previous run finished; null on a first run. */
  previousRunAt: string | null;
  /**
   * Investors in this run's top lists that were not in the previous run's (computed by the
   * runner); `source`: the search page this run read the investor from.
   */
  newTopInvestors: NewName[];
  /** Startups in this run's notable list that were not in the previous run's. */
  newStartups: NewName[];
  changes: CountryChange[];
}

export interface RunStats {
  /** Calls per operation. */
  operations: { operation: string; calls: number; credits?: number }[];
  callsMade: number;
  creditsSpent: number;
  /** The run's credit budget; null when unlimited. */
  creditBudget: number | null;
  creditsRemaining?: number | null;
  durationMs: number;
  partial: boolean;
  partialReasons: string[];
  /** Data sources named in the methodology. */
  sources: string[];
  retries?: number;
  rateLimitWaits?: number;
}

/** The deals and capital of one week of a country (or of all countries). */
export interface WeekCount {
  deals: number;
  capital_usd: number;
}

/** A country's week: what the service added since the previous run, against earlier weeks. */
export interface CountryWeek {
  country: string;
  /** Rounds and capital the service added since the previous run; null on a first run. */
  week: WeekCount | null;
  /** The previous run's week; null when that run had none. */
  previous: WeekCount | null;
  /** The average week of the last runs before this one (up to four), and how many it averages. */
  average: (WeekCount & { runs: number }) | null;
}

/** A round dated in the week, as the data agent's answers list it. */
export interface WeekRound {
  country: string | null;
  startup: string;
  stage: string | null;
  amount_usd: number | null;
  date: string;
  lead_investor: string | null;
  /** The id of the stored ask answer that listed it; absent in older models. */
  source?: string | null;
}

/**
 * The week the report is named for. The counts are the rounds the service added since the
 * previous run (by-year totals now minus at that run, any round date); the largest rounds are
 * those the data agent's answers list with a date in `from`..`to`.
 */
export interface WeekFigures {
  /** The previous run's start (ISO); null on a first run. */
  since: string | null;
  /** The seven days to the as-of date the rounds list covers. */
  from: string;
  to: string;
  countries: CountryWeek[];
  /** The largest rounds dated in the week, largest first (at most ten). */
  rounds: WeekRound[];
  /** Whether any of the job's questions listed the week's rounds. */
  roundsAsked: boolean;
}

export interface MarketReportModel {
  job: {
    id: string;
    title: string;
    countries: string[];
    /** The job's `chartImages`: the workbook's charts also as pictures (default: native only). */
    chartImages?: boolean;
  };
  /** The week the report leads with; absent in models written before it was added. */
  week?: WeekFigures;
  period: { from: string; to: string; asOf: string };
  generatedAt: string;
  countries: CountrySection[];
  answers: AgentAnswer[];
  comparison: RunComparison;
  stats: RunStats;
  /**
   * The stored answers the model was read from, in the order read (S1, S2, …): the workbook's
   * Sources sheet. Absent in models stored before sources were kept.
   */
  sources?: SourceRow[];
}

/** Options of `renderMarketReport`. */
export interface RenderMarketReportOptions {
  outDir: string;
  formats: ('xlsx' | 'pdf')[];
  /** File name without extension; made safe with `safeFileName`. */
  fileBase: string;
  /** Fixed PDF creation date and workbook dates (tests, reproducible output). Default `generatedAt`. */
  creationDate?: Date;
  /**
   * Where the service is and where readers reach its views: every service link goes through
   * `readerUrl` with it. Null or absent: links at loopback or private addresses are left out.
   */
  links?: ServiceLinks | null;
  /** The run's key (its workflow id): where its stored answers are, said when the model lists none. */
  runKey?: string;
}

export interface RenderMarketReportResult {
  files: { xlsx?: string; pdf?: string };
  /** Charts rendered (service charts plus the report's own). */
  charts: number;
  pages?: number;
  /** URL cells of the workbook left empty: their value was not an http(s) URL. */
  urlsLeftOut?: number;
}
