/**
 * The smoke job: the smallest job the engine runs end to end. It checks the account, pages one
 * country's startups, reads the first startup's profile, and writes a JSON summary. It proves
 * that a job kind needs only its folder and a registry line, and checks a deployment end to end
 * at no cost (every call it makes is free).
 */
import { z } from 'zod';
import { baseJobShape, parseJobWith, type BaseJob } from '../base.js';

export const SMOKE_KIND = 'smoke';

export const SmokeJobSchema = z
  .object({
    ...baseJobShape(SMOKE_KIND, ['json'] as const),
    /** The country whose startups are paged. */
    country: z.string().trim().min(1),
    /** How many startups to page (at 100 a page). */
    records: z.number().int().min(1).max(10_000).default(200),
  })
  .strict();

export type SmokeJob = BaseJob & z.output<typeof SmokeJobSchema>;

export function normaliseSmokeJob(parsed: unknown): SmokeJob {
  return parsed as SmokeJob;
}

/** Validates one smoke job object and returns it normalised. */
export function parseSmokeJob(input: unknown, file = '(inline)'): SmokeJob {
  return parseJobWith({ schema: SmokeJobSchema, normalise: normaliseSmokeJob }, input, file);
}
