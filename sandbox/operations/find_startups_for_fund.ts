/**
 * find_startups_for_fund (3 credits, finder scope, paid investor accounts): scores startups
 * against the account's fund thesis and saves the batch to its match list.
 */
import { runFundMatch } from '../finders/fund-result.js';
import { getSnapshot } from '../finders/snapshot.js';
import { SandboxError, type Account, type Handler } from '../types.js';

export const find_startups_for_fund: Handler<'find_startups_for_fund'> = (ctx) => {
  const { account } = ctx;
  if (!account.thesis) {
    throw new SandboxError(
      400,
      'invalid_input',
      'find_startups_for_fund needs a fund thesis (sectors, stages, countries, check size) on the account; set it up in the VC dashboard first',
    );
  }
  const withThesis = account as Account & { thesis: NonNullable<Account['thesis']> };
  const outcome = runFundMatch(
    getSnapshot(ctx.db),
    withThesis,
    ctx.state,
    ctx.params.limit,
    ctx.baseUrl,
    ctx.now,
  );
  const { batch } = outcome;
  return {
    data: {
      batch_id: batch.batch_id,
      created_at: batch.created_at,
      fund_name: batch.fund_name,
      previous_batch_id: outcome.previousBatchId,
      candidates_scored: outcome.candidates,
      thesis: account.thesis,
      startups: batch.entries,
    },
    summary: outcome.summary,
    charts: outcome.charts,
    url: `${ctx.baseUrl}/view/results/${batch.batch_id}`,
  };
};
