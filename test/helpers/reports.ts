/**
 * Opening reports back: the workbook with exceljs, the PDF with poppler (pdftotext, pdfinfo).
 */
import { execFileSync } from 'node:child_process';
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
