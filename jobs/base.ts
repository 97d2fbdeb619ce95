/**
 * What every job has, whatever its kind: id, kind, title, schedule, overlap policy, credit
 * budget, output formats and destination; and the error a bad job is reported with, naming
 * the file, the job and the field.
 */
import { CronExpressionParser } from 'cron-parser';
import { z } from 'zod';
import { DeliverySchema, type Destination } from '../config/destinations.js';
import { fieldOf } from '../lib/fields.js';

export { fieldOf };

const ID_RE = /^[a-z0-9][a-z0-9-]{0,62}$/;

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

/** A job or group id: lowercase letters, digits and dashes. */
export const jobIdSchema = z.string().regex(ID_RE, {
  message: 'must be lowercase letters, digits and dashes (1 to 63), starting with a letter or digit',
});

/**
 * The fields every kind's schema starts with. `outputs` lists the formats the kind can write;
 * `kind` is the kind's own literal (defaulted, so a kind's parser takes jobs without it).
 *
 * @example
 * const Schema = z.object({ ...baseJobShape('headcount', ['json'] as const), country: z.string() }).strict();
 */
export function baseJobShape<K extends string, const F extends readonly [string, ...string[]]>(
  kind: K,
  formats: F,
) {
  return {
    id: jobIdSchema,
    kind: z.literal(kind).default(kind),
    title: z.string().min(1).max(200),
    schedule: ScheduleSchema.optional(),
    overlap: z.enum(OVERLAP_POLICIES).default('skip'),
    budget: z
      .object({ credits: z.number().int().min(0).max(1_000_000) })
      .strict()
      .default({ credits: 0 }),
    outputs: z
      .array(z.enum(formats))
      .min(1)
      .default([...formats] as F[number][]),
    /**
     * Destination folder (default VIR_REPORTS_DIR); files go to <destination>/<job id>/<date>/.
     * A relative path is inside VIR_REPORTS_DIR; `..` is refused; an absolute path must be inside
     * VIR_REPORTS_DIR or one of VIR_DESTINATION_ROOTS (checked by the worker).
     */
    destination: z
      .string()
      .min(1)
      .refine((d) => !d.split(/[\\/]+/).includes('..'), {
        message: 'must not contain ".." (a destination stays inside the reports folder)',
      })
      .optional(),
    /**
     * Where the run's reports are delivered once its manifest is written: email, chat webhook,
     * object storage (config/destinations.ts). Secrets come from the environment only.
     */
    delivery: DeliverySchema.optional(),
  };
}

/** A validated job of any kind: the shared base. */
export interface BaseJob {
  id: string;
  kind: string;
  title: string;
  schedule?: JobSchedule;
  overlap: OverlapPolicy;
  budget: { credits: number };
  outputs: string[];
  destination?: string;
  /** Delivery destinations, validated, each with its id (`email-1`, `s3-1`, …). */
  delivery?: Destination[];
  /** The account's credit caps, from the job file's `account.caps` (set after validation). */
  accountCaps?: { day?: number; week?: number; month?: number };
}

/** A job file or job that failed validation: names the file, the job and the field. */
export class JobFileError extends Error {
  readonly code = 'invalid_job_file';
  constructor(
    readonly file: string,
    readonly jobId: string | null,
    readonly field: string | null,
    /** What is wrong, without the file, job and field. */
    readonly detail: string,
  ) {
    const where = [jobId ? `job "${jobId}"` : null, field].filter(Boolean).join(': ');
    const located = where ? `${where}: ${detail}` : detail;
    super(`${file}: ${located}`);
    this.located = located;
    this.name = 'JobFileError';
  }

  /** The message without the file: `job "x": field: detail` (for lists under one file). */
  readonly located: string;
}

/** A zod issue, with the fields the wording below reads (all optional: zod's own vary). */
interface ZodIssueLike {
  path: readonly PropertyKey[];
  message: string;
  code?: string;
  maximum?: unknown;
  minimum?: unknown;
  inclusive?: boolean;
  expected?: unknown;
  received?: unknown;
  input?: unknown;
  origin?: string;
  keys?: unknown;
}

/**
 * A zod issue in words a person reads, with the bound the job kind states: "must be at most
 * 100" rather than "Too big: expected number to be <=100"; a number past JavaScript's safe
 * integers is "too large" rather than "<= 9007199254740991".
 */
function wordingOf(issue: ZodIssueLike): string {
  const number = issue.origin === 'number' || issue.origin === 'int';
  if (issue.code === 'too_big' && number && typeof issue.maximum === 'number') {
    if (issue.maximum >= Number.MAX_SAFE_INTEGER) return 'is too large a number';
    return issue.inclusive === false
      ? `must be less than ${issue.maximum}`
      : `must be at most ${issue.maximum}`;
  }
  if (issue.code === 'too_small' && number && typeof issue.minimum === 'number') {
    if (issue.minimum <= Number.MIN_SAFE_INTEGER) return 'is too large a negative number';
    return issue.inclusive === false
      ? `must be more than ${issue.minimum}`
      : `must be at least ${issue.minimum}`;
  }
  if (issue.code === 'unrecognized_keys' && Array.isArray(issue.keys)) {
    const keys = issue.keys.map(String);
    return `unknown field${keys.length === 1 ? '' : 's'} ${keys.map((k) => `"${k}"`).join(', ')}`;
  }
  if (issue.code === 'invalid_type' && issue.expected === 'int') return 'must be a whole number';
  if (issue.code === 'invalid_type' && issue.expected === 'number') {
    if (/received (Infinity|-Infinity|NaN)/.test(issue.message)) return 'must be a finite number';
    const got = /received (\w+)/.exec(issue.message)?.[1];
    return `must be a number${got ? ` (got ${got === 'string' ? 'text' : got})` : ''}`;
  }
  return issue.message;
}

/**
 * Zod's issues, one per field and problem: a number past the safe integers is reported against
 * the field's own bound when it has one ("must be at most 100"), not as "<= 9007199254740991".
 */
function wordedIssues(issues: readonly ZodIssueLike[]): { field: string; text: string }[] {
  const unsafe = (i: ZodIssueLike) =>
    i.code === 'too_big' && typeof i.maximum === 'number' && i.maximum >= Number.MAX_SAFE_INTEGER;
  const bounded = new Set(
    issues.filter((i) => i.code === 'too_big' && !unsafe(i)).map((i) => fieldOf(i.path)),
  );
  const out: { field: string; text: string }[] = [];
  for (const issue of issues) {
    const field = fieldOf(issue.path);
    if (unsafe(issue) && bounded.has(field)) continue;
    const text = wordingOf(issue);
    if (!out.some((o) => o.field === field && o.text === text)) out.push({ field, text });
  }
  return out;
}

/**
 * Every problem zod found, at once: one is said as `field: message` (the error's field); several
 * are listed, each with its field (the error's field is then null).
 */
export function issuesError(
  file: string,
  jobId: string | null,
  issues: readonly ZodIssueLike[],
): JobFileError {
  const worded = wordedIssues(issues);
  const first = worded[0]!;
  if (worded.length === 1) return new JobFileError(file, jobId, first.field || null, first.text);
  const list = worded.map((i) => `${i.field || '(the job)'}: ${i.text}`).join('; ');
  return new JobFileError(file, jobId, null, `${worded.length} problems: ${list}`);
}

/**
 * Validates one job with a kind's schema and normalises it; a bad job is a JobFileError naming
 * the field.
 */
export function parseJobWith<J>(
  kind: { schema: z.ZodType; normalise(parsed: unknown, file?: string): J },
  input: unknown,
  file = '(inline)',
): J {
  const id = typeof input === 'object' && input && 'id' in input ? String(input.id) : null;
  const parsed = kind.schema.safeParse(input);
  if (!parsed.success) throw issuesError(file, id, parsed.error.issues);
  return kind.normalise(parsed.data, file);
}
