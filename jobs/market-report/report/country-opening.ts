/**
 * The opening of a country's section in the PDF: the country's heading and interactive view,
 * its key figures (year to date and last full year), the service's summary with the section's
 * facts, and what the service did not provide.
 */
import { moneyUnit, readerSentence, yearLabel } from '../../../reports/editorial.js';
import { formatDate, formatInt } from '../../../reports/format.js';
import type { KeyFigure } from '../../../reports/pdf/index.js';
import { money, withTrend } from './figures.js';
import type { CountryFigures } from './figures.js';
import type { CountrySection } from './model.js';
import { link, MUTED, pct } from './pdf-layout.js';
import type { Ctx } from './pdf-layout.js';

export function countryOpening(ctx: Ctx, c: CountrySection, f: CountryFigures): void {
  const { pdf } = ctx;
  pdf.heading(c.country, 1);
  const url = link(ctx, c.url);
  if (url) pdf.paragraph(`Interactive country view: ${url}`, { size: 8, link: url, gap: 6 });
  countryKeyFigures(ctx, f);
  countryProse(ctx, c, f);
}

/** The four tiles: deals and capital of the year to date and of the last full year. */
function countryKeyFigures(ctx: Ctx, f: CountryFigures): void {
  const asOf = ctx.model.period.asOf;
  const ytdLabel = yearLabel(f.ytdYear, asOf);
  const ytdNote = (p: number | null): Pick<KeyFigure, 'note' | 'trend'> =>
    // The tile's label names the year to date; "same period" is of the year before (fits the tile).
    p != null ? withTrend(p, 'vs same period') : { note: `to ${formatDate(asOf)}` };
  const tileUnit = moneyUnit([f.lastFull.capital, f.ytd.capital]);
  ctx.pdf.keyFigures(
    [
      { label: `Deals ${ytdLabel}`, value: formatInt(f.ytd.deals), ...ytdNote(f.ytd.dealsYoy) },
      { label: `Capital ${ytdLabel}`, value: money(f.ytd.capital, tileUnit), ...ytdNote(f.ytd.capitalYoy) },
      {
        label: `Deals ${f.lastFullYear}`,
        value: formatInt(f.lastFull.deals),
        ...withTrend(f.lastFull.dealsYoy),
      },
      {
        label: `Capital ${f.lastFullYear}`,
        value: money(f.lastFull.capital, tileUnit),
        ...withTrend(f.lastFull.capitalYoy),
      },
    ],
    4,
  );
}

/** The service's summary, the section's facts in a sentence each, and what was not provided. */
function countryProse(ctx: Ctx, c: CountrySection, f: CountryFigures): void {
  const { pdf } = ctx;
  const prose: string[] = [];
  if (c.summary) prose.push(readerSentence(c.summary.trim()));
  const facts = [
    f.earlyShare !== null
      ? `Seed and earlier rounds make up ${pct(f.earlyShare)} of deals over the last three years.`
      : '',
    f.topSector ? `The leading sector is ${f.topSector}.` : '',
    f.topInvestor ? `The most active investor over the last three years is ${f.topInvestor}.` : '',
    c.as_of ? `Country data as of ${formatDate(c.as_of)}.` : '',
  ].filter(Boolean);
  if (facts.length > 0) prose.push(facts.join(' '));
  for (const p of prose) pdf.paragraph(p);
  if (c.not_provided && c.not_provided.length > 0)
    pdf.paragraph(`Not provided by the service: ${c.not_provided.join('; ')}.`, { size: 8, color: MUTED });
}
