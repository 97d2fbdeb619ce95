/**
 * HTML pages of the search results, an account, any stored result and errors.
 */
import { allowedOperations } from '../access.js';
import { savedBatches } from '../finders/fund-result.js';
import { count, usd, usdRange } from '../queries/format.js';
import type { InvestorSearchResult } from '../queries/investors.js';
import type { StartupSearchResult } from '../queries/startups.js';
import { searchUrl } from '../queries/urls.js';
import type { Account, ApiKeyRecord, SandboxState } from '../types.js';
import { esc, facts, link, page, para, raw, section, table, type Html } from './html.js';

type SearchOp = 'search_investors' | 'search_startups';

function pager(
  op: SearchOp,
  params: Record<string, unknown>,
  r: { offset: number; limit: number; next_offset: number | null },
): Html {
  const links: string[] = [];
  if (r.offset > 0)
    links.push(
      link(searchUrl('', op, { ...params, offset: Math.max(0, r.offset - r.limit) }), '← Previous').html,
    );
  if (r.next_offset !== null)
    links.push(link(searchUrl('', op, { ...params, offset: r.next_offset }), 'Next →').html);
  return raw(`<nav class="pages">${links.join('')}</nav>`);
}

/** The page of a search_investors result. */
export function investorsPage(
  r: InvestorSearchResult,
  params: Record<string, unknown>,
  summary: string,
): string {
  return page(
    'Investors',
    para(summary, 'summary'),
    para(`Ordered by ${r.order}.`, 'muted'),
    table(
      [
        { label: '#', cell: (i) => r.offset + r.investors.indexOf(i) + 1, num: true },
        { label: 'Investor', cell: (i) => link(i.url, i.name) },
        { label: 'Type', cell: (i) => i.investor_type },
        { label: 'HQ', cell: (i) => `${i.hq_city}, ${i.hq_country}` },
        { label: 'Sectors', cell: (i) => i.sectors.join('; ') },
        { label: 'Score', cell: (i) => i.score, num: true },
        { label: 'Investments', cell: (i) => count(i.investments_count), num: true },
        { label: 'Checks', cell: (i) => usdRange(i.check_min_usd, i.check_max_usd), num: true },
      ],
      r.investors,
      'No investor matches.',
    ),
    pager('search_investors', params, r),
  );
}

/** The page of a search_startups result. */
export function startupsPage(
  r: StartupSearchResult,
  params: Record<string, unknown>,
  summary: string,
): string {
  return page(
    'Startups',
    para(summary, 'summary'),
    para(`Ordered by ${r.order}.`, 'muted'),
    table(
      [
        { label: '#', cell: (s) => r.offset + r.startups.indexOf(s) + 1, num: true },
        { label: 'Startup', cell: (s) => link(s.url, s.name) },
        { label: 'What it does', cell: (s) => s.description },
        { label: 'HQ', cell: (s) => `${s.hq_city}, ${s.hq_country}` },
        { label: 'Sector', cell: (s) => s.sector },
        { label: 'Stage', cell: (s) => s.stage },
        { label: 'Raised', cell: (s) => usd(s.total_raised_usd), num: true },
        {
          label: 'Last round',
          cell: (s) =>
            s.last_round_date ? `${s.last_round_date} ${usd(s.last_round_amount_usd ?? 0)}` : '—',
        },
      ],
      r.startups,
      'No startup matches.',
    ),
    pager('search_startups', params, r),
  );
}

/** The page of an account: plan, credits, its keys' scopes and tools (never the keys), thesis, organisations. */
export function accountPage(account: Account, keys: ApiKeyRecord[], state: SandboxState): string {
  const parts: Html[] = [
    facts([
      ['Account id', account.id],
      ['Type', account.type],
      ['Plan', account.plan],
      ['Credits', count(account.credits)],
    ]),
    section(
      'API keys',
      table(
        [
          { label: 'Key', cell: (k) => `Key ${keys.indexOf(k) + 1}${k.revoked ? ' (revoked)' : ''}` },
          { label: 'Scopes', cell: (k) => k.scopes.join(', ') },
          { label: 'Tools', cell: (k) => (k.revoked ? '—' : allowedOperations(account, k).join(', ')) },
        ],
        keys,
        'No keys.',
      ),
    ),
  ];
  if (account.thesis) {
    const t = account.thesis;
    parts.push(
      section(
        `Fund thesis: ${t.fund_name}`,
        facts([
          ['Sectors', t.sectors.join('; ')],
          ['Stages', t.stages.join(', ')],
          ['Countries', t.countries.join(', ')],
          ['Checks', usdRange(t.check_min_usd, t.check_max_usd)],
          [
            'Portfolio',
            raw(t.portfolio.map((k) => link(`/view/startups/${encodeURIComponent(k)}`, k).html).join(', ')),
          ],
          ['Saved match batches', count(savedBatches(state, account.id).length)],
        ]),
      ),
    );
  }
  if (account.organisations?.length) {
    parts.push(
      section(
        'Organisations',
        table(
          [
            { label: 'Key', cell: (o) => o.org_key },
            { label: 'Name', cell: (o) => `${o.name}${o.is_default ? ' (default)' : ''}` },
            { label: 'Offering', cell: (o) => o.offering },
            { label: 'Regions', cell: (o) => o.target_regions.join(', ') },
            { label: 'Stages', cell: (o) => o.target_stages.join(', ') },
            { label: 'Sectors', cell: (o) => o.target_sectors.join('; ') },
          ],
          account.organisations,
        ),
      ),
    );
  }
  return page(account.name, ...parts);
}

/** The main list of a result's data: its first array of objects. */
function mainArray(data: unknown): { name: string; rows: Record<string, unknown>[] } | null {
  if (data === null || typeof data !== 'object') return null;
  for (const [name, value] of Object.entries(data)) {
    if (
      Array.isArray(value) &&
      value.length &&
      value.every((v) => v !== null && typeof v === 'object' && !Array.isArray(v))
    ) {
      return { name, rows: value as Record<string, unknown>[] };
    }
  }
  return null;
}

function cellText(value: unknown): unknown {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return value;
}

/** Any stored result, generically: summary, a table of the main array, the raw JSON. */
export function resultPage(
  id: string,
  result: { operation: string; summary: string; data: unknown; created_at: string },
): string {
  const main = mainArray(result.data);
  const columns = main
    ? [...new Set(main.rows.slice(0, 50).flatMap((r) => Object.keys(r)))].slice(0, 10)
    : [];
  return page(
    `${result.operation} result`,
    para(result.summary, 'summary'),
    facts([
      ['Result id', id],
      ['Operation', result.operation],
      ['Created', result.created_at],
    ]),
    ...(main
      ? [
          section(
            `${main.name} (${count(main.rows.length)})`,
            table(
              columns.map((c) => ({
                label: c,
                cell: (row: Record<string, unknown>) =>
                  c === 'name' && typeof row.url === 'string' ? link(row.url, row.name) : cellText(row[c]),
              })),
              main.rows,
            ),
          ),
        ]
      : []),
    section('Raw data', raw(`<pre>${esc(JSON.stringify(result.data, null, 2))}</pre>`)),
  );
}

/** An error page (404 for unknown things, 400 for an invalid search). */
export function errorPage(title: string, message: string): string {
  return page(
    title,
    para(message, 'summary'),
    raw(
      '<p><a href="/view/search_investors">Search investors</a> · <a href="/view/search_startups">Search startups</a></p>',
    ),
  );
}
