/**
 * The paid finders' scoring as jobs: plain inputs in (the parameters and what the scoring reads
 * from an account: its thesis, its organisation's target), plain results out, nothing read from
 * or written to the sandbox's state. A job runs on a snapshot of the database, either on the
 * calling thread (`inThreadScorer`) or on a scoring thread of the pool (sandbox/scoring-pool.ts);
 * both run `runScoringJob`, so their results are the same.
 */
import type { DatabaseSync } from 'node:sqlite';
import type { ParamsOut } from '../../api/index.js';
import { SandboxError, type FundThesis } from '../types.js';
import { rankCustomersFor, type CustomersOutcome, type CustomersRequest } from './customers-result.js';
import { scoreFund, type FundScores } from './fund-result.js';
import { findInvestors, type FindInvestorsOutcome } from './investors-result.js';
import { getSnapshot, type Snapshot } from './snapshot.js';

/** One scoring job, by finder. */
export type ScoringJob =
  | { kind: 'fund'; thesis: FundThesis; limit: number; baseUrl: string }
  | { kind: 'investors'; params: ParamsOut<'find_investors'>; count: number; baseUrl: string }
  | { kind: 'customers'; request: CustomersRequest; limit: number; baseUrl: string };

/** The result of each kind of job. */
export interface ScoringResults {
  fund: FundScores;
  investors: FindInvestorsOutcome;
  customers: CustomersOutcome;
}

export type ScoringKind = ScoringJob['kind'];
export type JobOf<K extends ScoringKind> = Extract<ScoringJob, { kind: K }>;

/**
 * Runs the finders' scoring. `lane` names whose call it is (the account id): a pool takes turns
 * between lanes, so one account's many calls do not hold up another's.
 */
export interface Scorer {
  score<K extends ScoringKind>(job: JobOf<K>, lane: string): Promise<ScoringResults[K]>;
  /** Live scoring threads (0 for the in-thread scorer). */
  threads(): number;
  /** Ends the threads; jobs still waiting are refused. */
  close(): Promise<void>;
}

/** Runs one job on a snapshot (the same function on the main thread and on a scoring thread). */
export function runScoringJob(snap: Snapshot, job: ScoringJob): ScoringResults[ScoringKind] {
  switch (job.kind) {
    case 'fund':
      return scoreFund(snap, job.thesis, job.limit, job.baseUrl);
    case 'investors':
      return findInvestors(snap, job.params, job.count, job.baseUrl);
    case 'customers':
      return rankCustomersFor(snap, job.request, job.limit, job.baseUrl);
  }
}

/**
 * Scoring on the calling thread, on the cached snapshot of `db` (sandbox option
 * `scoringThreads: 0`, and handlers called without a pool).
 */
export function inThreadScorer(db: DatabaseSync): Scorer {
  return {
    score: <K extends ScoringKind>(job: JobOf<K>) => {
      try {
        return Promise.resolve(runScoringJob(getSnapshot(db), job) as ScoringResults[K]);
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
    },
    threads: () => 0,
    close: () => Promise.resolve(),
  };
}

/** An error as a scoring thread sends it back (a SandboxError keeps its status and code). */
export type ScoringError =
  | { sandbox: true; status: number; code: string; message: string }
  | { sandbox: false; message: string; stack?: string };

export function toScoringError(error: unknown): ScoringError {
  if (error instanceof SandboxError)
    return { sandbox: true, status: error.status, code: String(error.code), message: error.message };
  if (error instanceof Error) return { sandbox: false, message: error.message, stack: error.stack };
  return { sandbox: false, message: String(error) };
}

export function fromScoringError(error: ScoringError): Error {
  if (error.sandbox) return new SandboxError(error.status, error.code, error.message);
  const e = new Error(error.message);
  if (error.stack) e.stack = error.stack;
  return e;
}
