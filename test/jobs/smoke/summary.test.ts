/**
 * The smoke kind's summary returns figures of its own (it has no PDF): the startups paged and how
 * many distinct, the search's total, the pages read, whether a profile was read, and a headline.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { LocalStore } from '../../../activities/store.js';
import { createSmokeActivities } from '../../../jobs/smoke/activities.js';
import { expectHeadline } from '../../helpers/opening.js';

const dir = mkdtempSync(join(tmpdir(), 'vir-smoke-summary-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('writeSmokeSummary returns the run in key figures and a headline', async () => {
  const store = new LocalStore(join(dir, 'store'));
  const acts = createSmokeActivities({ store, reportsDir: join(dir, 'reports') });
  const page = (keys: string[], total: number | null) =>
    store.putJson('smoke-1', `pages/${keys[0]}`, {
      operation: 'search_startups',
      params: {},
      fetchedAt: '',
      result: { data: { startups: keys.map((key) => ({ key, name: key })), total } },
    });
  const out = await acts.writeSmokeSummary({
    outDir: join(dir, 'out'),
    job: { id: 'smoke-unit', country: 'France' },
    pages: [await page(['a', 'b', 'c'], 1500), await page(['c', 'd'], 1500)],
    total: 1500,
    profile: null,
    date: '2026-11-23',
  });
  const json = JSON.parse(readFileSync(out.files.json!, 'utf8')) as { paged: number; distinct: number };
  expect(json).toMatchObject({ paged: 5, distinct: 4 });
  expect(out.figures).toEqual([
    { label: 'Startups paged', value: '5', note: '4 distinct' },
    { label: 'Search total', value: '1,500', note: 'matching startups' },
    { label: 'Pages read', value: '2' },
    { label: 'Profile read', value: 'No' },
  ]);
  expectHeadline(out.headline);
  expect(out.headline).toBe('Smoke run for France: 5 startups paged (4 distinct) in 2 pages.');
});
