/**
 * Inputs and outputs of the market report's own activities. Pure types: the workflow imports
 * them with `import type`.
 */
import type { RunStats, StoreRef } from '../../shared/types.js';
import type { MarketReportJob } from './job.js';

/** Store references of everything a market-report run fetched, per country. */
export interface CountryRefs {
  country: string;
  overview: StoreRef | null;
  investorsByScore: StoreRef[];
  investorsByInvestments: StoreRef[];
  startups: StoreRef[];
  investorProfiles: StoreRef[];
  startupProfiles: StoreRef[];
  /** Totals the searches reported and whether the job's cap cut them. */
  investorsTotal: number | null;
  startupsTotal: number | null;
  investorsCapped: boolean;
  startupsCapped: boolean;
}

export interface AnswerRef {
  question: string;
  country: string | null;
  ref: StoreRef | null;
  /** Why the question was not asked or not answered. */
  skipped: string | null;
  charged: number;
}

export interface BuildModelInput {
  runKey: string;
  /** The job as validated (no secrets). */
  job: MarketReportJob;
  countries: CountryRefs[];
  answers: AnswerRef[];
  stats: RunStats;
}

export interface BuildModelOutput {
  modelRef: StoreRef;
  snapshotRef: StoreRef;
  /** Data as-of date the service reported (or the run date). */
  asOf: string;
}

export interface RenderInput {
  modelRef: StoreRef;
  job: Pick<MarketReportJob, 'id' | 'destination' | 'outputs'>;
  /** Run date (YYYY-MM-DD) for the output folder. */
  date: string;
  workflowId: string;
}
