/**
 * The shortlist's PDF read back: the opening (baseline line, plan note, credits, the companies
 * at a glance, the investors on several lists), each company's ranked investors with the NEW
 * marks, its charts or why one is left out, the full report's link (http(s) only) and the
 * sentence of a company without a list.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalStore } from '../../../../activities/store.js';
import { createInvestorShortlistActivities } from '../../../../jobs/investor-shortlist/activities.js';
import {
  BASELINE_LINE,
  openingFigures,
  openingHeadline,
  renderShortlistCharts,
  writeShortlistReport,
} from '../../../../jobs/investor-shortlist/report/index.js';
import type { ShortlistReport } from '../../../../jobs/investor-shortlist/types.js';
import { asFigures, expectHeadline, withKeyFigures } from '../../../helpers/opening.js';
import { pdfPages, pdfText } from '../../../helpers/reports.js';
import { CJK_KEY, CJK_NAME, shortlistReport } from './fixture.js';

const dir = mkdtempSync(join(tmpdir(), 'shortlist-pdf-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** pdftotext's text on one line a run of spaces, for phrases that may wrap in a cell. */
const flat = (text: string): string => text.replace(/\s+/g, ' ');

describe('writeShortlistReport', () => {
  let second: { text: string; pages: number; written: number };
  let baseline: { text: string };
  beforeAll(async () => {
    const report = shortlistReport();
    const path = join(dir, 'second.pdf');
    const { pages } = await writeShortlistReport(report, path, await renderShortlistCharts(report));
    second = { text: pdfText(path), pages: pdfPages(path), written: pages };
    const base = shortlistReport({ baseline: true });
    const basePath = join(dir, 'baseline.pdf');
    await writeShortlistReport(base, basePath, await renderShortlistCharts(base));
    baseline = { text: pdfText(basePath) };
  });

  it('opens with the title, the plan note, the credits and the companies at a glance', () => {
    const t = flat(second.text);
    expect(second.pages).toBe(second.written);
    expect(t).toContain('Portfolio raises: investor shortlist');
    expect(t).toContain('Your plan limits this run');
    expect(t).toContain('Credits spent: 2 of a budget of 10.');
    expect(t).toContain('Your companies at a glance');
    expect(t).not.toContain(BASELINE_LINE);
  });

  it('marks the investors new since the last run, and only those', () => {
    const t = second.text;
    const newLines = t.split('\n').filter((l) => /\bNEW\b/.test(l) && /\d+\.\d%/.test(l));
    // 3 new on the first list, 1 on the second.
    expect(newLines).toHaveLength(4);
    expect(newLines.some((l) => l.includes('Harbor Seed'))).toBe(true);
    expect(newLines.some((l) => l.includes(CJK_NAME))).toBe(true);
    expect(newLines.some((l) => l.includes('Northwind'))).toBe(false);
    expect(flat(t)).toContain("NEW: not on this company's list at the job's last run.");
  });

  it('lists the investors who fit several companies, the Chinese name itself (the fallback font draws it)', () => {
    const t = flat(second.text);
    expect(t).toContain('Investors who fit several of your companies (6)');
    expect(t).toMatch(/Harbor Seed Partners 2 Ledgerline, Quantora Health \/ Diagnostics 92\.2%/);
    expect(t).toContain('=HYPERLINK');
    expect(t).toContain(CJK_NAME);
    expect(t).not.toContain(`${CJK_KEY} *`);
  });

  it("shows each company's section: asked, read as, charts, the left-out chart, the full report's link", () => {
    const t = flat(second.text);
    expect(t).toContain('Asked: ledgerline.io · raising seed');
    expect(t).toContain('Read by the service as: Ledgerline: reconciliation software');
    expect(t).toContain("The service's match overview");
    expect(t).toContain('Deal activity in Finance & Blockchain');
    expect(t).toContain('"Lead investors by round size" for Ledgerline had no data the report could draw');
    expect(t).toContain('https://vis.example/reports/match/ledgerline');
    // A javascript: url is never printed as a link.
    expect(t).not.toContain('javascript:');
    expect(t).toContain('Check $250K–$2M');
  });

  it('says why a company has no list', () => {
    const t = flat(second.text);
    expect(t).toContain('No investors listed for Kitebase');
    expect(t).toMatch(/Not asked: the free plan allows one run\./);
  });

  it('says a baseline is a baseline and marks nothing new', () => {
    const t = flat(baseline.text);
    expect(t).toContain(BASELINE_LINE);
    expect(baseline.text.split('\n').filter((l) => /\bNEW\b/.test(l) && /\d+\.\d%/.test(l))).toHaveLength(0);
  });
});

describe('renderShortlist: the key figures and the headline the shortlist opens with', () => {
  const store = new LocalStore(join(dir, 'store'));
  const acts = createInvestorShortlistActivities({ store, reportsDir: join(dir, 'reports') });
  const render = async (report: ShortlistReport, outputs: ('pdf' | 'xlsx')[], name: string) =>
    withKeyFigures(async () =>
      acts.renderShortlist({
        reportRef: await store.putJson(name, 'shortlist/report', report),
        job: { id: 'portfolio-raises', outputs },
        date: report.date,
        workflowId: name,
      }),
    );

  it('returns the tiles the opening drew and the shortlist in a sentence', async () => {
    const report = shortlistReport();
    const { result: out, drawn } = await render(report, ['pdf'], 'second');
    expect(out.files.pdf).toBeDefined();
    expect(drawn[0]).toEqual(openingFigures(report));
    expect(out.figures).toEqual(asFigures(drawn[0]!));
    expect(out.figures).toEqual([
      { label: 'Companies', value: '3', note: '1 without a list' },
      { label: 'Investors', value: '18', note: 'listed in all' },
      { label: 'New', value: '4', note: 'since the last run' },
      { label: 'On several lists', value: '6', note: 'investors' },
      { label: 'Credits', value: '2', note: 'of 10 budgeted' },
    ]);
    expectHeadline(out.headline);
    expect(out.headline).toBe(
      '18 investors listed for 2 of 3 portfolio companies, 4 new since the last run; 6 on several lists.',
    );
  });

  it('returns them when the job asks no PDF; a baseline says so', async () => {
    const base = shortlistReport({ baseline: true });
    const { result: out, drawn } = await render(base, ['xlsx'], 'baseline');
    expect(out.files.pdf).toBeUndefined();
    expect(drawn).toEqual([]);
    expect(out.figures).toEqual(asFigures(openingFigures(base)));
    expect(out.figures?.[2]).toEqual({ label: 'New', value: '—', note: 'from the next run' });
    expectHeadline(out.headline);
    expect(out.headline).toBe(openingHeadline(base));
    expect(out.headline).toContain(BASELINE_LINE);
  });
});
