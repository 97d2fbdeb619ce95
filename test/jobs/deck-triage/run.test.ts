/**
 * A deck triage of links end to end, every party real: a local https deck server (its own
 * certificate, trusted by the sandbox and, through VIR_DECK_CA_FILE, by the workers) serves
 * five decks (PDF and PPTX), one long enough that the sandbox's analysis outlasts analyze_deck's
 * wait (it answers `running`, the run asks again on durable timers), a link that answers 404 and
 * a link whose bytes are another deck's. The worker is a separate process (`vir worker`), killed
 * with SIGKILL while the run waits on the slow deck's timer; a new one finishes the run.
 *
 * The witnesses are outside the runner: the sandbox's books (the account's balance, its request
 * log, the data rooms it made and the links they were made from), the deck server's hits, the
 * workflow's history on the Temporal server, and the report's files read back (pdftotext,
 * exceljs).
 */
import type { ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { WorkflowHandle } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { followRun, startJobRun } from '../../../cli/run-job.js';
import { parseDeckTriageJob, type DeckTriageResult } from '../../../jobs/deck-triage/index.js';
import {
  AUSCURA_SLIDES,
  buildDeckPdf,
  buildDeckPptx,
  KELVINFORGE_SLIDES,
  LEDGERLY_SLIDES,
  SHIFTNOOK_SLIDES,
  SNACKR_SLIDES,
} from '../../../jobs/deck-triage/examples/decks.js';
import type { DataRoom } from '../../../sandbox/decks/rooms.js';
import type { RunningSandbox } from '../../../sandbox/index.js';
import { progressQuery } from '../../../workflows/index.js';
import { sharedTestCert, startDeckServer, type DeckServer } from '../../fixtures/decks/tls-server.js';
import { openWorkbook, pdfText, sheetRows } from '../../helpers/reports.js';
import { QUIET } from '../../helpers/runner.js';
import { KEYS, startTestSandbox } from '../../helpers/sandbox.js';
import { killGroup, workerTestBed, type WorkerTestBed } from '../../helpers/worker-process.js';

const E = temporal.api.enums.v1.EventType;
const PPTX = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';
/** How long analyze_deck waits for an analysis: an 8-page deck's (1.6 s) is well within it, the slow one's not. */
const DECK_WAIT_MS = 3_000;
/** The slow deck's pages: 0.4 s + 0.15 s a page = 6.4 s of analysis (sandbox/decks/rooms.ts). */
const SLOW_PAGES = 40;

/** The deck server's paths, in the job's order: the slow deck last, sent once the others answered. */
const PATHS = {
  ledgerly: '/decks/ledgerly-seed-deck.pdf',
  snackr: '/decks/snackr-pitch.pptx',
  missing: '/decks/missing-deck.pdf',
  kelvinforge: '/decks/kelvinforge_investor_presentation.pptx',
  copy: '/mirror/snackr-copy.pptx',
  auscura: '/decks/auscura-health-seed.pdf',
  slow: '/decks/shiftnook-full-deck.pdf',
} as const;
/** The decks analysed: every path but the 404 and the copy. */
const SENT = ['ledgerly', 'snackr', 'kelvinforge', 'auscura', 'slow'] as const;

let sandbox: RunningSandbox;
let decks: DeckServer;
let bed: WorkerTestBed;

beforeAll(async () => {
  const cert = sharedTestCert();
  // The slow deck: Shiftnook's slides and an appendix of customer stories, 40 pages.
  const appendix = Array.from({ length: SLOW_PAGES - SHIFTNOOK_SLIDES.length }, (_, i) => [
    `Appendix: customer story ${i + 1}`,
    `A restaurant group of ${20 + i} sites cut its weekly scheduling time by ${30 + (i % 40)}%.`,
  ]);
  const [ledgerly, snackr, kelvinforge, auscura, slow] = await Promise.all([
    buildDeckPdf(LEDGERLY_SLIDES),
    buildDeckPptx(SNACKR_SLIDES),
    buildDeckPptx(KELVINFORGE_SLIDES),
    buildDeckPdf(AUSCURA_SLIDES),
    buildDeckPdf([...SHIFTNOOK_SLIDES, ...appendix]),
  ]);
  decks = await startDeckServer(
    {
      [PATHS.ledgerly]: { body: ledgerly, type: 'application/pdf' },
      [PATHS.snackr]: { body: snackr, type: PPTX },
      [PATHS.kelvinforge]: { body: kelvinforge, type: PPTX },
      [PATHS.copy]: { body: snackr, type: 'application/octet-stream' },
      [PATHS.auscura]: { body: auscura, type: 'application/pdf' },
      [PATHS.slow]: { body: slow, type: 'application/pdf' },
    },
    cert,
  );
  sandbox = await startTestSandbox({
    rateLimitPerMinute: 10_000,
    trustedCa: [cert.cert],
    deckWaitMs: DECK_WAIT_MS,
  });
  bed = await workerTestBed({
    name: 'deck-run',
    serviceUrl: sandbox.url,
    key: KEYS.vc,
    temporalAddress: inject('temporalAddress'),
    env: { VIR_DECK_CA_FILE: cert.caFile },
  });
});

afterAll(async () => {
  await bed?.close(0);
  await decks?.close();
  await sandbox?.close();
});

const url = (name: keyof typeof PATHS) => `${decks.url}${PATHS[name]}`;

/** The account's balance in the sandbox's own books. */
function balance(): number {
  return sandbox.state.accounts.get(sandbox.state.keys.get(KEYS.vc)!.account_id)!.credits;
}

/** Waits for `check` (every 100 ms), failing with `what` after `timeoutMs`. */
async function until<T>(what: string, check: () => Promise<T | null>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const got = await check();
    if (got !== null) return got;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** An activity of the history: what it called (an API call's operation and params), when it closed. */
interface HistoryActivity {
  type: string;
  operation: string | null;
  name: string | null;
  params: Record<string, unknown>;
  scheduled: number;
  /** The event id of its completion, failure, time-out or cancellation; null while open. */
  closed: number | null;
}

/** What an API call's activity is given (workflows/calls.ts). */
interface CallInput {
  operation?: string;
  name?: string;
  params?: Record<string, unknown>;
}

/** A durable timer of the history: when it started and fired (event ids and times). */
interface HistoryTimer {
  started: number;
  startedAt: number;
  fired: number | null;
  firedAt: number | null;
}

const msOf = (ts: temporal.api.history.v1.IHistoryEvent['eventTime']) =>
  Number(String(ts?.seconds ?? 0)) * 1000 + Math.floor((ts?.nanos ?? 0) / 1e6);

/** The activities and timers of a run's history, by event id. */
function historyOf(history: temporal.api.history.v1.IHistory) {
  const activities = new Map<number, HistoryActivity>();
  const timers = new Map<string, HistoryTimer>();
  for (const e of history.events ?? []) {
    const id = Number(String(e.eventId));
    const closedBy =
      e.activityTaskCompletedEventAttributes ??
      e.activityTaskFailedEventAttributes ??
      e.activityTaskTimedOutEventAttributes ??
      e.activityTaskCanceledEventAttributes;
    if (e.eventType === E.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED) {
      const a = e.activityTaskScheduledEventAttributes!;
      const payload = a.input?.payloads?.[0];
      const input: CallInput = payload ? defaultPayloadConverter.fromPayload<CallInput>(payload) : {};
      activities.set(id, {
        type: a.activityType?.name ?? '',
        operation: input.operation ?? null,
        name: input.name ?? null,
        params: input.params ?? {},
        scheduled: id,
        closed: null,
      });
    } else if (closedBy) {
      activities.get(Number(String(closedBy.scheduledEventId)))!.closed = id;
    } else if (e.eventType === E.EVENT_TYPE_TIMER_STARTED) {
      timers.set(e.timerStartedEventAttributes!.timerId!, {
        started: id,
        startedAt: msOf(e.eventTime),
        fired: null,
        firedAt: null,
      });
    } else if (e.eventType === E.EVENT_TYPE_TIMER_FIRED) {
      const t = timers.get(e.timerFiredEventAttributes!.timerId!)!;
      t.fired = id;
      t.firedAt = msOf(e.eventTime);
    }
  }
  const calls = (operation: string) => [...activities.values()].filter((a) => a.operation === operation);
  /** The activities open at event `id` (scheduled before it, not closed by then). */
  const openAt = (id: number) =>
    [...activities.values()].filter((a) => a.scheduled < id && (a.closed === null || a.closed > id));
  return { activities: [...activities.values()], timers: [...timers.values()], calls, openAt };
}

/**
 * Waits until the run waits on a timer started after all five analyze_deck answered (read from
 * the history on the server); gives the timer and the run's progress then.
 */
async function pollingTimerStarted(handle: WorkflowHandle) {
  return until(
    'the slow deck polled on a durable timer',
    async () => {
      const h = historyOf(await handle.fetchHistory());
      const asked = h.calls('analyze_deck');
      if (asked.length < SENT.length || asked.some((a) => a.closed === null)) return null;
      const last = Math.max(...asked.map((a) => a.closed!));
      const timer = h.timers.find((t) => t.started > last && t.fired === null);
      if (!timer) return null;
      return { timer, progress: await handle.query(progressQuery) };
    },
    60_000,
  );
}

/** A page of the PDF's text without any white space (wrapped cells and links joined). */
const squeezedPage = (pdf: string, page: number) =>
  execFileSync('pdftotext', ['-f', String(page), '-l', String(page), '-raw', pdf, '-'], {
    encoding: 'utf8',
  }).replace(/\s+/g, '');
const squeeze = (s: string) => s.replace(/\s+/g, '');

test('five decks of links: a slow one polled on durable timers across a SIGKILL of the worker, paid once each, the 404 and the copy named', async () => {
  const job = parseDeckTriageJob({
    id: 'deck-run-e2e',
    kind: 'deck-triage',
    title: 'Deck triage end to end',
    decks: { urls: Object.keys(PATHS).map((k) => url(k as keyof typeof PATHS)) },
    pollDeadline: '5m',
    budget: { credits: 30 },
  });
  let worker: ChildProcess = await bed.startWorker();
  const before = balance();
  const handle = await startJobRun(bed.client, bed.settings, job);

  // The run waits on the slow deck's timer: the worker dies (SIGKILL), another takes over.
  const waiting = await pollingTimerStarted(handle);
  killGroup(worker, 'SIGKILL');
  await new Promise((r) =>
    worker.exitCode !== null || worker.signalCode !== null ? r(null) : worker.once('exit', r),
  );
  const killedAt = Date.now();
  worker = await bed.startWorker();

  const result = await followRun<DeckTriageResult>(handle, QUIET);
  expect(result.partial, result.reasons.join('; ')).toBe(false);

  // The account paid what the manifest says: 3 credits for each of the five decks analysed.
  const paid = before - balance();
  const manifest = JSON.parse(readFileSync(result.manifestPath, 'utf8')) as { credits: { charged: number } };
  expect(manifest.credits.charged).toBe(paid);
  expect(paid).toBe(3 * SENT.length);

  // The service's books: one analyze_deck and one data room per distinct deck, from its own link;
  // nothing for the 404 link or the copy.
  const log = sandbox.requestLog();
  expect(log.filter((r) => r.operation === 'analyze_deck').map((r) => r.status)).toEqual(SENT.map(() => 200));
  const rooms = [...sandbox.state.rooms.values()] as DataRoom[];
  expect(rooms.map((r) => r.deck_url).sort()).toEqual(SENT.map((k) => url(k)).sort());
  // Each deck fetched once by the runner, and once by the service for its analysis.
  for (const k of SENT) expect(decks.hits.get(PATHS[k]), k).toBe(2);
  expect(decks.hits.get(PATHS.missing)).toBe(1);
  expect(decks.hits.get(PATHS.copy)).toBe(1);

  // The history: the slow deck asked again after durable timers, no activity open while one
  // waits; the kill came while the first of them waited, the run's progress saying so.
  const h = historyOf(await handle.fetchHistory());
  expect(h.timers.length).toBeGreaterThanOrEqual(1);
  for (const t of h.timers) {
    expect(t.fired, 'every timer fired').not.toBeNull();
    expect(h.openAt(t.started + 1), `activities open while timer ${t.started} waited`).toEqual([]);
    expect(h.activities.filter((a) => a.scheduled > t.started && a.scheduled < t.fired!)).toEqual([]);
  }
  const first = h.timers.find((t) => t.started === waiting.timer.started)!;
  expect(first.firedAt!).toBeGreaterThan(killedAt);
  expect(waiting.progress.phase).toBe('analysing: 4 analysed, 1 running, 0 not analysed');
  expect(h.calls('analyze_deck')).toHaveLength(SENT.length);
  // Every get_deck_analysis asked about the slow deck's room (the room the service made from its link).
  const polls = h.calls('get_deck_analysis');
  expect(polls.length).toBeGreaterThanOrEqual(1);
  expect(log.filter((r) => r.operation === 'get_deck_analysis').length).toBe(polls.length);
  const polled = new Set(
    polls.map((p) => (sandbox.state.rooms.get(String(p.params.room_id)) as DataRoom).deck_url),
  );
  expect([...polled]).toEqual([url('slow')]);
  expect(result.counts).toEqual({ analysed: 5, carried: 0, failed: 1, timedOut: 0, duplicates: 1 });

  // The workbook's Ranking: every deck, the 404 with its reason and no credits, the copy named.
  const wb = await openWorkbook(result.files.xlsx!);
  const ranking = sheetRows(wb, 'Ranking');
  expect(ranking.map((r) => r['File or link']).sort()).toEqual(
    Object.keys(PATHS)
      .map((k) => url(k as keyof typeof PATHS))
      .sort(),
  );
  const rowOf = (k: keyof typeof PATHS) => ranking.find((r) => r['File or link'] === url(k))!;
  expect(rowOf('missing')).toMatchObject({
    Outcome: 'Failed',
    'Why no analysis': 'The link answered 404 Not Found.',
    Credits: '0',
    Rank: '',
  });
  expect(rowOf('copy')).toMatchObject({
    Outcome: 'Duplicate',
    'Why no analysis': `The same file as ${url('snackr')}: sent once, under that deck.`,
    Credits: '0',
  });
  for (const k of SENT) {
    expect(rowOf(k)['Outcome'], k).toMatch(/^Analysed /);
    expect(rowOf(k)['Credits'], k).toBe('3');
    expect(Number(rowOf(k)['Rank']), k).toBeGreaterThanOrEqual(1);
  }

  // The PDF's first page ranks the five and names the 404 with its reason and the copy.
  const page1 = squeezedPage(result.files.pdf!, 1);
  for (const k of SENT) expect(page1, k).toContain(squeeze(rowOf(k)['Startup']!));
  for (const text of [
    url('missing'),
    'The link answered 404 Not Found.',
    url('copy'),
    `The same file as ${url('snackr')}: sent once, under that deck.`,
    'Decks ranked by deal score (5)',
    'Decks without an analysis (2)',
  ])
    expect(page1).toContain(squeeze(text));
  // A deck nobody named is printed by its link once, not as its name and again as its link.
  expect(page1.split(squeeze(url('missing'))).length - 1).toBe(1);
  expect(pdfText(result.files.pdf!)).not.toMatch(/X-Amz-|token=/);
}, 150_000);
