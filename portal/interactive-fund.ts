/**
 * The fund-match digest as an interactive page: the PDF's title, key figures and headline, the
 * conflicts, the new matches with their reasons and notes, the changed, the dropped, the
 * watchlist events, and the four charts from `planFundCharts` (the Vega-Lite specs the PDF
 * renders), drawn by vega-embed in the browser.
 */
import { readerUrl, type ServiceLinks } from '../reports/links.js';
import type { FundDigest } from '../jobs/fund-match/digest.js';
import { planFundCharts } from '../jobs/fund-match/report/charts.js';
import { openingFigures, openingHeadline } from '../jobs/fund-match/report/opening.js';
import {
  digestSubtitle,
  digestTitle,
  EVENT_KINDS,
  fitChangeText,
  fitText,
  rankChangeText,
  stageText,
  tellingFirst,
} from '../jobs/fund-match/report/text.js';
import {
  chartRow,
  esc,
  paragraphs,
  section,
  table,
  type PageChart,
  type PageParts,
} from './interactive-html.js';

/** Every drawn chart of the digest's page, in the PDF's order. */
export function fundPageCharts(digest: FundDigest): PageChart[] {
  return planFundCharts(digest).flatMap((p) =>
    p.vegaLite
      ? [
          {
            id: `fund-${p.id}`,
            title: p.title,
            vegaLite: p.vegaLite,
            data: p.spec ?? null,
            caption: p.source ?? null,
            size: p.id === 'trend' ? ('full' as const) : ('half' as const),
          },
        ]
      : [],
  );
}

/** What a chart not drawn says (the baseline has no trend yet). */
function chartNotes(digest: FundDigest): string {
  return paragraphs(planFundCharts(digest).map((p) => (p.vegaLite ? null : p.note)));
}

/** The digest page's parts. */
export function fundDigestParts(digest: FundDigest, links: ServiceLinks | null): PageParts {
  const matches = digest.newMatches;
  const changed = new Set(digest.changedKeys);
  const still = digest.still.filter((s) => changed.has(s.key));
  return {
    title: digestTitle(digest),
    subtitle: digestSubtitle(digest),
    headline: openingHeadline(digest),
    figures: openingFigures(digest),
    body: [
      section(
        'Portfolio conflicts',
        digest.conflicts.map(
          (c) => `<p class="conflict"><strong>${esc(c.name)}</strong>: ${esc(c.conflict)}</p>`,
        ),
        2,
        'conflicts',
      ),
      section(
        digest.baseline ? 'The batch' : 'New matches',
        [
          table(
            null,
            [
              { header: '#', numeric: true },
              { header: 'Startup' },
              { header: 'Fit', numeric: true },
              { header: 'Stage' },
              { header: 'Sector' },
              { header: 'Why' },
            ],
            matches.map((m) => [
              String(m.rank),
              { text: m.name, href: readerUrl(m.website ?? m.url, links) },
              fitText(m.fitPct),
              stageText(m.stage),
              m.sector ?? '—',
              [
                ...tellingFirst(m.why),
                m.note ? `Note: ${m.note}` : null,
                m.founders.length > 0 ? `Founders: ${m.founders.join(', ')}` : null,
              ]
                .filter((x): x is string => x !== null)
                .join(' · ') || '—',
            ]),
            'No new matches.',
          ),
        ],
        2,
        'matches',
      ),
      section(
        'Changed',
        [
          table(
            null,
            [
              { header: 'Startup' },
              { header: 'Fit', numeric: true },
              { header: 'Fit change, pts', numeric: true },
              { header: 'Rank', numeric: true },
              { header: 'Moved', numeric: true },
            ],
            still.map((s) => [
              s.name,
              fitText(s.fitPct),
              fitChangeText(s.fitChange),
              String(s.rank),
              rankChangeText(s.rankChange),
            ]),
          ),
        ],
        2,
        'changed',
      ),
      section(
        'Dropped',
        [
          table(
            null,
            [{ header: 'Startup' }, { header: 'Why' }],
            digest.dropped.map((d) => [d.name, d.detail]),
          ),
        ],
        2,
        'dropped',
      ),
      section(
        'Watchlist events',
        [
          table(
            null,
            [{ header: 'Startup' }, { header: 'Event' }, { header: 'What' }],
            digest.events.map((e) => [e.name, EVENT_KINDS[e.kind] ?? e.kind, e.detail]),
          ),
        ],
        2,
        'events',
      ),
      section('Charts', [chartRow(fundPageCharts(digest)), chartNotes(digest)], 2, 'charts'),
    ],
  };
}
