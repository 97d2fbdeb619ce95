/**
 * Where the market report's figures come from, as the workbook and the PDF say it: a figure
 * read from a stored answer names it ("Source: country_overview (S1)"), a figure the runner
 * computed (totals across countries, shares, averages, YoY the service did not give, the week
 * and the changes since the previous run) says so ("Computed by the runner from S1, S10").
 * A model stored before sources were kept names no answer: read figures then say nothing,
 * computed ones still say they were computed.
 */
import { COMPUTED_BY_RUNNER, sourceCaption } from '../../../reports/sources.js';
import type { MarketReportModel } from './model.js';

/** The previous run's figures a change is computed against (kept by the runner, not an answer). */
export const PREVIOUS_RUN = "the previous run's snapshot";

/** Known ids among `ids` (nulls and blanks left out). */
export function knownIds(ids: Iterable<string | null | undefined>): string[] {
  return [...ids].filter((id): id is string => typeof id === 'string' && id !== '');
}

/** The country overviews' source ids, in the model's order of countries. */
export function overviewIds(model: MarketReportModel): string[] {
  return knownIds(model.countries.map((c) => c.source));
}

/** "Source: country_overview (S1)" for a figure read from the answers `ids`; '' when none is known. */
export function readNote(model: MarketReportModel, ids: Iterable<string | null | undefined>): string {
  return sourceCaption(model.sources, knownIds(ids)) ?? '';
}

/**
 * What the runner computed rather than read, in a sentence (the methodology's): the figures
 * the workbook marks "Computed by the runner".
 */
export const COMPUTED_FIGURES =
  `The workbook marks "${COMPUTED_BY_RUNNER}" the figures the report derived from the stored answers rather than read from one: ` +
  'totals and their year-on-year changes across the countries, shares of deals, the average deal, a year-on-year ' +
  'change the service did not give, the leading sector, and (against the previous run’s snapshot) the week and ' +
  'what is new or changed since the previous run.';

/** Where a report with sources lists them, in a sentence (`n` stored answers). */
export function sourcesSentence(n: number): string {
  return (
    `The workbook’s Sources sheet lists the ${n} stored answers of the service this report was made from ` +
    '(operation, parameters, time, credits, HTTP status, store reference); every data row names the one it came ' +
    'from in its Source column, and each chart’s caption names those it was drawn from.'
  );
}

/** A row's "Basis": which of its columns the runner computed, or that every figure was read. */
export function basisText(computed: readonly string[]): string {
  return computed.length > 0 ? `${COMPUTED_BY_RUNNER}: ${computed.join(', ')}` : 'As the service gave it';
}

/** An existing note with the source note after it ("added since 22 Nov 2026 · Computed by …"). */
export function withNote(note: string | undefined, source: string): string {
  return [note, source].filter(Boolean).join(' · ');
}
