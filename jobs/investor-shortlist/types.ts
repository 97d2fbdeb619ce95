/**
 * The investor shortlist's report model: a section per portfolio company (the investors
 * find_investors ranked for it, the top ones enriched with get_investor, each marked when it is
 * new since the last run, and the service's match-overview charts, its combo chart among them),
 * and the investors who fit several of the companies. Each record names the stored answers it
 * came from (ids of the report's `sources`: S1, S2, …); a report stored before sources were kept
 * has none of these fields.
 */
import type { ChartSpec } from '../../api/envelope.js';
import type { SourceRow } from '../../shared/types.js';
import type { SharedInvestor } from './changes.js';

/** One investor of a company's list. */
export interface ShortlistRow {
  /** 1-based place in the service's ranking. */
  rank: number;
  key: string;
  name: string;
  fitPct: number | null;
  why: string[];
  /** The service's page of the investor. */
  url: string | null;
  /** Not on this company's list at the job's last run (never on a baseline). */
  isNew: boolean;
  investorType: string | null;
  hqCity: string | null;
  hqCountry: string | null;
  /** True when get_investor enriched the row. */
  enriched: boolean;
  thesis: string | null;
  /** Typical check, in USD (null when not given). */
  checkMinUsd: number | null;
  checkMaxUsd: number | null;
  /** Recent portfolio companies' names (enriched rows). */
  recentPortfolio: string[];
  /** The investor's own website, when the service gives one (absent in reports stored before). */
  website?: string | null;
  /** A partner from the investor's team (its profile's `team[]`), when the service names one. */
  partner?: { name: string; role: string | null } | null;
  /** The answers it came from: its company's list, and the profile it was enriched from. */
  sources?: string[];
}

/** A portfolio company's section. */
export interface CompanySection {
  name: string;
  /** The company's website as the job gives it (absent in reports stored before). */
  website?: string | null;
  /** What the job asked: the website or the description, the stage, the region or countries, the sector. */
  asked: string;
  /** How the service read the startup (its name or summary of data.startup), when it says. */
  readAs: string | null;
  investors: ShortlistRow[];
  /** The service's match-overview charts as it gave them (drawn by reports/charts). */
  charts: ChartSpec[];
  /** The service's full report of the match. */
  reportUrl: string | null;
  /** Credits the call cost. */
  charged: number;
  /** Why the company has no list: not asked (budget, the free plan's one run) or the call failed. */
  problem: string | null;
  newCount: number;
  /** The id of its find_investors answer (its list and the service's charts); absent when not asked. */
  source?: string;
}

export interface ShortlistReport {
  job: { id: string; title: string };
  date: string;
  /** True on the job's first run: nothing is marked new. */
  baseline: boolean;
  companies: CompanySection[];
  /** Investors on two or more companies' lists. */
  shared: SharedInvestor[];
  /** Said when the account's plan limits the run (a free plan: one run, the top 5). */
  planNote: string | null;
  credits: { spent: number; budget: number };
  /** The stored answers the report was made from (absent in reports stored before they were kept). */
  sources?: SourceRow[];
}
