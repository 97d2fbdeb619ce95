/**
 * What the fund-match digest opens with, written once for the PDF's first page and the messages
 * that deliver the digest: the key figures (batch, new, changed, dropped, watchlist events) and
 * a headline, the baseline or quiet line the first page prints, or on another run what is new.
 */
import { formatDate, formatInt, headlineText } from '../../../reports/format.js';
import type { KeyFigure } from '../../../reports/pdf/index.js';
import type { FundDigest } from '../digest.js';
import { BASELINE_LINE, previousRun, quietLine } from './text.js';

const plural = (n: number, one: string, many: string): string => `${formatInt(n)} ${n === 1 ? one : many}`;

/** The key figures under the first page's title, in order. */
export function openingFigures(digest: FundDigest): KeyFigure[] {
  const c = digest.counts;
  const before = previousRun(digest);
  const since = before ? `since ${formatDate(before.date)}` : 'first run';
  const statusOrRound = digest.events.filter((e) => e.kind !== 'stage').length;
  return [
    {
      label: 'Batch',
      value: formatInt(c.batch),
      note: digest.baseline ? 'startups matched' : `${formatInt(c.still)} still matched`,
    },
    { label: 'New', value: digest.baseline ? '—' : formatInt(c.new), note: since },
    {
      label: 'Changed',
      value: digest.baseline ? '—' : formatInt(c.changed),
      note: digest.baseline ? since : 'fit ±2 pts or moved',
    },
    { label: 'Dropped', value: digest.baseline ? '—' : formatInt(c.dropped), note: since },
    {
      label: 'Watchlist events',
      value: digest.baseline ? '—' : formatInt(c.events),
      note: digest.baseline ? 'from the next run' : `${formatInt(statusOrRound)} status or round`,
    },
  ];
}

/**
 * What is new since the last run in a sentence (a run neither baseline nor quiet): `Since the run
 * of 9 Nov 2026: 3 new matches, 2 changed, 1 dropped and 4 watchlist events.`, then the portfolio
 * conflicts when the batch has any.
 */
export function whatsNewLine(digest: FundDigest): string {
  const c = digest.counts;
  const parts = [
    c.new > 0 ? plural(c.new, 'new match', 'new matches') : null,
    c.changed > 0 ? `${formatInt(c.changed)} changed` : null,
    c.dropped > 0 ? `${formatInt(c.dropped)} dropped` : null,
    c.events > 0 ? plural(c.events, 'watchlist event', 'watchlist events') : null,
  ].filter((p): p is string => p !== null);
  const list =
    parts.length <= 1 ? (parts[0] ?? 'nothing new') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
  const conflicts = digest.conflicts.length;
  return (
    `Since the run of ${formatDate(previousRun(digest)?.date ?? null)}: ${list}.` +
    (conflicts > 0
      ? ` ${plural(conflicts, 'startup', 'startups')} of the batch ${conflicts === 1 ? 'has' : 'have'} a portfolio conflict.`
      : '')
  );
}

/** The headline: the baseline line with the batch's size, the quiet line, or what is new. */
export function openingHeadline(digest: FundDigest): string {
  if (digest.baseline)
    return headlineText(`${BASELINE_LINE} ${plural(digest.counts.batch, 'startup', 'startups')} matched.`);
  return headlineText(digest.quiet ? quietLine(digest) : whatsNewLine(digest));
}
