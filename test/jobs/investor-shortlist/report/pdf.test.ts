/**
 * The shortlist's PDF read back: the opening (baseline line, plan note, the companies at a
 * glance, the investors on several lists; no credits), each company's ranked investors with the
 * NEW marks, a partner named and every reason whole, its charts or why one is left out, the full
 * report's link (http(s) only), the sentence of a company without a list, and the appendix of
 * what the run spent. Rendered as a run against a loopback service: no loopback link anywhere,
 * no raw stage key, no "…", fit always a percentage. Each service chart names its source; the
 * appendix lists the sources by operation (a report stored before sources says it has none).
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
import { privateUrls, rawStageKey } from '../../../helpers/editorial-rules.js';
import { asFigures, expectHeadline, withKeyFigures } from '../../../helpers/opening.js';
import { readPdfStructure } from '../../../helpers/pdf-structure.js';
import { pdfPages, pdfText } from '../../../helpers/reports.js';
import { noSourcesNote } from '../../../../reports/sources.js';
import { withoutSources } from '../../../helpers/report-sources.js';
import { CJK_KEY, CJK_NAME, PARTNERS, shortlistReport } from './fixture.js';

const dir = mkdtempSync(join(tmpdir(), 'shortlist-pdf-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** pdftotext's text on one line a run of spaces, for phrases that may wrap in a cell. */
const flat = (text: string): string => text.replace(/\s+/g, ' ');

describe('writeShortlistReport', () => {
  let second: {
    text: string;
    pages: number;
    written: number;
    charts: Awaited<ReturnType<typeof renderShortlistCharts>>;
  };
  let baseline: { text: string };
  beforeAll(async () => {
    const report = shortlistReport();
    const path = join(dir, 'second.pdf');
    const charts = await renderShortlistCharts(report);
    const { pages } = await writeShortlistReport(report, path, charts);
    second = { text: pdfText(path), pages: pdfPages(path), written: pages, charts };
    const base = shortlistReport({ baseline: true });
    const basePath = join(dir, 'baseline.pdf');
    await writeShortlistReport(base, basePath, await renderShortlistCharts(base));
    baseline = { text: pdfText(basePath) };
  });

  it('opens with the title, the plan note and the companies at a glance; credits only in the appendix', () => {
    const t = flat(second.text);
    expect(second.pages).toBe(second.written);
    const pages = second.text.split('\f').map(flat);
    expect(pages[0]).toContain('Portfolio raises: investor shortlist');
    expect(pages[0]).toContain('Your plan limits this run');
    expect(pages[0]).toContain('Your companies at a glance');
    expect(pages[0]).not.toMatch(/credit/i);
    expect(t).not.toContain(BASELINE_LINE);
    const last = pages.filter((p) => p.trim() !== '').at(-1)!;
    expect(last).toContain('Appendix: about this run');
    expect(last).toContain('Credits spent: 2 of a budget of 10.');
    expect(last).toMatch(
      /Credits charged per company .*Ledgerline 1 Quantora Health \/ Diagnostics 1 Kitebase 0/,
    );
  });

  it('prints every reason and check whole, the most telling first, and names a partner', () => {
    const t = flat(second.text);
    // ReportPdf writes "…" only when it cuts; the service's own ", …" is ended in words.
    expect(t).not.toMatch(/…|\.\.\./);
    expect(t).toContain('backed 5 look-alikes: Claimly, Parcelwise, Helio Grid and others');
    // Northwind's reasons: the raise's figures first, where it is last; the last one whole.
    expect(t).toMatch(
      /1 Northwind Ventures .*led 3 seed rounds of \$1\.5M–\$4M in the .*sector since 2022, joined 5 more; backed/,
    );
    expect(t).toContain('Partner: Ana Ruiz');
    expect(t).toContain('(General Partner)');
    expect(t).toContain(`Partner: ${PARTNERS[2]}`);
    // One unit and precision for the column's checks.
    expect(t).toContain('Check $0.25M–$2.00M');
    expect(t).toContain('Check $0.50M–$4.00M');
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
    expect(t).toContain('raising Series A');
    // The deal-activity chart's year in progress is "2026 YTD", one label, turned (pdftotext
    // leaves turned text out: the chart's drawing is read instead).
    const activity = second.charts.find((c) => /^Deal activity/.test(c.title));
    expect(activity?.rendered?.svg).toMatch(/>2026 YTD</);
    expect(activity?.rendered?.svg).not.toMatch(/>2026</);
    expect(t).toContain('Read by the service as: Ledgerline: reconciliation software');
    expect(t).toContain("The service's match overview");
    expect(t).toContain('Deal activity in Finance & Blockchain');
    expect(t).toContain('"Lead investors by round size" for Ledgerline had no data the report could draw');
    expect(t).toContain('https://vis.example/reports/match/ledgerline');
    // A javascript: url is never printed as a link.
    expect(t).not.toContain('javascript:');
  });

  it("captions each service chart with its company's answer and lists the sources in the appendix", () => {
    const pages = second.text.split('\f').map(flat);
    const drawn = second.charts.filter((c) => c.rendered !== null);
    const captions = (p: string) => p.split('Source: find_investors (').length - 1;
    expect(pages.reduce((n, p) => n + captions(p), 0)).toBe(drawn.length);
    expect(flat(second.text).split('Source: find_investors (S1)').length - 1).toBe(
      drawn.filter((c) => c.company === 0).length,
    );
    expect(flat(second.text).split('Source: find_investors (S2)').length - 1).toBe(
      drawn.filter((c) => c.company === 1).length,
    );
    expect(pages[0]).not.toContain('Source:');
    const last = pages.filter((p) => p.trim() !== '').at(-1)!;
    expect(last).toContain('Where the figures come from');
    expect(last).toContain('8 stored answers of the service, by operation.');
    expect(last).toMatch(/find_investors 2 18 2 S1–S2 get_investor 6 6 0 S3–S8/);
  });

  it('writes a report stored before sources were kept: no captions, the appendix says why', async () => {
    const old = withoutSources(shortlistReport());
    const path = join(dir, 'before-sources.pdf');
    await writeShortlistReport(old, path, await renderShortlistCharts(old), { runKey: 'run-1' });
    const text = flat(pdfText(path));
    expect(text).not.toContain('Source:');
    expect(text).toContain('Appendix: about this run');
    expect(text).toContain(noSourcesNote('run-1'));
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

describe('the shortlist as a run against a loopback service renders it', () => {
  const SERVICE = 'http://127.0.0.1:8787';
  let text: string;
  let uris: (string | null)[];
  beforeAll(async () => {
    const store = new LocalStore(join(dir, 'loopback-store'));
    const acts = createInvestorShortlistActivities({
      store,
      reportsDir: join(dir, 'loopback-reports'),
      serviceLinks: { baseUrl: SERVICE, publicUrl: null },
    });
    const report = JSON.parse(
      JSON.stringify(shortlistReport()).replace(/https:\/\/vis\.example(?=\/)/g, SERVICE),
    ) as ShortlistReport;
    const out = await acts.renderShortlist({
      reportRef: await store.putJson('loopback', 'shortlist/report', report),
      job: { id: 'portfolio-raises', outputs: ['pdf'] },
      date: report.date,
      workflowId: 'loopback',
    });
    text = pdfText(out.files.pdf!);
    uris = readPdfStructure(out.files.pdf!).pageLinks.map((l) => l.uri);
  });

  it('leaves every loopback link out, in the text and the link annotations; websites stay linked', () => {
    expect(privateUrls(text)).toEqual([]);
    expect(flat(text)).not.toContain("The service's full report of this match");
    expect(uris.filter((u) => u !== null && u.includes('127.0.0.1'))).toEqual([]);
    expect(uris).toContain('https://www.northwind_ventures.example.com');
    expect(uris).toContain('https://ledgerline.io');
  });

  it('prints no raw stage key and every fit as a percentage', () => {
    const lines = text.split('\n');
    expect(lines.map(rawStageKey).filter((k) => k !== null)).toEqual([]);
    // Fits of the fixture (94.5, 92.2, …): each printed with its % sign.
    expect(flat(text)).toContain('94.5%');
    expect(flat(text).match(/\b\d{2}\.\d\b(?!%)/g) ?? []).toEqual([]);
  });
});
