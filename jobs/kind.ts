/**
 * What a job kind supplies to the runner: its job schema (the shared base plus its own
 * fields), its workflow, the prefix of its workflow ids, its estimate, its activities and the
 * lines `vir run` prints after a run. The CLI, the schedules and the workers read kinds from
 * the registry (jobs/registry.ts) and name none of them.
 */
import type { z } from 'zod';
import type { AccountLink } from '../activities/account.js';
import type { Settings } from '../config/settings.js';
import type { SandboxOptions } from '../sandbox/index.js';
import type { Store } from '../activities/store.js';
import type { ServiceLinks } from '../reports/links.js';
import type { JobRunInput, JobRunResult } from '../workflows/engine.js';
import type { BaseJob } from './base.js';

/** What a run of a job will do, computed from the job alone (pure; no call is made). */
export interface JobEstimate {
  /** Most calls one run makes (paging stops earlier when a result set is smaller than its cap). */
  maxCalls: number;
  /** Paid calls a run wants to make and the credits they cost at the catalog's prices. */
  paidCalls: number;
  creditsNeeded: number;
  /** Paid calls the job's budget pays for, in the job's order. */
  paidCallsInBudget: number;
  /** What one paid call is, singular and plural: `['question', 'questions']`. */
  paidCallNoun: readonly [string, string];
}

/** What is wrong with one field of a job, found before the run spends anything. */
export interface JobProblem {
  /** The field, as error messages name it (`suppress`, `companies[2].website`). */
  field: string;
  /** What is wrong, naming the file and line where a file is at fault. */
  detail: string;
}

/** Real dependencies a kind's activities get from the worker. */
export interface KindActivityDeps {
  store: Store;
  /** Default root of the output folders (VIR_REPORTS_DIR). */
  reportsDir: string;
  /** The account workflow's link (credit ledger, the day's calls); absent in unit tests. */
  account?: AccountLink;
  /** Absolute folders outside reportsDir a destination may be in (VIR_DESTINATION_ROOTS). */
  destinationRoots?: readonly string[];
  /** Printed in every footer of the reports rendered (VIR_REPORT_NOTICE). */
  reportNotice?: string | null;
  /** Extra CA certificates (PEM) trusted for deck links and deck buckets (VIR_DECK_CA_FILE). */
  trustedCa?: readonly string[];
  /**
   * Where the service's views are for readers (VIS_BASE_URL, VIS_PUBLIC_URL): reports link to a
   * view only when `readerUrl` (reports/links.ts) gives a public address. Absent: links to a
   * loopback or private address are left out.
   */
  serviceLinks?: ServiceLinks;
}

/** Sandbox options a kind's demo may add: all but those the local stack decides itself. */
export type DemoSandboxOptions = Omit<
  SandboxOptions,
  'port' | 'host' | 'state' | 'stateFile' | 'dataDir' | 'scale' | 'logger'
>;

/**
 * What a kind's demo has set up around `vir demo`'s runs of one of its jobs (see
 * {@link JobKind.demo}), and closes when the demo ends.
 */
export interface KindDemo {
  /** Options added to those the demo's in-process sandbox starts with (e.g. CAs it trusts). */
  sandbox?: DemoSandboxOptions;
  /** Settings the demo's workers run with instead of the user's (e.g. `deckCaFile`). */
  settings?: Partial<Settings>;
  /**
   * Called before each run (1 for the first): changes what the next run finds and says so in
   * the line it returns (null: nothing to say). A kind whose demo has it decides what changes
   * between runs: the sandbox's simulated market week is for the other kinds.
   */
  beforeRun?(run: number): Promise<string | null>;
  /** Stops what the demo started (servers, files kept for the reader); called once. */
  close(): Promise<void>;
}

/** What a kind's `lookAhead` reads: the store, the environment (S3 keys), extra trusted CAs. */
export interface LookAheadDeps {
  store: Store;
  env: NodeJS.ProcessEnv;
  /** Extra CA certificates (PEM) trusted for https (VIR_DECK_CA_FILE). */
  trustedCa: readonly string[];
}

/** Activities a kind registers on the jobs task queue (names unique across kinds). */
export type KindActivities = Record<string, (...args: never[]) => Promise<unknown>>;

/** A job kind. `J` is its validated job; `I` what its job file entry may hold before defaults. */
export interface JobKind<J extends BaseJob = BaseJob> {
  /** The `kind:` of a job file entry. */
  kind: J['kind'];
  /** What its runs make, one line (help texts and docs). */
  description: string;
  /** The zod schema of one job of this kind: the shared base (jobs/base.ts) and its own fields. */
  schema: z.ZodType;
  /**
   * Turns the schema's output into the job the workflow gets (defaults resolved). `file` is the
   * job file's path (`(inline)` when the job came from elsewhere): paths a job names are
   * resolved beside it.
   */
  normalise(parsed: unknown, file?: string): J;
  /** The workflow function; its name is the workflow type. */
  workflow: (input: JobRunInput<J>) => Promise<JobRunResult>;
  /** The module that exports `workflow` (the workers bundle it). */
  workflowsPath: string;
  /** Workflow ids of the kind's runs start with `<idPrefix>-<job id>`. */
  idPrefix: string;
  /** The run's estimate (calls, credits). */
  estimate(job: J): JobEstimate;
  /**
   * The plan in lines a person reads (`vir plan`, and `vir run` before it starts): calls,
   * credits, hours at the per-minute limit, days under the daily limit. Without it, lines are
   * made from the estimate.
   */
  planLines?(job: J, limits: { perMinute: number; perDay: number }): string[];
  /**
   * What a run would find now, in lines `vir plan` prints after the estimate: the kind looks
   * where the job points (its files, links, the last run's snapshot in the store), spending
   * nothing and asking the service nothing. Without it, `vir plan` prints the estimate alone.
   */
  lookAhead?(job: J, deps: LookAheadDeps): Promise<string[]>;
  /** A few words on what one run covers, e.g. `3 countries`. */
  scope(job: J): string;
  /**
   * The countries a job names, each with the field that names it (`countries[2]`, `region`):
   * `vir run` and `vir schedules apply` ask the service about each before anything starts.
   */
  countries?(job: J): { field: string; country: string }[];
  /**
   * Files the job reads (each with its field), checked by `vir run` and `vir schedules apply`
   * before anything starts.
   */
  inputFiles?(job: J): { field: string; path: string }[];
  /**
   * Checks what the job names beyond its file's schema before any call that costs: reads and
   * parses the files it reads, checks values the service would refuse. One problem per field;
   * none when all is well. `vir run`, `vir schedules apply` and each run's first activity
   * (`checkJob`, jobs/preflight.ts) ask it, so a file gone bad since the schedule was applied
   * fails the run before it pays.
   */
  preflight?(job: J): Promise<JobProblem[]>;
  /** The kind's own activities on the jobs task queue. */
  activities(deps: KindActivityDeps): KindActivities;
  /** Lines `vir run` prints after the run's files, e.g. what was found (may be none). */
  resultLines?(result: JobRunResult): string[];
  /**
   * The sandbox's seeded key `vir demo` runs the kind's jobs with when VIS_API_KEY is not set:
   * an account whose plan allows the kind's paid operations (default: the VC account's).
   */
  sandboxKey?: string;
  /**
   * What `vir demo` sets up before the stack starts for a job of the kind (servers the job's
   * inputs come from, sandbox options, settings for the workers, a change before each run).
   * `dataDir` is VIR_DATA_DIR, where the demo may keep files. Without it the demo runs the job
   * as it is, with the market week between runs.
   */
  demo?: (ctx: { dataDir: string; job: J }) => Promise<KindDemo>;
  /** Example job files of the kind (paths from the repository root), searched by `vir run <id>`. */
  examples: readonly string[];
}

/** A kind with its job type erased, as the registry holds it. */
export type AnyJobKind = JobKind<any>;

/**
 * Declares a job kind (checks its shape at compile time).
 *
 * @example
 * export const headcountKind = defineJobKind<HeadcountJob>({ kind: 'headcount', ... });
 */
export function defineJobKind<J extends BaseJob>(kind: JobKind<J>): JobKind<J> {
  return kind;
}
