/**
 * The deck triage's part of the checks every registered kind gets on the time-skipping server
 * (test/workflows/skipping/kind-registry.test.ts): its activities as stubs answering plausibly
 * (every stub worker has them, test/helpers/stub-activities.ts), its phases, and its own
 * decisions: each deck the collection gives is asked once, its link named by where the store
 * keeps it; decks past the budget are not asked, and the run says so.
 */
import { expect } from 'vitest';
import { ops, paramsOf, type KindCase } from '../../helpers/kind-cases.js';
import { outDirOf, rendered } from '../../helpers/stub-activities.js';
import type { DeckAsked, DeckToSend } from '../../../jobs/deck-triage/activities.js';

/** Four new decks of the six links (one a duplicate, one analysed by an earlier run). */
const toSend = (runKey: string): DeckToSend[] =>
  ['Ledgerly', null, 'Shiftnook', 'Kelvinforge'].map((name, i) => ({
    id: `deck-00${i + 1}`,
    label: `deck-${i + 1}.pdf`,
    startupName: name,
    linksRef: `${runKey}/decks/links.json`,
  }));

export const kindCase: KindCase = {
  activities: {
    collectRunDecks: (input: { runKey: string }) => ({
      collectedRef: `${input.runKey}/decks/collected.json`,
      toSend: toSend(input.runKey),
    }),
    buildDeckTriage: (input: { runKey: string; asked: DeckAsked[] }) => ({
      reportRef: `${input.runKey}/decks/report.json`,
      snapshotRef: `${input.runKey}/decks/snapshot.json`,
      counts: {
        analysed: input.asked.filter((a) => a.refs.length > 0).length,
        carried: 1,
        failed: input.asked.filter((a) => a.refs.length === 0).length,
        timedOut: 0,
        duplicates: 1,
      },
    }),
    renderDeckTriage: (input: { job: { id: string; outputs?: string[] }; date: string }) =>
      rendered(outDirOf(input), input.job.outputs ?? ['pdf', 'xlsx']),
  },
  example: 'demo.yaml',
  phases: [
    'collecting',
    'analysing: 0 analysed, 0 running, 0 not analysed',
    'analysing: 1 analysed, 0 running, 0 not analysed',
    'analysing: 2 analysed, 0 running, 0 not analysed',
    'analysing: 3 analysed, 0 running, 0 not analysed',
    'building',
    'rendering',
  ],
  snapshot: 'decks/snapshot.json',
  check(kit, result) {
    const runKey = kit.calls()[0]!.input.runKey as string;
    // Each deck asked once, in the collection's order, its link read from the store by the call.
    expect(ops(kit)).toEqual(['my_account', 'analyze_deck', 'analyze_deck', 'analyze_deck', 'analyze_deck']);
    expect(paramsOf(kit, 'analyze_deck')).toEqual(
      toSend(runKey).map((d) => ({
        deck_url: `vir-store:${runKey}/decks/links.json#${d.id}`,
        ...(d.startupName ? { startup_name: d.startupName } : {}),
      })),
    );
    const collect = kit.inputsOf('collectRunDecks')[0];
    expect(collect.job.decks.urls).toHaveLength(6);
    expect(collect.publish).toBeNull();
    const built = kit.inputsOf('buildDeckTriage')[0] as { asked: DeckAsked[]; collectedRef: string };
    expect(built.collectedRef).toBe(`${runKey}/decks/collected.json`);
    expect(built.asked.map((a) => [a.id, a.refs, a.status, a.refused])).toEqual(
      toSend(runKey).map((d) => [d.id, [`${runKey}/decks/${d.id}.json`], null, null]),
    );
    expect(kit.inputsOf('renderDeckTriage')[0].reportRef).toBe(`${runKey}/decks/report.json`);
    expect(result).toMatchObject({
      creditsSpent: 12,
      counts: { analysed: 4, carried: 1, failed: 0, duplicates: 1 },
    });
  },
  short: {
    // Two decks fit 6 credits: the other two are not asked, and the run is partial, saying why.
    job: (job) => ({ ...job, budget: { credits: 6 } }),
    check(kit, { result }) {
      expect(ops(kit).filter((o) => o === 'analyze_deck')).toHaveLength(2);
      const built = kit.inputsOf('buildDeckTriage')[0] as { asked: DeckAsked[] };
      expect(built.asked.map((a) => a.refused === null)).toEqual([true, true, false, false]);
      expect(built.asked[2]!.refused).toMatch(/budget/);
      expect(result).toMatchObject({ partial: true, creditsSpent: 6 });
      expect(result!.reasons.join(' ')).toMatch(/budget/);
    },
  },
};
