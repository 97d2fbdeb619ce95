/**
 * Contracts inside the sandbox: accounts, the operation handler interface and the error type
 * handlers throw. The server pipeline (auth, scope, plan, account type, rate limit, credits,
 * envelope) is in server.ts; each operation's logic is a handler in operations/<name>.ts.
 */
import type { DatabaseSync } from 'node:sqlite';
import type { AccountType, ErrorCode, OperationName, ParamsOut, Plan, Scope } from '../api/index.js';
import type { MarketWeek, MarketWeekOptions } from './market-week.js';
import type { Scorer } from './finders/scoring.js';
import type { ChartSpec } from './result-shapes.js';

/** A fund thesis of an investor account. */
export interface FundThesis {
  fund_name: string;
  sectors: string[];
  stages: string[];
  countries: string[];
  check_min_usd: number;
  check_max_usd: number;
  /** Startup keys already in the portfolio (overlap and conflicts). */
  portfolio: string[];
}

/** An organisation a service-provider or organisation account sells for. */
export interface Organisation {
  org_key: string;
  name: string;
  offering: string;
  target_regions: string[];
  target_stages: string[];
  target_sectors: string[];
  is_default: boolean;
}

export interface Account {
  id: string;
  name: string;
  type: AccountType;
  plan: Plan;
  credits: number;
  thesis?: FundThesis;
  organisations?: Organisation[];
}

export interface ApiKeyRecord {
  key: string;
  account_id: string;
  scopes: Scope[];
  revoked: boolean;
}

/** What a handler returns; the pipeline wraps it in the Result envelope. */
export interface HandlerResult {
  data: Record<string, unknown>;
  summary: string;
  charts?: ChartSpec[];
  /** Absolute URL of the HTML view; the pipeline prefixes relative paths with the base URL. */
  url?: string | null;
  /** Credits to charge instead of the operation's price (0 for a free repeat of find_customers). */
  charge?: number;
}

/** Everything a handler may use. */
export interface HandlerContext<N extends OperationName = OperationName> {
  db: DatabaseSync;
  account: Account;
  /** The key the call was made with (its scopes decide which tools the account can use). */
  key: ApiKeyRecord;
  params: ParamsOut<N>;
  /** Base URL of the sandbox, without a trailing slash. */
  baseUrl: string;
  now: Date;
  state: SandboxState;
  options: ResolvedSandboxOptions;
  /** Where the paid finders' scoring runs (the sandbox's scoring pool); absent: on this thread. */
  scorer?: Scorer;
}

export type Handler<N extends OperationName = OperationName> = (
  ctx: HandlerContext<N>,
) => HandlerResult | Promise<HandlerResult>;

/**
 * Mutable state of a running sandbox beyond the database (accounts, match lists, rooms...).
 * With a persisted state (option `state`), every set and delete is written to the state file
 * at once; a value changed in place (an account's credits, a room's analysis) is saved by
 * setting its entry again.
 */
export interface SandboxState {
  accounts: Map<string, Account>;
  keys: Map<string, ApiKeyRecord>;
  /** Free-plan find_investors runs used, by account id. */
  freeFinderRunsUsed: Map<string, number>;
  /** Saved find_startups_for_fund batches, by account id. */
  matchLists: Map<string, unknown[]>;
  /** find_customers calls by account id + parameter hash -> time of the charged call (ms). */
  customerCalls: Map<string, number>;
  /** Data rooms by room_id. */
  rooms: Map<string, unknown>;
  /** Results of paid and list operations kept for their HTML view (/view/results/:id). */
  results: Map<
    string,
    { operation: OperationName; account_id: string; summary: string; data: unknown; created_at: string }
  >;
}

/** Thrown by handlers and the pipeline; becomes an error envelope with this status and code. */
export class SandboxError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | (string & {}),
    message: string,
  ) {
    super(message);
    this.name = 'SandboxError';
  }
}

export interface FaultOptions {
  /** Added latency: fixed ms plus uniform jitter ms. */
  latencyMs?: number;
  jitterMs?: number;
  /** Share (0..1) of calls answered 500 or 503. */
  errorRate?: number;
  /** Share of calls whose connection is dropped without a response. */
  dropRate?: number;
  /** Share of calls whose response starts but never finishes. */
  hangRate?: number;
  /** Share of calls answered with a malformed (non-envelope) body. */
  malformedRate?: number;
  /** Answer the next N calls with 429 (a burst), then go back to normal. */
  burst429?: number;
  /** Seed of the fault PRNG (default: the database seed); setting faults restarts the sequence. */
  seed?: number;
  /**
   * Faults that happen after the pipeline charged the call and saved its result: the account
   * paid, the caller never reads the answer. Shares (0..1) of charged calls.
   */
  afterCharge?: AfterChargeFaults;
}

export interface AfterChargeFaults {
  /** The connection is dropped instead of the answer. */
  dropRate?: number;
  /** 500 or 503 instead of the answer (half each). */
  errorRate?: number;
  /** The answer starts and never finishes (past the client's timeout). */
  hangRate?: number;
  /** A 200 whose body is not the envelope. */
  malformedRate?: number;
  /** Only these operations (default: every call that charged credits). */
  operations?: string[];
  /** Only the first N eligible calls (default: no limit). */
  times?: number;
}

export interface SandboxOptions {
  port?: number;
  host?: string;
  /** Database seed; the same seed gives identical data. */
  seed?: number;
  /**
   * Size of the generated data: 1 to 20 times 21,000 startups and 5,400 investors (default 1),
   * with the same shares per country, sector and stage. Each scale has a cached file of its own;
   * the same seed, as-of date and scale give identical data.
   */
  scale?: number;
  /** Folder of the cached database files (default .data/sandbox). */
  dataDir?: string;
  /**
   * What the sandbox does with its mutable state (balances, plans, free-plan runs, find_customers
   * repeat records, match lists, data rooms, stored results, rate-limit windows):
   * - `memory` (the default without `stateFile`): every start is fresh, nothing is written;
   * - `persist` (the default with `stateFile`): read from the state file at start, every change
   *   written to it before the answer is sent, so a restart (even after SIGKILL) is invisible;
   *   accounts and keys the file has win over seeds, options and the accounts file, which only
   *   add new ones;
   * - `reset`: empty the state file, then persist.
   */
  state?: SandboxStateMode;
  /** The state file of `persist` and `reset` (default <dataDir>/state.sqlite); one sandbox at a time. */
  stateFile?: string;
  rateLimitPerMinute?: number;
  rateLimitPerDay?: number;
  /** Length of the "minute" window (default 60 000 ms); tests shorten it. */
  minuteWindowMs?: number;
  /** Length of the "day" window (default: until the next UTC midnight); tests shorten it. */
  dayWindowMs?: number;
  /** Extra accounts and keys, from code. */
  accounts?: Account[];
  keys?: ApiKeyRecord[];
  /** A JSON file { accounts, keys } of extra accounts and keys. */
  accountsFile?: string;
  faults?: FaultOptions;
  /** analyze_deck: how long the call waits before answering status running (default 90 s). */
  deckWaitMs?: number;
  /**
   * How long a deck's analysis takes (ms), instead of the timing model (0.4 s plus per page and
   * per megabyte, at most 8 s): longer than `deckWaitMs` makes analyze_deck answer 'running'
   * and leaves the result to get_deck_analysis.
   */
  deckAnalysisMs?: number;
  /** CA certificates (PEM) the deck fetcher trusts besides the system's. */
  trustedCa?: string[];
  /** Fixed "now" for deterministic tests; default the real clock. */
  now?: () => Date;
  /** Log requests (default false). */
  logger?: boolean;
  /** Reference date of the generated data (YYYY-MM-DD); default today (see openSandboxDatabase). */
  asOf?: string;
  /** close(): how long in-flight requests may take before their connections are cut (default 5 000 ms). */
  closeTimeoutMs?: number;
  /** Handlers that replace the operations' own (tests script pipeline behaviour with them). */
  handlers?: HandlerMap;
  /**
   * Worker threads the paid finders' scoring runs on, so a heavy call never holds up the event
   * loop (default: os.availableParallelism() - 1, at least 1, at most 4; started on demand).
   * 0 scores on the main thread, as before the pool.
   */
  scoringThreads?: number;
}

/** See {@link SandboxOptions.state}. */
export type SandboxStateMode = 'memory' | 'persist' | 'reset';

export type ResolvedSandboxOptions = Required<
  Omit<
    SandboxOptions,
    | 'accounts'
    | 'keys'
    | 'accountsFile'
    | 'faults'
    | 'trustedCa'
    | 'now'
    | 'dayWindowMs'
    | 'deckAnalysisMs'
    | 'stateFile'
  >
> & {
  /** Absolute path of the state file; null with state `memory`. */
  stateFile: string | null;
  accounts: Account[];
  keys: ApiKeyRecord[];
  accountsFile?: string;
  /** undefined: the day window ends at the next UTC midnight. */
  dayWindowMs?: number;
  /** undefined: the deck timing model decides. */
  deckAnalysisMs?: number;
  faults: FaultOptions;
  trustedCa: string[];
  now: () => Date;
};

/** One call in the sandbox's request log. */
export interface SandboxRequest {
  /** When the pipeline (or an injected fault) took it (ms since the epoch). */
  at: number;
  operation: string;
  /** The status answered; 0 when an injected fault dropped the connection or hung. */
  status: number;
  /**
   * The injected fault that answered instead of the service (`after-charge <kind>`: after the
   * service did the work and charged for it); absent when the service's answer was sent.
   */
  fault?: string;
}

export interface RunningSandbox {
  /** Base URL, e.g. http://127.0.0.1:43123 (no trailing slash). */
  url: string;
  port: number;
  state: SandboxState;
  /** The state file the sandbox persists to (absolute path); null when its state is in memory only. */
  stateFile: string | null;
  db: DatabaseSync;
  /** Change fault injection at run time (tests). */
  setFaults(faults: FaultOptions): void;
  /** Calls whose answer an after-charge fault replaced since the sandbox started. */
  afterChargeFaulted(): number;
  /**
   * The request log: every operation call that reached /v1, with when it arrived and the status
   * the caller got: answered by the pipeline (rate limit, auth, handler) or by an injected fault
   * (`fault` names it; status 0 for a dropped or hanging connection).
   */
  requestLog(): SandboxRequest[];
  /** Add an account and its keys at run time (tests). */
  addAccount(account: Account, keys: ApiKeyRecord[]): void;
  /**
   * Insert a startup (and optionally rounds) at run time, e.g. a formula-like name in tests.
   * Missing fields get plausible defaults; returns the startup key.
   */
  insertStartup(
    startup: Partial<StartupRow> & { name: string; hq_country: string },
    rounds?: Partial<RoundRow>[],
  ): string;
  /**
   * Moves the market on by a simulated week of news about the fund thesis of the key's account
   * (default the seeded VC key; an account without a thesis uses the VC account's): new startups
   * that fit it, a matched startup past the thesis stages, one acquired, one with another round
   * at its stage (sandbox/market-week.ts). In-process only: no HTTP route offers it.
   */
  simulateMarketWeek(options?: MarketWeekOptions & { key?: string }): MarketWeek;
  /** Scoring threads alive now (started on demand, up to the `scoringThreads` option; 0 after close). */
  scoringThreads(): number;
  /**
   * Resolves when its HTTP server stops listening, by {@link RunningSandbox.close} or otherwise
   * (`vir dev` restarts a sandbox that stopped on its own).
   */
  stopped: Promise<void>;
  close(): Promise<void>;
}

/** Row shapes of the database (see data/schema.ts). JSON columns are strings in SQLite. */
export interface StartupRow {
  key: string;
  name: string;
  description: string;
  website: string;
  domain: string;
  hq_city: string;
  hq_country: string;
  region: string;
  sector: string;
  subsector: string;
  tags: string; // JSON array
  stage: string;
  status: string;
  founded_year: number;
  founders: string; // JSON array of { name, role }
  total_raised_usd: number;
}

/**
 * An investor's own fields as the read paths use them: the investors row's list columns with
 * sectors parsed (primary first). The finders' snapshot and the search lists build on it.
 */
export interface InvestorFields {
  key: string;
  name: string;
  investor_type: string;
  hq_city: string;
  hq_country: string;
  region: string;
  sectors: string[];
  score: number;
  check_min_usd: number;
  check_max_usd: number;
}

export interface RoundRow {
  id: number;
  startup_key: string;
  date: string; // YYYY-MM-DD
  year: number;
  stage: string;
  amount_usd: number;
  lead_investor_key: string | null;
}

/** The Result envelope as the sandbox sends it: every field present, data null on errors. */
export interface Envelope {
  success: boolean;
  operation: string;
  data: Record<string, unknown> | null;
  summary: string;
  charts: ChartSpec[];
  url: string | null;
  credits: { charged: number; remaining: number | null } | null;
  error?: { code: string; message: string };
}

/** One call through the sandbox pipeline (REST and MCP alike). */
export interface ExecuteRequest {
  operation: string;
  params: unknown;
  /** The raw Authorization header value ("Bearer <key>"), if any. */
  authorization: string | undefined;
  method: 'GET' | 'POST' | 'MCP';
}

/** The pipeline's answer: HTTP status, headers (rate limits) and the envelope. */
export interface ExecuteResponse {
  status: number;
  headers: Record<string, string>;
  body: Envelope;
}

/** Runs the whole pipeline: operation, auth, rate limit, method, params, scope, plan, credits, handler. */
export type ExecuteFn = (request: ExecuteRequest) => Promise<ExecuteResponse>;

/** Operation names handled by a given handler module. */
export type HandlerMap = { [N in OperationName]?: Handler<N> };

export type { OperationName, ParamsOut };
