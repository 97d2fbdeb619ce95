/**
 * Data rooms: one per analysed deck, owned by the account that created it. The analysis runs
 * asynchronously for a simulated time derived from the deck's size; analyze_deck waits for it
 * up to the sandbox's deckWaitMs and get_deck_analysis reads the room later.
 */
import { randomBytes } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import type { ChartSpec } from '../result-shapes.js';
import { SandboxError, type FundThesis, type SandboxState } from '../types.js';
import { analyseDeck, type DeckAnalysis } from './analyze.js';
import type { DeckText } from './extract.js';

export type RoomStatus = 'running' | 'done' | 'failed';

export interface DataRoom {
  room_id: string;
  account_id: string;
  startup_name: string | null;
  deck_url: string;
  deck: { kind: string; pages: number; bytes: number };
  status: RoomStatus;
  created_at: string;
  /** When the analysis is (or was) due to finish. */
  ready_at: string;
  completed_at: string | null;
  analysis: DeckAnalysis | null;
  error: string | null;
  /** Settles when the analysis is done or failed. */
  settled: Promise<void>;
}

/** Simulated analysis time: a base plus a share per page and per megabyte, capped. */
export const DECK_ANALYSIS_TIMING = {
  baseMs: 400,
  perPageMs: 150,
  perMegabyteMs: 200,
  maxMs: 8_000,
} as const;

/** How long the simulated analysis of a deck takes, ms. */
export function deckAnalysisMs(pages: number, bytes: number): number {
  const t = DECK_ANALYSIS_TIMING;
  return Math.min(
    t.maxMs,
    Math.round(t.baseMs + t.perPageMs * pages + (t.perMegabyteMs * bytes) / (1024 * 1024)),
  );
}

function isRoom(value: unknown): value is DataRoom {
  return (
    typeof value === 'object' &&
    value !== null &&
    'room_id' in value &&
    'account_id' in value &&
    'settled' in value
  );
}

export interface CreateRoomInput {
  accountId: string;
  deckUrl: string;
  startupName?: string;
  text: DeckText;
  bytes: number;
  thesis?: FundThesis;
  db: DatabaseSync;
  now: Date;
  /** How long the analysis takes (ms); default the timing model's. */
  analysisMs?: number;
}

/** Creates a data room and starts its analysis. */
export function createRoom(state: SandboxState, input: CreateRoomInput): DataRoom {
  const ms = input.analysisMs ?? deckAnalysisMs(input.text.pages.length, input.bytes);
  let settle!: () => void;
  const settled = new Promise<void>((resolve) => (settle = resolve));
  const room: DataRoom = {
    room_id: `room_${randomBytes(8).toString('hex')}`,
    account_id: input.accountId,
    startup_name: input.startupName ?? null,
    deck_url: input.deckUrl,
    deck: { kind: input.text.kind, pages: input.text.pages.length, bytes: input.bytes },
    status: 'running',
    created_at: input.now.toISOString(),
    ready_at: new Date(input.now.getTime() + ms).toISOString(),
    completed_at: null,
    analysis: null,
    error: null,
    settled,
  };
  const timer = setTimeout(() => {
    try {
      room.analysis = analyseDeck({
        pages: input.text.pages,
        kind: input.text.kind,
        startupName: input.startupName,
        thesis: input.thesis,
        db: input.db,
      });
      room.startup_name = room.analysis.startup_name;
      room.status = 'done';
    } catch (err) {
      room.status = 'failed';
      room.error = `the analysis failed: ${(err as Error).message}`;
    }
    room.completed_at = new Date().toISOString();
    settle();
  }, ms);
  timer.unref();
  state.rooms.set(room.room_id, room);
  return room;
}

/** The room with this id if the account owns it; 404 not_found otherwise (another account's room is not visible). */
export function getRoom(state: SandboxState, roomId: string, accountId: string): DataRoom {
  const room = state.rooms.get(roomId);
  if (!isRoom(room) || room.account_id !== accountId) {
    throw new SandboxError(
      404,
      'not_found',
      `no data room ${roomId} for this account (room_id comes from analyze_deck)`,
    );
  }
  return room;
}

/** Waits until the room's analysis settles or `ms` pass, whichever is first. */
export async function waitForRoom(room: DataRoom, ms: number): Promise<void> {
  if (room.status !== 'running' || ms <= 0) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([room.settled, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/** The handler result of a room: data, summary, the dimension chart when done. */
export function roomResult(room: DataRoom): {
  data: Record<string, unknown>;
  summary: string;
  charts: ChartSpec[];
  url: string | null;
} {
  const data: Record<string, unknown> = {
    room_id: room.room_id,
    status: room.status,
    startup_name: room.startup_name,
    deck_url: room.deck_url,
    deck: room.deck,
    created_at: room.created_at,
    ready_at: room.ready_at,
    completed_at: room.completed_at,
    analysis: room.analysis,
  };
  if (room.status === 'failed') {
    data.error = room.error;
    return {
      data,
      summary: `The analysis in data room ${room.room_id} failed: ${room.error}`,
      charts: [],
      url: null,
    };
  }
  if (room.status === 'running' || !room.analysis) {
    const seconds = Math.max(1, Math.ceil((Date.parse(room.ready_at) - Date.now()) / 1000));
    data.retry_after_seconds = seconds;
    return {
      data,
      summary: `The deck analysis in data room ${room.room_id} is still running (about ${seconds} s left); call get_deck_analysis with room_id ${room.room_id} for the result.`,
      charts: [],
      url: null,
    };
  }
  const a = room.analysis;
  const chart: ChartSpec = {
    type: 'bar',
    title: `${a.startup_name}: scores by dimension`,
    xKey: 'dimension',
    series: [{ key: 'score', name: 'Score (0-100)', type: 'bar' }],
    data: a.dimensions.map((d) => ({ dimension: d.label, score: d.score })),
    unit: 'score',
  };
  const top = [...a.dimensions].sort((x, y) => y.score - x.score)[0]!;
  const low = [...a.dimensions].sort((x, y) => x.score - y.score)[0]!;
  const summary = `${a.startup_name}: deal score ${a.deal_score}/100, verdict ${a.verdict}. Strongest: ${top.label} (${top.score}); weakest: ${low.label} (${low.score}). ${a.red_flags.length} red flag${a.red_flags.length === 1 ? '' : 's'}, ${a.questions.length} questions for the first meeting.`;
  return { data, summary, charts: [chart], url: '/view/results' };
}
