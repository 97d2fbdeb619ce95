/**
 * What a run of a deck triage would send now, for `vir plan`: the job's decks looked at as a
 * run collects them (links fetched, files of the folder and the bucket read and hashed, nothing
 * published, nothing asked of the service), each with what the run would do with it and what it
 * would cost, against the snapshot of the job's last run in the store.
 */
import { readPreviousSnapshot } from '../../activities/run.js';
import type { Store } from '../../activities/store.js';
import { creditsOf } from '../../api/catalog.js';
import { collectDecks } from './collect.js';
import type { DeckTriageJob } from './job.js';
import { asDeckSnapshot, deckFate } from './model.js';

/** What the look needs: the store (the last run's snapshot), S3 keys, CAs trusted for links. */
export interface DeckLookDeps {
  store: Store;
  env: NodeJS.ProcessEnv | Record<string, string | undefined>;
  trustedCa?: readonly string[];
}

/**
 * Lines saying, deck by deck, what a run would do now, then the credits of the decks it would
 * send within the budget.
 *
 * @example
 * await deckLookAhead(job, { store, env: process.env })
 * // ['decks a run would send now (3 credits each):', '  ledgerly-seed-deck.pdf (Ledgerly): new, 3 credits', …]
 */
export async function deckLookAhead(job: DeckTriageJob, deps: DeckLookDeps): Promise<string[]> {
  const collected = await collectDecks(job.decks, {
    env: deps.env,
    store: deps.store,
    runKey: 'plan',
    trustedCa: [...(deps.trustedCa ?? [])],
    lookOnly: true,
  });
  const previous = asDeckSnapshot(await readPreviousSnapshot(deps.store, job.id));
  const price = creditsOf('analyze_deck');
  const affordable = Math.floor(job.budget.credits / price);
  const lines = [`decks a run would send now (${price} credits each):`];
  let sent = 0;
  for (const deck of collected) {
    const name = deck.startupName && deck.startupName !== deck.label ? ` (${deck.startupName})` : '';
    const fate = deckFate(deck, previous);
    let what: string;
    if (fate.fate === 'send') {
      sent += 1;
      what = sent <= affordable ? `new: ${price} credits` : 'new, past the budget: not sent';
    } else if (fate.fate === 'carried') what = `analysed on ${fate.analysedOn}: carried, 0 credits`;
    else if (fate.fate === 'duplicate') what = `the same file as ${fate.of}: sent once`;
    else what = `not sent: ${fate.problem}`;
    lines.push(`  ${deck.label}${name}: ${what}`);
  }
  if (collected.length === 0) lines.push('  (none found)');
  const sending = Math.min(sent, affordable);
  lines.push(
    `${sending} of ${collected.length} deck${collected.length === 1 ? '' : 's'} sent: ${sending * price} credits of the budget of ${job.budget.credits}` +
      (sent > affordable ? `; ${sent - affordable} new past the budget` : ''),
  );
  return lines;
}
