/**
 * Job files: YAML documents that define scheduled batches, each job of any registered kind
 * (`kind:` on each job selects its schema, jobs/registry.ts). A bad file is a JobFileError
 * naming the file, the job and the field, and nothing starts.
 *
 * @example
 * const file = await loadJobFile('config/jobs/weekly.yaml');
 * for (const job of file.jobs) console.log(job.id, job.kind);
 */
import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { slugId } from '../lib/names.js';
import { issuesError, jobIdSchema, JobFileError, parseJobWith } from './base.js';
import { findKind, JOB_KINDS, type AnyJob } from './registry.js';

export { JobFileError } from './base.js';
export type { BaseJob, JobCalendar, JobSchedule, OverlapPolicy } from './base.js';
export { OVERLAP_POLICIES } from './base.js';
export type { AnyJob } from './registry.js';

export const JobFileSchema = z
  .object({
    /** Schedules made from this file are tagged with the group; `schedules apply` manages only its group. */
    group: jobIdSchema.optional(),
    /** The account's credit caps (per UTC day, ISO week, calendar month) for the runs of this file's jobs. */
    account: z
      .object({
        caps: z
          .object({
            day: z.number().int().min(0).max(1_000_000_000).optional(),
            week: z.number().int().min(0).max(1_000_000_000).optional(),
            month: z.number().int().min(0).max(1_000_000_000).optional(),
          })
          .strict(),
      })
      .strict()
      .optional(),
    jobs: z.array(z.unknown()).min(1, { message: 'must list at least one job' }),
  })
  .strict();

export interface JobFile {
  path: string;
  group: string;
  jobs: AnyJob[];
}

const KIND_NAMES = JOB_KINDS.map((k) => k.kind).join(', ');

/** Validates one job of any kind (its `kind:` picks the schema) and returns it normalised. */
export function parseJob(input: unknown, file = '(inline)'): AnyJob {
  const obj = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : null;
  const id = obj && 'id' in obj ? String(obj.id) : null;
  if (obj === null) throw new JobFileError(file, null, null, 'a job must be a mapping of fields');
  if (typeof obj.kind !== 'string') {
    throw new JobFileError(file, id, 'kind', `is required: one of ${KIND_NAMES}`);
  }
  const kind = findKind(obj.kind);
  if (!kind) {
    throw new JobFileError(file, id, 'kind', `unknown kind "${obj.kind}": one of ${KIND_NAMES}`);
  }
  return parseJobWith(kind, input, file) as AnyJob;
}

/** Where the YAML parser found a problem (1-based), when it says. */
interface YamlPosition {
  linePos?: { line: number; col: number }[];
}

/**
 * A YAML error as a person reads it: the parser's reason, the line and column, and the line
 * itself quoted; a problem past the last line is "at the end of the file".
 */
function yamlProblem(err: Error & YamlPosition, text: string): string {
  const reason = err.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
  const pos = err.linePos?.[0];
  if (!pos) return `not valid YAML: ${reason}`;
  const lines = text.replace(/\n$/, '').split('\n');
  if (pos.line > lines.length)
    return `not valid YAML at the end of the file (line ${lines.length}): ${reason}`;
  return `not valid YAML at line ${pos.line}, column ${pos.col}: ${reason}; the line reads ${JSON.stringify(lines[pos.line - 1])}`;
}

/** Parses a job file's text (YAML or JSON). */
export function parseJobFile(text: string, file: string): JobFile {
  if (text.trim() === '') {
    throw new JobFileError(file, null, null, 'is empty: a job file needs a `jobs:` list');
  }
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (err) {
    throw new JobFileError(file, null, null, yamlProblem(err as Error & YamlPosition, text));
  }
  if (doc === null || doc === undefined) {
    throw new JobFileError(
      file,
      null,
      null,
      'has no content (only comments): a job file needs a `jobs:` list',
    );
  }
  const top = JobFileSchema.safeParse(doc);
  if (!top.success) throw issuesError(file, null, top.error.issues);
  // Every job is checked, and every bad one reported at once.
  const jobs: AnyJob[] = [];
  const bad: JobFileError[] = [];
  top.data.jobs.forEach((j, i) => {
    try {
      jobs.push(parseJob(j, file));
    } catch (err) {
      if (!(err instanceof JobFileError)) throw err;
      bad.push(err.jobId ? err : new JobFileError(file, `#${i + 1}`, err.field, err.detail));
    }
  });
  if (bad.length === 1) throw bad[0]!;
  if (bad.length > 1) {
    const list = bad.map((e) => e.located).join('; ');
    throw new JobFileError(file, null, null, `${bad.length} jobs have problems: ${list}`);
  }
  const caps = top.data.account?.caps;
  if (caps && Object.keys(caps).length > 0) for (const job of jobs) job.accountCaps = { ...caps };
  const seen = new Set<string>();
  for (const job of jobs) {
    if (seen.has(job.id))
      throw new JobFileError(file, job.id, 'id', 'is used by more than one job in this file');
    seen.add(job.id);
  }
  const group = top.data.group ?? slugId(basename(file, extname(file)));
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
export function findJob(file: JobFile, id: string): AnyJob {
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
