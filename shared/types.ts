/**
 * Inputs and outputs of the activities every job shares. Pure types: workflows import them
 * with `import type`. Nothing here carries the API key: activities read it from their own
 * settings.
 */
import type { Result } from '../api/envelope.js';
import type { OperationName, ParamsIn } from '../api/operations.js';
import type { Destination } from '../config/destinations.js';
import type { DeliveryFigure, RunDelivery } from './delivery.js';

/** A reference to a JSON document in the store (claim check): a relative path. */
export type StoreRef = string;

export interface ApiCallInput<N extends OperationName = OperationName> {
  operation: N;
  params: ParamsIn<N>;
  /** Folder of the run in the store; the full result is written there. */
  runKey: string;
  /** Name of the stored document (unique within the run), e.g. `pages/investors-germany-score-0000`. */
  name: string;
  /** A paid call's reservation against the account's credit caps (absent: free, or a run from before the ledger). */
  account?: PaidCallAccount;
  /**
   * Credits the earlier attempts of this paid call were charged, their answers lost (absent: none).
   * Kept with the answer, so the report's Sources sheet says what the answer cost the account.
   */
  chargedBefore?: number;
}

/** Credit caps of an account, per UTC day, ISO week and calendar month (absent: none). */
export interface AccountCaps {
  day?: number | undefined;
  week?: number | undefined;
  month?: number | undefined;
}

/** How a paid call's credits are held in the account's ledger. */
export interface PaidCallAccount {
  /** Unique per attempt of the call: `<run>/<name>#<attempt>`. */
  reservationId: string;
  jobId: string;
  /** Credits reserved: the operation's price (0: a free repeat). */
  credits: number;
  /** The job file's caps (the settings' caps tighten them on the worker). */
  caps?: AccountCaps;
}

/** A paid call refused unsent because the account's cap would be passed. */
export const ACCOUNT_CAP_FAILURE = 'account_cap_reached';

/** A paid call's reservation is released after this when nobody settles it (its run died). */
export const ACCOUNT_RESERVATION_TTL_MS = 15 * 60_000;

/** What the API activity stores for one call: the call and the service's whole answer. */
export interface StoredCall<N extends OperationName = OperationName> {
  operation: N;
  params: ParamsIn<N>;
  fetchedAt: string;
  /** The HTTP status of the answer (answers stored before it was kept: 200, the only one stored). */
  status?: number;
  /** The service's answer as it came (the envelope checked, nothing inside read yet). */
  result: Result;
  /**
   * Credits earlier attempts of the call were charged, their answers lost (a worker died with the
   * call in flight): the answer cost them too, though its own `credits.charged` (a free repeat)
   * may say 0. Absent: none.
   */
  chargedBefore?: number;
}

/**
 * One stored answer a report was made from, as its "Sources" sheet lists it: `id` (S1, S2, …,
 * in the order the report's model read them) is what a data row's Source column names.
 */
export interface SourceRow {
  id: string;
  operation: OperationName;
  /** The parameters sent, as stored (the API key travels in a header, never here). */
  params: Record<string, unknown>;
  fetchedAt: string;
  credits: number;
  status: number;
  /** How many records the answer held (a page's items; 1 for a profile or an answer). */
  records: number;
  ref: StoreRef;
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
  /**
   * For analyze_deck and get_deck_analysis: the data room and the state of its analysis
   * (`running`, `done`, `failed` as the service says it; null when not given), and when to ask
   * again if it said.
   */
  room?: { id: string | null; status: string | null; retryAfterSeconds: number | null };
  durationMs: number;
  /** The requests this call sent, its retries included (absent in outputs recorded before it was added: one). */
  attempts?: CallAttempts;
}

/**
 * The requests one API activity sent to the service, its retries included: `sent` counts every
 * request that went out (an attempt records itself in a heartbeat as it sends, so one whose
 * worker died after sending counts); `failed` those of them without a usable answer. A request
 * the client refused, or that found no connection, was not sent.
 */
export interface CallAttempts {
  sent: number;
  failed: number;
}

/** Marks the element of an API failure's details that carries its {@link CallAttempts}. */
export const ATTEMPTS_DETAIL = 'vir.attempts';

/** The element of an API failure's details that says what its attempts sent. */
export interface AttemptsDetail extends CallAttempts {
  kind: typeof ATTEMPTS_DETAIL;
}

/** Details of a failure that makes the workflow wait until the daily limit resets. */
export interface DailyLimitDetails {
  resetAt: string;
  operation: OperationName;
}

export const DAILY_LIMIT_FAILURE = 'DailyLimitReached';

/** Attempts of one delivery activity (its retry policy; the last one records a failure rather than throwing it). */
export const DELIVERY_MAX_ATTEMPTS = 4;

/**
 * A paid call whose outcome is unknown: the request was sent and no readable answer came back
 * (timeout, dropped connection, 5xx, a body that is not the envelope). The service may have
 * charged for it, so it is never retried blindly: the workflow reconciles with the balance.
 */
export const OUTCOME_UNKNOWN_FAILURE = 'outcome_unknown';

/** Details of a rate-limited failure: how long to wait before calling again. */
export interface RateLimitedDetails {
  retryAfterMs: number;
}

/** An operation's requests in a run: sent (retries included), answered with success, failed. */
export interface OperationAttempts {
  attempted: number;
  succeeded: number;
  failed: number;
}

/** What a run did, for its manifest and its report's methodology. */
export interface RunStats {
  workflowId: string;
  runId: string;
  startedAt: string;
  callsByOperation: Record<string, number>;
  callsMade: number;
  /** Requests sent per operation, retries included, and how they ended (absent before it was added). */
  attempts?: Record<string, OperationAttempts>;
  pages: number;
  records: number;
  creditsSpent: number;
  creditsBudget: number;
  accountBalance: number | null;
  partial: boolean;
  reasons: string[];
  /**
   * When the run's clock stopped (`run.stopClock()`: its data is in, what follows is the
   * report); absent while it runs. The report's run time and the manifest's durationMs both
   * end here.
   */
  finishedAt?: string;
}

/** The job fields the generic activities read (every kind has them). */
export interface JobIdentity {
  id: string;
  title: string;
  kind: string;
  destination?: string;
  /** Where the run's reports are delivered (no secrets: each sender reads its own from the environment). */
  delivery?: Destination[];
}

export interface OutputFolderInput {
  job: Pick<JobIdentity, 'id' | 'destination'>;
  /** Run date (YYYY-MM-DD) for the folder's name. */
  date: string;
  workflowId: string;
}

/** Files a run wrote into its output folder. */
export interface RenderOutput {
  outDir: string;
  /** Path of each file by its format (`pdf`, `xlsx`, `csv`, ...). */
  files: Record<string, string>;
  charts: number;
  pages: number | null;
  /** What the service did not provide, by the part of the report that lacks it. */
  notProvided?: string[];
  /**
   * URL cells of the CSV files and workbooks left empty because their value was not an http(s)
   * URL (a `javascript:` website, say). Absent in outputs recorded before it was added.
   */
  urlsLeftOut?: number;
  /**
   * The run's key figures, in order: the tiles the PDF opens with (also when the job asks no
   * PDF), for the messages that deliver the report. Absent in outputs recorded before it was added.
   */
  figures?: DeliveryFigure[];
  /**
   * One or two sentences a person reads first (the report's own opening sentence where it has
   * one): on one line, at most 300 characters (`HEADLINE_MAX_CHARS` in reports/format.ts), cut
   * at a word boundary.
   */
  headline?: string;
}

/** The layout of {@link RenderRecipe} this code writes and reads. */
export const RENDER_RECIPE_FORMAT = 1;

/**
 * What a run's render activity was asked, kept in the run's store folder (`runs/<run>/render.json`):
 * `vir runs rerender` asks the same activity again, in a new folder, with no call to the service.
 */
export interface RenderRecipe {
  format: number;
  /** The name of the kind's render activity. */
  activity: string;
  /** Its input as the run gave it: the stored model's references, the job's outputs, the date. */
  input: { job: { id: string; destination?: string | undefined; outputs?: string[] }; date: string } & Record<
    string,
    unknown
  >;
  recordedAt: string;
}

/** Input of the rerender workflow (`vir runs rerender`). */
export interface RerenderInput {
  /** The completed run whose reports are made again. */
  runWorkflowId: string;
  /** Its manifest, named in the new one (absent: not known). */
  runManifestPath?: string | undefined;
  /** The formats to write (default: the run's job's). */
  outputs?: string[] | undefined;
  /**
   * A folder to write into instead of `<date>_rerender-N` beside the run's (`--to`): new or
   * empty, inside the reports folder or an allowed destination root. Local store only.
   */
  to?: string | undefined;
  /**
   * Write the new files over the run's own (`--replace`); the files replaced are kept in the
   * rerender's folder under `replaced/`, and the run's manifest says what replaced them.
   */
  replace?: boolean | undefined;
  /** Deliver the new files to the job's destinations, as a delivery of their own (`--deliver`). */
  deliver?: boolean | undefined;
}

/** What `--replace` did: the run's folder and the files written over there. */
export interface RerenderReplaced {
  /** The run's folder (a path, or the store URL of its folder). */
  folder: string;
  files: string[];
  /** Where the files replaced were kept: the rerender's folder's `replaced/`. */
  keptIn: string;
}

/** What a rerender made: the new folder, its files and its manifest. */
export interface RerenderResult {
  workflowId: string;
  rerenderOf: string;
  outDir: string;
  files: Record<string, string>;
  manifestPath: string;
  pages: number | null;
  charts: number;
  /** Formats asked that the kind's render did not write (it writes none of that format). */
  notWritten: string[];
  /** What `--replace` wrote over (absent: not asked). */
  replaced?: RerenderReplaced;
  /** The delivery of the new files (absent: not asked). */
  delivery?: RunDelivery;
}

export interface FinalizeInput {
  /** The job as validated (no secrets): its identity and every parameter, for the manifest. */
  job: JobIdentity;
  stats: RunStats;
  render: RenderOutput;
  /** What the next run of the job compares with (null: keep the previous snapshot). */
  snapshotRef: StoreRef | null;
  finishedAt: string;
  /** Free the day's calls the run reserved once the manifest is written (runs of the lean history). */
  releaseDayCalls?: boolean;
}

/** What a failed run's manifest records (`recordFailedRun`). */
export interface FailedRunInput {
  /** The job as validated (no secrets), as `finalizeRun` gets it. */
  job: JobIdentity;
  stats: RunStats;
  /** Why the run failed: the root cause of its failure chain. */
  failure: string;
  finishedAt: string;
  /** The run date (YYYY-MM-DD) that names the output folder. */
  date: string;
}

export interface FinalizeOutput {
  manifestPath: string;
}

export interface SelectTopInput {
  refs: StoreRef[];
  n: number;
}

/**
 * The job's checks, the run's first activity (jobs/check.ts implements them for the registered
 * kinds): a refused job fails with a non-retryable failure naming the field.
 */
export interface CheckActivities {
  checkJob(input: { job: JobIdentity }): Promise<void>;
}
