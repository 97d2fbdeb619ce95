/**
 * A synthetic deck triage for the report writers' tests, in the model's shapes: a fund's batch of
 * nine decks from links, a folder and a bucket. Five analysed this run with varied scores and
 * verdicts as the service gives them (`pursue`, `consider`, `pass`, one `strong_buy` the model
 * keeps as given), one of them with a long reason, long notes and eight red flags; one carried
 * from the run of 19 Nov 2026 (same bytes); one whose link answered 404 (never sent), one still
 * running at the polling deadline, one duplicate. A startup whose name reads as a formula
 * (`=HYPERLINK("x")`), one named in Chinese, a fact with a raw stage key, an ISO date in a
 * reason, one data room at a loopback address. Two decks left unsent by the budget. Its sources
 * as the activity keeps them: each deck's analyze_deck answer, then its get_deck_analysis polls.
 */
import { unanalysedDeck } from '../../../../jobs/deck-triage/model.js';
import type { CollectedDeck, DeckTriageReport, TriagedDeck } from '../../../../jobs/deck-triage/types.js';
import type { SourceRow } from '../../../../shared/types.js';

export const RUN_DATE = '2026-11-26';
export const CARRIED_DATE = '2026-11-19';
export const FORMULA_NAME = '=HYPERLINK("x")';
export const CJK_NAME = '北京深链科技';
export const ROOM_HOST = 'https://app.venture-intel.example';
export const LOOPBACK_ROOM = 'http://127.0.0.1:8787/vc/rooms/room_0005';

/** The reason the service gave the deck with many red flags: long, never to be cut. */
export const LONG_REASON =
  'The team has shipped a working pilot with two regional utilities and the market is large, but the raise of $18M at a $140M pre-money valuation is more than three times the median Series A of the sector, ' +
  'recurring revenue is not yet proven beyond the pilots, monthly churn of the self-serve tier is above 6%, and the fund already holds a grid-analytics company in the same subsector, which the partners would have to clear first.';

/** The eight red flags of that deck. */
export const MANY_FLAGS = [
  'Valuation over 60x revenue: $140M pre-money on $1.9M ARR',
  'Raise more than twice the median Series A of Energy, Environment & Mobility ($18M against $7.5M)',
  'Monthly churn of the self-serve tier above 5% (6.2% stated on slide 14)',
  'Portfolio conflict: the fund holds Gridwise Analytics in grid software',
  'No cap table slide and no use of funds beyond "growth"',
  'Revenue concentrated in two pilot customers (78% of ARR)',
  'Founders part-time until the round closes (slide 3)',
  'Gross margin not stated; hardware costs in the appendix suggest under 35%',
];

const sha = (n: number): string => n.toString(16).padStart(2, '0').repeat(32);

const dims = (scores: [number, number, number, number, number, number], notes = false) =>
  (['Team', 'Market', 'Traction', 'Product', 'Business model', 'Fit with thesis'] as const).map(
    (label, i) => ({
      label,
      score: scores[i] ?? 0,
      note: notes
        ? label === 'Traction'
          ? 'Two paid pilots with regional utilities ("Stadtwerke Nord and Enerlux signed in Q3"), $1.9M ARR, growth 2.4x year on year but 78% of it from those two.'
          : `The deck's ${label.toLowerCase()} slide, read against the fund's thesis.`
        : null,
    }),
  );

/** A deck as the run collected it (the part a deck without an analysis keeps). */
function collected(
  label: string,
  origin: CollectedDeck['origin'],
  sha256: string | null,
  startupName: string,
  duplicateOf: string | null = null,
): CollectedDeck {
  return {
    sha256,
    origin,
    label,
    deckUrl: null,
    startupName,
    kind: null,
    bytes: null,
    problem: null,
    duplicateOf,
  };
}

/** A deck analysed this run (3 credits), with its answers' ids. */
function analysed(
  over: Partial<TriagedDeck> & Pick<TriagedDeck, 'name' | 'label' | 'score' | 'verdict'>,
  n: number,
  sources: string[],
): TriagedDeck {
  return {
    sha256: sha(n),
    origin: 'url',
    outcome: 'analysed',
    analysedOn: RUN_DATE,
    reason: null,
    dimensions: [],
    strengths: [],
    risks: [],
    redFlags: [],
    questions: [],
    facts: [],
    roomUrl: `${ROOM_HOST}/vc/rooms/room_${String(n).padStart(4, '0')}`,
    roomId: `room_${String(n).padStart(4, '0')}`,
    problem: null,
    duplicateOf: null,
    credits: 3,
    sources,
    ...over,
  };
}

/** The decks, in the model's order: ranked ones by score, then failed, timed out, duplicates. */
function decks(): TriagedDeck[] {
  return [
    analysed(
      {
        name: 'Brightloop Energy',
        label: 'brightloop-seed-2026.pdf',
        origin: 'folder',
        score: 86,
        verdict: 'pursue',
        reason:
          'Strong founding team with two prior exits, $2.4M ARR growing 3x year on year, squarely in the thesis.',
        dimensions: dims([91, 84, 88, 80, 79, 90]),
        strengths: [
          'Team: two founders with prior exits in energy software',
          'Traction: $2.4M ARR, 3x year on year',
          'Raise in line with the median Seed round of the sector',
        ],
        risks: ['Product: hardware dependency on one supplier'],
        redFlags: [],
        questions: [
          'Who is the second supplier if the current one fails?',
          'How much of the ARR is under multi-year contracts?',
          'What does the sales cycle with a municipal utility look like, and who signs?',
        ],
        facts: [
          { label: 'Raising', value: '$4.0M seed' },
          { label: 'ARR', value: '$2.4M' },
          { label: 'Growth', value: '3x year on year' },
          { label: 'Team', value: '14 people' },
          { label: 'HQ', value: 'Hamburg, Germany' },
        ],
      },
      1,
      ['S1'],
    ),
    analysed(
      {
        name: FORMULA_NAME,
        label: 'https://decks.example.org/hyperlink-deck.pdf',
        score: 74,
        verdict: 'STRONG_BUY',
        reason:
          'Clear wedge into mid-market payroll, last round series-a closed on 2026-06-30 with a known lead.',
        dimensions: dims([70, 78, 72, 75, 74, 76]),
        strengths: [
          'Market: mid-market payroll in the DACH region',
          'Lead investor of the last round known to the fund',
        ],
        risks: ['Traction below the Series A median of the sector'],
        redFlags: ['No churn figure stated'],
        questions: [
          'What is net revenue retention by cohort?',
          'Why raise again only five months after the last round?',
        ],
        facts: [
          { label: 'Raising', value: '$12.0M series-a' },
          { label: 'Customers', value: '210' },
        ],
      },
      2,
      ['S2', 'S3'],
    ),
    {
      ...analysed(
        {
          name: 'Kelvin Robotics',
          label: 's3://fund-inbox/decks/kelvin-robotics.pptx',
          origin: 's3',
          score: 71,
          verdict: 'consider',
          reason: 'Good product depth; the market is narrower than the deck claims.',
          dimensions: dims([68, 55, 70, 85, 66, 73]),
          strengths: ['Product: patented gripper, 4 years of development'],
          risks: ['Market: TAM of $300M, not the $3B the deck states'],
          redFlags: ['Valuation over 60x revenue'],
          questions: [
            'Which of the 12 pilots converted to paid contracts?',
            'What does a gripper cost to build at 1,000 units?',
          ],
          facts: [{ label: 'Raising', value: '€6.0M Series A' }],
        },
        3,
        [],
      ),
      outcome: 'carried',
      analysedOn: CARRIED_DATE,
      credits: 0,
    },
    analysed(
      {
        name: 'Gridwise Mobility',
        label: 'gridwise-series-a.pdf',
        origin: 'folder',
        score: 58,
        verdict: 'consider',
        reason: LONG_REASON,
        dimensions: dims([72, 81, 48, 62, 44, 39], true),
        strengths: [
          'Team: CTO led grid software at a top-5 European utility for 8 years',
          'Market: TAM of $12B in distribution-grid analytics, growing 18% a year',
          'Product: live in two utilities with 99.95% uptime over 9 months',
        ],
        risks: [
          'Traction: $1.9M ARR, 78% of it from two pilot customers',
          'Business model: hardware margin under 35% drags the blended margin',
          'Fit with thesis: portfolio conflict in the same subsector',
          'Raise over 2x the median Series A of the sector',
        ],
        redFlags: MANY_FLAGS,
        questions: [
          'What share of ARR comes from the two pilot utilities, and when do their contracts renew?',
          'What is the plan to bring monthly churn of the self-serve tier under 3%?',
          'How was the $140M pre-money valuation arrived at, and who has committed to lead?',
          'Can the hardware be sourced from a second supplier within six months?',
          'What is the gross margin of software and of hardware, separately?',
          'Would the founders go full time before the round closes?',
          'How does the product differ from Gridwise Analytics, already in the portfolio?',
          'What milestones does the $18M fund, and over how many months?',
        ],
        facts: [
          { label: 'Raising', value: '$18.0M Series A at $140M pre-money' },
          { label: 'ARR', value: '$1.9M' },
          { label: 'Growth', value: '2.4x year on year' },
          { label: 'Churn', value: '6.2% a month (self-serve tier)' },
          { label: 'Market', value: 'TAM $12B, distribution-grid analytics' },
          { label: 'Team', value: '31 people, founders part-time' },
        ],
      },
      4,
      ['S4', 'S5', 'S6'],
    ),
    analysed(
      {
        name: CJK_NAME,
        label: 'shenlian-deck.pdf',
        origin: 'folder',
        score: 58,
        verdict: 'consider',
        reason: 'Solid traction in logistics software, outside the fund’s home markets.',
        dimensions: dims([64, 60, 71, 58, 55, 40]),
        strengths: ['Traction: 40 enterprise customers'],
        risks: ['Fit with thesis: headquartered outside the fund’s countries'],
        redFlags: [],
        questions: ['Is a European entity planned for the round?'],
        facts: [{ label: 'HQ', value: 'Beijing, China' }],
        roomUrl: LOOPBACK_ROOM,
        roomId: 'room_0005',
      },
      5,
      ['S7'],
    ),
    analysed(
      {
        name: 'Patchwork Health',
        label: 'https://decks.example.org/patchwork.pdf',
        score: 31,
        verdict: 'pass',
        reason: 'No numbers in the deck and a raise without revenue.',
        dimensions: dims([40, 45, 12, 35, 30, 28]),
        strengths: [],
        risks: ['Traction: no revenue stated', 'Team: no technical co-founder'],
        redFlags: [
          'No numbers: the deck states no revenue, users or growth',
          'A large raise without revenue',
        ],
        questions: ['What has been built so far, and by whom?'],
        facts: [],
        roomUrl: null,
      },
      6,
      ['S8'],
    ),
    unanalysedDeck(
      collected('https://decks.example.org/orbital-deck.pdf', 'url', null, 'Orbital Freight'),
      'failed',
      'the link answered 404 Not Found',
    ),
    unanalysedDeck(
      collected('lumen-labs.pptx', 'folder', sha(8), 'Lumen Labs'),
      'timed-out',
      "still running when the job's deadline passed (data room room_0008)",
      { credits: 3, sources: ['S9', 'S10', 'S11'], roomId: 'room_0008' },
    ),
    unanalysedDeck(
      collected(
        'https://decks.example.org/brightloop-copy.pdf',
        'url',
        sha(1),
        'Brightloop Energy',
        'brightloop-seed-2026.pdf',
      ),
      'duplicate',
      'the same file as brightloop-seed-2026.pdf: sent once',
    ),
  ];
}

/** The run's stored answers: S1-S11. */
function sources(): SourceRow[] {
  const row = (
    n: number,
    operation: 'analyze_deck' | 'get_deck_analysis',
    params: Record<string, unknown>,
    minute: number,
  ): SourceRow => ({
    id: `S${n}`,
    operation,
    params,
    fetchedAt: `${RUN_DATE}T09:${String(minute).padStart(2, '0')}:00.000Z`,
    credits: operation === 'analyze_deck' ? 3 : 0,
    status: 200,
    records: 1,
    ref: `runs/deck-triage-${RUN_DATE}/calls/${operation}-${String(n).padStart(4, '0')}.json`,
  });
  const analyze = (n: number, url: string, name: string, minute: number) =>
    row(n, 'analyze_deck', { deck_url: url, startup_name: name }, minute);
  const poll = (n: number, room: string, minute: number) =>
    row(n, 'get_deck_analysis', { room_id: room }, minute);
  return [
    analyze(1, 'https://store.example.com/presigned/brightloop-seed-2026.pdf', 'Brightloop Energy', 1),
    analyze(2, 'https://decks.example.org/hyperlink-deck.pdf', FORMULA_NAME, 2),
    poll(3, 'room_0002', 5),
    analyze(4, 'https://store.example.com/presigned/gridwise-series-a.pdf', 'Gridwise Mobility', 3),
    poll(5, 'room_0004', 6),
    poll(6, 'room_0004', 10),
    analyze(7, 'https://store.example.com/presigned/shenlian-deck.pdf', CJK_NAME, 4),
    analyze(8, 'https://decks.example.org/patchwork.pdf', 'Patchwork Health', 5),
    analyze(9, 'https://store.example.com/presigned/lumen-labs.pptx', 'Lumen Labs', 6),
    poll(10, 'room_0008', 20),
    poll(11, 'room_0008', 40),
  ];
}

/** The triage of 26 Nov 2026 (`withSources: false`: as a model stored before sources were kept). */
export function deckTriageReport(): DeckTriageReport {
  return {
    job: { id: 'seed-fund-inbox', title: 'Seed fund inbox: deck triage' },
    date: RUN_DATE,
    decks: decks(),
    counts: { analysed: 5, carried: 1, failed: 1, timedOut: 1, duplicates: 1 },
    credits: { spent: 18, budget: 20 },
    overBudget: ['nova-materials.pdf', 'https://decks.example.org/quill-ai.pdf'],
    sources: sources(),
  };
}

/** The names the ranking must list, best deal score first (equal scores in the model's order). */
export const RANKED_NAMES = [
  'Brightloop Energy',
  FORMULA_NAME,
  'Kelvin Robotics',
  'Gridwise Mobility',
  CJK_NAME,
  'Patchwork Health',
];

/** The decks without an analysis, in the model's order. */
export const UNRANKED_NAMES = ['Orbital Freight', 'Lumen Labs', 'Brightloop Energy'];
