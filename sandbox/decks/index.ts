/**
 * Pitch decks: URL checks, fetching over https, PDF and PPTX text extraction, the analysis
 * against a fund thesis and the data rooms that hold it.
 */
export { checkDeckUrl } from './url.js';
export type { CheckedDeckUrl, DeckKind } from './url.js';
export { DECK_FETCH_DEFAULTS, fetchDeck, sniffDeckKind } from './fetch.js';
export type { DeckFetchOptions, FetchedDeck } from './fetch.js';
export { extractDeckText, slideXmlText } from './extract.js';
export type { DeckText } from './extract.js';
export { annualRevenue, readDeckFacts } from './facts.js';
export type { DeckFact, DeckFacts } from './facts.js';
export { findMoney, formatUsd } from './money.js';
export { classifyDeck, deckCountry } from './classify.js';
export { DIMENSIONS, DIMENSION_WEIGHTS, analyseDeck } from './analyze.js';
export type { DeckAnalysis, Dimension, ScoredDimension, Verdict } from './analyze.js';
export {
  DECK_ANALYSIS_TIMING,
  createRoom,
  deckAnalysisMs,
  getRoom,
  reviveRoom,
  roomRecord,
  roomResult,
  waitForRoom,
} from './rooms.js';
export type { DataRoom, DataRoomRecord, RoomInput, RoomStatus } from './rooms.js';
