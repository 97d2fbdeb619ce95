import { describe, expect, it } from 'vitest';
import { parseRateLimitReset, readRateLimit } from '../../api/index.js';

const now = new Date('2026-11-21T23:59:00.000Z');
const at = (iso: string) => new Date(iso);

describe('parseRateLimitReset', () => {
  const cases: [string | null | undefined, Date | null][] = [
    ['30', at('2026-11-21T23:59:30.000Z')],
    ['0', now],
    ['1.5', at('2026-11-21T23:59:01.500Z')],
    [' 60 ', at('2026-11-22T00:00:00.000Z')],
    ['999999999', new Date(now.getTime() + 999_999_999_000)],
    ['1000000000', new Date(1_000_000_000_000)],
    ['1763769600', at('2025-11-22T00:00:00.000Z')],
    ['1763769600.25', new Date(1_763_769_600_250)],
    ['1763769600000', at('2025-11-22T00:00:00.000Z')],
    ['Sun, 22 Nov 2026 00:00:00 GMT', at('2026-11-22T00:00:00.000Z')],
    ['Sunday, 22-Nov-26 00:00:00 GMT', at('2026-11-22T00:00:00.000Z')],
    ['Sun Nov 22 00:00:00 2026', at('2026-11-22T00:00:00.000Z')],
    ['Sun Nov  2 08:49:37 2026', at('2026-11-02T08:49:37.000Z')],
    ['2026-11-22T00:00:00Z', at('2026-11-22T00:00:00.000Z')],
    ['2026-11-22T00:00:00.123Z', at('2026-11-22T00:00:00.123Z')],
    ['2026-11-22T02:00:00+02:00', at('2026-11-22T00:00:00.000Z')],
    ['2026-11-22T02:00:00+0200', at('2026-11-22T00:00:00.000Z')],
    ['2026-11-22T00:00:00', at('2026-11-22T00:00:00.000Z')],
    ['2026-11-22 00:00', at('2026-11-22T00:00:00.000Z')],
    ['2026-11-22', at('2026-11-22T00:00:00.000Z')],
    [null, null],
    [undefined, null],
    ['', null],
    ['   ', null],
    ['-5', null],
    ['soon', null],
    ['1 2 3', null],
    ['30s', null],
    ['NaN', null],
    ['2026-13-45T99:99:99Z', null],
  ];
  for (const [value, expected] of cases) {
    it(`${JSON.stringify(value)} -> ${expected?.toISOString() ?? 'null'}`, () => {
      expect(parseRateLimitReset(value, now)).toEqual(expected);
    });
  }
});

describe('readRateLimit', () => {
  it('reads the X-RateLimit-* headers', () => {
    expect(
      readRateLimit(
        { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '12', 'x-ratelimit-reset': '30' },
        now,
      ),
    ).toEqual({ limit: 60, remaining: 12, resetAt: at('2026-11-21T23:59:30.000Z') });
  });
  it('falls back to RateLimit-* and Retry-After, takes the first of repeated headers', () => {
    expect(
      readRateLimit(
        { 'ratelimit-limit': ['5000', '60'], 'ratelimit-remaining': '0', 'retry-after': '10' },
        now,
      ),
    ).toEqual({
      limit: 5000,
      remaining: 0,
      resetAt: at('2026-11-21T23:59:10.000Z'),
    });
  });
  it('gives nulls for absent or unreadable values', () => {
    expect(readRateLimit({ 'x-ratelimit-limit': 'many', 'x-ratelimit-remaining': '-1' }, now)).toEqual({
      limit: null,
      remaining: null,
      resetAt: null,
    });
  });
});
