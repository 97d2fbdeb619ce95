/**
 * The deck triage: a fund's batch of pitch decks through analyze_deck (3 credits each, within
 * the budget), ranked in one report. The decks are collected first (links fetched once, files of
 * a folder or a bucket published as links that expire), each known by the SHA-256 of its bytes:
 * a deck an earlier run analysed is carried, not sent again; a duplicate of the run is sent once.
 * An analysis still running when analyze_deck answers is asked again with get_deck_analysis on
 * durable timers whose wait grows (plan.ts), up to the job's deadline: no worker slot is held
 * while it waits. The engine (workflows/engine.ts) keeps the books: paid calls reserved,
 * reconciled after an unknown outcome, never paid twice.
 *
 * Runs in flight replay through this code: the order of its commands is frozen (see the
 * README's "Changing a workflow safely"); a change of its commands goes behind `patched()`.
 */
import { proxyActivities, sleep } from '@temporalio/workflow';
import { JOB_ACTIVITY_OPTIONS } from '../../workflows/calls.js';
import {
  jobRunOptions,
  startRun,
  type JobRunInput,
  type JobRunResult,
  type Run,
} from '../../workflows/engine.js';
import { storedParam } from '../../shared/stored-params.js';
import type { DeckTriageActivities, DeckToSend, DeckAsked } from './activities.js';
import { durationMs } from './durations.js';
import type { DeckTriageJob } from './job.js';
import { planDeckTriage, pollWaitMs } from './plan.js';

export type DeckTriageInput = JobRunInput<DeckTriageJob>;
export type DeckTriageResult = JobRunResult & {
  counts: { analysed: number; carried: number; failed: number; timedOut: number; duplicates: number };
};

const decks = proxyActivities<DeckTriageActivities>(JOB_ACTIVITY_OPTIONS);

export async function deckTriageWorkflow(input: DeckTriageInput): Promise<DeckTriageResult> {
  const { job } = input;
  const run = startRun(jobRunOptions(input, planDeckTriage(job).maxCalls));
  return run.guard(() => triage(input, run));
}

/** The states of the run's analyses, for its phase (what progress shows). */
class Tally {
  analysed = 0;
  running = 0;
  failed = 0;
  constructor(private readonly run: Run) {}
  show(): void {
    this.run.phase(
      `analysing: ${this.analysed} analysed, ${this.running} running, ${this.failed} not analysed`,
    );
  }
}

/** The run of a deck triage, its books kept by `run`. */
async function triage(input: DeckTriageInput, run: Run): Promise<DeckTriageResult> {
  const { job } = input;

  // 1. The account: plan and balance bound what the run may spend.
  await run.checkAccount();

  // 2. The decks: collected, known by their bytes, the earlier runs' analyses carried.
  run.phase('collecting');
  const collected = await decks.collectRunDecks({
    runKey: run.runKey,
    job: { id: job.id, decks: job.decks, pollDeadline: job.pollDeadline },
    publish: job.delivery?.flatMap((d) => (d.kind === 's3' ? [d.s3] : []))[0] ?? null,
  });
  run.planCalls(planDeckTriage(job, collected.toSend.length).maxCalls);

  // 3. Each new deck analysed (paid, one at a time by the engine), and polled while it runs.
  const tally = new Tally(run);
  tally.show();
  const deadline = Date.now() + durationMs(job.pollDeadline);
  const asked = await Promise.all(collected.toSend.map((d) => analyse(run, d, deadline, tally)));
  const notAsked = asked.filter((a) => a.refused !== null);
  if (notAsked.length > 0)
    run.partial(`${notAsked.length} of ${asked.length} new decks not sent: ${notAsked[0]!.refused}`);
  const late = asked.filter((a) => a.timedOut).length;
  if (late > 0)
    run.partial(
      `${late} deck${late === 1 ? '' : 's'} still being analysed at the ${job.pollDeadline} deadline (see the report)`,
    );

  // 4. The ranking with the carried analyses, the report and its files.
  run.phase('building');
  const built = await decks.buildDeckTriage({
    runKey: run.runKey,
    job: { id: job.id, title: job.title },
    date: run.date,
    collectedRef: collected.collectedRef,
    asked,
    reasons: run.stats().reasons,
    credits: { spent: run.stats().creditsSpent, budget: job.budget.credits },
  });
  const quiet = built.counts.analysed + built.counts.failed + built.counts.timedOut === 0;
  const result = await run.renderAndFinish({
    job,
    snapshotRef: built.snapshotRef,
    ...(quiet && !job.deliverWhenQuiet
      ? { skipDelivery: 'no new deck since the last run (deliverWhenQuiet: false)' }
      : {}),
    render: () =>
      decks.renderDeckTriage({
        reportRef: built.reportRef,
        job: { id: job.id, destination: job.destination, outputs: job.outputs },
        date: run.date,
        workflowId: run.workflowId,
      }),
  });
  return { ...result, counts: built.counts };
}

/**
 * One deck: analyze_deck (paid; the link read from the store by the activity, so a pre-signed
 * link never enters the history), then get_deck_analysis after a growing wait while the
 * analysis runs, until it is done or failed or the deadline passes. Returns what was asked and
 * the stored answers, for the model.
 */
async function analyse(run: Run, deck: DeckToSend, deadline: number, tally: Tally): Promise<DeckAsked> {
  const params = {
    deck_url: storedParam(deck.linksRef, deck.id),
    ...(deck.startupName ? { startup_name: deck.startupName } : {}),
  };
  const name = `decks/${deck.id}`;
  const ask = run.paidCall('analyze_deck', params, name, `deck ${deck.label}`);
  const first = await ask.result;
  // What the deck cost by the run's books: an answer lost after the charge is paid too.
  const charged = run.paidCredits(name);
  if (first === null) {
    tally.failed++;
    tally.show();
    return { id: deck.id, refs: [], refused: ask.refused, status: null, timedOut: false, charged };
  }
  const refs = [first.ref];
  let status = first.room?.status ?? null;
  const roomId = first.room?.id ?? null;
  let retryAfter = first.room?.retryAfterSeconds ?? null;
  if (running(status) && roomId !== null) {
    tally.running++;
    tally.show();
    for (let n = 0; running(status); n++) {
      const wait = pollWaitMs(n, retryAfter);
      if (Date.now() + wait > deadline) break;
      await sleep(wait);
      const polled = await run.tryCall(
        'get_deck_analysis',
        { room_id: roomId },
        `decks/${deck.id}-poll-${String(n + 1).padStart(3, '0')}`,
        `deck ${deck.label} (asked again)`,
      );
      if (polled === null) continue;
      refs.push(polled.ref);
      status = polled.room?.status ?? status;
      retryAfter = polled.room?.retryAfterSeconds ?? null;
    }
    tally.running--;
  }
  if (status === 'failed') tally.failed++;
  else if (!running(status)) tally.analysed++;
  tally.show();
  return { id: deck.id, refs, refused: null, status, timedOut: running(status), charged };
}

/** Whether the service says the analysis is still going. */
function running(status: string | null): boolean {
  return status === 'running' || status === 'pending' || status === 'processing' || status === 'queued';
}
