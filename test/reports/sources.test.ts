/**
 * The pieces every report's provenance is written with (reports/sources.ts): the parameters of a
 * stored answer as one line without a secret-like name, source ids as short spans, the mark of
 * a computed figure, a Source cell, a chart's caption.
 */
import { describe, expect, test } from 'vitest';
import {
  computedFrom,
  EARLIER_RUN,
  paramsText,
  sourceCaption,
  sourceCell,
  sourceSpan,
} from '../../reports/sources.js';
import type { SourceRow } from '../../shared/types.js';

describe('parameters on the Sources sheet', () => {
  test("a record's key and an organisation's key are shown; names of secrets are not", () => {
    expect(
      paramsText({
        key: 'ledgerly',
        org_key: 'brightline-legal',
        api_key: 'vis_live_x',
        'X-API-Key': 'k',
        access_token: 't',
        client_secret: 's',
        password: 'p',
        countries: ['DE', 'FR'],
        offset: 0,
        limit: undefined,
      }),
    ).toBe('key=ledgerly; org_key=brightline-legal; countries=["DE","FR"]; offset=0');
    expect(paramsText({})).toBe('(none)');
  });
});

test('source ids as spans, each once, in order; anything else left out', () => {
  expect(sourceSpan(['S3', 'S1', 'S2', 'S7', 'S2', null, '', 'earlier run'])).toBe('S1–S3, S7');
  expect(sourceSpan([])).toBe('');
});

test('a computed figure names its answers and what else it used', () => {
  expect(computedFrom(['S2', 'S1'], "the previous run's snapshot")).toBe(
    "Computed by the runner from S1–S2 and the previous run's snapshot",
  );
  expect(computedFrom([], 'earlier runs')).toBe('Computed by the runner from earlier runs');
  expect(computedFrom([null])).toBe('Computed by the runner');
});

test('a Source cell and a caption; none for a report stored before sources were kept', () => {
  const row = (id: string, operation: SourceRow['operation']): SourceRow => ({
    id,
    operation,
    params: {},
    fetchedAt: '2026-11-26T00:00:00Z',
    credits: 0,
    status: 200,
    records: 1,
    ref: `runs/r/${id}.json`,
  });
  const sources = [row('S1', 'find_startups_for_fund'), row('S2', 'get_startup'), row('S3', 'get_startup')];
  expect(sourceCell(sources, ['S3', 'S2'], [EARLIER_RUN])).toBe('earlier run; S2–S3');
  expect(sourceCell(undefined, ['S1'])).toBeNull();
  expect(sourceCaption(sources, ['S1', 'S2', 'S3'])).toBe(
    'Source: find_startups_for_fund (S1); get_startup (S2–S3)',
  );
  expect(sourceCaption(undefined, ['S1'])).toBeNull();
});
