/**
 * The fund-match digest's PDF, read back with pdftotext: the first page holds what a partner
 * reads in a minute (the counts, the new matches, the baseline line, the conflicts, the notable
 * events) and nothing spills from it; the details list the still-matched, the dropped with
 * their reasons and every event; a batch of 30 takes a few pages; each chart names its source and
 * the appendix lists the sources by operation (a digest stored before sources says it has none).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { FundDigest } from '../../../../jobs/fund-match/digest.js';
import {
  buildFundDigest,
  FIRST_PAGE_BUDGETS,
  openingFigures,
  openingHeadline,
  renderFundCharts,
  writeFundDigest,
} from '../../../../jobs/fund-match/report/index.js';
import { LocalStore } from '../../../../activities/store.js';
import { createFundMatchActivities } from '../../../../jobs/fund-match/activities.js';
import { quietLine } from '../../../../jobs/fund-match/report/text.js';
import { asFigures, expectHeadline, withKeyFigures } from '../../../helpers/opening.js';
import { pdfPages, pdfText } from '../../../helpers/reports.js';
import { RAW_STAGE_KEYS } from '../../../../reports/editorial.js';
import { isPrivateHost } from '../../../../reports/links.js';
import { noSourcesNote } from '../../../../reports/sources.js';
import { withoutSources } from '../../../helpers/report-sources.js';
import { CJK_KEY, CJK_NAME, FORMULA_NAME, fundDigests } from './fixture.js';

const dir = mkdtempSync(join(tmpdir(), 'fund-digest-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const squeeze = (s: string) => s.replace(/\s+/g, '');

/**
 * Each page's text in drawing order (a table cell's lines together), without white space: one
 * pdftotext for the whole file (it ends each page with a form feed).
 */
function pageTexts(path: string): string[] {
  const raw = execFileSync('pdftotext', ['-raw', path, '-'], { encoding: 'utf8' });
  return raw.split('\f').slice(0, -1).map(squeeze);
}

/** Writes the digest; returns its page count, its first page's text and the whole text. */
async function write(digest: FundDigest, name: string) {
  const path = join(dir, `${name}.pdf`);
  const { pages } = await writeFundDigest(digest, path, await renderFundCharts(digest), {
    creationDate: new Date('2026-11-23T06:00:00Z'),
  });
  expect(pdfPages(path)).toBe(pages);
  const texts = pageTexts(path);
  expect(texts).toHaveLength(pages);
  return { pages, first: texts[0]!, second: texts[1] ?? '', all: squeeze(pdfText(path)) };
}

describe('writeFundDigest', () => {
  const digests = fundDigests();
  /** The second run's digest, written once for the tests that read it. */
  let secondWritten: ReturnType<typeof write> | undefined;
  const second = () => (secondWritten ??= write(digests.second, 'second'));

  it("puts the second run's counts, new matches, conflicts and notable events on the first page", async () => {
    const d = digests.second;
    const { pages, first, second: page2 } = await second();
    expect(pages).toBeLessThanOrEqual(4);
    const c = d.counts;
    for (const s of [
      'Weekly startup matches',
      'Northwind Ventures II · matches of 16 Nov 2026 · run 2 · compared with the run of 9 Nov 2026',
      `BATCH ${c.batch}`,
      `NEW ${c.new}`,
      `CHANGED ${c.changed}`,
      `DROPPED ${c.dropped}`,
      `WATCHLIST EVENTS ${c.events}`,
      'Portfolio conflicts: 2 startups of the batch',
      '#3 Quantora Health: Portfolio company Medica One: same market (hospital billing)',
      '#16 Crediflow: Portfolio company Lendwise: direct competitor',
      'New matches (4)',
      'Founders: Founder 1A (CEO), Founder 1B (CTO). Investors: Lead Capital, Seedcamp.',
      'Strong founder-market fit; the team sold a previous company in the same market.',
      // The changed, the largest moves first, and the dropped with their reasons, named.
      `Changed (${c.changed})`,
      '• Neuronest: fit 87.8% (+9.0 points), rank 9 (↑ 11) • Parcelwise: fit 79.2% (−6.0 points), rank 19 (↓ 7)',
      // Cells wrap whole now, so a smaller budget of changes holds the first page.
      `${c.changed - 2} more in the details (Still matched).`,
      'Dropped (4) • Carbonsense: acquired (was active) • Tidepool Analytics: a new round moved it to Series B',
      'Watchlist: 7 events of 5 startups',
      // A status change first, then the new rounds.
      'Carbonsense: status active → acquired (dropped from the batch) • Tidepool Analytics: new round',
    ])
      expect(first, s).toContain(squeeze(s));
    for (const m of d.newMatches) expect(first, m.name).toContain(squeeze(m.name));
    expect(first).not.toContain('Baseline');
    // The first page ends with its own content: the details start on page 2.
    // The details open with the charts (so no page holds charts alone), then the lists.
    expect(page2.startsWith('DetailsThebatchincharts')).toBe(true);
  });

  it('lists the still-matched with signed changes, the dropped with their reasons, every event, the charts', async () => {
    const { all } = await second();
    for (const s of [
      'Still matched (26)',
      // Neuronest: +9 points, 11 places up; Parcelwise: 6 points and 7 places down.
      '9 Neuronest 87.8% +9.0 ↑ 11',
      '19 Parcelwise 79.2% −6.0 ↓ 7',
      `${FORMULA_NAME} 91.4% −1.0 ↓ 2`,
      CJK_NAME,
      'Dropped (4)',
      'Carbonsense Status changed acquired (was active)',
      'Tidepool Analytics Moved past the thesis stages a new round moved it to Series B, past the thesis stages',
      'Northstar Logistics Automation Raised a new round raised a new round: Seed on 10 Nov 2026',
      'Mosaic Bio Outranked',
      'Watchlist events (7)',
      'Helio Grid Stage change stage Seed → Series A in the batch',
      'The batch in charts',
      'Fit across runs: the 6 largest moves in colour, 20 more in grey',
    ])
      expect(all, s).toContain(squeeze(s));
    // The fallback font draws the Chinese name: no stand-in.
    expect(all).not.toContain(`${CJK_KEY} *`);
  });

  it('says Baseline on the first run and shows the top matches of the batch, the conflict, no changes', async () => {
    const d = digests.baseline;
    const { pages, first, all } = await write(d, 'baseline');
    expect(pages).toBeLessThanOrEqual(4);
    for (const s of [
      'Baseline: the first run of this job; the next runs will say what changed.',
      'BATCH 30 startups matched NEW — first run',
      '#2 Quantora Health: Portfolio company Medica One: same market (hospital billing)',
      'Top matches of the baseline batch',
      'Ledgerline',
      FORMULA_NAME,
      CJK_NAME,
      // The analyst note names the startup, in its own script too.
      `Check the burn (${CJK_NAME}).`,
      'The watchlist starts with this batch',
    ])
      expect(first, s).toContain(squeeze(s));
    for (const s of [
      'The batch (30)',
      '30 Riverstone',
      // Beside the stage mix: its labels come between the note's lines.
      'Fit across runs Baseline: this is the first run of the job, so there is no',
    ])
      expect(all, s).toContain(squeeze(s));
  });

  it('says so when nothing changed', async () => {
    const { first, all } = await write(digests.third, 'quiet');
    expect(digests.third.quiet).toBe(true);
    expect(first).toContain(
      squeeze('Nothing changed since the run of 16 Nov 2026: no new match, no fit or rank change'),
    );
    expect(first).toContain(
      squeeze('New matches No new match since the run of 16 Nov 2026. Watchlist No watchlist event'),
    );
    // Empty lists are a sentence under their heading, not an empty table.
    for (const s of [
      'Dropped (0) No startup dropped out of the batch since the last run.',
      'Watchlist events (0) No new round, stage or status change among the startups followed',
    ])
      expect(all, s).toContain(squeeze(s));
  });

  it('keeps the first page to one page with 30 new matches with long notes, and points to the rest', async () => {
    const d = digests.second;
    const long = d.batch.map((b, i) => ({
      ...b,
      note: `${'A long analyst note on the market, the team, the traction and the risks of this startup. '.repeat(3)}(${i + 1})`,
      founders: ['Alexandra Example-Founder (CEO)', 'Benjamin Second-Founder (CTO)'],
      investors: ['Lead Capital', 'Seedcamp', 'Northern Angels'],
    }));
    const stress: FundDigest = {
      ...d,
      newMatches: long,
      still: [],
      counts: { ...d.counts, new: long.length, still: 0 },
    };
    // The first, fullest budget does not hold one page; a smaller one does.
    expect(buildFundDigest(stress, [], FIRST_PAGE_BUDGETS[0]!).firstPageFits).toBe(false);
    const { pages, first, all } = await write(stress, 'stress');
    // Every note, reason and name list wraps whole (rows grow), so the 30 long matches take more pages.
    expect(pages).toBeLessThanOrEqual(10);
    // The pointer to the rest carries no ellipsis (the editorial checker takes every one for a cut).
    expect(first).toMatch(/\d+morenewmatchesinthedetails\(Newmatches,continued\)/);
    expect(all).toContain(squeeze('New matches, continued'));
    expect(all).toContain(squeeze('30 Riverstone'));
  });
});

describe('writeFundDigest: where the figures come from', () => {
  const flat = (path: string) => pdfText(path).replace(/\s+/g, ' ');

  it('captions each chart with the answer it was drawn from and lists the sources in the appendix', async () => {
    const d = digests().second;
    const path = join(dir, 'sources.pdf');
    const { pages } = await writeFundDigest(d, path, await renderFundCharts(d));
    const text = flat(path);
    // Fit, sector and stage mix from the batch; the trend from it and the earlier runs.
    expect(text.split('Source: find_startups_for_fund (S1)').length - 1).toBe(4);
    expect(text).toContain("Source: find_startups_for_fund (S1) and the job's earlier runs");
    // The appendix, after the details, on the last page: the sources by operation with counts.
    const last = pageTexts(path)[pages - 1]!;
    expect(last).toContain(squeeze('Appendix: where the figures come from'));
    expect(last).toContain(squeeze(`${d.sources!.length} stored answers of the service, by operation.`));
    expect(last).toContain(squeeze('find_startups_for_fund 1 30 3 S1'));
    expect(last).toContain(
      squeeze(`get_startup ${d.sources!.length - 1} ${d.sources!.length - 1} 0 S2–S${d.sources!.length}`),
    );
    // The partner's first page is not about sources.
    expect(pageTexts(path)[0]).not.toContain('Source:');
  });

  it('makes a digest stored before sources were kept: no captions, the appendix says why', async () => {
    const d = withoutSources(digests().second);
    const path = join(dir, 'before-sources.pdf');
    await writeFundDigest(d, path, await renderFundCharts(d), { runKey: 'fund-run-2' });
    const text = flat(path);
    expect(text).not.toContain('Source:');
    expect(text).toContain('Appendix: where the figures come from');
    expect(squeeze(text)).toContain(squeeze(noSourcesNote('fund-run-2')));
  });
});

describe('renderFundDigest: the key figures and the headline the digest opens with', () => {
  const digests = fundDigests();
  const store = new LocalStore(join(dir, 'store'));
  const acts = createFundMatchActivities({ store, reportsDir: join(dir, 'reports') });
  const render = async (digest: FundDigest, outputs: ('pdf' | 'xlsx')[], name: string) =>
    withKeyFigures(async () =>
      acts.renderFundDigest({
        digestRef: await store.putJson(name, 'digest/model', digest),
        job: { id: 'weekly-matches', outputs, digestWhenQuiet: false },
        date: digest.date,
        workflowId: name,
      }),
    );

  it('returns the tiles the first page opened with and what is new since the last run', async () => {
    const d = digests.second;
    const { result: out, drawn } = await render(d, ['pdf'], 'second');
    expect(out.files.pdf).toBeDefined();
    expect(drawn[0]).toEqual(openingFigures(d));
    expect(out.figures).toEqual(asFigures(drawn[0]!));
    expect(out.figures).toEqual([
      { label: 'Batch', value: '30', note: '26 still matched' },
      { label: 'New', value: '4', note: 'since 9 Nov 2026' },
      { label: 'Changed', value: String(d.counts.changed), note: 'fit ±2 pts or moved' },
      { label: 'Dropped', value: '4', note: 'since 9 Nov 2026' },
      { label: 'Watchlist events', value: '7', note: '4 status or round' },
    ]);
    expectHeadline(out.headline);
    expect(out.headline).toBe(
      `Since the run of 9 Nov 2026: 4 new matches, ${d.counts.changed} changed, 4 dropped and 7 watchlist events. ` +
        '2 startups of the batch have a portfolio conflict.',
    );
  });

  it('returns the baseline line on a baseline, and the quiet line when a quiet run writes no PDF', async () => {
    const base = await render(digests.baseline, ['pdf'], 'baseline');
    expect(base.result.figures).toEqual(asFigures(base.drawn[0]!));
    expect(base.result.figures?.[1]).toEqual({ label: 'New', value: '—', note: 'first run' });
    expectHeadline(base.result.headline);
    expect(base.result.headline).toBe(
      'Baseline: the first run of this job; the next runs will say what changed. 30 startups matched.',
    );

    const quiet = await render(digests.third, ['pdf', 'xlsx'], 'quiet');
    // digestWhenQuiet: false, so the workbook only; the figures and the headline all the same.
    expect(quiet.result.files.pdf).toBeUndefined();
    expect(quiet.drawn).toEqual([]);
    expect(quiet.result.figures).toEqual(asFigures(openingFigures(digests.third)));
    expect(quiet.result.figures?.[0]).toEqual({ label: 'Batch', value: '30', note: '30 still matched' });
    expectHeadline(quiet.result.headline);
    expect(quiet.result.headline).toBe(quietLine(digests.third));
    expect(quiet.result.headline).toBe(openingHeadline(digests.third));
  });
});

describe('writeFundDigest: what a reader acts on', () => {
  const LOOPBACK = 'http://127.0.0.1:8787';
  const links = { baseUrl: LOOPBACK, publicUrl: null };
  /** The second run with the service's views at a loopback address and each startup's website. */
  function withLinks(d: FundDigest): FundDigest {
    const site = (key: string) => `https://${key.replace(/[^a-z0-9]/gi, '')}.example.com`;
    const relink = <T extends { key: string }>(x: T) => ({
      ...x,
      url: `${LOOPBACK}/view/startups/${x.key}`,
      website: site(x.key),
    });
    return {
      ...d,
      batch: d.batch.map(relink),
      newMatches: d.newMatches.map((m) => ({
        ...relink(m),
        note: `${'An analyst note long enough to need several lines in its cell, '.repeat(2)}end of note ${m.key}.`,
        founders: ['Alexandra Example-Founder (CEO)', 'Benjamin Second-Founder (CTO)'],
        investors: ['Lead Capital', 'Seedcamp', 'Northern Angels', 'Last Investor Named'],
      })),
    };
  }

  it('wraps reasons, notes, founders and investors whole, prints stages in words, fit as %, no loopback link', async () => {
    const d = withLinks(digests().second);
    const path = join(dir, 'links.pdf');
    await writeFundDigest(d, path, await renderFundCharts(d), { links });
    const all = squeeze(execFileSync('pdftotext', ['-raw', path, '-'], { encoding: 'utf8' }));
    // Nothing cut: every new match's note, founders and investors whole, in the first page or the rest.
    for (const m of d.newMatches) {
      expect(all).toContain(squeeze(m.note!));
      expect(all).toContain(squeeze(`Investors: ${m.investors.join(', ')}.`));
      expect(all).toContain(squeeze(`Founders: ${m.founders.join(', ')}.`));
    }
    // No ellipsis at all: the pointers to the details say "n more in the details".
    expect(all).not.toContain('…');
    // Stages in words.
    const words = pdfText(path);
    for (const k of RAW_STAGE_KEYS) expect(words).not.toMatch(new RegExp(`\\b${k}\\b`));
    // Fit always as a percentage.
    for (const b of d.batch) if (b.fitPct !== null) expect(all).toContain(`${b.fitPct.toFixed(1)}%`);
    // No loopback address in the text or in a link annotation; the websites linked.
    expect(words).not.toMatch(/127\.0\.0\.1|localhost/);
    const uris = [...readFileSync(path, 'latin1').matchAll(/\/URI\s*\(([^)]*)\)/g)].map((m) => m[1]!);
    expect(uris.length).toBeGreaterThan(0);
    for (const u of uris) expect(isPrivateHost(new URL(u).hostname), u).toBe(false);
    expect(uris).toContain(d.newMatches[0]!.website);
  });
});

const digests = () => fundDigests();
