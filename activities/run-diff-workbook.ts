/**
 * The workbook of `vir runs diff --xlsx`: Summary (the two runs, then per operation the counts),
 * Added and Removed (one row a record or answer), Changed (one row a changed field of a record of
 * a search), Figures (one row a moved figure of a single answer, or of a search beside its list)
 * and Not comparable. Every row of the diff is there (the text caps its lists). Every text cell
 * from the service is formula-safe (`cellValue`): nothing in it runs as a formula.
 */
import { ReportWorkbook, safeText, type DataColumn } from '../reports/excel/index.js';
import type { FieldChange, GroupDiff, RecordRef, RunDiffReport } from './run-diff.js';

const WHERE: DataColumn[] = [
  { header: 'Operation', key: 'operation', width: 22 },
  { header: 'Search or answer', key: 'label', width: 36, wrap: true },
];
const RECORD: DataColumn[] = [
  ...WHERE,
  { header: 'Key', key: 'key', width: 28 },
  { header: 'Name', key: 'name', width: 30 },
];
const MOVE: DataColumn[] = [
  ...RECORD,
  { header: 'Field', key: 'field', width: 34, wrap: true },
  { header: 'Before', key: 'before', width: 24, wrap: true },
  { header: 'After', key: 'after', width: 24, wrap: true },
  { header: 'Change', key: 'change', kind: 'number', width: 12 },
];
const SUMMARY: DataColumn[] = [
  { header: 'Operation', key: 'operation', width: 22 },
  { header: 'Compared as', key: 'kind', width: 14 },
  { header: 'Searches or answers', key: 'groups', kind: 'int', width: 12 },
  { header: 'Answers in A', key: 'answersA', kind: 'int', width: 10 },
  { header: 'Answers in B', key: 'answersB', kind: 'int', width: 10 },
  { header: 'Added', key: 'added', kind: 'int', width: 10 },
  { header: 'Removed', key: 'removed', kind: 'int', width: 10 },
  { header: 'Changed', key: 'changed', kind: 'int', width: 10 },
  { header: 'Unchanged', key: 'unchanged', kind: 'int', width: 10 },
  { header: 'Figures moved', key: 'figures', kind: 'int', width: 10 },
  { header: 'Not comparable', key: 'notComparable', kind: 'int', width: 10 },
];
const NOT_COMPARABLE: DataColumn[] = [
  { header: 'Run', key: 'run', width: 40 },
  { header: 'Document', key: 'ref', width: 50, wrap: true },
  { header: 'Operation', key: 'operation', width: 22 },
  { header: 'Reason', key: 'reason', width: 50, wrap: true },
];

/** The header text of the Summary sheet's table: found by the tests and by readers. */
export const SUMMARY_HEADER = SUMMARY[0]!.header;

type Row = Record<string, unknown>;

const where = (g: GroupDiff) => ({ operation: g.operation, label: g.label });
const recordRow = (g: GroupDiff, r: RecordRef): Row => ({ ...where(g), key: r.key, name: r.name });
const moveRows = (g: GroupDiff, r: RecordRef, fields: readonly FieldChange[]): Row[] =>
  fields.map((f) => ({
    ...recordRow(g, r),
    field: f.field,
    before: f.before,
    after: f.after,
    change: f.change,
  }));

/** The rows of each data sheet, every one of the diff. */
export function runDiffRows(report: RunDiffReport) {
  const groups = report.operations.flatMap((o) => o.groups);
  return {
    summary: report.operations.map((o) => ({
      operation: o.operation,
      kind: o.kind === 'records' ? 'records' : 'single answers',
      groups: o.groups.length,
      answersA: o.groups.reduce((n, g) => n + g.answers.a, 0),
      answersB: o.groups.reduce((n, g) => n + g.answers.b, 0),
      added: o.added,
      removed: o.removed,
      changed: o.changed,
      unchanged: o.unchanged,
      figures: o.groups.reduce(
        (n, g) => n + (g.kind === 'records' ? g.figures.length : (g.changed[0]?.fields.length ?? 0)),
        0,
      ),
      notComparable: o.notComparable,
    })),
    added: groups.flatMap((g) => g.added.map((r) => recordRow(g, r))),
    removed: groups.flatMap((g) => g.removed.map((r) => recordRow(g, r))),
    changed: groups
      .filter((g) => g.kind === 'records')
      .flatMap((g) => g.changed.flatMap((r) => moveRows(g, r, r.fields))),
    figures: groups.flatMap((g) =>
      g.kind === 'records'
        ? moveRows(g, { key: '(beside the list)', name: null }, g.figures)
        : g.changed.flatMap((r) => moveRows(g, r, r.fields)),
    ),
    notComparable: report.notComparable.map((n) => ({
      run: `${n.run.toUpperCase()}: ${n.run === 'a' ? report.a.workflowId : report.b.workflowId}`,
      ref: n.ref,
      operation: n.operation,
      reason: n.reason,
    })),
  };
}

/** Writes the diff's workbook to `path`. */
export async function writeRunDiffWorkbook(report: RunDiffReport, path: string): Promise<void> {
  const title = `Run diff of job ${report.jobId}`;
  const book = new ReportWorkbook({ title });
  const rows = runDiffRows(report);
  const summary = book.addSummarySheet([]);
  const side = (n: 'A' | 'B', s: RunDiffReport['a']) =>
    `${n}: ${s.workflowId}, started ${s.startTime}${s.closeTime ? `, closed ${s.closeTime}` : ''}`;
  // The title, A under it, then B and the answers counted: the table of operations below.
  const next = book.addTitle(summary, title, side('A', report.a));
  const leftOut = Object.entries(report.leftOut)
    .map(([op, n]) => `${op} left out (A ${n.a}, B ${n.b})`)
    .join('; ');
  const counts = `Stored answers: A ${report.answers.a}, B ${report.answers.b}${leftOut ? `; ${leftOut}` : ''}`;
  summary.getCell(next - 1, 1).value = safeText(side('B', report.b));
  summary.getCell(next, 1).value = safeText(counts);
  const row = next + 2;
  book.addDataTable(summary, {
    name: 'Operations',
    columns: SUMMARY,
    rows: rows.summary,
    origin: { row, col: 1 },
  });
  const sheet = (name: string, tab: string, columns: DataColumn[], data: Row[]) =>
    book.addDataTable(book.addSheet(name, { tabColor: tab }), {
      name: name.replace(/\s/g, ''),
      columns,
      rows: data,
    });
  sheet('Added', 'FF2E8B57', RECORD, rows.added);
  sheet('Removed', 'FF7F8C8D', RECORD, rows.removed);
  sheet('Changed', 'FFE08A1E', MOVE, rows.changed);
  sheet('Figures', 'FF8E44AD', MOVE, rows.figures);
  sheet('Not comparable', 'FFC0392B', NOT_COMPARABLE, rows.notComparable);
  await book.writeTo(path);
}
