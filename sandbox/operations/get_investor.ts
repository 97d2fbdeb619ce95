import { dataAsOf } from '../queries/as-of.js';
import { count, usdRange } from '../queries/format.js';
import { investorProfile, type InvestorProfile } from '../queries/investors.js';
import { investorUrl } from '../queries/urls.js';
import { SandboxError, type Handler } from '../types.js';

/** "Northwind Ventures (VC, Berlin, Germany): score 87, 142 investments since 2020, mostly … at seed; checks $500K–5M". */
export function investorSummary(investor: InvestorProfile): string {
  const topSector = investor.sector_mix[0];
  const topStage = [...investor.stage_mix].sort((a, b) => b.deals - a.deals)[0];
  const focus = topSector && topStage ? `, mostly ${topSector.sector} at ${topStage.stage}` : '';
  return (
    `${investor.name} (${investor.investor_type}, ${investor.hq_city}, ${investor.hq_country}): score ${investor.score}, ` +
    `${count(investor.investments_count)} investments since 2020${focus}; checks ${usdRange(investor.check_min_usd, investor.check_max_usd)}`
  );
}

/**
 * get_investor: an investor profile by key: thesis, team, HQ, scores, sector and stage mix
 * from its rounds, investments by year, the last 10 portfolio companies and check size.
 * 404 not_found for an unknown key.
 */
export const get_investor: Handler<'get_investor'> = ({ db, params, baseUrl, now }) => {
  const investor = investorProfile(db, params.key, dataAsOf(db, now), baseUrl);
  if (!investor) {
    throw new SandboxError(
      404,
      'not_found',
      `No investor with key '${params.key}'; keys come from search_investors or find_investors`,
    );
  }
  return {
    data: { investor },
    summary: investorSummary(investor),
    charts: [
      {
        type: 'bar',
        title: `${investor.name}: investments by year`,
        xKey: 'year',
        series: [
          { key: 'deals', name: 'Deals', type: 'bar' },
          { key: 'lead_deals', name: 'Led', type: 'bar' },
        ],
        data: investor.investments_by_year,
        unit: 'deals',
      },
      {
        type: 'bar',
        title: `${investor.name}: sector mix`,
        xKey: 'sector',
        series: [{ key: 'deals', name: 'Deals' }],
        data: investor.sector_mix,
        unit: 'deals',
      },
    ],
    url: investorUrl(baseUrl, investor.key),
  };
};
