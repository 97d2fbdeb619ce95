/** The fund-match digest's words: signed changes, the service's text as the font prints it, events by startup. */
import { expect, test } from 'vitest';
import type { WatchEvent } from '../../../../jobs/fund-match/history.js';
import {
  fitChangeText,
  fitText,
  notableEvents,
  rankChangeText,
  serviceText,
  standInNote,
} from '../../../../jobs/fund-match/report/text.js';
import { CJK_KEY, CJK_NAME } from './fixture.js';

test('fits with one decimal, fit changes with their sign, rank changes with arrows', () => {
  expect([fitText(94), fitText(87.46), fitText(null)]).toEqual(['94.0%', '87.5%', '—']);
  expect([
    fitChangeText(3.5),
    fitChangeText(-6),
    fitChangeText(0),
    fitChangeText(0.01),
    fitChangeText(null),
  ]).toEqual(['+3.5', '−6.0', '0.0', '0.0', '—']);
  expect([rankChangeText(11), rankChangeText(-2), rankChangeText(0)]).toEqual(['↑ 11', '↓ 2', '=']);
});

test("the service's text prints the startup's own unprintable name as its key, other such text as […]", () => {
  // Chinese is printable (the fallback chain has Noto Sans CJK); Tamil is in no font of the chain.
  const cjk = { name: CJK_NAME, key: CJK_KEY };
  expect(serviceText(`Check the burn\n(${CJK_NAME}).`, cjk)).toBe(`Check the burn (${CJK_NAME}).`);
  expect(serviceText('Competes with 上海数据 in Shanghai', cjk)).toBe('Competes with 上海数据 in Shanghai');
  const s = { name: 'சென்னை டெக்', key: 'st_chennai' };
  expect(serviceText('Check the burn\n(சென்னை டெக்).', s)).toBe('Check the burn (st_chennai *).');
  expect(serviceText('Competes with சென்னை in Chennai', s)).toBe('Competes with […] in Chennai');
  expect(serviceText('Zürich team', { name: 'Zürich AG', key: 'z' })).toBe('Zürich team');
  expect(standInNote([['1', `${CJK_KEY} *`]])).toHaveLength(1);
  expect(standInNote([['Competes with […]']])).toHaveLength(1);
  expect(standInNote([['1', 'Ledgerline']])).toEqual([]);
});

test('events by startup: status changes first, then new rounds, then stage changes', () => {
  const e = (key: string, kind: WatchEvent['kind']): WatchEvent => ({
    key,
    name: key.toUpperCase(),
    kind,
    from: null,
    to: null,
    detail: `${key} ${kind}`,
    inBatch: false,
  });
  const grouped = notableEvents([
    e('a', 'stage'),
    e('b', 'round'),
    e('b', 'stage'),
    e('c', 'status'),
    e('a', 'round'),
  ]);
  expect(grouped.map((g) => [g.key, g.events.map((x) => x.kind)])).toEqual([
    ['c', ['status']],
    ['a', ['round', 'stage']],
    ['b', ['round', 'stage']],
  ]);
});
