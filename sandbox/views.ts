/**
 * The sandbox's HTML views: the `url` of every read result resolves here. Plain, escaped,
 * read-only pages without authentication:
 *
 * - /view/investors/:key, /view/startups/:key (key or exact name), /view/countries/:country
 * - /view/search_investors?<query>, /view/search_startups?<query> (the search re-run read-only)
 * - /view/account/:id (never shows a key), /view/results/:id (any stored result)
 *
 * Anything else under /view is a 404 page.
 */
import type { DatabaseSync } from 'node:sqlite';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { validateParams } from '../api/index.js';
import { countryOverview } from './queries/country-overview.js';
import { dataAsOf } from './queries/as-of.js';
import { investorProfile, searchInvestors } from './queries/investors.js';
import { searchStartups, startupProfile } from './queries/startups.js';
import { countrySummary, knownCountry } from './operations/country_overview.js';
import { investorSummary } from './operations/get_investor.js';
import { startupSummary } from './operations/get_startup.js';
import { investorsSearchSummary } from './operations/search_investors.js';
import { startupsSearchSummary } from './operations/search_startups.js';
import { readQueryParams } from './http-params.js';
import { SandboxError, type SandboxState } from './types.js';
import { countryPage, investorPage, startupPage } from './views/profiles.js';
import { accountPage, errorPage, investorsPage, resultPage, startupsPage } from './views/lists.js';

export interface ViewDeps {
  db: DatabaseSync;
  state: SandboxState;
  /** The clock (as-of fallback when the data has no as-of date). */
  now?: () => Date;
}

export interface ViewResponse {
  status: number;
  html: string;
}

const notFound = (what: string): ViewResponse => ({ status: 404, html: errorPage('Not found', what) });

function decode(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

function searchView(
  deps: ViewDeps,
  operation: 'search_investors' | 'search_startups',
  search: string,
): ViewResponse {
  const input = readQueryParams(operation, search);
  const valid = validateParams(operation, input);
  if (!valid.ok) return { status: 400, html: errorPage('Invalid search', valid.message) };
  if (operation === 'search_investors') {
    const params = valid.value as Parameters<typeof searchInvestors>[1];
    const result = searchInvestors(deps.db, params, '');
    return { status: 200, html: investorsPage(result, params, investorsSearchSummary(result, params.sort)) };
  }
  const params = valid.value as Parameters<typeof searchStartups>[1];
  const result = searchStartups(deps.db, params, '');
  return { status: 200, html: startupsPage(result, params, startupsSearchSummary(result)) };
}

/**
 * Renders the view at `path` (e.g. `/view/investors/northwind-ventures`) with the query
 * string `search` (without `?`). Never throws for bad input: unknown things are 404 pages,
 * invalid searches 400 pages.
 */
export function renderView(deps: ViewDeps, path: string, search = ''): ViewResponse {
  const segments = path
    .replace(/^\/view\/?/, '')
    .split('/')
    .filter(Boolean);
  const [kind, rawId, ...rest] = segments;
  const id = rawId === undefined ? undefined : decode(rawId);
  if (id === null || rest.length) return notFound(`No view at ${path}.`);
  const asOf = () => dataAsOf(deps.db, deps.now?.() ?? new Date());
  try {
    if (kind === 'search_investors' && id === undefined) return searchView(deps, 'search_investors', search);
    if (kind === 'search_startups' && id === undefined) return searchView(deps, 'search_startups', search);
    if (id === undefined) return notFound(`No view at ${path}.`);
    switch (kind) {
      case 'investors': {
        const p = investorProfile(deps.db, id, asOf(), '');
        return p
          ? { status: 200, html: investorPage(p, investorSummary(p)) }
          : notFound(`No investor with key '${id}'.`);
      }
      case 'startups': {
        const s = startupProfile(deps.db, id, '');
        return s
          ? { status: 200, html: startupPage(s, startupSummary(s)) }
          : notFound(`No startup with key or exact name '${id}'.`);
      }
      case 'countries': {
        const o = countryOverview(deps.db, knownCountry(id), asOf(), '');
        return { status: 200, html: countryPage(o, countrySummary(o)) };
      }
      case 'account': {
        const account = deps.state.accounts.get(id);
        if (!account) return notFound(`No account '${id}'.`);
        const keys = [...deps.state.keys.values()].filter((k) => k.account_id === id);
        return { status: 200, html: accountPage(account, keys, deps.state) };
      }
      case 'results': {
        const result = deps.state.results.get(id);
        return result ? { status: 200, html: resultPage(id, result) } : notFound(`No stored result '${id}'.`);
      }
      default:
        return notFound(`No view at ${path}.`);
    }
  } catch (error) {
    if (error instanceof SandboxError && error.status < 500) {
      return {
        status: error.status,
        html: errorPage(error.status === 404 ? 'Not found' : 'Invalid request', error.message),
      };
    }
    throw error;
  }
}

/**
 * Serves the views on a Fastify app: GET /view and everything under it.
 *
 * @example
 * registerViews(app, { db, state, now: options.now });
 */
export function registerViews(app: FastifyInstance, deps: ViewDeps): void {
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const q = request.url.indexOf('?');
    const path = q < 0 ? request.url : request.url.slice(0, q);
    const view = renderView(deps, path, q < 0 ? '' : request.url.slice(q + 1));
    return reply.code(view.status).type('text/html; charset=utf-8').send(view.html);
  };
  app.get('/view', handler);
  app.get('/view/*', handler);
}
