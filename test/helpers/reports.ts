/**
 * Opening reports back: the workbook with exceljs (and LibreOffice, where installed), the PDF
 * with poppler (pdftotext, pdfinfo).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import ExcelJS from 'exceljs';

/** Text of a PDF (layout kept), via pdftotext. */
export function pdfText(path: string): string {
  return execFileSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

/** Page count of a PDF, via pdfinfo. */
export function pdfPages(path: string): number {
  const info = execFileSync('pdfinfo', [path], { encoding: 'utf8' });
  return Number(/Pages:\s+(\d+)/.exec(info)?.[1] ?? 0);
}

export async function openWorkbook(path: string): Promise<ExcelJS.Workbook> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(path);
  return wb;
}

/**
 * A sheet's rows under its header row, as objects keyed by the header's texts (cell texts as a
 * person reads them); a missing sheet is an error naming it.
 */
export function sheetRows(wb: ExcelJS.Workbook, sheet: string): Record<string, string>[] {
  const ws = wb.getWorksheet(sheet);
  if (!ws) throw new Error(`no sheet ${sheet}`);
  const head: string[] = [];
  ws.getRow(1).eachCell((c, i) => (head[i] = c.text));
  const rows: Record<string, string>[] = [];
  ws.eachRow((row, n) => {
    if (n === 1) return;
    const o: Record<string, string> = {};
    head.forEach((name, i) => name && (o[name] = row.getCell(i).text));
    rows.push(o);
  });
  return rows;
}

/** Every cell of a workbook with its sheet and address. */
export function allCells(wb: ExcelJS.Workbook): { sheet: string; address: string; cell: ExcelJS.Cell }[] {
  const out: { sheet: string; address: string; cell: ExcelJS.Cell }[] = [];
  wb.eachSheet((ws) => {
    ws.eachRow({ includeEmpty: false }, (row) => {
      row.eachCell({ includeEmpty: false }, (cell) =>
        out.push({ sheet: ws.name, address: cell.address, cell }),
      );
    });
  });
  return out;
}

/** Cells Excel would evaluate: formula cells, or text that starts like a formula. */
export function formulaLikeCells(wb: ExcelJS.Workbook) {
  return allCells(wb).filter(({ cell }) => {
    if (cell.type === ExcelJS.ValueType.Formula || (cell.type === ExcelJS.ValueType.SharedString && false))
      return true;
    const v = cell.value;
    if (v && typeof v === 'object' && ('formula' in v || 'sharedFormula' in v)) return true;
    const text =
      typeof v === 'string' ? v : v && typeof v === 'object' && 'text' in v ? String(v.text) : null;
    return text !== null && /^[=+\-@\t\r]/.test(text);
  });
}

/**
 * The LibreOffice command (`soffice` or `libreoffice`) on PATH; scripts/setup.sh installs it
 * (libreoffice-calc-nogui), so a machine without it has not been set up: that is an error.
 */
export function sofficePath(): string {
  for (const name of ['soffice', 'libreoffice']) {
    try {
      const path = execFileSync('which', [name], { encoding: 'utf8' }).trim();
      if (path) return path;
    } catch {
      // not on PATH: try the next name
    }
  }
  throw new Error(
    'LibreOffice (soffice) is not installed: run scripts/setup.sh (it installs libreoffice-calc-nogui)',
  );
}

/** LibreOffice's CSV import as a person picks it in its dialog: `,` `"` UTF-8 (76), from line 1. */
export const CSV_UTF8_IMPORT = 'CSV:44,34,76,1';

/**
 * Converts `file` with LibreOffice headless (`pdf`, `csv`, ...) into `outDir` and returns the
 * new file's path; `infilter` sets the import (CSV files: {@link CSV_UTF8_IMPORT}). A fresh
 * profile a call, so parallel conversions do not share one.
 */
export function sofficeConvert(
  soffice: string,
  file: string,
  to: string,
  outDir: string,
  infilter?: string,
): string {
  const profile = mkdtempSync(join(tmpdir(), 'lo-profile-'));
  try {
    execFileSync(
      soffice,
      [
        `-env:UserInstallation=file://${profile}`,
        '--headless',
        ...(infilter ? [`--infilter=${infilter}`] : []),
        '--convert-to',
        to,
        '--outdir',
        outDir,
        file,
      ],
      { encoding: 'utf8', timeout: 120_000, stdio: ['ignore', 'pipe', 'pipe'] },
    );
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
  return join(outDir, basename(file).replace(/\.[^.]+$/, `.${to.split(':')[0] ?? to}`));
}
