/**
 * Job files: YAML documents that define scheduled batches. Validated by zod; a bad file is a
 * JobFileError naming the file, the job and the field, and nothing starts.
 *
 * @example
 * const file = await loadJobFile('config/weekly-market.yaml');
 * for (const job of file.jobs) console.log(job.id, job.countries);
 */
import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { CronExpressionParser } from 'cron-parser';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { JOB_REGION_NAMES, JOB_REGIONS, type JobRegion } from './regions.js';

const ID_RE = /^[a-z0-9][a-z0-9-]{0,62}$/;

/**
 * Job ids that would put a job's reports into a source folder of reports/ (the default
 * destination): reports/<job id>/ must never be reports/charts/ and the like.
 */
export const RESERVED_JOB_IDS = ['charts', 'excel', 'pdf', 'market', 'fonts'] as const;

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

const cronString = z.string().refine(
  (s) => {
    try {
      CronExpressionParser.parse(s);
      return s.trim().split(/\s+/).length === 5;
    } catch {
      return false;
    }
  },
  { message: 'is not a valid 5-field cron expression (minute hour day-of-month month day-of-week)' },
);

const DAYS = ['SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY'] as const;

const CalendarSchema = z
  .object({
    dayOfWeek: z
      .union([z.enum(DAYS), z.array(z.enum(DAYS)).min(1)])
      .optional()
      .describe('MONDAY..SUNDAY, one or a list'),
    dayOfMonth: z
      .union([z.number().int().min(1).max(31), z.array(z.number().int().min(1).max(31)).min(1)])
      .optional(),
    month: z
      .union([z.number().int().min(1).max(12), z.array(z.number().int().min(1).max(12)).min(1)])
      .optional(),
    hour: z.number().int().min(0).max(23).default(0),
    minute: z.number().int().min(0).max(59).default(0),
  })
  .strict();
export type JobCalendar = z.infer<typeof CalendarSchema>;

const ScheduleSchema = z
  .object({
    cron: z.union([cronString, z.array(cronString).min(1)]).optional(),
    calendar: z.union([CalendarSchema, z.array(CalendarSchema).min(1)]).optional(),
    timezone: z.string().refine(isTimeZone, { message: 'is not an IANA time zone (e.g. Europe/Berlin)' }),
    /** Random delay added to each scheduled start, e.g. "5m". */
    jitter: z
      .string()
      .regex(/^\d+(s|m|h)$/, { message: 'must look like 30s, 5m or 1h' })
      .optional(),
    paused: z.boolean().default(false),
  })
  .strict()
  .refine((s) => (s.cron === undefined) !== (s.calendar === undefined), {
    message: 'needs exactly one of cron or calendar',
  });
export type JobSchedule = z.infer<typeof ScheduleSchema>;

export const OVERLAP_POLICIES = [
  'skip',
  'buffer_one',
  'buffer_all',
  'cancel_other',
  'terminate_other',
  'allow_all',
] as const;
export type OverlapPolicy = (typeof OVERLAP_POLICIES)[number];

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
    id: z
      .string()
      .regex(ID_RE, {
        message: 'must be lowercase letters, digits and dashes (1 to 63), starting with a letter or digit',
      })
      .refine((id) => !(RESERVED_JOB_IDS as readonly string[]).includes(id), {
        message: `is reserved (${RESERVED_JOB_IDS.join(', ')} are folders of the report renderer)`,
      }),
    kind: z.literal('market-report').default('market-report'),
    title: z.string().min(1).max(200),
    countries: z.array(z.string().trim().min(1)).min(1).max(30).optional(),
    region: z.enum(JOB_REGION_NAMES as [JobRegion, ...JobRegion[]]).optional(),
    schedule: ScheduleSchema.optional(),
    overlap: z.enum(OVERLAP_POLICIES).default('skip'),
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
    budget: z
      .object({ credits: z.number().int().min(0).max(1_000_000) })
      .strict()
      .default({ credits: 0 }),
    outputs: z
      .array(z.enum(['xlsx', 'pdf']))
      .min(1)
      .default(['xlsx', 'pdf']),
    /** Destination folder (default VIR_REPORTS_DIR); reports go to <destination>/<job id>/<date>/. */
    destination: z.string().min(1).optional(),
  })
  .strict()
  .refine((j) => (j.countries === undefined) !== (j.region === undefined), {
    message: 'needs exactly one of countries or region',
    path: ['countries'],
  });

/** A validated market-report job, countries resolved, questions normalised. */
export type MarketReportJob = Omit<
  z.output<typeof MarketReportJobSchema>,
  'questions' | 'countries' | 'region'
> & {
  countries: string[];
  region?: JobRegion;
  questions: { text: string; perCountry: boolean }[];
};

export const JobFileSchema = z
  .object({
    /** Schedules made from this file are tagged with the group; `schedules apply` manages only its group. */
    group: z.string().regex(ID_RE, { message: 'must be lowercase letters, digits and dashes' }).optional(),
    jobs: z.array(z.unknown()).min(1, { message: 'must list at least one job' }),
  })
  .strict();

export interface JobFile {
  path: string;
  group: string;
  jobs: MarketReportJob[];
}

/** A job file that failed validation: names the file, the job and the field. */
export class JobFileError extends Error {
  readonly code = 'invalid_job_file';
  constructor(
    readonly file: string,
    readonly jobId: string | null,
    readonly field: string | null,
    detail: string,
  ) {
    const where = [file, jobId ? `job "${jobId}"` : null, field].filter(Boolean).join(': ');
    super(`${where}: ${detail}`);
    this.name = 'JobFileError';
  }
}

function fieldOf(path: readonly PropertyKey[]): string {
  return path
    .map((p) => (typeof p === 'number' ? `[${p}]` : String(p)))
    .join('.')
    .replace(/\.\[/g, '[');
}

/** Normalises a parsed job: region expanded, questions as objects, duplicates removed. */
function normalise(job: z.output<typeof MarketReportJobSchema>): MarketReportJob {
  const { countries: listed, region, questions, ...rest } = job;
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

/** Validates one job object (e.g. from a test) and returns it normalised. */
export function parseMarketReportJob(input: unknown, file = '(inline)'): MarketReportJob {
  const id = typeof input === 'object' && input && 'id' in input ? String(input.id) : null;
  const parsed = MarketReportJobSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new JobFileError(file, id, fieldOf(issue.path) || null, issue.message);
  }
  return normalise(parsed.data);
}

/** Parses a job file's text (YAML or JSON). */
export function parseJobFile(text: string, file: string): JobFile {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (err) {
    throw new JobFileError(file, null, null, `not valid YAML: ${(err as Error).message.split('\n')[0]}`);
  }
  const top = JobFileSchema.safeParse(doc);
  if (!top.success) {
    const issue = top.error.issues[0]!;
    throw new JobFileError(file, null, fieldOf(issue.path) || null, issue.message);
  }
  const jobs = top.data.jobs.map((j, i) => {
    try {
      return parseMarketReportJob(j, file);
    } catch (err) {
      if (err instanceof JobFileError && !err.jobId) {
        throw new JobFileError(file, `#${i + 1}`, err.field, err.message.split(': ').slice(-1)[0] ?? '');
      }
      throw err;
    }
  });
  const seen = new Set<string>();
  for (const job of jobs) {
    if (seen.has(job.id))
      throw new JobFileError(file, job.id, 'id', 'is used by more than one job in this file');
    seen.add(job.id);
  }
  const fromName = basename(file, extname(file))
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  const group = top.data.group ?? (fromName || 'jobs');
  return { path: file, group, jobs };
}

/** Reads and validates a job file. */
export async function loadJobFile(path: string): Promise<JobFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new JobFileError(
      path,
      null,
      null,
      `cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  return parseJobFile(text, path);
}

/** Finds a job by id in a file. */
export function findJob(file: JobFile, id: string): MarketReportJob {
  const job = file.jobs.find((j) => j.id === id);
  if (!job) {
    throw new JobFileError(
      file.path,
      id,
      null,
      `no such job (jobs in this file: ${file.jobs.map((j) => j.id).join(', ')})`,
    );
  }
  return job;
}
