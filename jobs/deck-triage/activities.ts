/**
 * The deck triage's own activities on the jobs task queue: the run's decks collected (links
 * fetched once, files published as links that expire, each deck known by its bytes' SHA-256,
 * the earlier runs' analyses found by it), the ranking built from the stored answers, and the
 * report's files.
 */
import { creditsOf } from '../../api/catalog.js';
import { join } from 'node:path';
import { readPreviousSnapshot, runOpening } from '../../activities/run.js';
import { renderInto } from '../../activities/render-files.js';
import { SourceBook } from '../../activities/sources.js';
import { runOfRef } from '../../reports/sources.js';
import type { RenderOutput, StoreRef } from '../../shared/types.js';
import type { KindActivityDeps } from '../kind.js';
import { collectDecks } from './collect.js';
import type { S3Destination } from '../../config/destinations.js';
import { durationMs } from './durations.js';
import type { DeckTriageJob } from './job.js';
import {
  analysedDeck,
  asDeckSnapshot,
  deckFate,
  nextSnapshot,
  rankDecks,
  readAnalysis,
  unanalysedDeck,
  type ReadAnalysis,
} from './model.js';
import {
  deckOpening,
  renderDeckCharts,
  writeDeckTriagePdf,
  writeDeckTriageWorkbook,
} from './report/index.js';
import type { CollectedDeck, DeckTriageReport, TriagedDeck } from './types.js';

/** A deck the run sends: its id in the run, how a reader knows it, where its link is kept. */
export interface DeckToSend {
  id: string;
  label: string;
  startupName: string | null;
  /** The store document holding the link by id (a pre-signed link stays out of the history). */
  linksRef: StoreRef;
}

/** What the workflow asked of the service for one deck, and the answers it stored. */
export interface DeckAsked {
  id: string;
  /** analyze_deck's answer, then each get_deck_analysis answer, in order. */
  refs: StoreRef[];
  /** Why analyze_deck was not asked (the budget, the balance), or null. */
  refused: string | null;
  /** The analysis' last state as the service said it. */
  status: string | null;
  /** Still running at the job's deadline. */
  timedOut: boolean;
  /**
   * Credits the service charged for the deck's analyze_deck by the run's books, an answer lost
   * after the charge included (absent in runs recorded before it was kept: then the answers'
   * own charges count).
   */
  charged?: number;
}

export interface CollectRunDecksInput {
  runKey: string;
  job: Pick<DeckTriageJob, 'id' | 'decks' | 'pollDeadline'>;
  /** The job's S3 destination (no secret: keys come from the worker's environment), where files are published when the store is not in S3. */
  publish: S3Destination | null;
}

export interface BuildDeckTriageInput {
  runKey: string;
  job: Pick<DeckTriageJob, 'id' | 'title'>;
  date: string;
  collectedRef: StoreRef;
  asked: DeckAsked[];
  /** The run's partial reasons: a failed call's reason names its deck (`deck <label>: …`). */
  reasons: string[];
  credits: { spent: number; budget: number };
}

export interface RenderDeckTriageInput {
  reportRef: StoreRef;
  job: Pick<DeckTriageJob, 'id' | 'destination' | 'outputs'>;
  date: string;
  workflowId: string;
}

/** What the run collected, as kept in the store (the links apart). */
interface CollectedDoc {
  decks: (Omit<CollectedDeck, 'deckUrl'> & { id: string })[];
}

/**
 * Creates the deck triage's activities.
 *
 * @example
 * const acts = createDeckTriageActivities({ store: new LocalStore('.data/store'), reportsDir: '.data/reports' });
 */
export function createDeckTriageActivities(deps: KindActivityDeps & { env?: NodeJS.ProcessEnv }) {
  const { store } = deps;
  const env = () => deps.env ?? process.env;
  return {
    /**
     * Collects the run's decks and keeps them in the store (`decks/collected`; the links apart,
     * in `decks/links`, read only by the API activity): the ones to send are the decks with
     * bytes, a link, not a duplicate of the run and not analysed by an earlier run.
     */
    async collectRunDecks(
      input: CollectRunDecksInput,
    ): Promise<{ collectedRef: StoreRef; toSend: DeckToSend[] }> {
      const previous = asDeckSnapshot(await readPreviousSnapshot(store, input.job.id));
      const collected = await collectDecks(input.job.decks, {
        env: env(),
        store,
        runKey: input.runKey,
        trustedCa: [...(deps.trustedCa ?? [])],
        publish: input.publish,
        // A file analysed by an earlier run is carried, never sent: it is not published again.
        analysedBefore: (sha) => previous?.decks[sha] !== undefined,
        // The links of copies outlive the polling deadline by a day (the service may fetch late).
        linkTtlSeconds: Math.min(
          7 * 24 * 3600,
          Math.ceil(durationMs(input.job.pollDeadline) / 1000) + 24 * 3600,
        ),
      });
      const withIds = collected.map((d, i) => ({ ...d, id: `deck-${String(i + 1).padStart(3, '0')}` }));
      const links = Object.fromEntries(withIds.flatMap((d) => (d.deckUrl ? [[d.id, d.deckUrl]] : [])));
      const linksRef = await store.putJson(input.runKey, 'decks/links', links);
      const doc: CollectedDoc = { decks: withIds.map(({ deckUrl: _link, ...d }) => d) };
      const collectedRef = await store.putJson(input.runKey, 'decks/collected', doc);
      const toSend = withIds.filter((d) => d.deckUrl && deckFate(d, previous).fate === 'send');
      return {
        collectedRef,
        toSend: toSend.map((d) => ({ id: d.id, label: d.label, startupName: d.startupName, linksRef })),
      };
    },

    /** The ranking of every deck of the run (the earlier runs' carried) and the next snapshot. */
    async buildDeckTriage(input: BuildDeckTriageInput) {
      const { decks } = await store.getJson<CollectedDoc>(input.collectedRef);
      const previous = asDeckSnapshot(await readPreviousSnapshot(store, input.job.id));
      const asked = new Map(input.asked.map((a) => [a.id, a]));
      const book = new SourceBook(store);
      const triaged: TriagedDeck[] = [];
      const analysed: { sha256: string; label: string; ref: string }[] = [];
      const overBudget: string[] = [];
      for (const deck of decks) {
        const full = { ...deck, deckUrl: null };
        const fate = deckFate(deck, previous);
        if (fate.fate === 'duplicate') {
          triaged.push(unanalysedDeck(full, 'duplicate', `the same file as ${fate.of}: sent once`));
          continue;
        }
        if (fate.fate === 'failed') {
          triaged.push(unanalysedDeck(full, 'failed', fate.problem));
          continue;
        }
        const earlier = fate.fate === 'carried' ? fate : null;
        const ask = asked.get(deck.id);
        if (earlier && !ask) {
          const { call, source } = await book.read(earlier.ref);
          triaged.push(
            analysedDeck(full, readAnalysis(call.result), {
              outcome: 'carried',
              analysedOn: earlier.analysedOn,
              credits: 0,
              sources: [source],
            }),
          );
          continue;
        }
        if (!ask || ask.refs.length === 0) {
          const why = ask?.refused
            ? `not sent: ${ask.refused}`
            : (input.reasons.find((r) => r.includes(`deck ${deck.label}`)) ??
              'analyze_deck failed (see the manifest)');
          if (ask?.refused) overBudget.push(deck.label);
          triaged.push(unanalysedDeck(full, 'failed', why, { credits: ask?.charged ?? 0 }));
          continue;
        }
        const reads: ReadAnalysis[] = [];
        const sources: string[] = [];
        let credits = 0;
        for (const ref of ask.refs) {
          const { call, source } = await book.read(ref);
          reads.push(readAnalysis(call.result));
          sources.push(source);
          credits +=
            call.operation === 'analyze_deck'
              ? (call.result.credits?.charged ?? creditsOf('analyze_deck'))
              : 0;
        }
        // What the books say the deck cost (a lost answer paid too), else what its answers say.
        credits = ask.charged ?? credits;
        const last = reads.at(-1)!;
        const roomId = reads.find((r) => r.roomId)?.roomId ?? null;
        if (ask.timedOut) {
          triaged.push(
            unanalysedDeck(
              full,
              'timed-out',
              `still running when the job's deadline passed (data room ${roomId ?? 'not named'})`,
              {
                credits,
                sources,
                roomId,
              },
            ),
          );
        } else if (last.status === 'failed' || last.score === null) {
          const why =
            last.error ?? (last.status === 'failed' ? 'the analysis failed' : 'the answer held no analysis');
          triaged.push(unanalysedDeck(full, 'failed', `the service: ${why}`, { credits, sources, roomId }));
        } else {
          triaged.push(
            analysedDeck(
              full,
              { ...last, roomId },
              { outcome: 'analysed', analysedOn: input.date, credits, sources },
            ),
          );
          analysed.push({ sha256: deck.sha256!, label: deck.label, ref: ask.refs.at(-1)! });
        }
      }
      const ranked = rankDecks(triaged);
      const count = (o: TriagedDeck['outcome']) => ranked.filter((d) => d.outcome === o).length;
      const counts = {
        analysed: count('analysed'),
        carried: count('carried'),
        failed: count('failed'),
        timedOut: count('timed-out'),
        duplicates: count('duplicate'),
      };
      const report: DeckTriageReport = {
        job: input.job,
        date: input.date,
        decks: ranked,
        counts,
        credits: input.credits,
        overBudget,
        sources: book.rows(),
      };
      return {
        reportRef: await store.putJson(input.runKey, 'decks/report', report),
        snapshotRef: await store.putJson(
          input.runKey,
          'decks/snapshot',
          nextSnapshot(previous, analysed, input.date),
        ),
        counts,
      };
    },

    /** Writes the triage PDF and workbook; returns the key figures and headline the PDF opens with. */
    async renderDeckTriage(input: RenderDeckTriageInput): Promise<RenderOutput> {
      const report = await store.getJson<DeckTriageReport>(input.reportRef);
      const runKey = runOfRef(input.reportRef);
      const named = runKey ? { runKey } : {};
      return renderInto(deps, input, async ({ outDir, fileBase }) => {
        const files: Record<string, string> = {};
        let pages: number | null = null;
        let urlsLeftOut = 0;
        const links = deps.serviceLinks ?? undefined;
        const charts = await renderDeckCharts(report);
        if (input.job.outputs.includes('xlsx')) {
          files.xlsx = join(outDir, `${fileBase}.xlsx`);
          urlsLeftOut = (
            await writeDeckTriageWorkbook(report, files.xlsx, {
              ...named,
              charts,
              ...(links ? { links } : {}),
            })
          ).urlsLeftOut;
        }
        if (input.job.outputs.includes('pdf')) {
          files.pdf = join(outDir, `${fileBase}.pdf`);
          pages = (
            await writeDeckTriagePdf(report, files.pdf, { ...named, charts, ...(links ? { links } : {}) })
          ).pages;
        }
        const opening = deckOpening(report);
        return {
          files,
          charts: report.decks.filter((d) => d.dimensions.length > 0).length,
          pages,
          urlsLeftOut,
          ...runOpening(opening.figures, opening.headline),
        };
      });
    },
  };
}

export type DeckTriageActivities = ReturnType<typeof createDeckTriageActivities>;
