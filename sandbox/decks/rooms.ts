/**
 * Data rooms: one per analysed deck, owned by the account that created it. The analysis runs
 * asynchronously for a simulated time derived from the deck's size; analyze_deck waits for it
 * up to the sandbox's deckWaitMs and get_deck_analysis reads the room later.
 */
import { randomBytes } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import { z } from 'zod';
import type { ChartSpec } from '../result-shapes.js';
import { SandboxError, type FundThesis, type SandboxState } from '../types.js';
import { analyseDeck, type DeckAnalysis } from './analyze.js';
import type { DeckText } from './extract.js';
import type { DeckKind } from './url.js';

export type RoomStatus = 'running' | 'done' | 'failed';

/** What a running analysis reads: kept in the room so that a restarted sandbox can finish it. */
export interface RoomInput {
  pages: string[];
  kind: DeckKind;
  startup_name?: string;
  thesis?: FundThesis;
}

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
  /** The analysis' input while it runs; null once it settled. */
  input: RoomInput | null;
  /** Settles when the analysis is done or failed. */
  settled: Promise<void>;
}

/** A data room as the state file keeps it: everything but the `settled` promise. */
export type DataRoomRecord = Omit<DataRoom, 'settled'>;

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

/**
 * Runs the room's analysis after `ms` and settles it. The finished room is set in
 * `state.rooms` again, so a persisted sandbox writes it through.
 */
function scheduleAnalysis(state: SandboxState, room: DataRoom, db: DatabaseSync, ms: number): Promise<void> {
  return new Promise<void>((settle) => {
    const timer = setTimeout(() => {
      const input = room.input;
      try {
        if (!input) throw new Error('the deck text is missing');
        room.analysis = analyseDeck({
          pages: input.pages,
          kind: input.kind,
          startupName: input.startup_name,
          thesis: input.thesis,
          db,
        });
        room.startup_name = room.analysis.startup_name;
        room.status = 'done';
      } catch (err) {
        room.status = 'failed';
        room.error = `the analysis failed: ${(err as Error).message}`;
      }
      room.completed_at = new Date().toISOString();
      room.input = null;
      if (state.rooms.get(room.room_id) === room) state.rooms.set(room.room_id, room);
      settle();
    }, ms);
    timer.unref();
  });
}

/** Creates a data room and starts its analysis. */
export function createRoom(state: SandboxState, input: CreateRoomInput): DataRoom {
  const ms = input.analysisMs ?? deckAnalysisMs(input.text.pages.length, input.bytes);
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
    input: {
      pages: input.text.pages,
      kind: input.text.kind,
      ...(input.startupName === undefined ? {} : { startup_name: input.startupName }),
      ...(input.thesis === undefined ? {} : { thesis: input.thesis }),
    },
    settled: Promise.resolve(),
  };
  room.settled = scheduleAnalysis(state, room, input.db, ms);
  state.rooms.set(room.room_id, room);
  return room;
}

/** The room as the state file keeps it (without its promise). */
export function roomRecord(room: DataRoom): DataRoomRecord {
  const { settled: _settled, ...record } = room;
  return record;
}

const RoomRecordSchema = z.looseObject({
  room_id: z.string().min(1),
  account_id: z.string().min(1),
  status: z.enum(['running', 'done', 'failed']),
  created_at: z.string(),
  ready_at: z.string(),
  input: z.looseObject({ pages: z.array(z.string()), kind: z.enum(['pdf', 'pptx']) }).nullable(),
});

/**
 * A data room read back from the state file. A room whose analysis was running goes on: it
 * finishes at its ready_at (at once when that has passed; never later than the analysis'
 * own length from now).
 *
 * @example
 * state.rooms.set(id, reviveRoom(state, JSON.parse(text), db));
 */
export function reviveRoom(state: SandboxState, record: unknown, db: DatabaseSync): DataRoom {
  const parsed = RoomRecordSchema.safeParse(record);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${issue?.path.map(String).join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`);
  }
  const room: DataRoom = { ...(record as DataRoomRecord), settled: Promise.resolve() };
  if (room.status === 'running') {
    const length = Date.parse(room.ready_at) - Date.parse(room.created_at);
    const left = Date.parse(room.ready_at) - Date.now();
    const ms = Math.max(0, Math.min(left, length));
    room.settled = scheduleAnalysis(state, room, db, Number.isFinite(ms) ? ms : 0);
  }
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
