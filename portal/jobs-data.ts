/**
 * What the portal knows of the jobs: the job files `vir run` searches (and any the portal was
 * given), the schedules in Temporal, each job's last run, and the account's ledger, read with
 * the CLI's own functions.
 */
import { listJobFiles, locateJob } from '../cli/commands/run.js';
import { listRuns, type RunRow } from '../cli/commands/runs.js';
import { listSchedules, type ScheduleRow } from '../cli/commands/schedules.js';
import { readLedger, type LedgerRead } from '../cli/commands/credits.js';
import type { CliContext } from '../cli/context.js';
import { scheduleIdFor } from '../cli/schedules/desired.js';
import { loadJobFile, type AnyJob } from '../jobs/files.js';
import { JOB_KINDS } from '../jobs/registry.js';

/** A job of a job file. */
export interface PortalJob {
  job: AnyJob;
  file: string;
  group: string;
  /** The id its schedule has in Temporal once applied (`vir-<group>-<job>`); null: the job has none. */
  scheduleId: string | null;
}

/** A job file that could not be read, and why. */
export interface JobFileProblem {
  file: string;
  message: string;
}

/** The job files the portal reads: those `vir run` searches, then the ones it was given. */
export async function portalJobFiles(extra: readonly string[]): Promise<string[]> {
  return [...new Set([...(await listJobFiles()), ...extra])];
}

/** Every job of the files (a file that does not load is a problem, not a failure of the page). */
export async function loadPortalJobs(
  files: readonly string[],
): Promise<{ jobs: PortalJob[]; problems: JobFileProblem[] }> {
  const jobs: PortalJob[] = [];
  const problems: JobFileProblem[] = [];
  for (const file of files) {
    try {
      const jf = await loadJobFile(file);
      for (const job of jf.jobs) {
        jobs.push({
          job,
          file,
          group: jf.group,
          scheduleId: job.schedule ? scheduleIdFor(jf.group, job.id) : null,
        });
      }
    } catch (err) {
      problems.push({ file, message: (err as Error).message });
    }
  }
  return { jobs, problems };
}

/** The job of this id in the portal's files (the first, as `vir run` finds it), or null. */
export async function locatePortalJob(
  id: string,
  files: readonly string[],
): Promise<{ job: AnyJob; file: string } | null> {
  for (const file of files) {
    let ids: string[];
    try {
      ids = (await loadJobFile(file)).jobs.map((j) => j.id);
    } catch {
      continue;
    }
    if (ids.includes(id)) return locateJob(id, file);
  }
  return null;
}

/** The kind of a workflow type (`marketReportWorkflow` → `market-report`), or null for another workflow. */
export function kindOfType(type: string): string | null {
  return JOB_KINDS.find((k) => k.workflow.name === type)?.kind ?? null;
}

/** Executions scanned for each job's last run. */
const LAST_RUN_SCAN = 2000;

/** Each job's newest run, by job id (the runs `vir runs list` lists). */
export async function lastRunsByJob(ctx: CliContext): Promise<Map<string, RunRow>> {
  const last = new Map<string, RunRow>();
  for (const row of await listRuns(ctx, { limit: LAST_RUN_SCAN })) {
    if (row.jobId !== null && !last.has(row.jobId)) last.set(row.jobId, row);
  }
  return last;
}

/** The ledger read with a short wait (a page must not hang on a worker that does not answer). */
export async function portalLedger(
  ctx: CliContext,
  timeoutMs = 3000,
): Promise<LedgerRead | { error: string }> {
  try {
    return await readLedger(ctx, ctx.settings(), timeoutMs);
  } catch (err) {
    return { error: (err as Error).message };
  }
}

/** What the jobs page shows, read at once. */
export interface JobsOverview {
  jobs: PortalJob[];
  problems: JobFileProblem[];
  schedules: ScheduleRow[];
  lastRuns: Map<string, RunRow>;
  ledger: LedgerRead | { error: string };
}

/** Reads the jobs, the schedules, the last runs and the ledger together. */
export async function jobsOverview(ctx: CliContext, files: readonly string[]): Promise<JobsOverview> {
  const loaded = await loadPortalJobs(files);
  const ids = loaded.jobs.flatMap((j) => (j.scheduleId === null ? [] : [j.scheduleId]));
  const [schedules, lastRuns, ledger] = await Promise.all([
    listSchedules(ctx, ids),
    lastRunsByJob(ctx),
    portalLedger(ctx),
  ]);
  return { ...loaded, schedules, lastRuns, ledger };
}
