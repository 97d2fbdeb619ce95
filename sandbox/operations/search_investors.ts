import { describeFilters, describePage } from '../queries/format.js';
import { searchInvestors } from '../queries/investors.js';
import { searchUrl } from '../queries/urls.js';
import type { Handler } from '../types.js';

/**
 * search_investors: investors by query, country, region, type and sector, sorted by score or
 * by number of investments (ties by key), paged with limit and offset.
 */
export const search_investors: Handler<'search_investors'> = ({ db, params, baseUrl }) => {
  const result = searchInvestors(db, params, baseUrl);
  const top = result.investors.slice(0, 3).map((i) => i.name);
  return {
    data: { ...result },
    summary:
      `Investors ${describePage(result.offset, result.investors.length, result.total)}${describeFilters(result.filters)}, ` +
      `by ${params.sort}${top.length ? `: ${top.join(', ')}${result.investors.length > 3 ? ', …' : ''}` : ''}`,
    url: searchUrl(baseUrl, 'search_investors', params),
  };
};
