/**
 * The editorial style's functions (reports/editorial.ts) and links a reader can open
 * (reports/links.ts): stages in words, a year in progress marked YTD, one date format, plurals,
 * fit as a percentage, money in one unit, and no link to a loopback or private address.
 */
import { describe, expect, it } from 'vitest';
import {
  formatDateRange,
  formatFit,
  formatMoneyIn,
  formatPctFixed,
  moneyHeader,
  moneyUnit,
  plural,
  readerSentence,
  stageLabel,
  stagesInWords,
  yearLabel,
} from '../../reports/editorial.js';
import { isPrivateHost, readerUrl } from '../../reports/links.js';

describe('editorial style', () => {
  it('says stages in words', () => {
    expect(
      [
        'pre-seed',
        'seed',
        'series-a',
        'series-b',
        'series-c',
        'series-c-plus',
        'series-d-plus',
        'growth',
      ].map(stageLabel),
    ).toEqual(['Pre-seed', 'Seed', 'Series A', 'Series B', 'Series C', 'Series C+', 'Series D+', 'Growth']);
    expect(stageLabel('Series_F')).toBe('Series F');
    expect(stageLabel('Series A')).toBe('Series A');
    expect(stageLabel('angel-round')).toBe('Angel round');
    expect(stageLabel(null)).toBe('—');
  });

  it('says stage keys inside sentences in words, and leaves URLs and longer keys alone', () => {
    expect(stagesInWords('from pre-seed to series-a; led 3 series-d-plus rounds')).toBe(
      'from Pre-seed to Series A; led 3 Series D+ rounds',
    );
    expect(stagesInWords('Pre-seed and Series A already')).toBe('Pre-seed and Series A already');
    expect(stagesInWords('https://x.io/series-a and series-a-extension')).toBe(
      'https://x.io/series-a and series-a-extension',
    );
  });

  it('marks the year in progress YTD, never a full year', () => {
    expect(yearLabel(2026, '2026-11-26')).toBe('2026 YTD');
    expect(yearLabel(2025, '2026-11-26')).toBe('2025');
    expect(yearLabel('2026', '2026-12-31T00:00:00Z')).toBe('2026');
    expect(yearLabel(2026, null)).toBe('2026');
  });

  it('writes dates and ranges one way', () => {
    expect(formatDateRange('2026-11-20', '2026-11-26')).toBe('20–26 Nov 2026');
    expect(formatDateRange('2026-11-28', '2026-12-04')).toBe('28 Nov – 4 Dec 2026');
    expect(formatDateRange('2025-12-29', '2026-01-04')).toBe('29 Dec 2025 – 4 Jan 2026');
    expect(formatDateRange('2026-11-26', '2026-11-26T10:00:00Z')).toBe('26 Nov 2026');
  });

  it("puts the service's own sentences in words: stages and dates, URLs kept", () => {
    expect(readerSentence('last round seed $9M on 2026-11-26; most recently $9M at seed')).toBe(
      'last round Seed $9M on 26 Nov 2026; most recently $9M at Seed',
    );
    expect(readerSentence('pre-seed round within the thesis stages (pre-seed, seed, series-a)')).toBe(
      'Pre-seed round within the thesis stages (Pre-seed, Seed, Series A)',
    );
    expect(readerSentence('a series-d-plus round on 2026-11-22T09:30:00Z')).toBe(
      'a Series D+ round on 22 Nov 2026',
    );
    expect(readerSentence('Series A already, see https://acme.io/series-a/2026-01-02')).toBe(
      'Series A already, see https://acme.io/series-a/2026-01-02',
    );
    expect(readerSentence('ref ABC-2026-11-26 and seed-stage kept')).toBe(
      'ref ABC-2026-11-26 and seed-stage kept',
    );
  });

  it('counts with the right noun, fit as a percentage, money and percentages at one precision', () => {
    expect(plural(1, 'brief')).toBe('1 brief');
    expect(plural(3, 'brief')).toBe('3 briefs');
    expect(plural(1204, 'company', 'companies')).toBe('1,204 companies');
    expect(formatFit(97.46)).toBe('97.5%');
    expect(formatFit(95.8)).toBe('95.8%');
    expect(formatPctFixed(11, true)).toBe('+11.0%');
    expect(formatPctFixed(-0.44, true)).toBe('-0.4%');
    const unit = moneyUnit([63e6, 47.7e6, 9.01e9]);
    expect(unit).toBe('B');
    expect(moneyHeader('Capital', unit)).toBe('Capital ($B)');
    expect([63e6, 9.01e9].map((v) => formatMoneyIn(v, 'M'))).toEqual(['63.0', '9,010.0']);
    expect(formatMoneyIn(9.01e9, 'B', { symbol: true, digits: 2 })).toBe('$9.01B');
    expect(formatMoneyIn(-2.5e6, 'M', { symbol: true })).toBe('-$2.5M');
    expect(formatMoneyIn(0, 'K', { symbol: true })).toBe('$0');
    expect(formatMoneyIn(0, 'K')).toBe('0.0');
  });
});

describe('links a reader can open', () => {
  it('knows loopback, private and local hosts', () => {
    for (const h of [
      '127.0.0.1',
      'localhost',
      'a.localhost',
      '10.1.2.3',
      '172.20.0.5',
      '192.168.1.9',
      '169.254.1.1',
      '[::1]',
      'fd12::1',
      'fe80::1',
      'intranet',
      'vis.internal',
      'box.local',
      '::ffff:10.0.0.1',
    ])
      expect(isPrivateHost(h), h).toBe(true);
    for (const h of ['app.example.com', '8.8.8.8', '172.32.0.1', '2001:db8::1', 'acme.io'])
      expect(isPrivateHost(h), h).toBe(false);
  });

  it('leaves out links to a private service, or rewrites them to its public address', () => {
    const links = { baseUrl: 'http://127.0.0.1:8787', publicUrl: null };
    expect(readerUrl('http://127.0.0.1:8787/v/startups/x', links)).toBeNull();
    expect(
      readerUrl('http://127.0.0.1:8787/v/startups/x', { ...links, publicUrl: 'https://app.vis.io' }),
    ).toBe('https://app.vis.io/v/startups/x');
    expect(readerUrl('http://10.0.0.4/view')).toBeNull();
    expect(readerUrl('https://vis.example.com/v/1', links)).toBe('https://vis.example.com/v/1');
    expect(readerUrl('acme.io')).toBe('https://acme.io');
    expect(readerUrl('javascript:alert(1)')).toBeNull();
    expect(readerUrl(null)).toBeNull();
  });
});
