/**
 * The prospect list's data as its activities pass it on: one row per company (merged from the
 * find_customers briefs and the paged searches), the rows left out and why, and the summary the
 * brief and the workbook's Summary sheet are drawn from. Rows are kept in the store in chunks
 * (claim check) and read back one chunk at a time, so no step holds a 100,000-row list twice.
 */
import type { RunStats, SourceRow, StoreRef } from '../../shared/types.js';
import type { CrmProfile, ProspectListJob } from './job.js';

/** One company of the list. Fields the service did not give are null (or empty lists). */
export interface ProspectRow {
  /** 1-based place in the list: scored rows by fit, then the searches' rows in their order. */
  rank: number;
  /** The service's startup key (get_startup takes it). */
  key: string | null;
  name: string;
  /** Normalised website host (`acme.io`): what CRMs deduplicate companies by. */
  domain: string | null;
  /** The website as the service gave it (`https://acme.io`). */
  website: string | null;
  /** The service's page of the startup. */
  profileUrl: string | null;
  city: string | null;
  country: string | null;
  sector: string | null;
  subsector: string | null;
  stage: string | null;
  status: string | null;
  description: string | null;
  totalRaisedUsd: number | null;
  /** ISO date (YYYY-MM-DD). */
  lastRoundDate: string | null;
  lastRoundStage: string | null;
  lastRoundAmountUsd: number | null;
  /** Fit percentage from find_customers (0 to 100); null when no brief scored the company. */
  fitPct: number | null;
  /** Momentum score from find_customers (0 to 100); null when not scored. */
  momentum: number | null;
  /** Why the company needs the seller (find_customers' reasons); empty when not scored. */
  why: string[];
  /** Which briefs and searches found the company: `brief 1`, `search 2`, ... (the "Found by" column). */
  sources: string[];
  /**
   * The stored answers the row was read from: ids of the summary's `sources` (`S1`, `S4`: a
   * brief's answer, a search's page, the get_startup profile), in the order read. Absent in rows
   * stored before sources were kept.
   */
  sourceIds?: string[];
  /** When an earlier run of the job delivered this company (ISO date); null when net new. */
  deliveredOn: string | null;
  /** True when get_startup enriched the row (founders, investors, rounds). */
  enriched: boolean;
  foundedYear: number | null;
  /** `Name (Role)`. */
  founders: string[];
  /** Investors across the company's rounds, leads first, each once. */
  investors: string[];
  roundsCount: number | null;
}

/** Why a company was left out of the list. */
export type SuppressionReason =
  'crm-domain' | 'crm-name' | 'delivered' | 'closed' | 'acquired' | 'raised-before' | 'no-round-date';

/** A company left out, for the workbook's Suppressed sheet. */
export interface SuppressedRow {
  name: string;
  domain: string | null;
  key: string | null;
  reason: SuppressionReason;
  /** The reason as a person reads it: `in the CRM export (domain acme.io)`, `delivered on 2026-11-16`. */
  detail: string;
  /** The stored answers the company was read from (ids of the summary's `sources`); absent in older rows. */
  sourceIds?: string[];
}

/** One labelled count of a chart (stage, sector, country, or a score band). */
export interface CountBar {
  label: string;
  count: number;
}

/** What one find_customers brief gave. */
export interface BriefSource {
  /** `brief 1`, ... (the rows' `sources` name it so). */
  label: string;
  /** The brief's text, or `organisation <org_key>` when it has none. */
  text: string;
  /** Customers the service returned. */
  returned: number;
  /**
   * Credits the brief cost: every attempt's charge, an answer lost after the charge included
   * (0 for a repeat within 24 hours of an answered one).
   */
  charged: number;
  /** Why the brief gave nothing, when it failed or was not asked (budget). */
  problem: string | null;
  /** The id of its stored answer among the summary's `sources`; absent before sources were kept. */
  sourceIds?: string[];
}

/** What one paged search gave. */
export interface SearchSource {
  /** `search 1`, ... */
  label: string;
  /** The filters in words: `Germany, France · Fintech · Seed, Series A · "payments"`. */
  filters: string;
  /** Matching startups the service reported (null when it did not say). */
  total: number | null;
  /** Rows fetched. */
  fetched: number;
  /** The job's cap of the search. */
  cap: number;
  /** True when the cap stopped the paging before the end of the results. */
  capped: boolean;
  /**
   * The order the service returned the rows in, as read from its answer (`order`) or seen in
   * the rows: `total-raised-desc` when each row raised no more than the one before; null when
   * neither says.
   */
  order?: string | null;
  /** Why the search gave nothing, when its paging failed. */
  problem: string | null;
  /** The ids of its stored pages among the summary's `sources`; absent before sources were kept. */
  sourceIds?: string[];
}

/** The summary of one run's list: everything the brief and the Summary sheet show. */
export interface ProspectSummary {
  job: Pick<ProspectListJob, 'id' | 'title' | 'delivered' | 'crm' | 'enrich' | 'outputs'> &
    Partial<Pick<ProspectListJob, 'keepClosed' | 'raisedWithin' | 'chartImages'>>;
  /** The first day a last round counts as recent (`raisedWithin` from the run's date); null: no rule. */
  raisedSince?: string | null;
  /** The run's date (UTC, YYYY-MM-DD). */
  date: string;
  counts: {
    /** Companies after merging every source by key and by domain. */
    merged: number;
    /** Rows of the list as delivered (merged less the suppressed). */
    listed: number;
    /** Left out because the CRM export has them (by domain, by name). */
    suppressedByDomain: number;
    suppressedByName: number;
    /** Left out as delivered by an earlier run ("net new only"). */
    suppressedDelivered: number;
    /** Left out: closed, acquired (the service's status), unless the job keeps them. */
    leftOutClosed?: number;
    leftOutAcquired?: number;
    /** Left out under `raisedWithin`: last round older, or no last round date given. */
    leftOutRaisedBefore?: number;
    leftOutNoRoundDate?: number;
    /** Kept and flagged closed or acquired (`keepClosed: true`). */
    flaggedClosed?: number;
    /** Kept but marked as delivered by an earlier run (`delivered: mark`). */
    markedDelivered: number;
    /** Rows no earlier run delivered. */
    netNew: number;
    /** Rows find_customers scored (fit, momentum, why). */
    scored: number;
    /** Rows get_startup enriched, of the top rows the job asked to enrich. */
    enriched: number;
    enrichAsked: number;
    /** Records the sources gave before merging (the same company may come from several). */
    sourceRecords: number;
  };
  briefs: BriefSource[];
  searches: SearchSource[];
  /** The suppression list as read; null when the job has none. */
  suppression: {
    file: string;
    rows: number;
    malformed: number;
    /** The first few malformed rows: `line 7: no domain nor name ("...")`. */
    examples: string[];
  } | null;
  /** What was capped or skipped, in sentences (searches stopped at their cap, briefs not asked). */
  limits: string[];
  /** The first 25 rows of the list. */
  top: ProspectRow[];
  charts: {
    stages: CountBar[];
    sectors: CountBar[];
    countries: CountBar[];
    /** Momentum of the scored rows in bands of 20 (`0-19` ... `80-100`). */
    momentum: CountBar[];
    /** Fit of the scored rows in bands of 10 (`below 50`, `50-59` ... `90-100`). */
    fit: CountBar[];
  };
  /** Fields the service left out of every record (the tolerant reader's findings). */
  notProvided: string[];
  stats: RunStats;
  /**
   * Every stored answer the list was read from (the workbook's Sources sheet): the briefs'
   * answers, the searches' pages, then the get_startup profiles. Absent in summaries stored
   * before sources were kept.
   */
  sources?: SourceRow[];
}

/** Where a run's list is in the store: the summary and the rows in chunks. */
export interface ProspectListRefs {
  summaryRef: StoreRef;
  /** Chunks of ProspectRow[] in rank order. */
  rowChunks: StoreRef[];
  /** Chunks of SuppressedRow[]. */
  suppressedChunks: StoreRef[];
}

/** The CRM profiles a render writes (the job's `crm`). */
export type ProfilesAsked = readonly CrmProfile[];
