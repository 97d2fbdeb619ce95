/**
 * Checking a report's provenance from the outside: its workbook's Sources sheet against the
 * run's store (one row a stored answer the model used; each row's reference a file of the run's
 * folder whose operation, parameters and time it repeats), every data sheet's Source column
 * naming only ids of that sheet, and a stored model as the code before sources kept it (the
 * fields deleted) to render again.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type ExcelJS from 'exceljs';
import { expect } from 'vitest';
import { runFolderRef } from '../../activities/store.js';
import { paramsText, SOURCE_COLUMN, SOURCES_SHEET } from '../../reports/sources.js';
import type { StoredCall } from '../../shared/types.js';

/** A cell's text (a link's text, a number as written). */
function textOf(cell: ExcelJS.Cell): string {
  const v = cell.value;
  if (v === null || v === undefined) return '';
  if (typeof v === 'object' && 'text' in v) return String(v.text);
  if (typeof v === 'object' && 'richText' in v) return v.richText.map((r) => r.text).join('');
  return cell.text;
}

/** The rows of a table whose header is row `headerRow`, as texts by header. */
function tableRows(ws: ExcelJS.Worksheet, headerRow: number): Record<string, string>[] {
  const head: string[] = [];
  ws.getRow(headerRow).eachCell((c, i) => (head[i] = textOf(c)));
  const rows: Record<string, string>[] = [];
  ws.eachRow((row, n) => {
    if (n <= headerRow) return;
    const o: Record<string, string> = {};
    head.forEach((name, i) => name && (o[name] = textOf(row.getCell(i))));
    if (Object.values(o).some((v) => v !== '')) rows.push(o);
  });
  return rows;
}

/** A data sheet's rows (its header in row 1), as texts by header. */
export function dataSheetRows(wb: ExcelJS.Workbook, sheet: string): Record<string, string>[] {
  const ws = wb.getWorksheet(sheet);
  if (!ws) throw new Error(`no sheet ${sheet}`);
  return tableRows(ws, 1);
}

/** The Sources sheet's rows (the table under its note), as texts by header; none when it only says why. */
export function sourcesSheetRows(wb: ExcelJS.Workbook): Record<string, string>[] {
  const ws = wb.getWorksheet(SOURCES_SHEET);
  if (!ws) throw new Error(`no ${SOURCES_SHEET} sheet`);
  let header = 0;
  ws.eachRow((row, n) => {
    if (header === 0 && textOf(row.getCell(1)) === SOURCE_COLUMN && textOf(row.getCell(2)) === 'Operation')
      header = n;
  });
  return header === 0 ? [] : tableRows(ws, header);
}

/** The text of the Sources sheet's first cell (its note, or why it lists nothing). */
export function sourcesSheetNote(wb: ExcelJS.Workbook): string {
  return textOf(wb.getWorksheet(SOURCES_SHEET)!.getCell(1, 1));
}

/** The source ids a Source cell names: `earlier run; S1–S3, S7` gives S1, S2, S3, S7. */
export function idsInSourceCell(text: string): string[] {
  const ids: string[] = [];
  for (const m of text.matchAll(/S(\d+)(?:–S(\d+))?/g)) {
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    for (let n = from; n <= to; n++) ids.push(`S${n}`);
  }
  return ids;
}

/** The stored answers of a run's folder (`<storeDir>/runs/<run>/…`) of the given operations, by reference. */
export function storedAnswers(
  storeDir: string,
  runKey: string,
  operations: readonly string[],
): Map<string, StoredCall> {
  const folder = join(storeDir, runFolderRef(runKey));
  const out = new Map<string, StoredCall>();
  for (const f of readdirSync(folder, { recursive: true, encoding: 'utf8' }).sort()) {
    if (!f.endsWith('.json')) continue;
    const path = join(folder, f);
    const doc = JSON.parse(readFileSync(path, 'utf8')) as Partial<StoredCall>;
    if (typeof doc.operation === 'string' && operations.includes(doc.operation) && 'result' in doc)
      out.set(relative(storeDir, path).split(sep).join('/'), doc as StoredCall);
  }
  return out;
}

/**
 * Checks a workbook's Sources sheet against the run's store: exactly one row for each stored
 * answer of `operations` in the run's folder (the answers the model reads), ids S1, S2, … in
 * order, each row's reference a file of that folder whose operation, parameters (secrets left
 * out) and fetch time the row repeats. Returns the stored answers by source id.
 */
export function expectSourcesFromStore(
  wb: ExcelJS.Workbook,
  run: { storeDir: string; runKey: string; operations: readonly string[] },
): Map<string, StoredCall> {
  const rows = sourcesSheetRows(wb);
  const stored = storedAnswers(run.storeDir, run.runKey, run.operations);
  expect(rows.length, 'one Sources row a stored answer').toBe(stored.size);
  expect(rows.map((r) => r[SOURCE_COLUMN])).toEqual(rows.map((_, i) => `S${i + 1}`));
  expect(new Set(rows.map((r) => r['Store reference'])).size).toBe(rows.length);
  const byId = new Map<string, StoredCall>();
  for (const r of rows) {
    const ref = r['Store reference']!;
    expect(ref.startsWith(`${runFolderRef(run.runKey)}/`), ref).toBe(true);
    expect(existsSync(join(run.storeDir, ref)), ref).toBe(true);
    const call = stored.get(ref);
    expect(call, `${ref} is a stored answer of ${run.operations.join(', ')}`).toBeDefined();
    expect(r['Operation']).toBe(call!.operation);
    expect(r['Parameters']).toBe(paramsText(call!.params as Record<string, unknown>));
    expect(r['Fetched at (UTC)']).toBe(call!.fetchedAt);
    expect(Number(r['HTTP status'])).toBe(call!.status ?? 200);
    expect(Number(r['Credits'])).toBe(call!.result.credits?.charged ?? 0);
    byId.set(r[SOURCE_COLUMN]!, call!);
  }
  return byId;
}

/**
 * Checks that each of `sheets` has a Source column and that every id its cells name is one of
 * `known` (the Sources sheet's); any other words must be among `words` (e.g. "earlier run").
 * Returns each sheet's rows with the ids their Source cell names.
 */
export function expectSourceCells(
  wb: ExcelJS.Workbook,
  sheets: readonly string[],
  known: ReadonlySet<string>,
  words: readonly string[] = [],
): Map<string, { row: Record<string, string>; ids: string[] }[]> {
  const out = new Map<string, { row: Record<string, string>; ids: string[] }[]>();
  for (const sheet of sheets) {
    const rows = dataSheetRows(wb, sheet);
    const head: string[] = [];
    wb.getWorksheet(sheet)!
      .getRow(1)
      .eachCell((c) => head.push(textOf(c)));
    expect(head, `${sheet} has a ${SOURCE_COLUMN} column`).toContain(SOURCE_COLUMN);
    out.set(
      sheet,
      rows.map((row) => {
        const cell = row[SOURCE_COLUMN] ?? '';
        const ids = idsInSourceCell(cell);
        for (const id of ids) expect(known.has(id), `${sheet}: ${cell} names ${id}`).toBe(true);
        const rest = cell
          .replace(/S\d+(–S\d+)?/g, '')
          .split(/[;,]/)
          .map((w) => w.trim())
          .filter((w) => w !== '');
        for (const w of rest) expect(words, `${sheet}: ${cell}`).toContain(w);
        return { row, ids };
      }),
    );
  }
  return out;
}

/** Whether a stored answer holds `text` (a key or a name) anywhere in its data. */
export function answerHolds(call: StoredCall, text: string): boolean {
  return JSON.stringify(call.result.data).includes(JSON.stringify(text).slice(1, -1));
}

/**
 * A stored model as the code before sources kept it: a deep copy without any `sources` or
 * `source` field (the model's list of sources and each record's ids).
 */
export function withoutSources<T>(model: T): T {
  const strip = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(strip);
    if (v === null || typeof v !== 'object') return v;
    return Object.fromEntries(
      Object.entries(v)
        .filter(([k]) => k !== 'sources' && k !== 'source')
        .map(([k, x]) => [k, strip(x)]),
    );
  };
  return strip(structuredClone(model)) as T;
}
