/**
 * The words of the fund-match digest, written once for the PDF and the workbook: the title and
 * the line under it, the baseline and quiet sentences, a drop reason and a watchlist event's kind
 * in words, fit and rank changes with their sign, and names as the report's font can print them.
 */
import { printableName, printableText, STAND_IN_MARK } from '../../../reports/fonts.js';
import { formatFit, readerSentence, stageLabel } from '../../../reports/editorial.js';
import { formatDate } from '../../../reports/format.js';
import type { FundDigest } from '../digest.js';
import type { DropReason, WatchEvent, WatchKind } from '../history.js';

/** The line a baseline digest carries under its title. */
export const BASELINE_LINE = 'Baseline: the first run of this job; the next runs will say what changed.';

/** A drop reason as a partner says it. */
export const DROP_REASONS: Record<DropReason, string> = {
  status: 'Status changed',
  stage: 'Moved past the thesis stages',
  round: 'Raised a new round',
  outranked: 'Outranked',
};

/** A watchlist event's kind in words. */
export const EVENT_KINDS: Record<WatchKind, string> = {
  status: 'Status change',
  round: 'New round',
  stage: 'Stage change',
};

/** The title as printed: the job's title, or a default. */
export function digestTitle(digest: FundDigest): string {
  return digest.job.title.trim() || 'Fund matches';
}

/** The run before this one (null on a baseline). */
export function previousRun(digest: FundDigest): { run: number; date: string } | null {
  return digest.baseline ? null : (digest.runs.at(-2) ?? null);
}

/** The line under the title: the fund, the run's date and number, what it is compared with. */
export function digestSubtitle(digest: FundDigest): string {
  const before = previousRun(digest);
  return [
    digest.fundName ?? 'the fund of the account',
    `matches of ${formatDate(digest.date)}`,
    `run ${digest.run}`,
    before ? `compared with the run of ${formatDate(before.date)}` : null,
    `job ${digest.job.id}`,
  ]
    .filter((p): p is string => p !== null)
    .join(' · ');
}

/** What a quiet run says: nothing new, changed, dropped, and no event since the last run. */
export function quietLine(digest: FundDigest): string {
  const before = previousRun(digest);
  return (
    `Nothing changed since the run of ${formatDate(before?.date ?? null)}: no new match, no fit or ` +
    'rank change, no startup dropped and no watchlist event.'
  );
}

/** A fit as every report prints it (formatFit), one decimal always: `87.5%`, `94.0%`. */
export function fitText(fit: number | null): string {
  return formatFit(fit);
}

/** A reason that only restates a criterion of the thesis (`a thesis sector`, `in the thesis stages (…)`). */
const THESIS_ONLY = /\bthesis (sector|country|countries|region|stage|stages|geography)\b|\bin the thesis\b/i;

/**
 * The service's reasons, the most telling first: every startup of a batch meets the thesis, so a
 * reason that only says so ("a thesis sector") tells a partner least; reasons with figures,
 * momentum or a portfolio comparison come first, each group in the service's order.
 */
export function tellingFirst(reasons: readonly string[]): string[] {
  const rank = (r: string): number => (THESIS_ONLY.test(r) ? 1 : 0);
  return reasons
    .map((r, i) => ({ r, i }))
    .sort((a, b) => rank(a.r) - rank(b.r) || a.i - b.i)
    .map((x) => x.r);
}

/** Service text about a stage, in words (`series-b` -> `Series B`); `—` when none. */
export function stageText(stage: string | null | undefined): string {
  return stage ? printableText(stageLabel(stage)) : '—';
}

/** A run's date as headers and axes print it: `26 Nov 2026`, and `(run 2)` when two runs share a date. */
export function runLabels(runs: readonly { run: number; date: string }[]): string[] {
  return runs.map((r) =>
    runs.filter((o) => o.date === r.date).length > 1
      ? `${formatDate(r.date)} (run ${r.run})`
      : formatDate(r.date),
  );
}

/** A fit change in points with its sign, one decimal: `+2.5`, `−3.0`, `0.0`; `—` when unknown. */
export function fitChangeText(change: number | null): string {
  if (change === null || !Number.isFinite(change)) return '—';
  const n = Math.abs(change).toFixed(1);
  return change > 0 && n !== '0.0' ? `+${n}` : change < 0 && n !== '0.0' ? `−${n}` : '0.0';
}

/** A rank change with an arrow: `↑ 3` (up three places), `↓ 1`, `=`. */
export function rankChangeText(change: number): string {
  return change > 0 ? `↑ ${change}` : change < 0 ? `↓ ${-change}` : '=';
}

/** A startup's watchlist events together. */
export interface StartupEvents {
  key: string;
  name: string;
  inBatch: boolean;
  events: WatchEvent[];
}

const KIND_ORDER: Record<WatchKind, number> = { status: 0, round: 1, stage: 2 };

/**
 * The events by startup, the notable first: startups with a status change, then with a new
 * round, then with a stage change only; a startup's events in that order too.
 */
export function notableEvents(events: readonly WatchEvent[]): StartupEvents[] {
  const byKey = new Map<string, StartupEvents>();
  for (const e of events) {
    const s = byKey.get(e.key) ?? { key: e.key, name: e.name, inBatch: e.inBatch, events: [] };
    s.events.push(e);
    byKey.set(e.key, s);
  }
  const first = (s: StartupEvents): number => Math.min(...s.events.map((e) => KIND_ORDER[e.kind]));
  const groups = [...byKey.values()].map((s, i) => ({ s, i }));
  for (const { s } of groups) s.events.sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind]);
  return groups.sort((a, b) => first(a.s) - first(b.s) || a.i - b.i).map((g) => g.s);
}

/** Where a startup with events stands: in the batch, dropped by this run, or matched before. */
export function whereNow(digest: FundDigest, s: { key: string; inBatch: boolean }): string {
  if (s.inBatch) return 'in the batch';
  return digest.dropped.some((d) => d.key === s.key) ? 'dropped from the batch' : 'matched before';
}

/** A name as the PDF and the charts print it: itself, or its key marked when the font lacks its script. */
export function printedName(name: string, key: string): string {
  return printableName(name, key);
}

/** What a text the font cannot draw is printed as. */
const UNPRINTABLE = '[…]';

/**
 * The service's words about a startup (a reason, a note, a conflict, an event) as the PDF prints
 * them: on one line, stage keys and ISO dates in words (readerSentence), its own name as printed
 * (its key when the font cannot draw it), any other text the font cannot draw as `[…]`.
 */
export function serviceText(text: string, startup: { name: string; key: string }): string {
  const name = startup.name.trim();
  const shown = printedName(startup.name, startup.key);
  return printableText(
    readerSentence(name && shown !== name ? text.replaceAll(name, shown) : text),
    UNPRINTABLE,
  );
}

/**
 * The sentence under a table whose rows print a name as its key (or other text as `[…]`), in a
 * list of one; an empty list when no row does.
 */
export function standInNote(rows: readonly (readonly string[])[]): string[] {
  const marked = rows.some((r) => r.some((c) => c.includes(STAND_IN_MARK) || c.includes(UNPRINTABLE)));
  return marked
    ? [
        "* A startup's name in a script this report's fonts cannot print is " +
          'printed as its service key, other such text as […]; the workbook has them whole.',
      ]
    : [];
}
