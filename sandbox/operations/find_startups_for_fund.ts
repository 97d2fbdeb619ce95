/**
 * find_startups_for_fund (3 credits, finder scope, paid investor accounts): scores startups
 * against the account's fund thesis and saves the batch to its match list. The scoring runs on
 * the scoring pool; the match list is read and written here, on the main thread.
 */
import { saveFundBatch } from '../finders/fund-result.js';
import { scorerOf } from './scorer.js';
import { SandboxError, type Account, type Handler } from '../types.js';

export const find_startups_for_fund: Handler<'find_startups_for_fund'> = async (ctx) => {
  const { account } = ctx;
  const thesis = account.thesis;
  if (!thesis) {
    throw new SandboxError(
      400,
      'invalid_input',
      'find_startups_for_fund needs a fund thesis (sectors, stages, countries, check size) on the account; set it up in the VC dashboard first',
    );
  }
  const scores = await scorerOf(ctx).score(
    { kind: 'fund', thesis, limit: ctx.params.limit, baseUrl: ctx.baseUrl },
    account.id,
  );
  // The thesis as scored, even if the account's changed while the call was scoring.
  const withThesis: Account & { thesis: NonNullable<Account['thesis']> } = { ...account, thesis };
  const outcome = saveFundBatch(scores, withThesis, ctx.state, ctx.params.limit, ctx.now);
  const { batch } = outcome;
  return {
    data: {
      batch_id: batch.batch_id,
      created_at: batch.created_at,
      fund_name: batch.fund_name,
      previous_batch_id: outcome.previousBatchId,
      candidates_scored: outcome.candidates,
      thesis,
      startups: batch.entries,
    },
    summary: outcome.summary,
    charts: outcome.charts,
    url: `${ctx.baseUrl}/view/results/${batch.batch_id}`,
  };
};
