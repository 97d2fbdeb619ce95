/**
 * The prospect list's job: briefs for find_customers, bulk search_startups filters paged at 100
 * a page up to a cap, how many top rows to enrich, a suppression list, the net-new rule and the
 * CRM profiles of the CSV files. Validated with zod; a bad job names the file, the job and the
 * field (jobs/base.ts).
 */
import { dirname, isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import { CATALOG } from '../../api/catalog.js';
import { SECTORS } from '../../api/enums.js';
import { JOB_REGION_NAMES, JOB_REGIONS, type JobRegion } from '../../config/regions.js';
import { MAX_ENRICH, MAX_LIST_ROWS } from './limits.js';
import { baseJobShape, parseJobWith, type BaseJob } from '../base.js';

export { MAX_ENRICH, MAX_LIST_ROWS } from './limits.js';

export const PROSPECT_KIND = 'prospect-list';

/** The CRM profiles a list's CSV can be written for. */
export const CRM_PROFILES = ['hubspot', 'salesforce', 'pipedrive', 'attio', 'generic'] as const;
export type CrmProfile = (typeof CRM_PROFILES)[number];

const text = (what: string) =>
  z
    .string({ message: `${what} must be text` })
    .trim()
    .min(1, { message: `${what} must not be empty` });

/** One find_customers brief: who the user sells to. */
const BriefSchema = z
  .object({
    /** What the user sells and to whom, in a sentence or two. */
    brief: text('brief').max(2000).optional(),
    /** The user's organisation key at the service (instead of, or with, the brief). */
    org_key: text('org_key').optional(),
    regions: z.array(text('a region')).min(1).max(20).optional(),
    stages: z.array(text('a stage')).min(1).max(10).optional(),
    limit: z
      .number()
      .int()
      .min(1)
      .max(CATALOG.find_customers.maxLimit)
      .default(CATALOG.find_customers.maxLimit),
  })
  .strict()
  .refine((b) => b.brief !== undefined || b.org_key !== undefined, {
    message: 'needs a brief or an org_key',
    path: ['brief'],
  });

/** The bulk search: search_startups filters, paged to the cap. */
const SearchSchema = z
  .object({
    countries: z.array(text('a country')).min(1).max(60).optional(),
    region: z.enum(JOB_REGION_NAMES as [JobRegion, ...JobRegion[]]).optional(),
    sector: z
      .enum(SECTORS, { message: `must be one of ${SECTORS.map((s) => `"${s}"`).join(', ')}` })
      .optional(),
    stages: z.array(text('a stage')).min(1).max(10).optional(),
    /** Keywords the service searches names and descriptions for. */
    query: text('query').max(200).optional(),
    /** The most rows the search delivers (it is paged at 100 a page until exhausted or this). */
    cap: z.number().int().min(1).max(MAX_LIST_ROWS).default(1000),
  })
  .strict()
  .refine((s) => !(s.countries && s.region), {
    message: 'takes countries or a region, not both',
    path: ['countries'],
  });

export const ProspectListJobSchema = z
  .object({
    ...baseJobShape(PROSPECT_KIND, ['csv', 'xlsx', 'pdf'] as const),
    /** find_customers briefs (3 credits each, a repeat within 24 hours free). */
    briefs: z.array(BriefSchema).max(20).default([]),
    /** The bulk searches. */
    searches: z.array(SearchSchema).max(20).default([]),
    /** How many of the top rows to enrich with get_startup (free, but one call each under the daily limit). */
    enrich: z.number().int().min(0).max(MAX_ENRICH).default(100),
    /** A CSV exported from the CRM: its companies are left out (matched by domain, then name). */
    suppress: text('suppress').optional(),
    /** Companies delivered by earlier runs of this job: left out (`exclude`) or marked (`mark`). */
    delivered: z
      .enum(['exclude', 'mark'], { message: 'must be "exclude" (net new only) or "mark"' })
      .default('mark'),
    /** The CRMs the CSV is written for (one file, or numbered files, each). */
    crm: z
      .array(z.enum(CRM_PROFILES, { message: `must be one of ${CRM_PROFILES.join(', ')}` }))
      .min(1)
      .default(['generic']),
  })
  .strict()
  .refine((j) => j.briefs.length + j.searches.length > 0, {
    message: 'needs at least one brief or one search',
    path: ['briefs'],
  });

/** A validated prospect-list job: regions expanded to their countries. */
export type ProspectListJob = BaseJob &
  Omit<z.output<typeof ProspectListJobSchema>, 'searches'> & {
    searches: (Omit<z.output<typeof SearchSchema>, 'region'> & { region?: JobRegion })[];
  };

/**
 * Normalises a parsed job: each search's region expanded to its countries (kept as `region`), and
 * a relative suppression list resolved beside the job file.
 */
export function normaliseProspectListJob(parsed: unknown, file = '(inline)'): ProspectListJob {
  const job = parsed as ProspectListJob;
  const besideFile = file !== '(inline)' && !isAbsolute(job.suppress ?? '/');
  return {
    ...job,
    ...(besideFile && job.suppress ? { suppress: resolve(dirname(file), job.suppress) } : {}),
    searches: job.searches.map((s) =>
      s.region && !s.countries ? { ...s, countries: [...JOB_REGIONS[s.region]] } : s,
    ),
  };
}

/** Validates one prospect-list job object and returns it normalised. */
export function parseProspectListJob(input: unknown, file = '(inline)'): ProspectListJob {
  return parseJobWith({ schema: ProspectListJobSchema, normalise: normaliseProspectListJob }, input, file);
}
