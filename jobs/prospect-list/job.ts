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

/** A period such as `12 months`, `90 days`, `1 year`, `6 weeks`. */
const RAISED_WITHIN = /^([1-9]\d{0,3})\s*(day|week|month|year)s?$/i;

/** A `raisedWithin` period read: its count and unit. */
export interface RaisedWithin {
  count: number;
  unit: 'day' | 'week' | 'month' | 'year';
}

/** Reads a `raisedWithin` period (`12 months`); null when it does not read as one. */
export function parseRaisedWithin(text: string): RaisedWithin | null {
  const m = RAISED_WITHIN.exec(text.trim());
  if (!m) return null;
  return { count: Number(m[1]), unit: m[2]!.toLowerCase() as RaisedWithin['unit'] };
}

/**
 * The first day a last round counts as recent under `raisedWithin`, counted back from the run's
 * date (YYYY-MM-DD, UTC): `12 months` before 2026-11-26 is 2025-11-26.
 *
 * @example raisedSince('2026-11-26', '12 months') // '2025-11-26'
 */
export function raisedSince(date: string, within: string): string | null {
  const p = parseRaisedWithin(within);
  const d = new Date(`${date}T00:00:00Z`);
  if (p === null || Number.isNaN(d.getTime())) return null;
  if (p.unit === 'day') d.setUTCDate(d.getUTCDate() - p.count);
  else if (p.unit === 'week') d.setUTCDate(d.getUTCDate() - 7 * p.count);
  else {
    const months = p.unit === 'year' ? 12 * p.count : p.count;
    const day = d.getUTCDate();
    d.setUTCDate(1);
    d.setUTCMonth(d.getUTCMonth() - months);
    const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
    d.setUTCDate(Math.min(day, last));
  }
  return d.toISOString().slice(0, 10);
}

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
    /**
     * Closed and acquired companies (the service's status) are left out: a prospect is a company
     * that can still buy. `true` keeps them, flagged in the "Closed or acquired" column.
     */
    keepClosed: z.boolean({ message: 'must be true or false' }).default(false),
    /**
     * Keeps only companies whose last round is this recent (`12 months`, `90 days`, `2 years`),
     * counted back from the run's date; a company whose last round date the service does not give
     * is left out too. Absent: every company, whatever its last round.
     */
    raisedWithin: z
      .string({ message: 'raisedWithin must be a period such as "12 months"' })
      .trim()
      .regex(RAISED_WITHIN, {
        message: 'raisedWithin must be a period such as "12 months", "90 days" or "2 years"',
      })
      .optional(),
    /**
     * The workbook's charts as pictures too (for consumers that want images); by default only
     * native charts, which print once and follow the workbook's data.
     */
    chartImages: z.boolean({ message: 'must be true or false' }).default(false),
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
