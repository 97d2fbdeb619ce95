/**
 * Sandbox options pipeline: public options -> one defaults constant -> validation (errors name
 * the field) -> resolved options.
 */
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import { MAX_DATASET_SCALE } from './data/index.js';
import type { ResolvedSandboxOptions, SandboxOptions, SandboxStateMode } from './types.js';

/** The values of the `state` option. */
export const SANDBOX_STATE_MODES = [
  'memory',
  'persist',
  'reset',
] as const satisfies readonly SandboxStateMode[];

/** Name of the state file in the data folder when `stateFile` is not given. */
export const STATE_FILE_NAME = 'state.sqlite';

/** The most scoring threads the default starts (each holds a snapshot of the data: ~75 MB of heap at scale 1). */
export const MAX_DEFAULT_SCORING_THREADS = 4;

/** Default of `scoringThreads`: a core for the event loop, the rest for scoring (1 to 4). */
export function defaultScoringThreads(): number {
  return Math.min(MAX_DEFAULT_SCORING_THREADS, Math.max(1, availableParallelism() - 1));
}

/** Defaults of every sandbox option that has one. */
export const SANDBOX_DEFAULTS = {
  port: 0,
  host: '127.0.0.1',
  dataDir: '.data/sandbox',
  rateLimitPerMinute: 60,
  rateLimitPerDay: 5000,
  minuteWindowMs: 60_000,
  deckWaitMs: 90_000,
  logger: false,
  closeTimeoutMs: 5000,
} as const;

const positiveInt = z
  .number()
  .int({ message: 'must be an integer' })
  .min(1, { message: 'must be at least 1' });
const nonNegativeInt = z
  .number()
  .int({ message: 'must be an integer' })
  .min(0, { message: 'must be at least 0' });

const OptionsSchema = z.looseObject({
  port: nonNegativeInt.max(65535, { message: 'must be at most 65535' }).optional(),
  host: z.string().min(1, { message: 'must not be empty' }).optional(),
  seed: z.number().int({ message: 'must be an integer' }).optional(),
  scale: positiveInt.max(MAX_DATASET_SCALE, { message: `must be at most ${MAX_DATASET_SCALE}` }).optional(),
  dataDir: z.string().min(1, { message: 'must not be empty' }).optional(),
  state: z
    .enum(SANDBOX_STATE_MODES, { message: `must be one of: ${SANDBOX_STATE_MODES.join(', ')}` })
    .optional(),
  stateFile: z.string().min(1, { message: 'must not be empty' }).optional(),
  rateLimitPerMinute: positiveInt.optional(),
  rateLimitPerDay: positiveInt.optional(),
  minuteWindowMs: positiveInt.optional(),
  dayWindowMs: positiveInt.optional(),
  deckWaitMs: nonNegativeInt.optional(),
  deckAnalysisMs: nonNegativeInt.optional(),
  closeTimeoutMs: nonNegativeInt.optional(),
  scoringThreads: nonNegativeInt.max(64, { message: 'must be at most 64' }).optional(),
  asOf: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'must be a date YYYY-MM-DD' })
    .optional(),
  accountsFile: z.string().min(1, { message: 'must not be empty' }).optional(),
  logger: z.boolean({ message: 'must be true or false' }).optional(),
  trustedCa: z.array(z.string()).optional(),
});

/**
 * Validates the public options; throws an Error naming the first bad field.
 *
 * @example
 * validateSandboxOptions({ rateLimitPerMinute: 0 }); // throws 'sandbox option rateLimitPerMinute: must be at least 1'
 */
export function validateSandboxOptions(options: SandboxOptions): void {
  const parsed = OptionsSchema.safeParse(options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(
      `sandbox option ${issue?.path.map(String).join('.') ?? ''}: ${issue?.message ?? 'invalid'}`,
    );
  }
  if (options.state === 'memory' && options.stateFile !== undefined)
    throw new Error("sandbox option stateFile: is not used with state 'memory' (use 'persist' or 'reset')");
}

/**
 * Resolves options once the database (which decides the seed, the as-of date, the scale and, by
 * its path, the data folder) is open.
 */
export function resolveSandboxOptions(
  options: SandboxOptions,
  db: { seed: number; asOf: string; scale: number; path: string },
): ResolvedSandboxOptions {
  const state = options.state ?? (options.stateFile === undefined ? 'memory' : 'persist');
  return {
    state,
    stateFile:
      state === 'memory' ? null : resolve(options.stateFile ?? join(dirname(db.path), STATE_FILE_NAME)),
    port: options.port ?? SANDBOX_DEFAULTS.port,
    host: options.host ?? SANDBOX_DEFAULTS.host,
    seed: db.seed,
    asOf: db.asOf,
    scale: db.scale,
    dataDir: options.dataDir ?? SANDBOX_DEFAULTS.dataDir,
    rateLimitPerMinute: options.rateLimitPerMinute ?? SANDBOX_DEFAULTS.rateLimitPerMinute,
    rateLimitPerDay: options.rateLimitPerDay ?? SANDBOX_DEFAULTS.rateLimitPerDay,
    minuteWindowMs: options.minuteWindowMs ?? SANDBOX_DEFAULTS.minuteWindowMs,
    dayWindowMs: options.dayWindowMs,
    deckWaitMs: options.deckWaitMs ?? SANDBOX_DEFAULTS.deckWaitMs,
    deckAnalysisMs: options.deckAnalysisMs,
    closeTimeoutMs: options.closeTimeoutMs ?? SANDBOX_DEFAULTS.closeTimeoutMs,
    scoringThreads: options.scoringThreads ?? defaultScoringThreads(),
    logger: options.logger ?? SANDBOX_DEFAULTS.logger,
    accounts: options.accounts ?? [],
    keys: options.keys ?? [],
    accountsFile: options.accountsFile,
    faults: options.faults ?? {},
    trustedCa: options.trustedCa ?? [],
    now: options.now ?? (() => new Date()),
    handlers: options.handlers ?? {},
  };
}
