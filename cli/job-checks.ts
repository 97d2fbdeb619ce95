/**
 * What `vir run` and `vir schedules apply` check before anything starts: each job's destination
 * lies inside the reports folder, the files a job reads exist and parse (its kind's `preflight`,
 * jobs/preflight.ts, which each run's first activity asks again), and each country a job names
 * is one the service knows (country_overview answers for it). The service's answers are kept for the UTC day in
 * VIR_DATA_DIR, so a file applied again asks nothing; a country is asked at most once a day.
 */
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidInputError, isVisError, NotFoundError } from '../api/errors.js';
import { destinationRoot } from '../activities/render-files.js';
import type { Settings } from '../config/settings.js';
import { JobFileError } from '../jobs/base.js';
import { preflightProblems } from '../jobs/preflight.js';
import type { AnyJob } from '../jobs/registry.js';
import { writeJsonAtomic } from '../lib/files.js';
import { serviceClient } from '../runtime/service.js';
import type { CliContext } from './context.js';
import { CliError, EXIT_REFUSED } from './errors.js';
import { kindOf } from './run-job.js';

/** The service's answers for country names, for one service and one UTC day. */
interface CountryCache {
  service: string;
  day: string;
  known: string[];
  /** Unknown country name -> the service's message. */
  unknown: Record<string, string>;
}

/** Where the day's answers are kept. */
export function countryCachePath(settings: Pick<Settings, 'dataDir'>): string {
  return join(settings.dataDir, 'cache', 'countries.json');
}

/** The service, named without its key (a hash of its base URL). */
function serviceId(baseUrl: string): string {
  return createHash('sha256').update(baseUrl).digest('hex').slice(0, 16);
}

async function readCache(path: string, service: string, day: string): Promise<CountryCache> {
  const empty: CountryCache = { service, day, known: [], unknown: {} };
  try {
    const saved = JSON.parse(await readFile(path, 'utf8')) as Partial<CountryCache>;
    if (saved.service !== service || saved.day !== day) return empty;
    return {
      service,
      day,
      known: Array.isArray(saved.known) ? saved.known.filter((c) => typeof c === 'string') : [],
      unknown: saved.unknown && typeof saved.unknown === 'object' ? { ...saved.unknown } : {},
    };
  } catch {
    return empty;
  }
}

/** The result of checking jobs' countries with the service. */
export interface CountryCheck {
  /** One error per job field naming a country the service does not know. */
  problems: JobFileError[];
  /** Why some countries could not be checked (no key, the service unreachable), or null. */
  skipped: string | null;
  /** Countries asked of the service now (the rest came from the day's cache). */
  asked: number;
}

/**
 * Asks the service about each country the jobs name (once a day per service), and returns an
 * error naming the file, job and field for each one it does not know. A service that cannot be
 * reached leaves the rest unchecked (`skipped` says why): the runs meet them again.
 *
 * @example
 * const { problems } = await checkCountries(jobFile.jobs, jobFile.path, settings);
 */
export async function checkCountries(
  jobs: readonly AnyJob[],
  file: string,
  settings: Settings,
  now: Date = new Date(),
): Promise<CountryCheck> {
  const uses = jobs.flatMap((job) => (kindOf(job).countries?.(job) ?? []).map((use) => ({ job, ...use })));
  if (uses.length === 0) return { problems: [], skipped: null, asked: 0 };
  const path = countryCachePath(settings);
  const day = now.toISOString().slice(0, 10);
  const cache = await readCache(path, serviceId(settings.visBaseUrl), day);
  const known = new Set(cache.known);
  const toAsk = [...new Set(uses.map((u) => u.country))].filter(
    (c) => !known.has(c) && !(c in cache.unknown),
  );
  let skipped: string | null = null;
  let asked = 0;
  if (toAsk.length > 0 && !settings.visApiKey) {
    skipped = 'VIS_API_KEY is not set';
  } else if (toAsk.length > 0) {
    const unknownBefore = Object.keys(cache.unknown).length;
    const client = serviceClient(settings, { timeoutMs: Math.min(settings.httpTimeoutMs, 30_000) });
    try {
      for (const country of toAsk) {
        try {
          await client.call('country_overview', { country });
          known.add(country);
        } catch (err) {
          if (err instanceof NotFoundError || err instanceof InvalidInputError) {
            cache.unknown[country] = err.body?.message ?? err.message;
          } else {
            skipped = `the service did not answer (${isVisError(err) ? err.message : String(err)})`;
            break;
          }
        } finally {
          asked += 1;
        }
      }
    } finally {
      await client.close();
    }
    const learnt = known.size > cache.known.length || Object.keys(cache.unknown).length > unknownBefore;
    cache.known = [...known].sort();
    if (learnt) await writeJsonAtomic(path, cache, true);
  }
  const problems = uses
    .filter((u) => u.country in cache.unknown)
    .map(
      (u) =>
        new JobFileError(
          file,
          u.job.id,
          u.field,
          `unknown country '${u.country}': the service says "${cache.unknown[u.country]}"`,
        ),
    );
  return { problems, skipped, asked };
}

/** A destination outside the reports folder, as an error naming the file, job and field. */
export function destinationProblem(job: AnyJob, file: string, settings: Settings): JobFileError | null {
  try {
    destinationRoot(job.destination, settings.reportsDir, settings.destinationRoots);
    return null;
  } catch (err) {
    return new JobFileError(file, job.id, 'destination', (err as Error).message);
  }
}

/** Files a job reads that cannot be read (a missing suppression list), each naming its field. */
export async function inputFileProblems(job: AnyJob, file: string): Promise<JobFileError[]> {
  const files = kindOf(job).inputFiles?.(job) ?? [];
  const problems: JobFileError[] = [];
  for (const f of files) {
    try {
      await access(f.path, constants.R_OK);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      const why = code === 'ENOENT' ? 'no such file' : `cannot be read (${code ?? 'error'})`;
      problems.push(new JobFileError(file, job.id, f.field, `${f.path}: ${why}`));
    }
  }
  return problems;
}

/**
 * What the job's checks before a run find (its kind's `preflight` and the shared ones: a
 * suppression list that is binary or not CSV, with its line and reason), each naming its field.
 * The run's first activity makes the same checks.
 */
export async function preflightJobProblems(job: AnyJob, file: string): Promise<JobFileError[]> {
  const problems = await preflightProblems(kindOf(job), job);
  return problems.map((p) => new JobFileError(file, job.id, p.field, p.detail));
}

/**
 * Refuses jobs before anything starts: a destination outside the reports folder (the workers
 * check it again where they write), files the job reads that are missing or do not parse, and
 * countries the service does not know. Every problem is reported at once, each naming the file,
 * the job and the field.
 */
export async function refuseBadJobs(ctx: CliContext, jobs: readonly AnyJob[], file: string): Promise<void> {
  const settings = ctx.settings();
  const problems = jobs
    .map((job) => destinationProblem(job, file, settings))
    .filter((p): p is JobFileError => p !== null);
  for (const job of jobs) {
    const missing = await inputFileProblems(job, file);
    // A file that cannot be opened is said once, not again as one that does not parse.
    problems.push(...(missing.length > 0 ? missing : await preflightJobProblems(job, file)));
  }
  const check = await checkCountries(jobs, file, settings);
  problems.push(...check.problems);
  if (check.skipped) ctx.io.err(`warning: countries not checked against the service: ${check.skipped}`);
  if (problems.length === 1) throw new CliError(problems[0]!.message, EXIT_REFUSED);
  if (problems.length > 1) {
    throw new CliError(
      `${file}: ${problems.length} problems:\n${problems.map((p) => `  ${p.located}`).join('\n')}`,
      EXIT_REFUSED,
    );
  }
}
