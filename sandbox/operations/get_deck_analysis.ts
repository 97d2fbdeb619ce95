/**
 * get_deck_analysis (0 credits, read scope): the state of a data room created by analyze_deck,
 * with the analysis once it is done. Rooms of other accounts are not visible (404).
 */
import { getRoom, roomResult } from '../decks/index.js';
import type { Handler } from '../types.js';

export const get_deck_analysis: Handler<'get_deck_analysis'> = (ctx) =>
  roomResult(getRoom(ctx.state, ctx.params.room_id, ctx.account.id));
