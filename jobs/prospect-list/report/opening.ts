/**
 * What the prospect list's brief opens with, written once for the PDF and the messages that
 * deliver the list: the key figures (the list's size in tiles) and a headline sentence.
 */
import { formatInt, headlineText } from '../../../reports/format.js';
import type { KeyFigure } from '../../../reports/pdf/index.js';
import type { ProspectSummary } from '../types.js';
import { plural } from '../../../reports/editorial.js';
import { measureText } from '../../../reports/fonts.js';
import { leftOutNote, leftOutTileNote, leftOutTotal } from './text.js';
import { keyFigureNoteWidth } from '../../../reports/pdf/index.js';

/** Tiles a row of the brief's key figures holds. */
export const TILES_PER_ROW = 5;

/**
 * The key figures under the brief's title, in order: what the sales lead acts on. The run's
 * credits and calls are not among them (the brief's last section and the manifest have them).
 * The "Left out" tile's note names the counts by reason when they fit the tile whole, and how
 * many reasons otherwise (never a note cut short: the brief's "Left out" section has the counts).
 */
export function openingFigures(summary: ProspectSummary): KeyFigure[] {
  const c = summary.counts;
  return [
    {
      label: 'Companies listed',
      value: formatInt(c.listed),
      note: `of ${formatInt(c.merged)} found`,
    },
    {
      label: 'Left out',
      value: formatInt(leftOutTotal(summary)),
      note: leftOutTileNote(summary, (t) => measureText(t, 7.5) <= keyFigureNoteWidth(TILES_PER_ROW)),
    },
    {
      label: 'Net new',
      value: formatInt(c.netNew),
      note: c.markedDelivered > 0 ? `${formatInt(c.markedDelivered)} delivered before` : 'all new',
    },
    { label: 'Scored by fit', value: formatInt(c.scored), note: `of ${formatInt(c.listed)} listed` },
    { label: 'Enriched', value: formatInt(c.enriched), note: `of the top ${formatInt(c.enrichAsked)}` },
  ];
}

/**
 * The list in a sentence: how many companies, from which sources, how many net new, how many
 * left out. `12 companies listed from 2 briefs and 1 search, 9 of them net new; 3 companies left out
 * (in the CRM export or delivered before).`
 */
export function openingHeadline(summary: ProspectSummary): string {
  const c = summary.counts;
  const from = [
    summary.briefs.length > 0 ? plural(summary.briefs.length, 'brief', 'briefs') : null,
    summary.searches.length > 0 ? plural(summary.searches.length, 'search', 'searches') : null,
  ]
    .filter((x): x is string => x !== null)
    .join(' and ');
  const left = leftOutTotal(summary);
  const listed =
    c.listed === 0
      ? `No company listed${from ? ` from ${from}` : ''}`
      : `${plural(c.listed, 'company', 'companies')} listed${from ? ` from ${from}` : ''}, ` +
        `${formatInt(c.netNew)} of them net new`;
  const leftOut =
    left > 0 ? `; ${plural(left, 'company', 'companies')} left out (${leftOutNote(summary)})` : '';
  return headlineText(`${listed}${leftOut}.`);
}
