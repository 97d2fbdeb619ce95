/**
 * A ranked deck's section of the triage: its rank and name, the deal score, the service's verdict
 * and when the analysis was made, the verdict's reason whole, the facts read from the deck beside
 * the chart of its scored dimensions (so no chart stands alone), what the scores rest on, the
 * strengths, the risks, the red flags in a red box, the questions for the first meeting (every
 * item whole) and the link to the data room in the VC dashboard when it is a public address
 * (readerUrl). A section starts a page; a short one shares the page of the short one before it.
 */
import { readerUrl } from '../../../reports/links.js';
import type { ServiceLinks } from '../../../reports/links.js';
import { callout, calloutHeight, chartCell, COLORS, sizedColumns } from '../../../reports/pdf/index.js';
import type { ReportPdf, RowCell } from '../../../reports/pdf/index.js';
import { formatDate } from '../../../reports/format.js';
import type { DeckTriageReport, TriagedDeck } from '../types.js';
import { chartOf } from './charts.js';
import type { DeckChart } from './charts.js';
import { TABLE_SIZE } from './first-page.js';
import { printedName, rankText, scoreText, serviceText, verdictText } from './text.js';

const BODY = 9;
/** A level-3 heading's block (10.5 pt, a line, the gaps around it). */
const H3 = 10.5 * 1.25 + 8;
/** A section's level-1 heading, its rule and the gap above it on a shared page. */
const H1 = 18 * 1.25 + 16 + 24;

/** A part of a section: its height on the page and how it is drawn. */
interface Block {
  measure: () => number;
  draw: () => void;
}

function paragraphBlock(
  pdf: ReportPdf,
  text: string,
  options: { size?: number; color?: string } = {},
): Block {
  const size = options.size ?? BODY;
  return {
    measure: () => pdf.paragraphHeight(text, { size }),
    draw: () => pdf.paragraph(text, { size, ...(options.color ? { color: options.color } : {}) }),
  };
}

/** A level-3 heading and bulleted items under it (each whole), kept with its first item. */
function listBlock(pdf: ReportPdf, title: string, items: readonly string[]): Block {
  const texts = items.map((t) => serviceText(t));
  const itemsHeight = () => texts.reduce((h, t) => h + pdf.paragraphHeight(t, { size: BODY, gap: 2 }), 6);
  return {
    measure: () => H3 + itemsHeight(),
    draw: () => {
      const first = texts[0] ?? '';
      pdf.heading(title, 3, { keepWith: pdf.paragraphHeight(first, { size: BODY, gap: 2 }) * 1.2 });
      pdf.bullets(texts, { size: BODY });
    },
  };
}

/** The red flags in a red box, whole; a list too long for a box is a heading and bullets. */
function redFlagsBlock(pdf: ReportPdf, deck: TriagedDeck): Block {
  const title = `Red flags (${deck.redFlags.length})`;
  if (deck.redFlags.length === 0)
    return paragraphBlock(pdf, 'Red flags: none raised by the service.', { color: COLORS.muted });
  const items = deck.redFlags.map((f) => serviceText(f));
  const boxed = () => calloutHeight(pdf, title, items, BODY) <= pdf.pageBody / 2;
  const list = listBlock(pdf, title, deck.redFlags);
  return {
    measure: () => (boxed() ? calloutHeight(pdf, title, items, BODY) + 6 : list.measure()),
    draw: () => {
      if (!boxed()) return list.draw();
      pdf.space(6);
      callout(pdf, title, items, { tone: 'alert', size: BODY });
    },
  };
}

/** The facts read from the deck as a two-column table (whole values), as a row cell. */
function factsCell(pdf: ReportPdf, deck: TriagedDeck): RowCell {
  const rows = deck.facts.map((f) => [serviceText(f.label), serviceText(f.value)]);
  const table = { fontSize: TABLE_SIZE, maxLines: Number.POSITIVE_INFINITY };
  const cols = () =>
    sizedColumns(
      pdf.contentWidth,
      [
        { header: 'From the deck', values: rows.map((r) => r[0] ?? ''), max: 0.45 },
        { header: '', share: 1 },
      ],
      TABLE_SIZE,
    );
  return {
    measure: () => pdf.measureTable(cols(), rows, table),
    draw: () => pdf.table(cols(), rows, table),
  };
}

/**
 * The facts beside the dimension chart (or either alone at half the width); a chart that is not
 * drawn is its note, in a line under the facts.
 */
function factsAndChart(pdf: ReportPdf, deck: TriagedDeck, chart: DeckChart | undefined): Block[] {
  const cells: RowCell[] = [];
  if (deck.facts.length > 0) cells.push(factsCell(pdf, deck));
  if (chart?.rendered) cells.push(chartCell(pdf, chart));
  const out: Block[] = [];
  if (cells.length === 1) cells.push({ measure: () => 0, draw: () => undefined });
  if (cells.length > 0)
    out.push({ measure: () => pdf.measureRow(cells) + 4, draw: () => void pdf.row(cells) });
  if (chart && !chart.rendered && chart.note)
    out.push(paragraphBlock(pdf, chart.note, { color: COLORS.muted }));
  return out;
}

/** Text compared for repetition: lower case, one space between words. */
const said = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').trim();

/**
 * What the scores rest on: the service's note on each dimension, in the chart's order, but for
 * a note the strengths, risks or red flags already say (the service often words a strength as
 * its dimension's note): the page says each thing once, and a section fits its page.
 */
function dimensionNotes(pdf: ReportPdf, deck: TriagedDeck): Block | null {
  const listed = [...deck.strengths, ...deck.risks, ...deck.redFlags].map(said);
  const withNotes = [...deck.dimensions]
    .sort((a, b) => b.score - a.score)
    .filter((d): d is typeof d & { note: string } => !!d.note?.trim());
  const noted = withNotes.filter((d) => !listed.some((item) => item.includes(said(d.note))));
  if (noted.length === 0) return null;
  return listBlock(
    pdf,
    noted.length < withNotes.length ? 'What the other scores rest on' : 'What the scores rest on',
    noted.map((d) => `${d.label} (${scoreText(d.score)}): ${d.note}`),
  );
}

/** The line under the heading: score, verdict, when analysed, the file. */
function standing(deck: TriagedDeck, date: string): string {
  const when =
    deck.outcome === 'carried'
      ? `carried: analysed ${formatDate(deck.analysedOn)} by an earlier run`
      : `analysed ${formatDate(deck.analysedOn ?? date)}`;
  return `Deal score ${scoreText(deck.score)} · Verdict: ${verdictText(deck.verdict)} · ${when} · ${serviceText(deck.label)}`;
}

/** The data room's link, when a reader can open it. */
function roomBlock(pdf: ReportPdf, deck: TriagedDeck, links: ServiceLinks | null): Block | null {
  const url = readerUrl(deck.roomUrl, links);
  if (!url) return null;
  const label = 'The data room of this deck in the VC dashboard (online):';
  return {
    measure: () =>
      pdf.paragraphHeight(label, { size: BODY, gap: 0 }) + pdf.paragraphHeight(url, { size: BODY }),
    draw: () => {
      pdf.paragraph(label, { size: BODY, gap: 0 });
      pdf.paragraph(url, { size: BODY, link: url });
    },
  };
}

/** The section's blocks under its heading, in order. */
function blocks(
  pdf: ReportPdf,
  report: DeckTriageReport,
  deck: TriagedDeck,
  charts: readonly DeckChart[],
  links: ServiceLinks | null,
): Block[] {
  const chart = chartOf(charts, report.decks.indexOf(deck));
  const reason = deck.reason
    ? `Why: ${serviceText(deck.reason)}`
    : 'The service gave no reason for its verdict.';
  return [
    paragraphBlock(pdf, standing(deck, report.date), { color: COLORS.muted }),
    paragraphBlock(pdf, reason, { size: 10 }),
    ...factsAndChart(pdf, deck, chart),
    dimensionNotes(pdf, deck),
    deck.strengths.length > 0 ? listBlock(pdf, `Strengths (${deck.strengths.length})`, deck.strengths) : null,
    deck.risks.length > 0 ? listBlock(pdf, `Risks (${deck.risks.length})`, deck.risks) : null,
    redFlagsBlock(pdf, deck),
    deck.questions.length > 0
      ? listBlock(pdf, `Questions for the first meeting (${deck.questions.length})`, deck.questions)
      : paragraphBlock(pdf, 'Questions for the first meeting: none given by the service.', {
          color: COLORS.muted,
        }),
    roomBlock(pdf, deck, links),
  ].filter((b): b is Block => b !== null);
}

/** The heading of a deck's section: `1. Brightloop Energy`. */
export function sectionTitle(rank: number | null, deck: TriagedDeck): string {
  return `${rank === null ? '' : `${rankText(rank)}. `}${printedName(deck)}`;
}

/**
 * Lays out a ranked deck's section. It starts a new page unless `share` is true and the whole
 * section fits what is left of this one. Returns true when it started a page.
 */
export function deckSection(
  pdf: ReportPdf,
  report: DeckTriageReport,
  deck: TriagedDeck,
  rank: number | null,
  charts: readonly DeckChart[],
  options: { links: ServiceLinks | null; share: boolean },
): boolean {
  const parts = blocks(pdf, report, deck, charts, options.links);
  const height = H1 + parts.reduce((h, b) => h + b.measure(), 0);
  const shares = options.share && height <= pdf.remaining;
  if (shares) pdf.space(24);
  const first = parts[0];
  pdf.heading(sectionTitle(rank, deck), 1, {
    newPage: !shares,
    keepWith: (first?.measure() ?? 0) + (parts[1]?.measure() ?? 0),
  });
  for (const b of parts) b.draw();
  return !shares;
}
