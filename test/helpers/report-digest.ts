/**
 * A digest of what a person reads in a run's outputs: the PDF's text (pdftotext) and every
 * workbook cell (sheet, address, value). Values that change from run to run for the same data
 * (run ids, times, durations, the run date) are masked, so two runs of the same job over the
 * same data give the same digest, before and after a change of the code that made them.
 */
import type ExcelJS from 'exceljs';
import { allCells, openWorkbook, pdfText } from './reports.js';

export interface ReportDigest {
  pdf: string[];
  workbook: string[];
}

/** Masks what depends on when and as which workflow the run happened, not on the data. */
export function maskVolatile(text: string, workflowId: string, runDate: string): string {
  return (
    text
      .replaceAll(workflowId, '<workflow>')
      // The sandbox's port and the ids of the answers it stored (new on every run).
      .replace(/http:\/\/127\.0\.0\.1:\d+/g, '<service>')
      .replace(/\br_[A-Za-z0-9_-]{8,}/g, '<result>')
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
      .replace(/\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?( ?UTC|Z)?/g, '<time>')
      .replaceAll(runDate, '<date>')
      // Durations: "1 min 18 s", "12 s", "850 ms", "2.3 s".
      .replace(/\b\d+(\.\d+)? ?(min|ms|s)\b( \d+ ?s\b)?/g, '<duration>')
  );
}

/**
 * Masks the time a report was generated, as people read it ("23 Nov 2026 05:41 UTC"). Applied
 * when comparing (to a recorded digest too): it says when, not what.
 */
export function maskClock(line: string): string {
  return line.replace(/\b\d{1,2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2} UTC\b/g, '<generated>');
}

function cellText(cell: ExcelJS.Cell): string {
  const v = cell.value;
  if (v instanceof Date) return `date:${v.toISOString()}`;
  if (v && typeof v === 'object') {
    if ('richText' in v) return `rich:${v.richText.map((r) => r.text).join('')}`;
    if ('text' in v && 'hyperlink' in v) return `link:${String(v.text)} -> ${String(v.hyperlink)}`;
    return `obj:${JSON.stringify(v)}`;
  }
  return `${typeof v}:${String(v)}`;
}

/** The digest of a run's PDF and workbook. */
export async function reportDigest(
  files: { pdf?: string; xlsx?: string },
  mask: { workflowId: string; runDate: string },
): Promise<ReportDigest> {
  const m = (s: string) => maskVolatile(s, mask.workflowId, mask.runDate);
  const pdf = files.pdf
    ? pdfText(files.pdf)
        .split('\n')
        .map((l) => m(l.replace(/\s+/g, ' ').trim()))
        .filter((l) => l !== '')
    : [];
  const workbook: string[] = [];
  if (files.xlsx) {
    const wb = await openWorkbook(files.xlsx);
    for (const { sheet, address, cell } of allCells(wb)) {
      // A row labelled as a time measured by the run ("Run time (seconds)") varies by nature.
      const label = cell.worksheet.getRow(Number(cell.row)).getCell(1).text;
      const value = !/^A\d/.test(address) && /run time/i.test(label) ? '<duration>' : m(cellText(cell));
      workbook.push(`${sheet}!${address} ${value}`);
    }
    wb.eachSheet((ws) => workbook.push(`${ws.name}: images ${ws.getImages().length}`));
  }
  return { pdf, workbook };
}
