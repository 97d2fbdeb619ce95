/**
 * The investor parts of a country's PDF section: the top investors by score and by
 * investments (all time), and the profiles of the investors the run enriched.
 */
import { stageLabel } from '../../../reports/editorial.js';
import { formatDate, formatInt, formatNumber } from '../../../reports/format.js';
import { money } from './figures.js';
import type { CountrySection, InvestorRow } from './model.js';
import { headedTable, link, MAX_TABLE_ROWS, MUTED } from './pdf-layout.js';
import type { Ctx } from './pdf-layout.js';

/** "San Francisco" in a section about the city's own country, else "San Francisco, United States". */
function hqText(
  city: string | null | undefined,
  country: string | null | undefined,
  section: string,
): string {
  const sameCountry = !!country && country.trim().toLowerCase() === section.trim().toLowerCase();
  return [city, sameCountry && city ? null : country].filter(Boolean).join(', ') || '—';
}

function investorTable(ctx: Ctx, title: string, rows: InvestorRow[], section: string): void {
  const list = rows.slice(0, MAX_TABLE_ROWS);
  headedTable(
    ctx,
    title,
    [
      { header: '#', width: 0.35, align: 'right' },
      { header: 'Investor', width: 2.8 },
      { header: 'Type', width: 1.2 },
      { header: 'HQ', width: 1.6 },
      { header: 'Score', width: 0.7, align: 'right' },
      { header: 'Investments, all time', width: 1.15, align: 'right' },
    ],
    list.map((r, i) => [
      String(i + 1),
      r.name,
      r.type ?? '—',
      hqText(r.hq_city, r.hq_country, section),
      formatNumber(r.score, 1),
      formatInt(r.investments),
    ]),
    { links: list.map((r) => [null, link(ctx, r.url)]), emptyText: 'No investors returned.' },
  );
}

/** The top investors by score, then by investments (all time). */
export function topInvestors(ctx: Ctx, c: CountrySection): void {
  investorTable(ctx, 'Top investors by score', c.top_investors_by_score, c.country);
  investorTable(ctx, 'Top investors by investments, all time', c.top_investors_by_investments, c.country);
}

/** Each enriched investor: name, type and HQ, its thesis and its recent portfolio. */
export function investorProfiles(ctx: Ctx, c: CountrySection): void {
  const { pdf } = ctx;
  const profiles = c.profiles ?? [];
  if (profiles.length > 0) {
    pdf.heading('Investor profiles', 2, { keepWith: 80 });
    for (const p of profiles) {
      pdf.heading([p.name, p.type, p.hq].filter(Boolean).join(' · '), 3, { keepWith: 40 });
      if (p.thesis) pdf.paragraph(p.thesis, { size: 8.5, gap: 3 });
      const portfolio = (p.recent_portfolio ?? []).slice(0, 8);
      if (portfolio.length > 0) {
        const items = portfolio.map((r) => {
          const detail = [
            r.stage ? stageLabel(r.stage) : null,
            typeof r.amount_usd === 'number' ? money(r.amount_usd) : null,
            r.date ? formatDate(r.date) : null,
          ]
            .filter(Boolean)
            .join(', ');
          return detail ? `${r.name} (${detail})` : r.name;
        });
        pdf.paragraph(`Recent portfolio: ${items.join('; ')}.`, { size: 8, color: MUTED });
      }
    }
  }
}
