/**
 * The deck triage's shapes: the decks a run collected (from links, a folder or a bucket), and
 * the model its report is written from (every deck of the run ranked by deal score, with the
 * analyses of earlier runs carried in, and the decks that could not be analysed, with why).
 */
import type { SourceRow, StoreRef } from '../../shared/types.js';

/** Where a deck came from. */
export type DeckOrigin = 'url' | 'folder' | 's3';

/**
 * A deck as the run collected it: known by the SHA-256 of its bytes (a link's bytes fetched
 * once), with the https link the service is given (the link itself, or a pre-signed link to a
 * copy of a file that expires after the run) and the startup's name when the job's sidecar or
 * the file's name gives one.
 */
export interface CollectedDeck {
  /** SHA-256 of the deck's bytes (hex); null when the bytes could not be read (see `problem`). */
  sha256: string | null;
  origin: DeckOrigin;
  /** What a reader knows it by: the file's name, or the link (without its query). */
  label: string;
  /** The https link given to analyze_deck; null when the deck cannot be sent (`problem`). */
  deckUrl: string | null;
  startupName: string | null;
  kind: 'pdf' | 'pptx' | null;
  bytes: number | null;
  /** Why the deck is not sent (a link that answered 404, a viewer page, a file that is no deck). */
  problem: string | null;
  /** The label of the deck with the same bytes listed before it (sent once, under that one). */
  duplicateOf: string | null;
}

/** A scored dimension of an analysis (team, market, traction, …), 0 to 100. */
export interface DeckDimension {
  label: string;
  score: number;
  /** The service's note on it, when it gives one. */
  note: string | null;
}

/**
 * What became of a deck in this run:
 * - `analysed`: analysed this run (3 credits);
 * - `carried`: analysed by an earlier run of the job (same bytes): that analysis, not paid again;
 * - `failed`: the service could not analyse it (a 422: it could not fetch or read the file), or
 *   the run could not send it; `problem` says why; never retried blindly;
 * - `timed-out`: still running at the job's polling deadline; `problem` says since when;
 * - `duplicate`: the same bytes as another deck of the run (`duplicateOf`), sent once under it.
 */
export type DeckOutcome = 'analysed' | 'carried' | 'failed' | 'timed-out' | 'duplicate';

/** One deck in the triage report. */
export interface TriagedDeck {
  sha256: string | null;
  origin: DeckOrigin;
  label: string;
  outcome: DeckOutcome;
  /** The startup's name: the analysis', else the sidecar's, else the file's. */
  name: string;
  /** When the analysis was made (ISO date): this run's date, or the earlier run's for `carried`. */
  analysedOn: string | null;
  /** Deal score 0 to 100 (null without an analysis). */
  score: number | null;
  /** The service's verdict as it gave it (e.g. "strong", "consider", "pass"). */
  verdict: string | null;
  /** The one-line reason of the verdict. */
  reason: string | null;
  dimensions: DeckDimension[];
  strengths: string[];
  risks: string[];
  redFlags: string[];
  questions: string[];
  /** Facts read from the deck, as label and value in words ("Raising": "$4.0M seed"). */
  facts: { label: string; value: string }[];
  /** The data room in the VC dashboard, when the service gives a public link. */
  roomUrl: string | null;
  roomId: string | null;
  /** Why there is no analysis (`failed`, `timed-out`), or null. */
  problem: string | null;
  duplicateOf: string | null;
  /** Credits this run paid for the deck (3 per analysed deck; 0 for carried ones). */
  credits: number;
  /** The stored answers the deck's figures were read from (ids of the Sources sheet). */
  sources: string[];
}

/** The triage report's model, kept in the store and rendered by the report writers. */
export interface DeckTriageReport {
  job: { id: string; title: string };
  /** The run's date (YYYY-MM-DD, UTC). */
  date: string;
  /** Every deck: analysed and carried ones by score (highest first), then failed, timed out, duplicates. */
  decks: TriagedDeck[];
  counts: { analysed: number; carried: number; failed: number; timedOut: number; duplicates: number };
  credits: { spent: number; budget: number };
  /** Decks the budget left unsent (named in the report), by label. */
  overBudget: string[];
  /** The stored answers the report was made from (absent in models stored before they were kept). */
  sources?: SourceRow[];
}

/** What the next run compares with: every deck analysed so far, by the SHA-256 of its bytes. */
export interface DeckSnapshot {
  decks: Record<string, { label: string; analysedOn: string; ref: StoreRef }>;
}
