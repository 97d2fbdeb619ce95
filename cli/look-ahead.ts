/**
 * `vir plan`'s look ahead: what a run of the job would find now, as its kind tells it
 * (`lookAhead` in jobs/kind.ts: the decks a deck triage would send, and their credits), read
 * with the worker's settings (the store, the CAs it trusts). Nothing is spent and nothing asked
 * of the service. A kind without it adds nothing.
 */
import { deckTrustedCa, type Settings } from '../config/settings.js';
import type { AnyJob } from '../jobs/registry.js';
import { storeOf } from '../runtime/workers.js';
import { kindOf } from './run-job.js';

/** The kind's lines about what a run would find now (none when the kind does not look); `env`: S3 keys. */
export async function lookAheadLines(
  job: AnyJob,
  settings: Settings,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string[]> {
  const kind = kindOf(job);
  if (!kind.lookAhead) return [];
  return kind.lookAhead(job, {
    store: storeOf(settings, env),
    env,
    trustedCa: deckTrustedCa(settings),
  });
}
