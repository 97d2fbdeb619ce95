/**
 * The fund-match refresh's job: how many startups find_startups_for_fund scores into each batch
 * (the account's thesis picks them), how many past matches the watchlist follows with a free
 * get_startup each run, how many new matches are enriched, and whether a run with nothing new
 * or changed still writes its digest. Validated with zod; a bad job names the file, the job and
 * the field (jobs/base.ts).
 */
import { z } from 'zod';
import { CATALOG } from '../../api/catalog.js';
import { baseJobShape, parseJobWith, type BaseJob } from '../base.js';

export const FUND_MATCH_KIND = 'fund-match';

/** The most past matches one run reads again (each a free call, but one of the day's). */
export const MAX_WATCHLIST = 1000;

export const FundMatchJobSchema = z
  .object({
    ...baseJobShape(FUND_MATCH_KIND, ['pdf', 'xlsx'] as const),
    /** Startups scored into each batch (find_startups_for_fund's limit). */
    limit: z
      .number()
      .int()
      .min(1)
      .max(CATALOG.find_startups_for_fund.maxLimit)
      .default(CATALOG.find_startups_for_fund.maxLimit),
    /** Past matches followed each run with get_startup, most recently matched first. */
    watchlist: z.number().int().min(0).max(MAX_WATCHLIST).default(200),
    /** New matches enriched with get_startup (founders, rounds, investors); all of them by default. */
    enrichNew: z.number().int().min(0).max(CATALOG.find_startups_for_fund.maxLimit).default(30),
    /** Whether a run with nothing new, changed or dropped still writes its digest. */
    digestWhenQuiet: z.boolean({ message: 'must be true or false' }).default(true),
    /**
     * Whether a run with nothing new, changed or dropped is delivered to the job's destinations
     * (`delivery`); by default a quiet week sends nothing.
     */
    deliverWhenQuiet: z.boolean({ message: 'must be true or false' }).default(false),
    /**
     * Whether the workbook also carries each chart as a picture (for consumers that want images);
     * by default its charts are native Excel charts only, so each prints once.
     */
    chartImages: z.boolean({ message: 'must be true or false' }).default(false),
  })
  .strict();

export type FundMatchJob = BaseJob & z.output<typeof FundMatchJobSchema>;

/** Normalises a parsed job (nothing to resolve: the thesis is the account's). */
export function normaliseFundMatchJob(parsed: unknown): FundMatchJob {
  return parsed as FundMatchJob;
}

/** Validates one fund-match job object and returns it normalised. */
export function parseFundMatchJob(input: unknown, file = '(inline)'): FundMatchJob {
  return parseJobWith({ schema: FundMatchJobSchema, normalise: normaliseFundMatchJob }, input, file);
}
