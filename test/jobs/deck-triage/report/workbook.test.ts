/**
 * The deck triage's workbook opened back with exceljs: Summary (key figures, the ranking, the
 * decks without an analysis), Ranking (one row a deck, ranked by deal score, scores as
 * percentages, reasons whole, dates as dates, credits as numbers, the data room only at a public
 * address, the rank's note saying the runner computed it), Dimensions (one row a dimension of
 * each ranked deck, the highest first), Charts (each deck's chart as the PDF's picture, under its
 * name, with its source), Red flags, Questions (every item), Sources; a startup named like a formula stays
 * text; every data row names its source; a report stored before sources still writes; openpyxl
 * and LibreOffice open it.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CREDITS_BASIS,
  EARLIER_RUN,
  NOT_SENT,
  RANK_BASIS,
  renderDeckCharts,
  ROW_BASIS,
  writeDeckTriageWorkbook,
} from '../../../../jobs/deck-triage/report/index.js';
import type { DeckChart, DeckWorkbookResult } from '../../../../jobs/deck-triage/report/index.js';
import type { ServiceLinks } from '../../../../reports/links.js';
import { noSourcesNote, SOURCE_COLUMN } from '../../../../reports/sources.js';
import { privateUrls, rawStageKey } from '../../../helpers/editorial-rules.js';
import { openpyxlView } from '../../../helpers/openpyxl.js';
import {
  allCells,
  formulaLikeCells,
  openWorkbook,
  sofficeConvert,
  sofficePath,
} from '../../../helpers/reports.js';
import {
  dataSheetRows,
  expectSourceCells,
  sourcesSheetNote,
  sourcesSheetRows,
  withoutSources,
} from '../../../helpers/report-sources.js';
import {
  deckTriageReport,
  FORMULA_NAME,
  LONG_REASON,
  MANY_FLAGS,
  RANKED_NAMES,
  ROOM_HOST,
  UNRANKED_NAMES,
} from './fixture.js';

const LINKS: ServiceLinks = { baseUrl: 'http://127.0.0.1:8787', publicUrl: null };

const dir = mkdtempSync(join(tmpdir(), 'deck-triage-workbook-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A cell's text: a link's text, else the value as text. */
const text = (v: ExcelJS.CellValue): string =>
  v === null || v === undefined
    ? ''
    : typeof v === 'object' && 'text' in v
      ? String(v.text)
      : v instanceof Date
        ? v.toISOString()
        : typeof v === 'object'
          ? JSON.stringify(v)
          : String(v);

/** A sheet's data rows (its table from row 1) as header -> raw cell value. */
function records(ws: ExcelJS.Worksheet): Record<string, ExcelJS.CellValue>[] {
  const header = (ws.getRow(1).values as ExcelJS.CellValue[]).slice(1).map((v) => text(v));
  const out: Record<string, ExcelJS.CellValue>[] = [];
  for (let r = 2; r <= ws.rowCount; r++) {
    const row = ws.getRow(r);
    if (row.getCell(2).value === null) break;
    out.push(Object.fromEntries(header.map((h, i) => [h, row.getCell(i + 1).value])));
  }
  return out;
}

/** The name a startup has in a cell: a formula-like one is stored with a leading quote. */
const stored = (name: string): string => (name === FORMULA_NAME ? `'${name}` : name);

describe('writeDeckTriageWorkbook', () => {
  let charts: DeckChart[];
  let result: DeckWorkbookResult;
  let wb: ExcelJS.Workbook;
  beforeAll(async () => {
    const report = deckTriageReport();
    charts = await renderDeckCharts(report);
    result = await writeDeckTriageWorkbook(report, join(dir, 'triage.xlsx'), { charts, links: LINKS });
    wb = await openWorkbook(result.path);
  });

  it('has the sheets in order, and each ranked deck’s chart as the PDF’s picture', () => {
    expect(result.sheets).toEqual([
      'Summary',
      'Ranking',
      'Dimensions',
      'Charts',
      'Red flags',
      'Questions',
      'Sources',
    ]);
    expect(wb.worksheets.map((w) => w.name)).toEqual(result.sheets);
    expect(result.images).toBe(6);
    expect(result.urlsLeftOut).toBe(0);
    expect(wb.getWorksheet('Charts')!.getImages()).toHaveLength(6);
    // Each picture under its deck's rank and name, its source under it.
    const cells = allCells(wb)
      .filter((c) => c.sheet === 'Charts')
      .map((c) => text(c.cell.value));
    expect(cells.filter((t) => t.startsWith('Source: '))).toEqual([
      'Source: analyze_deck (S1)',
      'Source: analyze_deck (S2); get_deck_analysis (S3)',
      "Source: an earlier run's analysis (19 Nov 2026)",
      'Source: analyze_deck (S4); get_deck_analysis (S5–S6)',
      'Source: analyze_deck (S7)',
      'Source: analyze_deck (S8)',
    ]);
    const heads = cells.filter((t) => !t.startsWith('Source: '));
    expect(heads).toEqual([
      '1. Brightloop Energy: scores by dimension',
      `2. ${FORMULA_NAME}: scores by dimension`,
      '3. Kelvin Robotics: scores by dimension',
      '4. Gridwise Mobility: scores by dimension',
      `4. ${RANKED_NAMES[4]}: scores by dimension`,
      '6. Patchwork Health: scores by dimension',
    ]);
  });

  it('ranks one row a deck by deal score: numbers as numbers, reasons whole, the rank noted as computed', () => {
    const ws = wb.getWorksheet('Ranking')!;
    const rows = records(ws);
    expect(rows.map((r) => text(r['Startup']))).toEqual([...RANKED_NAMES, ...UNRANKED_NAMES].map(stored));
    expect(rows.map((r) => r['Rank'])).toEqual([1, 2, 3, 4, 4, 6, null, null, null]);
    expect(rows.map((r) => r['Deal score'])).toEqual([0.86, 0.74, 0.71, 0.58, 0.58, 0.31, null, null, null]);
    expect(ws.getCell(2, 3).numFmt).toBe('0.0%');
    expect(rows.map((r) => r['Verdict'])).toEqual([
      'Pursue',
      'Strong buy',
      'Consider',
      'Consider',
      'Consider',
      'Pass',
      null,
      null,
      null,
    ]);
    expect(rows[3]!['Reason']).toBe(LONG_REASON);
    expect(rows.map((r) => r['Credits'])).toEqual([3, 3, 0, 3, 3, 3, 0, 3, 0]);
    expect(rows[2]!['Outcome']).toBe('Carried: analysed 19 Nov 2026');
    expect(rows[2]!['Analysed on']).toBeInstanceOf(Date);
    expect((rows[2]!['Analysed on'] as Date).toISOString().slice(0, 10)).toBe('2026-11-19');
    expect(rows[6]!['Why no analysis']).toBe('The link answered 404 Not Found.');
    expect(text(rows[0]!['SHA-256'])).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]!['File or link']).toBe('brightloop-seed-2026.pdf');
    expect(text(rows[0]!['Data room'])).toBe(`${ROOM_HOST}/vc/rooms/room_0001`);
    // The loopback data room is left out; its id stays.
    expect(rows[4]!['Data room']).toBeNull();
    expect(rows[4]!['Data room id']).toBe('room_0005');
    expect(rows[0]!['Basis']).toBe(ROW_BASIS.ranked);
    expect(rows[6]!['Basis']).toBe(ROW_BASIS.other);
    expect(JSON.stringify(ws.getCell(1, 1).note)).toContain(JSON.stringify(RANK_BASIS).slice(1, -1));
    expect(JSON.stringify(ws.getCell(1, 9).note)).toContain(JSON.stringify(CREDITS_BASIS).slice(1, -1));
    expect(text(rows[1]!['Reason'])).toContain('last round Series A closed on 30 Jun 2026');
  });

  it('lists one row a dimension of each ranked deck, the highest first, scores as percentages', () => {
    const rows = records(wb.getWorksheet('Dimensions')!);
    expect(rows).toHaveLength(36);
    for (const name of RANKED_NAMES) {
      const own = rows.filter((r) => text(r['Startup']) === stored(name)).map((r) => r['Score'] as number);
      expect(own, name).toHaveLength(6);
      expect([...own].sort((a, b) => b - a)).toEqual(own);
    }
    expect(rows[0]).toMatchObject({ Rank: 1, Dimension: 'Team', Score: 0.91 });
    expect(rows.some((r) => text(r['Service note']).includes('Stadtwerke Nord'))).toBe(true);
  });

  it('lists every red flag and every question of each ranked deck, whole', () => {
    const report = deckTriageReport();
    const ranked = report.decks.filter((d) => d.outcome === 'analysed' || d.outcome === 'carried');
    const flags = records(wb.getWorksheet('Red flags')!).map((r) => text(r['Red flag']));
    expect(flags).toHaveLength(ranked.reduce((n, d) => n + d.redFlags.length, 0));
    for (const f of MANY_FLAGS) expect(flags).toContain(f);
    const questions = records(wb.getWorksheet('Questions')!);
    expect(questions).toHaveLength(ranked.reduce((n, d) => n + d.questions.length, 0));
    for (const d of ranked)
      for (const q of d.questions)
        expect(questions.map((r) => text(r['Question for the first meeting']))).toContain(q);
    expect(questions.filter((r) => text(r['Startup']) === 'Gridwise Mobility').map((r) => r['No.'])).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8,
    ]);
  });

  it('names every data row’s source on the Sources sheet', () => {
    const sources = sourcesSheetRows(wb);
    expect(sources.map((s) => s[SOURCE_COLUMN])).toEqual(Array.from({ length: 11 }, (_, i) => `S${i + 1}`));
    const known = new Set(sources.map((s) => s[SOURCE_COLUMN]!));
    const cells = expectSourceCells(wb, ['Ranking', 'Dimensions', 'Red flags', 'Questions'], known, [
      EARLIER_RUN,
      NOT_SENT,
    ]);
    const ranking = dataSheetRows(wb, 'Ranking').map((r) => r[SOURCE_COLUMN]);
    expect(ranking).toEqual(['S1', 'S2–S3', EARLIER_RUN, 'S4–S6', 'S7', 'S8', NOT_SENT, 'S9–S11', NOT_SENT]);
    for (const [sheet, rows] of cells)
      for (const { row } of rows) expect(row[SOURCE_COLUMN], sheet).not.toBe('');
  });

  it('keeps a formula-like name as text, and no loopback link or raw stage key anywhere', () => {
    expect(formulaLikeCells(wb)).toEqual([]);
    const all = allCells(wb);
    expect(all.some(({ cell }) => text(cell.value) === `'${FORMULA_NAME}`)).toBe(true);
    for (const { sheet, address, cell } of all) {
      const t = text(cell.value);
      expect(privateUrls(t), `${sheet}!${address}`).toEqual([]);
      expect(typeof cell.hyperlink === 'string' && /127\.0\.0\.1/.test(cell.hyperlink)).toBe(false);
      expect(rawStageKey(t), `${sheet}!${address}: ${t}`).toBeNull();
    }
    const summary = all.filter((c) => c.sheet === 'Summary').map((c) => text(c.cell.value));
    expect(summary).toContain('Analysed this run');
    expect(summary).toContain(LONG_REASON);
    // The key figures as numbers with their formats.
    const ws = wb.getWorksheet('Summary')!;
    const top = all.find((c) => c.sheet === 'Summary' && c.cell.value === 'Top deal score')!;
    const value = ws.getCell(Number(top.cell.row), Number(top.cell.col) + 1);
    expect(value.value).toBe(0.86);
    expect(value.numFmt).toBe('0.0%');
    const analysed = all.find((c) => c.sheet === 'Summary' && c.cell.value === 'Analysed this run')!;
    expect(ws.getCell(Number(analysed.cell.row), Number(analysed.cell.col) + 1).value).toBe(5);
  });

  it('writes a report stored before sources were kept: the Sources sheet says why, Source cells empty', async () => {
    const out = await writeDeckTriageWorkbook(withoutSources(deckTriageReport()), join(dir, 'old.xlsx'), {
      links: LINKS,
      runKey: 'run-old',
    });
    const back = await openWorkbook(out.path);
    expect(sourcesSheetNote(back)).toBe(noSourcesNote('run-old'));
    expect(sourcesSheetRows(back)).toEqual([]);
    expect(dataSheetRows(back, 'Ranking').map((r) => r[SOURCE_COLUMN] ?? '')).toEqual(Array(9).fill(''));
  });

  it('opens in openpyxl and LibreOffice', () => {
    const view = openpyxlView(dir, [result.path])[result.path]!;
    expect(view.warnings).toEqual([]);
    expect(view.sheets['Charts']?.images).toBe(6);
    expect(view.resaved['Charts']?.images).toBe(6);
    const pdf = sofficeConvert(sofficePath(), result.path, 'pdf', dir);
    expect(statSync(pdf).size).toBeGreaterThan(10_000);
  });
});
