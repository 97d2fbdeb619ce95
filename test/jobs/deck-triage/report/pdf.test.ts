/**
 * The deck triage's PDF read back (pdftotext): the first page ranks every deck with an analysis
 * by deal score (verdict in sentence case, the reason whole, the carried mark), lists the decks
 * without one and why, and names the decks the budget left unsent, with no credits on it; each
 * ranked deck has its section (score, verdict, every red flag and question whole, the chart
 * captioned with its source, the data room only at a public address); the appendix says what the
 * run spent and lists the sources by operation. Rendered as a run against a loopback service:
 * no loopback link anywhere, no raw stage key, no "…". The key figures drawn are the ones
 * deckOpening gives; a report stored before sources were kept still renders and says why it
 * lists none; the whole report passes the editorial rules.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deckOpening,
  renderDeckCharts,
  writeDeckTriagePdf,
  writeDeckTriageWorkbook,
} from '../../../../jobs/deck-triage/report/index.js';
import type { DeckTriageReport } from '../../../../jobs/deck-triage/types.js';
import { printableName } from '../../../../reports/fonts.js';
import type { ServiceLinks } from '../../../../reports/links.js';
import { noSourcesNote } from '../../../../reports/sources.js';
import {
  countByRule,
  editorialViolations,
  privateUrls,
  rawStageKey,
} from '../../../helpers/editorial-rules.js';
import { asFigures, expectHeadline, withKeyFigures } from '../../../helpers/opening.js';
import { readPdfStructure } from '../../../helpers/pdf-structure.js';
import { withoutSources } from '../../../helpers/report-sources.js';
import { pdfPages, pdfText } from '../../../helpers/reports.js';
import {
  CJK_NAME,
  deckTriageReport,
  FORMULA_NAME,
  LONG_REASON,
  MANY_FLAGS,
  RANKED_NAMES,
  ROOM_HOST,
  RUN_DATE,
} from './fixture.js';

const dir = mkdtempSync(join(tmpdir(), 'deck-triage-pdf-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The service as the sandbox runs it: a loopback base URL and no public address. */
const LINKS: ServiceLinks = { baseUrl: 'http://127.0.0.1:8787', publicUrl: null };
const CREATED = new Date('2026-11-26T12:00:00Z');

/** pdftotext's text on one line a run of spaces, for phrases that may wrap. */
const flat = (text: string): string => text.replace(/\s+/g, ' ');

/** A name as the PDF prints it (a script the fonts lack: the deck's file name, marked). */
const printed = (name: string, label: string): string => printableName(name, label);

describe('writeDeckTriagePdf', () => {
  let report: DeckTriageReport;
  let text: string;
  let pages: string[];
  let path: string;
  let written: number;
  let drawn: Awaited<ReturnType<typeof withKeyFigures>>['drawn'];
  beforeAll(async () => {
    report = deckTriageReport();
    path = join(dir, 'triage.pdf');
    const charts = await renderDeckCharts(report);
    const out = await withKeyFigures(() =>
      writeDeckTriagePdf(report, path, { charts, links: LINKS, created: CREATED, runKey: 'run-1' }),
    );
    drawn = out.drawn;
    written = out.result.pages;
    text = pdfText(path);
    pages = text.split('\f').map(flat);
  });

  it('opens with the title, the run date and the key figures deckOpening gives; no credits on it', () => {
    expect(pdfPages(path)).toBe(written);
    const first = pages[0]!;
    expect(first).toContain('Seed fund inbox: deck triage');
    expect(first).toContain('Deck triage of 26 Nov 2026');
    const opening = deckOpening(report);
    expect(drawn).toHaveLength(1);
    expect(asFigures(drawn[0]!)).toEqual(opening.figures);
    expect(opening.figures.map((f) => f.label)).toEqual([
      'Analysed this run',
      'Carried',
      'Not analysed',
      'Top deal score',
    ]);
    expect(opening.figures.map((f) => f.value)).toEqual(['5', '1', '3', '86.0%']);
    expectHeadline(opening.headline);
    expect(opening.headline).toContain('Top: Brightloop Energy at 86.0% (Pursue)');
    for (const f of opening.figures) expect(first).toContain(f.label.toUpperCase());
    expect(first).not.toMatch(/credit/i);
  });

  it('ranks every analysed and carried deck by deal score, reasons whole, the carried one marked', () => {
    const first = pages[0]!;
    const decks = report.decks;
    const at = RANKED_NAMES.map((name) => {
      const deck = decks.find((d) => d.name === name)!;
      return first.indexOf(printed(name, deck.label));
    });
    expect(
      at.every((i) => i >= 0),
      JSON.stringify(at),
    ).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    // Ranks: equal scores (58.0%) share one.
    expect(first).toMatch(/1 Brightloop Energy 86\.0% Pursue/);
    expect(first).toMatch(/4 Gridwise Mobility 58\.0% Consider/);
    expect(first).toContain('6 Patchwork Health 31.0% Pass');
    // Verdicts in sentence case, as the service gave them.
    expect(first).toContain('74.0% Strong buy');
    expect(text).not.toMatch(/STRONG_BUY|strong_buy/);
    expect(first).toContain(LONG_REASON);
    expect(first).toContain('↻ analysed 19 Nov 2026');
    // The service's raw stage key and ISO date, in words.
    expect(first).toContain('last round Series A closed on 30 Jun 2026');
  });

  it('lists the decks without an analysis with why, and the decks the budget left unsent', () => {
    const first = pages[0]!;
    expect(first).toContain('Decks without an analysis (3)');
    expect(first).toMatch(/Orbital Freight .*Failed The link answered 404 Not Found\./);
    expect(first).toMatch(/Lumen Labs .*Timed out Still running when the job's deadline passed/);
    expect(first).toContain('The same file as brightloop-seed-2026.pdf: sent once, under that deck.');
    expect(first).toContain('Not sent this run (2)');
    expect(first).toContain('nova-materials.pdf, https://decks.example.org/quill-ai.pdf');
  });

  it('gives every ranked deck its section, in the ranking, with every red flag and question whole', () => {
    const body = pages.slice(1).join(' ');
    const heads = [
      '1. Brightloop Energy',
      `2. ${FORMULA_NAME}`,
      '3. Kelvin Robotics',
      '4. Gridwise Mobility',
      `4. ${printed(CJK_NAME, 'shenlian-deck.pdf')}`,
      '6. Patchwork Health',
    ].map((h) => body.indexOf(h));
    expect(
      heads.every((i) => i >= 0),
      JSON.stringify(heads),
    ).toBe(true);
    expect([...heads].sort((a, b) => a - b)).toEqual(heads);
    for (const deck of report.decks.filter((d) => d.outcome === 'analysed' || d.outcome === 'carried')) {
      for (const item of [...deck.redFlags, ...deck.questions, ...deck.strengths, ...deck.risks])
        expect(body, item).toContain(flat(item.replace(/series-a/g, 'Series A')));
      for (const f of deck.facts) expect(body).toContain(f.label);
    }
    expect(body).toContain('Red flags (8)');
    for (const f of MANY_FLAGS) expect(body).toContain(f);
    expect(body).toContain('Questions for the first meeting (8)');
    expect(body).toContain(`Why: ${LONG_REASON}`);
    expect(body).toContain(
      'Deal score 71.0% · Verdict: Consider · carried: analysed 19 Nov 2026 by an earlier run',
    );
    expect(body).toContain('Red flags: none raised by the service.');
    expect(body).toContain('$12.0M Series A');
  });

  it('captions each chart with its source, and links a data room only at a public address', () => {
    const body = pages.slice(1).join(' ');
    expect(body).toContain('Source: analyze_deck (S1)');
    expect(body).toContain('Source: analyze_deck (S4); get_deck_analysis (S5–S6)');
    expect(body).toContain("Source: an earlier run's analysis (19 Nov 2026)");
    expect((body.match(/Scores by dimension|S c o r e s/g) ?? []).length).toBeGreaterThanOrEqual(1);
    expect(body).toContain(`${ROOM_HOST}/vc/rooms/room_0001`);
    expect(body).not.toContain('room_0005');
    const links = readPdfStructure(path).pageLinks.map((l) => l.uri);
    expect(links).toContain(`${ROOM_HOST}/vc/rooms/room_0001`);
    expect(links.filter((u) => u !== null && /127\.0\.0\.1|localhost/.test(u))).toEqual([]);
    expect(privateUrls(text)).toEqual([]);
  });

  it('ends with the appendix: credits, the decks left out by the budget, the sources by operation', () => {
    const rest = pages.slice(pages.findIndex((p) => p.includes('Appendix: about this run'))).join(' ');
    expect(rest).toContain('Credits spent: 18 of a budget of 20');
    expect(rest).toMatch(
      /Credits per deck .*Brightloop Energy brightloop-seed-2026\.pdf Analysed 26 Nov 2026 3/,
    );
    expect(rest).toContain('Left out by the budget (2)');
    expect(rest).toMatch(/analyze_deck 6 6 18 S1–S2, S4, S7–S9/);
    expect(rest).toMatch(/get_deck_analysis 5 5 0 S3, S5–S6, S10–S11/);
    // Only the appendix speaks of credits.
    const before = pages.slice(
      0,
      pages.findIndex((p) => p.includes('Appendix: about this run')),
    );
    expect(before.join(' ')).not.toMatch(/\bcredits?\b/i);
  });

  it('cuts nothing and prints no raw stage key', () => {
    expect(text).not.toMatch(/…|\.\.\./);
    for (const line of text.split('\n')) expect(rawStageKey(line), line).toBeNull();
  });

  it('renders a report stored before sources were kept, and says why it lists none', async () => {
    const old = withoutSources(deckTriageReport());
    const oldPath = join(dir, 'old.pdf');
    const { pages: n } = await writeDeckTriagePdf(old, oldPath, { links: LINKS, runKey: 'run-old' });
    expect(n).toBeGreaterThan(2);
    const t = flat(pdfText(oldPath));
    expect(t).toContain(flat(noSourcesNote('run-old')));
    expect(t).not.toContain('Source: ');
    expect(t).toContain('1. Brightloop Energy');
  });

  it('says in its section why a deck has no dimension chart', async () => {
    const sparse = deckTriageReport();
    sparse.decks[5]!.dimensions = [];
    const sparsePath = join(dir, 'sparse.pdf');
    await writeDeckTriagePdf(sparse, sparsePath, { links: LINKS });
    const t = flat(pdfText(sparsePath));
    expect(t).toContain('6. Patchwork Health Deal score 31.0% · Verdict: Pass');
    expect(t).toContain("The service scored no dimension of Patchwork Health's deck: no chart.");
  });

  it('says a dimension note once: one the strengths already say is not repeated above them', async () => {
    const echo = deckTriageReport();
    const deck = echo.decks.find((d) => d.dimensions.some((x) => x.note))!;
    const [said, other] = deck.dimensions.filter((d) => d.note);
    deck.strengths = [`${said!.label}: ${said!.note!}`];
    const echoPath = join(dir, 'echo.pdf');
    await writeDeckTriagePdf(echo, echoPath, { links: LINKS });
    const t = flat(pdfText(echoPath));
    expect(t.split(flat(said!.note!)).length - 1).toBe(1);
    expect(t).toContain('What the other scores rest on');
    expect(t).toContain(flat(other!.note!));
  });

  it('passes the editorial rules (PDF and workbook), the service at a loopback address', async () => {
    const atLoopback = JSON.parse(
      JSON.stringify(deckTriageReport()).replaceAll(ROOM_HOST, LINKS.baseUrl),
    ) as DeckTriageReport;
    const pdf = join(dir, 'rules.pdf');
    const workbook = join(dir, 'rules.xlsx');
    const charts = await renderDeckCharts(atLoopback);
    await writeDeckTriagePdf(atLoopback, pdf, { charts, links: LINKS });
    await writeDeckTriageWorkbook(atLoopback, workbook, { charts, links: LINKS });
    for (const input of [{ pdf, workbook }, { pdf: path }]) {
      const v = await editorialViolations({
        asOf: RUN_DATE,
        ...input,
        machineColumns: [/\bid\b/i, /^SHA-256$/, /^File or link$/],
        fullTextColumns: [/\breason\b/i, /^why\b/i, /\bnote\b/i, /^red flag$/i, /^question/i],
      });
      expect(countByRule(v), JSON.stringify(v, null, 1)).toEqual({});
    }
  });
});
