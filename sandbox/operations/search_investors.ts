import { describeFilters, describePage } from '../queries/format.js';
import { searchInvestors, type InvestorSearchResult } from '../queries/investors.js';
import { searchUrl } from '../queries/urls.js';
import type { Handler } from '../types.js';

/** "Investors 1-25 of 312 (in Germany), by score: A, B, C, …". */
export function investorsSearchSummary(result: InvestorSearchResult, sort: string): string {
  const top = result.investors.slice(0, 3).map((i) => i.name);
  return (
    `Investors ${describePage(result.offset, result.investors.length, result.total)}${describeFilters(result.filters)}, ` +
    `by ${sort}${top.length ? `: ${top.join(', ')}${result.investors.length > 3 ? ', …' : ''}` : ''}`
  );
}

/**
 * search_investors: investors by query, country, region, type and sector, sorted by score or
 * by number of investments (ties by key), paged with limit and offset.
 */
export const search_investors: Handler<'search_investors'> = ({ db, params, baseUrl }) => {
  const result = searchInvestors(db, params, baseUrl);
  return {
    data: { ...result },
    summary: investorsSearchSummary(result, params.sort),
    url: searchUrl(baseUrl, 'search_investors', params),
  };
};
