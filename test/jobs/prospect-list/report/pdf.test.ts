import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalStore } from '../../../../activities/store.js';
import { createProspectListActivities } from '../../../../jobs/prospect-list/activities.js';
import {
  BRIEF_BUDGETS,
  buildProspectBrief,
  MAX_BRIEF_PAGES,
  openingFigures,
  openingHeadline,
  renderProspectCharts,
  writeProspectBrief,
} from '../../../../jobs/prospect-list/report/index.js';
import type { ProspectSummary } from '../../../../jobs/prospect-list/types.js';
import { asFigures, expectHeadline, withKeyFigures } from '../../../helpers/opening.js';
import { pdfPages } from '../../../helpers/reports.js';
import { ACCENT_NAME, CJK_NAME, FORMULA_NAME, MINUS_NAME, prospectSummary } from './fixture.js';

const dir = mkdtempSync(join(tmpdir(), 'prospect-brief-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Writes the brief of `summary` and returns its page count and its text without white space,
 * in drawing order (pdftotext -raw: a table cell's lines stay together).
 */
async function brief(summary: ProspectSummary, name: string): Promise<{ pages: number; text: string }> {
  const path = join(dir, `${name}.pdf`);
  const charts = await renderProspectCharts(summary);
  const { pages } = await writeProspectBrief(summary, path, charts, {
    creationDate: new Date('2026-11-23T06:00:00Z'),
  });
  expect(pdfPages(path)).toBe(pages);
  const text = execFileSync('pdftotext', ['-raw', path, '-'], { encoding: 'utf8' });
  return { pages, text: text.replace(/\s+/g, '') };
}

const squeeze = (s: string) => s.replace(/\s+/g, '');

describe('writeProspectBrief', () => {
  it('prints the title, the sources, the top 25 with their first reason, the charts and what was left out', async () => {
    const summary = prospectSummary();
    const { pages, text } = await brief(summary, 'brief');
    expect(pages).toBeLessThanOrEqual(MAX_BRIEF_PAGES);
    for (const s of [
      'DACH payments prospects',
      'Prospect list of 23 Nov 2026',
      'Sources',
      'brief 2',
      'free: a repeat within 24 hours',
      '1,000 of 12,345',
      'stopped at its cap of 1,000',
      'Top 25 targets',
      FORMULA_NAME,
      MINUS_NAME,
      ACCENT_NAME,
      'Company 25 GmbH',
      'Processes card payments (25)',
      'not scored',
      'The list in charts',
      'Sector mix',
      'Countries: top 12 of 20',
      'Left out and limits',
      '312 companies left out: in the CRM export, matched by domain.',
      'line 12: no domain nor name ("=cmd|\' /C calc\'!A0")',
      'search 1 stopped at its cap of 1,000 rows (12,345 matching).',
    ])
      expect(text, s).toContain(squeeze(s));
    // Rank 26 is not in the top 25.
    expect(text).not.toContain(squeeze('Bare Company 26'));
  });

  it('prints a Chinese name itself (the fallback font draws it): no stand-in, no note', async () => {
    const { text } = await brief(prospectSummary(), 'cjk');
    expect(text).toContain(squeeze(CJK_NAME));
    expect(text).not.toContain(squeeze('company3.de *'));
    expect(text).not.toContain(squeeze("name is in a script this brief's fonts cannot print"));
  });

  it('stays within three pages with long names, long reasons, 40 sources and many limits', async () => {
    const summary = prospectSummary({ stress: true });
    const { pages, text } = await brief(summary, 'stress');
    expect(pages).toBeLessThanOrEqual(MAX_BRIEF_PAGES);
    // The first, fullest layout does not fit; a smaller budget does, and says what it left out.
    expect(
      buildProspectBrief(summary, await renderProspectCharts(summary), BRIEF_BUDGETS[0]!).pageCount,
    ).toBeGreaterThan(MAX_BRIEF_PAGES);
    expect(text).toMatch(/morebriefsandsearches\(theworkbook'sSummarysheetliststhemall\)/);
    // Briefs and searches share the rows the budget leaves.
    expect(text).toContain('brief1');
    expect(text).toContain('search1');
    expect(text).toMatch(/morelimits/);
    expect(text).toContain(squeeze('Company 25 Internationa'));
  });

  it('says there are no scored rows instead of drawing empty score charts', async () => {
    const { pages, text } = await brief(prospectSummary({ unscored: true }), 'unscored');
    expect(pages).toBeLessThanOrEqual(MAX_BRIEF_PAGES);
    expect(text).toContain(squeeze('No scored rows: the briefs scored none of the listed companies'));
  });

  it('writes a short brief for an empty list', async () => {
    const { pages, text } = await brief(prospectSummary({ listed: 0 }), 'empty');
    expect(pages).toBeLessThanOrEqual(2);
    expect(text).toContain(squeeze('The list is empty.'));
    expect(text).toContain(squeeze('No country chart: the list is empty.'));
  });
});

describe('renderProspectList: the key figures and the headline the brief opens with', () => {
  const store = new LocalStore(join(dir, 'store'));
  const acts = createProspectListActivities({ store, reportsDir: join(dir, 'reports') });
  const render = async (summary: ProspectSummary, outputs: ('csv' | 'xlsx' | 'pdf')[], name: string) =>
    withKeyFigures(async () =>
      acts.renderProspectList({
        refs: {
          summaryRef: await store.putJson(name, 'list/summary', summary),
          rowChunks: [await store.putJson(name, 'list/rows-0', summary.top)],
          suppressedChunks: [],
        },
        job: { id: 'dach-payments', outputs, crm: ['hubspot'] },
        date: summary.date,
        workflowId: name,
      }),
    );

  it('returns the tiles the brief drew and the list in a sentence', async () => {
    const summary = prospectSummary();
    const { result: out, drawn } = await render(summary, ['pdf'], 'brief');
    expect(out.files.pdf).toBeDefined();
    expect(drawn[0]).toEqual(openingFigures(summary));
    expect(out.figures).toEqual(asFigures(drawn[0]!));
    expect(out.figures).toEqual([
      { label: 'Companies listed', value: '500', note: '412 left out' },
      { label: 'Net new', value: '450', note: '50 delivered before' },
      { label: 'Scored by fit', value: '60', note: 'of 500 listed' },
      { label: 'Enriched', value: '100', note: 'of the top 100' },
      { label: 'Credits spent', value: '6', note: 'budget 9' },
    ]);
    expectHeadline(out.headline);
    expect(out.headline).toBe(
      '500 companies listed from 2 briefs and 2 searches, 450 of them net new; 412 companies left out ' +
        '(in the CRM export or delivered before).',
    );
  });

  it('returns them when the job asks no PDF, and for an empty list', async () => {
    const summary = prospectSummary();
    const { result: out, drawn } = await render(summary, ['csv'], 'csv-only');
    expect(out.files.pdf).toBeUndefined();
    expect(out.files['csv-hubspot']).toBeDefined();
    expect(drawn).toEqual([]);
    expect(out.figures).toEqual(asFigures(openingFigures(summary)));
    expect(out.headline).toBe(openingHeadline(summary));

    const empty = prospectSummary({ listed: 0 });
    const none = await render(empty, ['pdf'], 'empty');
    expect(none.result.figures).toEqual(asFigures(none.drawn[0]!));
    expect(none.result.figures?.[0]).toEqual({ label: 'Companies listed', value: '0', note: '412 left out' });
    expectHeadline(none.result.headline);
    expect(none.result.headline).toMatch(/^No company listed from 2 briefs and 2 searches/);
  });
});
