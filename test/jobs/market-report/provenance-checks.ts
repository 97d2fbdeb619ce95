/**
 * The market report's provenance checked from the outside: the workbook read back with exceljs
 * (its Sources sheet and every table's Source column), the run's store folder (the stored
 * answers themselves) and the PDF's text. Used by run.test.ts after real runs on the sandbox.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type ExcelJS from 'exceljs';
import { expect } from 'vitest';
import { readPage } from '../../../api/read-page.js';
import { readProfile } from '../../../api/read-profiles.js';
import { paramsText, SOURCE_COLUMN } from '../../../reports/sources.js';
import type { StoredCall } from '../../../shared/types.js';

/** A cell's text: a string, a number, a hyperlink's text. */
export function cellText(v: ExcelJS.CellValue): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string' || typeof v === 'number') return String(v);
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'object' && 'text' in v) return String(v.text);
  if (typeof v === 'object' && 'richText' in v) return v.richText.map((r) => r.text).join('');
  return '';
}

/** One Excel table read back: its sheet, name, headers and rows (header → cell text). */
export interface TableRead {
  sheet: string;
  name: string;
  headers: string[];
  rows: Record<string, string>[];
}

/** Every Excel table of the workbook, read through the table's own reference (A17:H24). */
export function tablesOf(wb: ExcelJS.Workbook): TableRead[] {
  const out: TableRead[] = [];
  for (const ws of wb.worksheets) {
    const tables = (
      ws as unknown as { tables?: Record<string, { table: { tableRef?: string; ref?: string } }> }
    ).tables;
    for (const [name, t] of Object.entries(tables ?? {})) {
      const ref = t.table.tableRef ?? t.table.ref ?? '';
      const [from, to] = ref.split(':').map((a) => ws.getCell(a));
      if (!from || !to) continue;
      const first = Number(from.col);
      const last = Number(to.col);
      const headerRow = Number(from.row);
      const headers: string[] = [];
      for (let c = first; c <= last; c++) headers.push(cellText(ws.getCell(headerRow, c).value));
      const rows: Record<string, string>[] = [];
      for (let r = headerRow + 1; r <= Number(to.row); r++)
        rows.push(Object.fromEntries(headers.map((h, k) => [h, cellText(ws.getCell(r, first + k).value)])));
      out.push({ sheet: ws.name, name, headers, rows });
    }
  }
  return out;
}

/** The ids a Source cell names: `S1–S3, S7` is S1, S2, S3, S7. */
export function idsIn(span: string): string[] {
  return span
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)
    .flatMap((p) => {
      const m = /^S(\d+)(?:–S(\d+))?$/.exec(p);
      if (!m) return [`<not an id: ${p}>`];
      const a = Number(m[1]);
      const b = Number(m[2] ?? m[1]);
      return Array.from({ length: b - a + 1 }, (_, k) => `S${a + k}`);
    });
}

/** A row of the Sources sheet, as read back. */
export interface SourceRead {
  id: string;
  operation: string;
  params: string;
  fetchedAt: string;
  credits: string;
  status: string;
  ref: string;
}

/** The Sources sheet's table, read back (null: the workbook has no such table). */
export function sourcesOf(wb: ExcelJS.Workbook): SourceRead[] | null {
  const t = tablesOf(wb).find((x) => x.sheet === 'Sources');
  if (!t) return null;
  return t.rows.map((r) => ({
    id: r[SOURCE_COLUMN] ?? '',
    operation: r.Operation ?? '',
    params: r.Parameters ?? '',
    fetchedAt: r['Fetched at (UTC)'] ?? '',
    credits: r.Credits ?? '',
    status: r['HTTP status'] ?? '',
    ref: r['Store reference'] ?? '',
  }));
}

/** Every stored answer of a run's store folder (`storeDir/runs/<runKey>/…`), by store reference. */
export function storedAnswers(storeDir: string, runKey: string): Map<string, StoredCall> {
  const out = new Map<string, StoredCall>();
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.json')) {
        const doc = JSON.parse(readFileSync(path, 'utf8')) as Partial<StoredCall>;
        if (typeof doc.operation === 'string' && doc.result && typeof doc.fetchedAt === 'string')
          out.set(relative(storeDir, path), doc as StoredCall);
      }
    }
  };
  walk(join(storeDir, 'runs', runKey));
  return out;
}

/**
 * The Sources sheet against the run's store folder: one row per stored answer the report was
 * made from (every one the run stored but the account's balance), each with the operation,
 * parameters, time, credits and status of the stored file. Returns the rows by id.
 */
export function expectSourcesMatchStore(
  wb: ExcelJS.Workbook,
  stored: Map<string, StoredCall>,
): Map<string, SourceRead & { call: StoredCall }> {
  const sources = sourcesOf(wb);
  expect(sources, 'a Sources table').not.toBeNull();
  const rows = sources ?? [];
  expect(rows.map((s) => s.id)).toEqual(rows.map((_, k) => `S${k + 1}`));
  const used = [...stored.entries()].filter(([, c]) => c.operation !== 'my_account').map(([ref]) => ref);
  expect(rows.map((s) => s.ref).sort()).toEqual(used.sort());
  const byId = new Map<string, SourceRead & { call: StoredCall }>();
  for (const s of rows) {
    const call = stored.get(s.ref);
    expect(call, s.ref).toBeDefined();
    if (!call) continue;
    expect({ op: s.operation, params: s.params, at: s.fetchedAt }, s.id).toEqual({
      op: call.operation,
      params: paramsText(call.params as Record<string, unknown>),
      at: call.fetchedAt,
    });
    expect(s.credits).toBe(String(call.result.credits?.charged ?? 0));
    expect(s.status).toBe(String(call.status ?? 200));
    byId.set(s.id, { ...s, call });
  }
  return byId;
}

/** The tables that name their rows' sources, but the Sources sheet's own. */
export function sourcedTables(wb: ExcelJS.Workbook): TableRead[] {
  return tablesOf(wb).filter((t) => t.sheet !== 'Sources' && t.headers.includes(SOURCE_COLUMN));
}

/** Keys (or names) of the records of a stored answer: a page's items, a profile, an overview's lists. */
export function recordsHeld(call: StoredCall): Set<string> {
  const out = new Set<string>();
  const add = (o: unknown) => {
    if (o && typeof o === 'object')
      for (const k of ['key', 'name']) {
        const v = (o as Record<string, unknown>)[k];
        if (typeof v === 'string') out.add(v);
      }
  };
  if (call.operation === 'get_investor' || call.operation === 'get_startup')
    add(readProfile(call.operation === 'get_investor' ? 'investor' : 'startup', call.result.data));
  else if (call.operation === 'country_overview') {
    const d = call.result.data as Record<string, unknown>;
    for (const list of Object.values(d ?? {})) if (Array.isArray(list)) list.forEach(add);
  } else readPage(call.operation, call.result.data).items.forEach(add);
  return out;
}
