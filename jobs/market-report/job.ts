/**
 * The market report's job: countries (or a region), how deep to page and enrich, the
 * data-agent questions, on top of the fields every job has (jobs/base.ts).
 */
import { z } from 'zod';
import { JOB_REGION_NAMES, JOB_REGIONS, type JobRegion } from '../../config/regions.js';
import { baseJobShape, parseJobWith, type BaseJob } from '../base.js';

export const MARKET_REPORT_KIND = 'market-report';

const questionSchema = z.union([
  z.string().min(3).max(500),
  z
    .object({
      /** The question; `{country}` expands to each of the job's countries (one ask per country). */
      text: z.string().min(3).max(500),
      perCountry: z.boolean().optional(),
    })
    .strict(),
]);

export const MarketReportJobSchema = z
  .object({
    ...baseJobShape(MARKET_REPORT_KIND, ['xlsx', 'pdf'] as const),
    countries: z.array(z.string().trim().min(1)).min(1).max(30).optional(),
    region: z.enum(JOB_REGION_NAMES as [JobRegion, ...JobRegion[]]).optional(),
    top: z
      .object({
        investors: z.number().int().min(1).max(100).default(15),
        startups: z.number().int().min(1).max(100).default(15),
      })
      .strict()
      .default({ investors: 15, startups: 15 }),
    /** Caps of the offset paging per country (records, not pages). */
    paging: z
      .object({
        maxInvestorsPerCountry: z.number().int().min(1).max(100_000).default(300),
        maxStartupsPerCountry: z.number().int().min(1).max(100_000).default(300),
      })
      .strict()
      .default({ maxInvestorsPerCountry: 300, maxStartupsPerCountry: 300 }),
    /** How many of the top investors and startups per country to enrich with get_investor / get_startup (0: none). */
    enrich: z
      .object({
        investors: z.number().int().min(0).max(50).default(5),
        startups: z.number().int().min(0).max(50).default(5),
      })
      .strict()
      .default({ investors: 5, startups: 5 }),
    questions: z.array(questionSchema).max(50).default([]),
    /**
     * The workbook's charts: native (editable, printable) charts only by default; `true` also
     * places each chart as a picture, for consumers that want images (as the prospect list and
     * fund match name it).
     */
    chartImages: z.boolean({ message: 'must be true or false' }).default(false),
  })
  .strict()
  .refine((j) => (j.countries === undefined) !== (j.region === undefined), {
    message: 'needs exactly one of countries or region',
    path: ['countries'],
  });

type Parsed = z.output<typeof MarketReportJobSchema>;

/** A validated market-report job, countries resolved, questions normalised. */
export type MarketReportJob = Omit<Parsed, 'questions' | 'countries' | 'region' | 'kind' | 'outputs'> &
  BaseJob & {
    kind: typeof MARKET_REPORT_KIND;
    outputs: ('xlsx' | 'pdf')[];
    countries: string[];
    region?: JobRegion;
    questions: { text: string; perCountry: boolean }[];
  };

/** Normalises a parsed job: region expanded, questions as objects, duplicates removed. */
export function normaliseMarketReportJob(parsed: unknown): MarketReportJob {
  const { countries: listed, region, questions, ...rest } = parsed as Parsed;
  const countries = [...new Set(listed ?? (region ? [...JOB_REGIONS[region]] : []))];
  return {
    ...rest,
    countries,
    ...(region ? { region } : {}),
    questions: questions.map((q) =>
      typeof q === 'string'
        ? { text: q, perCountry: q.includes('{country}') }
        : { text: q.text, perCountry: q.perCountry ?? q.text.includes('{country}') },
    ),
  };
}

/** Validates one market-report job object (e.g. from a test) and returns it normalised. */
export function parseMarketReportJob(input: unknown, file = '(inline)'): MarketReportJob {
  return parseJobWith({ schema: MarketReportJobSchema, normalise: normaliseMarketReportJob }, input, file);
}
