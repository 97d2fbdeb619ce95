/**
 * What a call will cost before it runs, where that is not simply the operation's price: the
 * pipeline reserves the quote, so a call that is free (find_customers repeated within 24
 * hours) is never refused for a balance below the price.
 */
import { decideRepeat, pickOrganisation, repeatKey } from '../finders/customers-result.js';
import type { HandlerContext, OperationName } from '../types.js';

export type Quote<N extends OperationName> = (ctx: HandlerContext<N>, price: number) => number;

export const QUOTES: { [N in OperationName]?: Quote<N> } = {
  find_customers: (ctx, price) => {
    let org;
    try {
      org = pickOrganisation(ctx.account, ctx.params.org_key);
    } catch {
      // The handler refuses the call with the right error; the quote changes nothing.
      return price;
    }
    const repeat = decideRepeat(ctx.state, repeatKey(ctx.account.id, org, ctx.params), ctx.now);
    return repeat.free ? 0 : price;
  },
};
