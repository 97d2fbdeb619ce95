/**
 * One country's section of the PDF, its parts in order: the opening (key figures and prose),
 * the overview's tables and charts (years, stages, sectors, most active investors), the top
 * investors, the notable startups, the investor profiles and the service's other charts.
 */
import { countryFigures } from './figures.js';
import type { CountrySection } from './model.js';
import { investorProfiles, topInvestors } from './country-investors.js';
import { countryOpening } from './country-opening.js';
import { activeInvestorsPart, sectorsPart, stagesPart, yearsPart } from './country-overview.js';
import { notableStartups } from './country-startups.js';
import { countryCharts, headed, tableAndCharts } from './pdf-layout.js';
import type { Ctx } from './pdf-layout.js';

export function countrySection(ctx: Ctx, c: CountrySection, index: number): void {
  const f = countryFigures(ctx.model, c);
  countryOpening(ctx, c, f);
  yearsPart(ctx, c, f, index);
  stagesPart(ctx, c, index);
  sectorsPart(ctx, c, index);
  activeInvestorsPart(ctx, c, index);
  topInvestors(ctx, c);
  notableStartups(ctx, c);
  investorProfiles(ctx, c);

  const other = countryCharts(ctx, index, 'other');
  if (other.length > 0)
    headed(ctx, 'Other charts from the service', 2, tableAndCharts(ctx, null, other, false));
}
