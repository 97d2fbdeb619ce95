/** The notable startups of a country's PDF section: sector, stage, HQ and their rounds. */
import { moneyHeader, moneyUnit, stageLabel, type MoneyUnit } from '../../../reports/editorial.js';
import { formatDate } from '../../../reports/format.js';
import type { CountrySection } from './model.js';
import { headedTable, inUnit, link, MAX_TABLE_ROWS } from './pdf-layout.js';
import type { Ctx } from './pdf-layout.js';

type Startup = CountrySection['notable_startups'][number];

/**
 * A country's notable startups as the PDF and the interactive page both show them: the first
 * MAX_TABLE_ROWS, the units of the two money columns, and each startup's cells after its name
 * (sector, stage, HQ, raised, last round, its date).
 */
export function notableStartupRows(c: CountrySection): {
  startups: Startup[];
  raisedUnit: MoneyUnit;
  lastUnit: MoneyUnit;
  cells: (s: Startup) => string[];
} {
  const startups = c.notable_startups.slice(0, MAX_TABLE_ROWS);
  const raisedUnit = moneyUnit(startups.map((s) => s.total_raised_usd));
  const lastUnit = moneyUnit(startups.map((s) => s.last_round_amount_usd));
  const cells = (s: Startup) => [
    s.sector ?? '—',
    stageLabel(s.stage),
    s.hq_city ?? '—',
    inUnit(s.total_raised_usd, raisedUnit),
    inUnit(s.last_round_amount_usd, lastUnit),
    s.last_round_date ? formatDate(s.last_round_date) : '—',
  ];
  return { startups, raisedUnit, lastUnit, cells };
}

export function notableStartups(ctx: Ctx, c: CountrySection): void {
  const { startups, raisedUnit, lastUnit, cells } = notableStartupRows(c);
  headedTable(
    ctx,
    'Notable startups',
    [
      { header: 'Startup', width: 1.5 },
      { header: 'Sector', width: 1.9 },
      { header: 'Stage', width: 0.95 },
      { header: 'HQ', width: 1.05 },
      { header: moneyHeader('Raised', raisedUnit), width: 0.9, align: 'right' },
      { header: moneyHeader('Last round', lastUnit), width: 1.05, align: 'right' },
      // Wide enough for "13 Apr 2025" on one line (a date is never split).
      { header: 'Last round date', width: 1.15, align: 'right' },
    ],
    startups.map((s) => [s.name, ...cells(s)]),
    {
      links: startups.map((s) => [link(ctx, s.website) ?? link(ctx, s.url)]),
      emptyText: 'No startups returned.',
    },
  );
}
