/**
 * The triage's model from what the run collected and what the service answered: an analysis
 * read from a data room tolerantly (the spec does not show where each field is), each deck's
 * outcome with the reason when it has no analysis, the ranking, and the snapshot the next run
 * compares with. Pure: the activity reads the store and passes the answers in.
 */
import { DECK_FIELDS } from '../../api/read-answers.js';
import { asObject, readField, toNum, toStr, type Obj } from '../../api/read.js';
import type { CollectedDeck, DeckDimension, DeckSnapshot, TriagedDeck } from './types.js';

/** The part of a triaged deck its analysis gives. */
type AnalysisPart = Pick<
  TriagedDeck,
  | 'score'
  | 'verdict'
  | 'reason'
  | 'dimensions'
  | 'strengths'
  | 'risks'
  | 'redFlags'
  | 'questions'
  | 'facts'
  | 'roomUrl'
  | 'roomId'
>;

/** What a data room's analysis holds, as the report reads it. */
export interface ReadAnalysis extends AnalysisPart {
  startupName: string | null;
  status: string | null;
  error: string | null;
}

/** A deck without an analysis. */
const NO_ANALYSIS: AnalysisPart = {
  score: null,
  verdict: null,
  reason: null,
  dimensions: [],
  strengths: [],
  risks: [],
  redFlags: [],
  questions: [],
  facts: [],
  roomUrl: null,
  roomId: null,
};

const first = (o: Obj, names: readonly string[]): unknown => {
  for (const n of names) if (o[n] !== undefined && o[n] !== null) return o[n];
  return undefined;
};

/** Text items of a list that may hold strings or objects with a text field (others left out). */
function texts(v: unknown): string[] {
  if (!Array.isArray(v)) return [];
  return v.flatMap((x) => {
    if (typeof x === 'string') return x.trim() === '' ? [] : [x];
    const o = asObject(x);
    const t = o ? toStr(first(o, ['text', 'question', 'flag', 'title', 'label', 'description'])) : null;
    return t ? [t] : [];
  });
}

/** Money in words for a fact: $4.0M, $1.2B, $850K. */
function money(n: number): string {
  if (n >= 1e9) return `$${(n / 1e9).toFixed(1)}B`;
  if (n >= 1e6) return `$${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e3) return `$${Math.round(n / 1e3)}K`;
  return `$${Math.round(n)}`;
}

/** The facts a deck states, in words; the ones it does not state left out. */
const FACT_LABELS: [string, string, 'money' | 'pct' | 'count' | 'text'][] = [
  ['raise_usd', 'Raising', 'money'],
  ['stage', 'Stage', 'text'],
  ['arr_usd', 'ARR', 'money'],
  ['growth_yoy_pct', 'Growth, year on year', 'pct'],
  ['customers', 'Customers', 'count'],
  ['tam_usd', 'Market (TAM)', 'money'],
  ['gross_margin_pct', 'Gross margin', 'pct'],
  ['net_retention_pct', 'Net revenue retention', 'pct'],
  ['churn_pct', 'Churn', 'pct'],
  ['team_size', 'Team', 'count'],
  ['valuation_usd', 'Valuation', 'money'],
];

function factsOf(v: unknown): { label: string; value: string }[] {
  const o = asObject(v);
  if (!o) return [];
  return FACT_LABELS.flatMap(([key, label, kind]) => {
    const raw = o[key];
    if (kind === 'text') {
      const t = toStr(raw);
      return t ? [{ label, value: t }] : [];
    }
    const n = toNum(raw);
    if (n === null) return [];
    const value =
      kind === 'money' ? money(n) : kind === 'pct' ? `${Math.round(n)}%` : n.toLocaleString('en-US');
    return [{ label, value }];
  });
}

function dimensionsOf(v: unknown): DeckDimension[] {
  if (!Array.isArray(v)) return [];
  return v.flatMap((x) => {
    const o = asObject(x);
    if (!o) return [];
    const label = toStr(first(o, ['label', 'name', 'dimension', 'key']));
    const score = toNum(first(o, ['score', 'value', 'points']));
    if (!label || score === null) return [];
    return [{ label, score, note: toStr(first(o, ['rationale', 'note', 'comment', 'reason', 'why'])) }];
  });
}

/** A data room's answer read: the analysis where it is (under `analysis` or the data itself). */
export function readAnalysis(result: { data?: unknown; url?: unknown }): ReadAnalysis {
  const data = asObject(result.data) ?? {};
  const a = asObject(first(data, ['analysis', 'result', 'report'])) ?? data;
  const status = readField(data, DECK_FIELDS.status);
  const roomId = readField(data, DECK_FIELDS.room_id);
  return {
    startupName: toStr(first(a, ['startup_name', 'startup', 'company', 'name'])),
    score: toNum(first(a, ['deal_score', 'score', 'overall_score'])),
    verdict: toStr(first(a, ['verdict', 'recommendation', 'decision'])),
    reason: toStr(first(a, ['verdict_reason', 'reason', 'summary', 'rationale'])),
    dimensions: dimensionsOf(first(a, ['dimensions', 'scores', 'scored_dimensions'])),
    strengths: texts(first(a, ['strengths', 'pros'])),
    risks: texts(first(a, ['risks', 'cons', 'concerns'])),
    redFlags: texts(first(a, ['red_flags', 'redFlags', 'flags'])),
    questions: texts(first(a, ['questions', 'first_meeting_questions', 'questions_for_founders'])),
    facts: factsOf(first(a, ['facts', 'metrics', 'numbers'])),
    roomId: typeof roomId === 'string' ? roomId : null,
    roomUrl: toStr(first(data, ['room_url', 'url', 'dashboard_url'])) ?? toStr(result.url),
    status: typeof status === 'string' ? status.toLowerCase() : null,
    error: toStr(first(data, ['error', 'failure', 'reason'])),
  };
}

/** A triaged deck of the analysis read (outcome `analysed` or `carried`). */
export function analysedDeck(
  deck: CollectedDeck,
  read: ReadAnalysis,
  more: { outcome: 'analysed' | 'carried'; analysedOn: string; credits: number; sources: string[] },
): TriagedDeck {
  const { startupName, status: _status, error: _error, ...analysis } = read;
  return {
    sha256: deck.sha256,
    origin: deck.origin,
    label: deck.label,
    outcome: more.outcome,
    name: startupName ?? deck.startupName ?? deck.label,
    analysedOn: more.analysedOn,
    ...analysis,
    problem: null,
    duplicateOf: null,
    credits: more.credits,
    sources: more.sources,
  };
}

/** A triaged deck without an analysis: failed, timed out or a duplicate, with why. */
export function unanalysedDeck(
  deck: CollectedDeck,
  outcome: 'failed' | 'timed-out' | 'duplicate',
  problem: string | null,
  more: { credits?: number; sources?: string[]; roomId?: string | null } = {},
): TriagedDeck {
  return {
    sha256: deck.sha256,
    origin: deck.origin,
    label: deck.label,
    outcome,
    name: deck.startupName ?? deck.label,
    analysedOn: null,
    ...NO_ANALYSIS,
    roomId: more.roomId ?? null,
    problem,
    duplicateOf: deck.duplicateOf,
    credits: more.credits ?? 0,
    sources: more.sources ?? [],
  };
}

const ORDER: Record<TriagedDeck['outcome'], number> = {
  analysed: 0,
  carried: 0,
  failed: 1,
  'timed-out': 2,
  duplicate: 3,
};

/** The ranking: analysed and carried decks by score (highest first, then by name), then the others. */
export function rankDecks(decks: readonly TriagedDeck[]): TriagedDeck[] {
  return [...decks].sort(
    (a, b) =>
      ORDER[a.outcome] - ORDER[b.outcome] ||
      (b.score ?? -1) - (a.score ?? -1) ||
      a.name.localeCompare(b.name) ||
      a.label.localeCompare(b.label),
  );
}

/** The snapshot after this run: the earlier runs' decks and this run's analyses, by SHA-256. */
export function nextSnapshot(
  previous: DeckSnapshot | null,
  analysed: readonly { sha256: string; label: string; ref: string }[],
  date: string,
): DeckSnapshot {
  const decks = { ...(previous?.decks ?? {}) };
  for (const a of analysed) decks[a.sha256] = { label: a.label, analysedOn: date, ref: a.ref };
  return { decks };
}

/** A snapshot read tolerantly: anything else is no earlier run. */
export function asDeckSnapshot(v: unknown): DeckSnapshot | null {
  const o = asObject(v);
  const decks = o ? asObject(o.decks) : null;
  if (!decks) return null;
  const out: DeckSnapshot['decks'] = {};
  for (const [sha, d] of Object.entries(decks)) {
    const e = asObject(d);
    const ref = e ? toStr(e.ref) : null;
    if (!e || !ref) continue;
    out[sha] = { label: toStr(e.label) ?? sha.slice(0, 12), analysedOn: toStr(e.analysedOn) ?? '', ref };
  }
  return { decks: out };
}

/** What a run does with a collected deck, before asking anything. */
export type DeckFate =
  | { fate: 'send' }
  | { fate: 'carried'; analysedOn: string; ref: string }
  | { fate: 'duplicate'; of: string }
  | { fate: 'failed'; problem: string };

/**
 * A deck's fate in a run: a duplicate of the run is named under its first copy, a deck without
 * bytes by its problem, a deck an earlier run analysed (same bytes) is carried; the rest is sent.
 */
export function deckFate(
  deck: Pick<CollectedDeck, 'sha256' | 'problem' | 'duplicateOf'>,
  previous: DeckSnapshot | null,
): DeckFate {
  if (deck.duplicateOf) return { fate: 'duplicate', of: deck.duplicateOf };
  if (deck.problem || deck.sha256 === null)
    return { fate: 'failed', problem: deck.problem ?? 'the file could not be read' };
  const earlier = previous?.decks[deck.sha256];
  return earlier ? { fate: 'carried', analysedOn: earlier.analysedOn, ref: earlier.ref } : { fate: 'send' };
}
