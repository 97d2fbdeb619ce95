/**
 * The triage's words and charts: a verdict in sentence case, ranks that equal scores share, what
 * became of a deck in words, and each ranked deck's dimension chart (bars sorted highest first on
 * a fixed 0-100 scale, captioned with its source; a deck without dimensions says why).
 */
import { describe, expect, it } from 'vitest';
import {
  dimensionSpec,
  outcomeText,
  rankedDecks,
  ranksOf,
  renderDeckCharts,
  verdictText,
  whyNoAnalysis,
} from '../../../../jobs/deck-triage/report/index.js';
import { deckTriageReport, RANKED_NAMES } from './fixture.js';

describe('the triage’s words', () => {
  it('puts the service’s verdict in sentence case, keeping its words', () => {
    expect(verdictText('pursue')).toBe('Pursue');
    expect(verdictText('STRONG_BUY')).toBe('Strong buy');
    expect(verdictText('strong-consider')).toBe('Strong consider');
    expect(verdictText('  Pass ')).toBe('Pass');
    expect(verdictText(null)).toBe('—');
  });

  it('ranks by deal score, equal scores sharing a rank, decks without an analysis unranked', () => {
    const report = deckTriageReport();
    const ranked = rankedDecks(report);
    expect(ranked.map((d) => d.name)).toEqual(RANKED_NAMES);
    const ranks = ranksOf(report);
    expect(ranked.map((d) => ranks.get(d))).toEqual([1, 2, 3, 4, 4, 6]);
    const failed = report.decks.find((d) => d.outcome === 'failed')!;
    expect(ranks.has(failed)).toBe(false);
    // The model's order is not trusted: a shuffled batch ranks the same.
    const shuffled = { ...report, decks: [...report.decks].reverse() };
    expect(rankedDecks(shuffled).map((d) => d.name)).toEqual([
      'Brightloop Energy',
      RANKED_NAMES[1],
      'Kelvin Robotics',
      RANKED_NAMES[4],
      'Gridwise Mobility',
      'Patchwork Health',
    ]);
  });

  it('says what became of each deck, and why one has no analysis', () => {
    const report = deckTriageReport();
    expect(report.decks.map(outcomeText)).toEqual([
      'Analysed 26 Nov 2026',
      'Analysed 26 Nov 2026',
      'Carried: analysed 19 Nov 2026',
      'Analysed 26 Nov 2026',
      'Analysed 26 Nov 2026',
      'Analysed 26 Nov 2026',
      'Failed',
      'Timed out',
      'Duplicate',
    ]);
    const [failed, timedOut, duplicate] = report.decks.slice(6);
    expect(whyNoAnalysis(failed!)).toBe('The link answered 404 Not Found.');
    expect(whyNoAnalysis(timedOut!)).toBe(
      "Still running when the job's deadline passed (data room room_0008).",
    );
    expect(whyNoAnalysis(duplicate!)).toBe(
      'The same file as brightloop-seed-2026.pdf: sent once, under that deck.',
    );
  });
});

describe('renderDeckCharts', () => {
  it('draws each ranked deck’s dimensions, highest first, on a 0-100 scale, with its source', async () => {
    const report = deckTriageReport();
    const charts = await renderDeckCharts(report);
    expect(charts.map((c) => report.decks[c.deck]?.name)).toEqual(RANKED_NAMES);
    for (const c of charts) {
      expect(c.rendered?.svg).toContain('<svg');
      expect(c.rendered?.png.subarray(1, 4).toString()).toBe('PNG');
    }
    expect(charts[0]!.source).toBe('Source: analyze_deck (S1)');
    expect(charts[2]!.source).toBe("Source: an earlier run's analysis (19 Nov 2026)");
    expect(charts[0]!.rendered!.svg).toContain('100%');
    const data = dimensionSpec(report.decks[3]!).data as { dimension: string; score: number }[];
    expect(data.map((r) => r.score)).toEqual([81, 72, 62, 48, 44, 39]);
  });

  it('says why a deck without scored dimensions has no chart', async () => {
    const report = deckTriageReport();
    report.decks[0]!.dimensions = [];
    const charts = await renderDeckCharts(report);
    expect(charts[0]!.rendered).toBeNull();
    expect(charts[0]!.note).toBe("The service scored no dimension of Brightloop Energy's deck: no chart.");
  });
});
