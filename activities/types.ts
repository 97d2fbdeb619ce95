/**
 * Inputs and outputs of activities. Pure types: workflows import them with `import type`.
 * Nothing here carries the API key: activities read it from their own settings.
 */
import type { OperationName } from '../api/operations.js';
import type { MarketReportJob } from '../config/jobs.js';

/** A reference to a JSON document in the store (claim check): a relative path. */
export type StoreRef = string;

export interface ApiCallInput {
  operation: OperationName;
  params: Record<string, unknown>;
  /** Folder of the run in the store; the full result is written there. */
  runKey: string;
  /** Name of the stored document (unique within the run), e.g. `pages/investors-germany-score-0000`. */
  name: string;
}

/** What a workflow learns from one call: small, the full result stays in the store. */
export interface ApiCallOutput {
  ref: StoreRef;
  operation: OperationName;
  summary: string;
  charged: number;
  remaining: number | null;
  /** Number of records in the main array of the data (page size for searches). */
  records: number;
  /** Paging: total, next offset (null at the end). */
  total: number | null;
  nextOffset: number | null;
  /** Keys of the records in the main array (for dedupe and enrichment), capped. */
  keys: string[];
  /** For ask: whether the question was mapped and answered. */
  mapped?: boolean;
  durationMs: number;
}

/** Details of a failure that makes the workflow wait until the daily limit resets. */
export interface DailyLimitDetails {
  resetAt: string;
  operation: OperationName;
}

export const DAILY_LIMIT_FAILURE = 'DailyLimitReached';

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

export interface RunStats {
  workflowId: string;
  runId: string;
  startedAt: string;
  callsByOperation: Record<string, number>;
  callsMade: number;
  pages: number;
  records: number;
  creditsSpent: number;
  creditsBudget: number;
  accountBalance: number | null;
  partial: boolean;
  reasons: string[];
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
  job: { id: string; destination?: string; outputs: ('xlsx' | 'pdf')[] };
  /** Run date (YYYY-MM-DD) for the output folder. */
  date: string;
  workflowId: string;
}

export interface RenderOutput {
  outDir: string;
  files: { xlsx?: string; pdf?: string };
  charts: number;
  pages: number | null;
}

export interface FinalizeInput {
  job: MarketReportJob;
  stats: RunStats;
  render: RenderOutput;
  snapshotRef: StoreRef;
  finishedAt: string;
}

export interface FinalizeOutput {
  manifestPath: string;
}

export interface SelectTopInput {
  refs: StoreRef[];
  n: number;
}
