/** The scorer a handler runs the finders' scoring on: the sandbox's pool, else the calling thread. */
import type { DatabaseSync } from 'node:sqlite';
import { inThreadScorer, type Scorer } from '../finders/scoring.js';
import type { HandlerContext } from '../types.js';

const inThread = new WeakMap<DatabaseSync, Scorer>();

export function scorerOf(ctx: HandlerContext): Scorer {
  if (ctx.scorer) return ctx.scorer;
  let scorer = inThread.get(ctx.db);
  if (!scorer) inThread.set(ctx.db, (scorer = inThreadScorer(ctx.db)));
  return scorer;
}
