/**
 * The investor shortlist's job: the portfolio companies to find investors for (each a website,
 * or a description of one to three sentences, with the raise's stage, the investors' region or
 * countries, sector, subsectors, tags and how many investors), and how many of each company's
 * top investors to enrich with get_investor. Validated with zod; a bad job names the file, the
 * job and the field (jobs/base.ts).
 */
import { z } from 'zod';
import { CATALOG } from '../../api/catalog.js';
import { INVESTOR_REGIONS, RAISING_STAGES, SECTORS } from '../../api/enums.js';
import { websiteProblem } from '../../lib/urls.js';
import { baseJobShape, parseJobWith, type BaseJob } from '../base.js';
import type { JobProblem } from '../kind.js';

export const INVESTOR_SHORTLIST_KIND = 'investor-shortlist';

const text = (what: string) =>
  z
    .string({ message: `${what} must be text` })
    .trim()
    .min(1, { message: `${what} must not be empty` });

/** Sentences of a description: what ends with `.`, `!` or `?` (a last one without counts too). */
function sentences(s: string): number {
  return s.split(/(?<=[.!?])\s+/).filter((x) => x.trim() !== '').length;
}

/** One portfolio company: who the investors are found for. */
const CompanySchema = z
  .object({
    /** The company's name, as the workbook's sheet and the PDF's section call it. */
    name: text('name').max(80),
    /** The company's website: an http(s) URL or a bare domain, with a host name (find_investors reads it). */
    website: text('website')
      .max(300)
      .superRefine((site, ctx) => {
        const problem = websiteProblem(site);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      })
      .optional(),
    description: text('description')
      .max(1000)
      .refine((d) => sentences(d) <= 3, { message: 'must be 1 to 3 sentences' })
      .optional(),
    raising_stage: z
      .enum(RAISING_STAGES, { message: `must be one of ${RAISING_STAGES.join(', ')}` })
      .optional(),
    investor_region: z
      .enum(INVESTOR_REGIONS, { message: `must be one of ${INVESTOR_REGIONS.join(', ')}` })
      .optional(),
    investor_countries: z.array(text('a country')).min(1).max(60).optional(),
    sector: z
      .enum(SECTORS, { message: `must be one of ${SECTORS.map((s) => `"${s}"`).join(', ')}` })
      .optional(),
    subsectors: z.array(text('a subsector')).min(1).max(20).optional(),
    tags: z.array(text('a tag')).min(1).max(30).optional(),
    limit: z.number().int().min(1).max(CATALOG.find_investors.maxLimit).default(20),
  })
  .strict()
  .refine((c) => c.website !== undefined || c.description !== undefined, {
    message: 'needs a website or a description',
    path: ['website'],
  });

export const InvestorShortlistJobSchema = z
  .object({
    ...baseJobShape(INVESTOR_SHORTLIST_KIND, ['pdf', 'xlsx'] as const),
    companies: z.array(CompanySchema).min(1, { message: 'must list at least one company' }).max(50),
    /** Each company's top investors enriched with get_investor (free, one call each). */
    enrich: z.number().int().min(0).max(CATALOG.find_investors.maxLimit).default(5),
    /**
     * Whether the workbook also carries each chart as a picture (for consumers that want images);
     * by default its charts are native Excel charts only, so each prints once.
     */
    chartImages: z.boolean({ message: 'must be true or false' }).default(false),
  })
  .strict()
  .refine((j) => new Set(j.companies.map((c) => c.name.toLowerCase())).size === j.companies.length, {
    message: 'two companies have the same name',
    path: ['companies'],
  });

export type InvestorShortlistJob = BaseJob & z.output<typeof InvestorShortlistJobSchema>;

/**
 * The job's problems before its run pays for find_investors: each company's website checked as
 * the job file's schema checks it (a job validated before that check was added is caught here).
 */
export function investorShortlistPreflight(
  job: Pick<InvestorShortlistJob, 'companies'>,
): Promise<JobProblem[]> {
  const problems: JobProblem[] = [];
  job.companies.forEach((c, i) => {
    const problem = c.website === undefined ? null : websiteProblem(c.website);
    if (problem) problems.push({ field: `companies[${i}].website`, detail: problem });
  });
  return Promise.resolve(problems);
}

/** Normalises a parsed job (nothing to resolve). */
export function normaliseInvestorShortlistJob(parsed: unknown): InvestorShortlistJob {
  return parsed as InvestorShortlistJob;
}

/** Validates one investor-shortlist job object and returns it normalised. */
export function parseInvestorShortlistJob(input: unknown, file = '(inline)'): InvestorShortlistJob {
  return parseJobWith(
    { schema: InvestorShortlistJobSchema, normalise: normaliseInvestorShortlistJob },
    input,
    file,
  );
}
