import { describeFilters, describePage } from '../queries/format.js';
import { searchStartups } from '../queries/startups.js';
import { searchUrl } from '../queries/urls.js';
import type { Handler } from '../types.js';

/**
 * search_startups: startups by keyword, sector, countries and stages, ordered by total raised
 * descending then key (a stable order for offset paging).
 */
export const search_startups: Handler<'search_startups'> = ({ db, params, baseUrl }) => {
  const result = searchStartups(db, params, baseUrl);
  const top = result.startups.slice(0, 3).map((s) => s.name);
  return {
    data: { ...result },
    summary:
      `Startups ${describePage(result.offset, result.startups.length, result.total)}${describeFilters(result.filters)}, ` +
      `by total raised${top.length ? `: ${top.join(', ')}${result.startups.length > 3 ? ', …' : ''}` : ''}`,
    url: searchUrl(baseUrl, 'search_startups', params),
  };
};
