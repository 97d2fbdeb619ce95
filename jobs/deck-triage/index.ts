/**
 * The deck triage as a job kind: a fund's batch of pitch decks (links, an inbox folder, a
 * bucket) through analyze_deck, polled durably with get_deck_analysis while the analysis runs,
 * each deck paid once across runs (known by its bytes), ranked in one PDF and a workbook.
 */
import { fileURLToPath } from 'node:url';
import { defineJobKind } from '../kind.js';
import { createDeckTriageActivities } from './activities.js';
import { DECK_TRIAGE_KIND, DeckTriageJobSchema, normaliseDeckTriageJob, type DeckTriageJob } from './job.js';
import { deckLookAhead } from './look-ahead.js';
import { knownDecks, planDeckTriage } from './plan.js';
import { deckTriageWorkflow, type DeckTriageResult } from './workflow.js';

export const deckTriageKind = defineJobKind<DeckTriageJob>({
  kind: DECK_TRIAGE_KIND,
  description: "scheduled deck triage: a fund's new pitch decks analysed and ranked by deal score",
  schema: DeckTriageJobSchema,
  normalise: normaliseDeckTriageJob,
  workflow: deckTriageWorkflow,
  workflowsPath: fileURLToPath(new URL('./workflow.ts', import.meta.url)),
  idPrefix: 'deck-triage',
  estimate: (job) => planDeckTriage(job),
  lookAhead: (job, deps) => deckLookAhead(job, deps),
  scope: (job) => {
    const parts = [
      knownDecks(job) > 0 ? `${knownDecks(job)} deck link${knownDecks(job) === 1 ? '' : 's'}` : null,
      job.decks.folder ? `the folder ${job.decks.folder}` : null,
      job.decks.s3 ? `s3://${job.decks.s3.bucket}/${job.decks.s3.prefix}` : null,
    ];
    return parts.filter(Boolean).join(', ');
  },
  activities: createDeckTriageActivities,
  resultLines: (result) => {
    const c = (result as DeckTriageResult).counts;
    return [
      `  ${c.analysed} analysed, ${c.carried} carried from earlier runs, ${c.failed} not analysed, ${c.timedOut} still running at the deadline, ${c.duplicates} duplicates`,
    ];
  },
  sandboxKey: 'vis_live_sandbox_vc',
  // `npm run demo:decks`: its decks made and served over https on this machine (demo.ts).
  demo: async (ctx) => (await import('./demo.js')).startDeckDemo(ctx),
  examples: ['jobs/deck-triage/examples/demo.yaml', 'jobs/deck-triage/examples/weekly-decks.yaml'],
});

export { parseDeckTriageJob, DeckTriageJobSchema, DECK_TRIAGE_KIND } from './job.js';
export type { DeckTriageJob } from './job.js';
export { planDeckTriage } from './plan.js';
export { deckTriageWorkflow } from './workflow.js';
export type { DeckTriageInput, DeckTriageResult } from './workflow.js';
export { createDeckTriageActivities } from './activities.js';
export type { DeckTriageActivities } from './activities.js';
