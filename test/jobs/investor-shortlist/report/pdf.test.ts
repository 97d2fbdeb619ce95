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
import {
  BASELINE_LINE,
  renderShortlistCharts,
  writeShortlistReport,
} from '../../../../jobs/investor-shortlist/report/index.js';
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
    expect(newLines.some((l) => l.includes(`${CJK_KEY} *`))).toBe(true);
    expect(newLines.some((l) => l.includes('Northwind'))).toBe(false);
    expect(flat(t)).toContain("NEW: not on this company's list at the job's last run.");
  });

  it('lists the investors who fit several companies, the Chinese name as its key', () => {
    const t = flat(second.text);
    expect(t).toContain('Investors who fit several of your companies (6)');
    expect(t).toMatch(/Harbor Seed Partners 2 Ledgerline, Quantora Health \/ Diagnostics 92\.2%/);
    expect(t).toContain('=HYPERLINK');
    expect(t).toContain(`${CJK_KEY} *`);
    expect(t).not.toContain(CJK_NAME);
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
