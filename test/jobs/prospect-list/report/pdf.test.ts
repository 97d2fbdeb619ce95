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
import { noSourcesNote } from '../../../../reports/sources.js';
import { ACCENT_NAME, CJK_NAME, FIXTURE_RUN, FORMULA_NAME, MINUS_NAME, prospectSummary } from './fixture.js';

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
    runKey: FIXTURE_RUN,
  });
  expect(pdfPages(path)).toBe(pages);
  const text = execFileSync('pdftotext', ['-raw', path, '-'], { encoding: 'utf8' });
  return { pages, text: text.replace(/\s+/g, '') };
}

const squeeze = (s: string) => s.replace(/\s+/g, '');

describe('writeProspectBrief', () => {
  /** The fixture's brief, written once for the tests that read it. */
  let written: ReturnType<typeof brief> | undefined;
  const fixtureBrief = () => (written ??= brief(prospectSummary(), 'brief'));

  it('prints the title, the sources, the top targets with their reasons whole, the charts and what was left out', async () => {
    const { pages, text } = await fixtureBrief();
    expect(pages).toBeLessThanOrEqual(MAX_BRIEF_PAGES);
    for (const s of [
      'DACH payments prospects',
      'Prospect list of 23 Nov 2026',
      'no closed or acquired company',
      'Sources',
      'brief 2',
      'free: a repeat within 24 hours',
      '1,000 of 12,345',
      'stopped at its cap of 1,000',
      // The search's stages in words, as the workflow writes its filters.
      'Finance & Blockchain · Seed, Series A',
      FORMULA_NAME,
      MINUS_NAME,
      ACCENT_NAME,
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
    // As many targets as three pages hold with every reason whole: each row's reasons all
    // there, its last round's date in the report's format; the next rank is not printed.
    const shown = Number(/Top(\d+)of500targets/.exec(text)?.[1]);
    expect(shown).toBeGreaterThanOrEqual(10);
    for (let rank = 6; rank <= shown; rank++)
      expect(text, `rank ${rank}`).toContain(squeeze(`Company ${rank} GmbH`));
    expect(text).toContain(squeeze(`Processes card payments (${shown}) · Hiring a payments team`));
    expect(text).toContain(
      squeeze('Processes card payments (6) · Hiring a payments team · Last round 15 Jul 2025 (Pre-seed).'),
    );
    expect(text).not.toContain(squeeze(`Company ${shown + 1} GmbH`));
    expect(text).not.toContain('…');
  });

  it("names each chart's answers under it and lists the stored answers by operation in the appendix", async () => {
    const { text } = await fixtureBrief();
    // The briefs and searches keep their own heading: "Sources" is the stored answers'.
    expect(text).toContain(squeeze('Briefs and searches'));
    // Stage, sector and country count every row (all the answers); fit and momentum are the
    // briefs' scores.
    expect(text.split(squeeze('Source: all stored answers (S1–S117)')).length - 1).toBe(3);
    expect(text.split(squeeze('Source: find_customers (S1–S2)')).length - 1).toBe(2);
    const appendix = text.slice(text.indexOf('Appendix:therun'));
    expect(appendix).toContain(
      squeeze(
        'Sources 117 stored answers of the service: find_customers 2 (S1–S2), search_startups 15 (S3–S17), get_startup 100 (S18–S117).',
      ),
    );
    expect(appendix).toContain(squeeze("The workbook's Sources sheet lists each"));
  });

  it('draws the table of stored answers by operation where the brief has room for it', async () => {
    // A short list: its brief has room for the table.
    const { pages, text } = await brief(prospectSummary({ listed: 8 }), 'short');
    expect(pages).toBeLessThanOrEqual(MAX_BRIEF_PAGES);
    const appendix = text.slice(text.indexOf('Appendix:therun'));
    expect(appendix).toContain(squeeze('Operation Answers Records Credits Sources sheet rows'));
    expect(appendix).toContain(squeeze('find_customers 2 60 3 S1–S2'));
    expect(appendix).toContain(squeeze('get_startup 8 8 0 S18–S25'));
  });

  it('renders a list stored before sources were kept: no captions, the appendix says why', async () => {
    const { pages, text } = await brief(prospectSummary({ legacy: true }), 'legacy');
    expect(pages).toBeLessThanOrEqual(MAX_BRIEF_PAGES);
    expect(text).not.toContain('Source:');
    expect(text).toContain(squeeze(`Sources ${noSourcesNote(FIXTURE_RUN)}`));
  });

  it('prints a Chinese name itself (the fallback font draws it): no stand-in, no note', async () => {
    const { text } = await fixtureBrief();
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
    // The names are long but whole (they wrap): the last target's too.
    const shown = Number(/Top(\d+)of500targets/.exec(text)?.[1]);
    expect(shown).toBeGreaterThanOrEqual(10);
    expect(text).toContain(squeeze(`Company ${shown} Internationale Zahlungsverkehrs-`));
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
    // The run's credits are not a tile (the brief's appendix has them); the left-out counts
    // are a tile whose note fits it whole: the two reasons' counts do not, so it says how many
    // reasons (the "Left out" section has each count).
    expect(out.figures).toEqual([
      { label: 'Companies listed', value: '500', note: 'of 912 found' },
      { label: 'Left out', value: '412', note: 'for 2 reasons' },
      { label: 'Net new', value: '450', note: '50 delivered before' },
      { label: 'Scored by fit', value: '60', note: 'of 500 listed' },
      { label: 'Enriched', value: '100', note: 'of the top 100' },
    ]);
    expectHeadline(out.headline);
    expect(out.headline).toBe(
      '500 companies listed from 2 briefs and 2 searches, 450 of them net new; 412 companies left out ' +
        '(353 in the CRM, 59 delivered before).',
    );
  });

  it('writes the "Left out" note whole: the counts when they fit the tile, else the reasons', () => {
    const note = (counts: Partial<ProspectSummary['counts']>) => {
      const base = prospectSummary();
      const zero = { suppressedByDomain: 0, suppressedByName: 0, suppressedDelivered: 0 };
      const s = { ...base, counts: { ...base.counts, ...zero, ...counts } };
      return openingFigures(s).find((f) => f.label === 'Left out')!.note;
    };
    expect(note({ suppressedByDomain: 3 })).toBe('3 in the CRM');
    expect(note({ leftOutClosed: 7 })).toBe('7 closed');
    // Two counts are wider than a fifth of the page: how many reasons, never a cut note.
    expect(note({ leftOutClosed: 7, leftOutAcquired: 2 })).toBe('for 2 reasons');
    // One reason too long for the tile: its words alone (the tile's value is its count).
    expect(note({ leftOutRaisedBefore: 136 })).toBe('no round in the period');
    // The demo's counts (71 closed, 36 acquired, 136 last round too old) do not fit whole.
    expect(note({ leftOutClosed: 71, leftOutAcquired: 36, leftOutRaisedBefore: 136 })).toBe('for 3 reasons');
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
    expect(none.result.figures?.[0]).toEqual({
      label: 'Companies listed',
      value: '0',
      note: `of ${empty.counts.merged.toLocaleString('en-US')} found`,
    });
    expectHeadline(none.result.headline);
    expect(none.result.headline).toMatch(/^No company listed from 2 briefs and 2 searches/);
  });
});
