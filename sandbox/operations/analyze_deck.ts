/**
 * analyze_deck (3 credits, finder scope, paid investor accounts): fetches a PDF or PPTX deck
 * from a direct https link, extracts its text, creates a data room and analyses the deck
 * against the account's fund thesis. Waits up to deckWaitMs for the analysis; when it is still
 * running, answers status 'running' with the room_id for get_deck_analysis.
 */
import {
  checkDeckUrl,
  createRoom,
  extractDeckText,
  fetchDeck,
  roomResult,
  waitForRoom,
} from '../decks/index.js';
import type { Handler } from '../types.js';

export const analyze_deck: Handler<'analyze_deck'> = async (ctx) => {
  const checked = checkDeckUrl(ctx.params.deck_url);
  const file = await fetchDeck(checked.url.toString(), { trustedCa: ctx.options.trustedCa });
  const text = await extractDeckText(file.bytes, file.kind);
  const room = createRoom(ctx.state, {
    accountId: ctx.account.id,
    deckUrl: checked.url.toString(),
    startupName: ctx.params.startup_name,
    text,
    bytes: file.bytes.length,
    thesis: ctx.account.thesis,
    db: ctx.db,
    now: ctx.now,
    ...(ctx.options.deckAnalysisMs === undefined ? {} : { analysisMs: ctx.options.deckAnalysisMs }),
  });
  await waitForRoom(room, ctx.options.deckWaitMs);
  return roomResult(room);
};
