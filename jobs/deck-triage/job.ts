/**
 * The deck triage's job: where a fund's pitch decks come from (direct https links, a local inbox
 * folder, a bucket prefix; any mix), the startup names the files do not say, how long a run
 * polls an analysis that is still running, and whether a run with no new deck is delivered.
 * Validated with zod; a bad job names the file, the job and the field (jobs/base.ts). A link
 * the service would refuse (a viewer page, a shared-folder link) is refused here, before the
 * run, with the reason.
 */
import { isAbsolute } from 'node:path';
import { z } from 'zod';
import { baseJobShape, parseJobWith, type BaseJob } from '../base.js';
import { checkDeckLink } from './deck-links.js';
import { durationMs } from './durations.js';

export const DECK_TRIAGE_KIND = 'deck-triage';

/** The most decks one run sends (each 3 credits and a data room in the VC dashboard). */
export const MAX_DECKS = 200;

/** How long a run waits for an analysis still running by default: 30 minutes. */
export const DEFAULT_POLL_DEADLINE = '30m';

const duration = z
  .string()
  .regex(/^\d+(s|m|h)$/, { message: 'must look like 90s, 30m or 2h' })
  .refine((d) => durationMs(d) >= 10_000 && durationMs(d) <= 24 * 3600_000, {
    message: 'must be between 10s and 24h',
  });

const deckLink = z.string().superRefine((url, ctx) => {
  const why = checkDeckLink(url);
  if (why !== null) ctx.addIssue({ code: 'custom', message: why });
});

const DeckSourcesSchema = z
  .object({
    /** Direct https links to PDF or PPTX files (not viewer pages). */
    urls: z.array(deckLink).max(MAX_DECKS).optional(),
    /** A local inbox folder of .pdf and .pptx files (absolute, or relative to the job file's folder). */
    folder: z.string().min(1).optional(),
    /** A bucket and prefix of .pdf and .pptx files. */
    s3: z
      .object({
        bucket: z.string().min(3).max(63),
        prefix: z.string().default(''),
        endpoint: z.string().url().optional(),
        region: z.string().min(1).optional(),
      })
      .strict()
      .optional(),
    /** Startup names by file name or link, where the file does not say (a `decks.yaml` beside the files too). */
    names: z.record(z.string().min(1), z.string().min(1).max(200)).optional(),
  })
  .strict()
  .refine((d) => (d.urls?.length ?? 0) > 0 || d.folder !== undefined || d.s3 !== undefined, {
    message: 'needs at least one of urls, folder or s3',
  });

export const DeckTriageJobSchema = z
  .object({
    ...baseJobShape(DECK_TRIAGE_KIND, ['pdf', 'xlsx'] as const),
    decks: DeckSourcesSchema,
    /** How long a run polls an analysis still running before it names the deck as timed out. */
    pollDeadline: duration.default(DEFAULT_POLL_DEADLINE),
    /** Whether a run with no new deck is delivered to the job's destinations (by default it sends nothing). */
    deliverWhenQuiet: z.boolean({ message: 'must be true or false' }).default(false),
  })
  .strict();

export type DeckTriageJob = BaseJob & z.output<typeof DeckTriageJobSchema>;

/**
 * Normalises a parsed job: a relative inbox folder is taken from the job file's folder (a job
 * given inline keeps it as it is: the worker resolves it in its working folder).
 */
export function normaliseDeckTriageJob(parsed: unknown, file?: string): DeckTriageJob {
  const job = parsed as DeckTriageJob;
  const folder = job.decks.folder;
  if (folder !== undefined && !isAbsolute(folder) && file && file !== '(inline)') {
    const base = file.replace(/[\\/][^\\/]*$/, '');
    return { ...job, decks: { ...job.decks, folder: `${base}/${folder}` } };
  }
  return job;
}

/** Validates one deck-triage job object and returns it normalised. */
export function parseDeckTriageJob(input: unknown, file = '(inline)'): DeckTriageJob {
  return parseJobWith({ schema: DeckTriageJobSchema, normalise: normaliseDeckTriageJob }, input, file);
}
