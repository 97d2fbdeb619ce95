import { describeFilters, describePage } from '../queries/format.js';
import { searchStartups, type StartupSearchResult } from '../queries/startups.js';
import { searchUrl } from '../queries/urls.js';
import type { Handler } from '../types.js';

/** "Startups 1-25 of 4,210 (in Germany), by total raised: A, B, C, …". */
export function startupsSearchSummary(result: StartupSearchResult): string {
  const top = result.startups.slice(0, 3).map((s) => s.name);
  return (
    `Startups ${describePage(result.offset, result.startups.length, result.total)}${describeFilters(result.filters)}, ` +
    `by total raised${top.length ? `: ${top.join(', ')}${result.startups.length > 3 ? ', …' : ''}` : ''}`
  );
}

/**
 * search_startups: startups by keyword, sector, countries and stages, ordered by total raised
 * descending then key (a stable order for offset paging).
 */
export const search_startups: Handler<'search_startups'> = ({ db, params, baseUrl }) => {
  const result = searchStartups(db, params, baseUrl);
  return {
    data: { ...result },
    summary: startupsSearchSummary(result),
    url: searchUrl(baseUrl, 'search_startups', params),
  };
};
