/**
 * HTML pages of an investor, a startup and a country overview. The data comes from the same
 * queries as get_investor, get_startup and country_overview.
 */
import type { CountryOverview } from '../queries/country-overview.js';
import { count, signedPct, usd, usdRange } from '../queries/format.js';
import type { InvestorProfile } from '../queries/investors.js';
import type { StartupProfile } from '../queries/startups.js';
import { countryUrl } from '../queries/urls.js';
import { bar, esc, facts, link, page, para, raw, section, table, type Html } from './html.js';

const max = (values: number[]) => values.reduce((a, b) => Math.max(a, b), 0);

function refs(list: { name: string; url: string }[]): Html {
  return raw(list.map((r) => link(r.url, r.name).html).join(', ') || '—');
}

/** The page of an investor profile. */
export function investorPage(p: InvestorProfile, summary: string): string {
  const years = p.investments_by_year;
  const maxDeals = max(years.map((y) => y.deals));
  return page(
    p.name,
    para(summary, 'summary'),
    facts([
      ['Key', p.key],
      ['Type', p.investor_type],
      ['HQ', `${p.hq_city}, ${p.hq_country} (${p.region})`],
      ['Website', link(p.website, p.website)],
      ['Founded', p.founded_year],
      ['Sectors', p.sectors.join('; ')],
      ['Check size', usdRange(p.check_size.min_usd, p.check_size.max_usd)],
      [
        'Median round joined',
        p.check_size.median_round_usd === null ? null : usd(p.check_size.median_round_usd),
      ],
      [
        'Investments',
        `${count(p.investments_count)} (${count(p.lead_investments_count)} as lead) in ${count(p.portfolio_companies)} companies`,
      ],
    ]),
    section('Thesis', para(p.thesis)),
    section(
      'Scores',
      facts([
        ['Overall', p.scores.overall],
        ['Activity (percentile of investments)', p.scores.activity],
        ['Follow-on rate', `${p.scores.follow_on_rate_pct}%`],
        ['Lead rate', `${p.scores.lead_rate_pct}%`],
        ['Deals, last 12 months', p.scores.deals_last_12_months],
        ['Deals, previous 12 months', p.scores.deals_previous_12_months],
      ]),
    ),
    section(
      'Team',
      table(
        [
          { label: 'Name', cell: (t) => t.name },
          { label: 'Role', cell: (t) => t.role ?? '' },
        ],
        p.team,
      ),
    ),
    section(
      'Investments by year',
      table(
        [
          { label: 'Year', cell: (y) => y.year },
          { label: 'Deals', cell: (y) => bar(y.deals, maxDeals, count(y.deals)) },
          { label: 'Led', cell: (y) => count(y.lead_deals), num: true },
          { label: 'Round capital', cell: (y) => usd(y.capital_usd), num: true },
        ],
        years,
      ),
    ),
    section(
      'Sector mix',
      table(
        [
          { label: 'Sector', cell: (s) => s.sector },
          {
            label: 'Deals',
            cell: (s) => bar(s.deals, max(p.sector_mix.map((x) => x.deals)), count(s.deals)),
          },
          { label: 'Share', cell: (s) => `${s.share_pct}%`, num: true },
        ],
        p.sector_mix,
        'No investments yet.',
      ),
    ),
    section(
      'Stage mix',
      table(
        [
          { label: 'Stage', cell: (s) => s.stage },
          { label: 'Deals', cell: (s) => count(s.deals), num: true },
          { label: 'Share', cell: (s) => `${s.share_pct}%`, num: true },
        ],
        p.stage_mix,
        'No investments yet.',
      ),
    ),
    section(
      'Recent portfolio',
      table(
        [
          { label: 'Company', cell: (r) => link(r.url, r.name) },
          { label: 'Sector', cell: (r) => r.sector },
          { label: 'Country', cell: (r) => r.hq_country },
          { label: 'Round', cell: (r) => `${r.stage}${r.is_lead ? ' (lead)' : ''}` },
          { label: 'Amount', cell: (r) => usd(r.amount_usd), num: true },
          { label: 'Date', cell: (r) => r.date },
        ],
        p.recent_portfolio,
        'No portfolio companies yet.',
      ),
    ),
    section(
      'Frequent co-investors',
      table(
        [
          { label: 'Investor', cell: (c) => link(c.url, c.name) },
          { label: 'Shared deals', cell: (c) => count(c.shared_deals), num: true },
        ],
        p.co_investors,
        'No co-investors.',
      ),
    ),
    para(`Data as of ${p.as_of}.`, 'muted'),
  );
}

/** The page of a startup profile. */
export function startupPage(s: StartupProfile, summary: string): string {
  return page(
    s.name,
    para(summary, 'summary'),
    para(s.description),
    facts([
      ['Key', s.key],
      ['Website', link(s.website, s.website)],
      ['HQ', raw(`${esc(s.hq_city)}, ${link(countryUrl('', s.hq_country), s.hq_country).html}`)],
      ['Sector', `${s.sector} / ${s.subsector}`],
      ['Tags', s.tags.join(', ')],
      ['Stage', s.stage],
      ['Status', s.status],
      ['Founded', s.founded_year],
      ['Total raised', usd(s.total_raised_usd)],
      ['Investors', count(s.investors_count)],
    ]),
    section(
      'Founders',
      table(
        [
          { label: 'Name', cell: (f) => f.name },
          { label: 'Role', cell: (f) => f.role ?? '' },
        ],
        s.founders,
      ),
    ),
    section(
      'Funding rounds',
      table(
        [
          { label: 'Date', cell: (r) => r.date },
          { label: 'Stage', cell: (r) => r.stage },
          { label: 'Amount', cell: (r) => usd(r.amount_usd), num: true },
          { label: 'Lead', cell: (r) => refs(r.lead_investors) },
          { label: 'Other investors', cell: (r) => refs(r.other_investors) },
        ],
        s.rounds,
        'No funding rounds recorded.',
      ),
    ),
  );
}

/** The page of a country overview. */
export function countryPage(o: CountryOverview, summary: string): string {
  const maxCapital = max(o.by_year.map((y) => y.capital_usd));
  const pct = (v: number | null) => (v === null ? '—' : signedPct(v));
  return page(
    `${o.country}: venture market`,
    para(summary, 'summary'),
    facts([
      ['Region', `${o.region ?? ''}${o.subregion ? ` (${o.subregion})` : ''}`],
      ['Period', `${o.period.from} to ${o.period.to}`],
      ['Deals', count(o.totals.deals)],
      ['Capital', usd(o.totals.capital_usd)],
      ['Startups funded', count(o.totals.startups_funded)],
      ['Median round', o.median_round_usd === null ? '—' : usd(o.median_round_usd)],
      ['Mega-rounds (≥ $100M)', count(o.mega_rounds)],
    ]),
    section(
      'Deals and capital by year',
      table(
        [
          { label: 'Year', cell: (y) => `${y.year}${y.partial ? ' (to date)' : ''}` },
          { label: 'Deals', cell: (y) => count(y.deals), num: true },
          { label: 'Deals YoY', cell: (y) => pct(y.yoy_deals_pct), num: true },
          { label: 'Capital', cell: (y) => bar(y.capital_usd, maxCapital, usd(y.capital_usd)) },
          { label: 'Capital YoY', cell: (y) => pct(y.yoy_capital_pct), num: true },
          {
            label: 'Median round',
            cell: (y) => (y.median_round_usd === null ? '—' : usd(y.median_round_usd)),
            num: true,
          },
          { label: 'Mega-rounds', cell: (y) => count(y.mega_rounds), num: true },
        ],
        o.by_year,
      ),
      para(
        'The YoY change of a year still in progress compares with the same period of the previous year.',
        'muted',
      ),
    ),
    section(
      `Stage mix (${o.recent_period.from} to ${o.recent_period.to})`,
      table(
        [
          { label: 'Stage', cell: (s) => s.stage },
          { label: 'Deals', cell: (s) => count(s.deals), num: true },
          { label: 'Capital', cell: (s) => usd(s.capital_usd), num: true },
          { label: 'Share of deals', cell: (s) => `${s.share_pct}%`, num: true },
        ],
        o.stage_mix,
        'No deals in this period.',
      ),
    ),
    section(
      'Top sectors',
      table(
        [
          { label: 'Sector', cell: (s) => s.sector },
          { label: 'Deals', cell: (s) => count(s.deals), num: true },
          { label: 'Capital', cell: (s) => usd(s.capital_usd), num: true },
          { label: 'Share of deals', cell: (s) => `${s.share_pct}%`, num: true },
        ],
        o.top_sectors,
        'No deals in this period.',
      ),
    ),
    section(
      'Most active investors',
      table(
        [
          { label: 'Investor', cell: (i) => link(i.url, i.name) },
          { label: 'Type', cell: (i) => i.investor_type },
          { label: 'HQ', cell: (i) => i.hq_country },
          { label: 'Deals', cell: (i) => count(i.deals), num: true },
          { label: 'As lead', cell: (i) => count(i.lead_deals), num: true },
        ],
        o.most_active_investors,
        'No investors in this period.',
      ),
    ),
    section(
      'Largest rounds',
      table(
        [
          { label: 'Startup', cell: (r) => link(r.url, r.startup_name) },
          { label: 'Stage', cell: (r) => r.stage },
          { label: 'Amount', cell: (r) => usd(r.amount_usd), num: true },
          { label: 'Date', cell: (r) => r.date },
          { label: 'Lead', cell: (r) => r.lead_investor ?? '—' },
        ],
        o.largest_rounds,
        'No rounds in this period.',
      ),
    ),
    para(`Data as of ${o.as_of}.`, 'muted'),
  );
}
