/**
 * Reads a stored country overview: its head fields, deals and capital by year, the stage mix,
 * the top sectors and the most active investors. A section the service did not provide is
 * null and named in the findings; rows that cannot be read are left out with a note.
 */
import { readField, readRecord } from '../../api/read.js';
import {
  ACTIVE_INVESTOR_FIELDS,
  MIX_FIELDS,
  OVERVIEW_FIELDS,
  OVERVIEW_SECTIONS,
  SECTOR_LABEL,
  STAGE_LABEL,
  YEAR_FIELDS,
} from '../../api/read-answers.js';
import { Findings } from './read-common.js';

export interface YearItem {
  year: number;
  deals: number;
  capital_usd: number;
  yoy_deals_pct: number | null;
  yoy_capital_pct: number | null;
}
export interface MixItem {
  label: string;
  deals: number;
  capital_usd: number | null;
}
export interface ActiveInvestorItem {
  key: string | null;
  name: string;
  deals: number;
  lead_deals: number | null;
  url: string | null;
}

/** A country overview as read; a section is null when the service did not provide it. */
export interface OverviewRead {
  country: string | null;
  region: string | null;
  as_of: string | null;
  by_year: YearItem[] | null;
  stage_mix: MixItem[] | null;
  top_sectors: MixItem[] | null;
  most_active_investors: ActiveInvestorItem[] | null;
}

/** Reads a section of the overview that is a list of rows; null when not provided. */
function readRows<T>(
  data: unknown,
  section: keyof typeof OVERVIEW_SECTIONS,
  label: string,
  row: (o: unknown) => T | null,
  found: Findings,
): T[] | null {
  const list = readField(data, OVERVIEW_SECTIONS[section]);
  if (list === null) {
    found.missing(label);
    return null;
  }
  const rows = list.map(row).filter((r): r is T => r !== null);
  if (rows.length < list.length)
    found.note(`${list.length - rows.length} rows of the ${label} could not be read and were left out`);
  return rows;
}

function mixRow(labelSpec: typeof STAGE_LABEL) {
  return (o: unknown): MixItem | null => {
    const label = readField(o, labelSpec);
    const m = readRecord(o, MIX_FIELDS);
    return label === null || m.deals === null ? null : { label, deals: m.deals, capital_usd: m.capital_usd };
  };
}

/** Reads a country overview's data (any object, or nothing). */
export function readOverview(data: unknown, found: Findings = new Findings()): OverviewRead {
  const head = readRecord(data, OVERVIEW_FIELDS);
  return {
    ...head,
    by_year: readRows(
      data,
      'by_year',
      'deals and capital by year',
      (o) => {
        const y = readRecord(o, YEAR_FIELDS);
        if (y.year === null || y.deals === null || y.capital_usd === null) return null;
        return { ...y, year: y.year, deals: y.deals, capital_usd: y.capital_usd };
      },
      found,
    ),
    stage_mix: readRows(data, 'stage_mix', 'stage mix', mixRow(STAGE_LABEL), found),
    top_sectors: readRows(data, 'top_sectors', 'top sectors', mixRow(SECTOR_LABEL), found),
    most_active_investors: readRows(
      data,
      'most_active_investors',
      'most active investors',
      (o) => {
        const i = readRecord(o, ACTIVE_INVESTOR_FIELDS);
        if (i.name === null || i.deals === null) return null;
        return { key: i.key, name: i.name, deals: i.deals, lead_deals: i.lead_deals, url: i.url };
      },
      found,
    ),
  };
}
