/**
 * CSV files for spreadsheets and CRM importers, written as a stream: RFC 4180 quoting (csv-stringify),
 * UTF-8 with a byte-order mark only when the reader needs one, CRLF line ends, ISO 8601 dates,
 * multi-values joined by `;`, and the rows split into numbered files at a row limit (an
 * importer's). Every text cell that a spreadsheet could run as a formula (it starts with `=`,
 * `+`, `-`, `@`, a tab, CR or LF: OWASP's list) is neutralised with a leading apostrophe; numbers
 * stay numbers. A URL cell holds an http(s) URL or nothing (`webUrl`): a `javascript:` value a
 * CRM would turn into a live link is left out, and counted (`urlsLeftOut`).
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { once } from 'node:events';
import { stringify, type Stringifier } from 'csv-stringify';
import { UrlTally, webUrl } from './web-url.js';

/** What a column holds, which decides how its cells are written. */
export type CsvCellKind = 'text' | 'number' | 'date' | 'list' | 'url';

/** One column of a CSV file: its header and how a row gives its cell. */
export interface CsvColumn<R> {
  header: string;
  kind: CsvCellKind;
  value: (row: R) => unknown;
}

export interface CsvFileOptions {
  /** Folder of the files. */
  dir: string;
  /** File name without `.csv`; split files are `<base>-001.csv`, `<base>-002.csv`, ... */
  base: string;
  /** Most data rows in one file (the header repeated in each); default no split. */
  rowLimit?: number;
  /** Write a UTF-8 byte-order mark (for readers that take UTF-8 only with one). */
  bom?: boolean;
}

/** Characters a spreadsheet reads as the start of a formula (OWASP CSV injection). */
const FORMULA_START = /^[=+\-@\t\r\n]/;

/**
 * A text cell a spreadsheet cannot run: one starting like a formula gets a leading apostrophe
 * (shown as text, the apostrophe hidden by spreadsheets).
 *
 * @example
 * neutraliseText('=HYPERLINK("http://x","y")') // `'=HYPERLINK("http://x","y")`
 * neutraliseText('-2+3')                        // `'-2+3`
 */
export function neutraliseText(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** A value as text: strings as they are, numbers and booleans printed, objects as JSON. */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  if (value instanceof Date) return value.toISOString();
  return JSON.stringify(value) ?? '';
}

/** The written form of one cell. */
export function csvCell(kind: CsvCellKind, value: unknown): string | number {
  if (value === null || value === undefined) return '';
  switch (kind) {
    case 'number': {
      const n = typeof value === 'number' ? value : Number(value);
      return Number.isFinite(n) ? n : '';
    }
    case 'date': {
      const d = value instanceof Date ? value : new Date(textOf(value));
      if (Number.isNaN(d.getTime())) return neutraliseText(textOf(value));
      // A date alone when the time is midnight UTC (a day, not an instant).
      const iso = d.toISOString();
      return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.replace(/\.\d{3}Z$/, 'Z');
    }
    case 'list': {
      const items = (Array.isArray(value) ? value : [value])
        .map((v: unknown) => (v === null || v === undefined ? '' : textOf(v)).trim())
        .filter((v) => v !== '');
      return neutraliseText(items.map((v) => v.replaceAll(';', ',')).join(';'));
    }
    case 'url':
      return webUrl(value) ?? '';
    case 'text':
      return neutraliseText(textOf(value));
  }
}

/** What {@link writeCsvFiles} wrote. */
export interface CsvFilesWritten {
  files: string[];
  rows: number;
  /** URL cells left empty: their value was not an http(s) URL (see `webUrl`). */
  urlsLeftOut: number;
}

/**
 * A CSV file (or numbered files at `rowLimit` rows each) written a row at a time: several can be
 * fed from one pass over a list, so the list is read once for all of them.
 *
 * @example
 * const out = new CsvFilesWriter(columns, { dir, base: 'prospects-hubspot' });
 * for await (const row of rows) await out.write(row);
 * const { files } = await out.close();
 */
export class CsvFilesWriter<R> {
  private readonly limit: number;
  private readonly files: string[] = [];
  private current: { stringifier: Stringifier; done: Promise<unknown> } | null = null;
  private inFile = 0;
  private total = 0;
  private readonly urls = new UrlTally();
  private ready: Promise<void>;

  constructor(
    private readonly columns: readonly CsvColumn<R>[],
    private readonly options: CsvFileOptions,
  ) {
    this.limit = options.rowLimit && options.rowLimit > 0 ? options.rowLimit : Infinity;
    this.ready = mkdir(options.dir, { recursive: true }).then(() => undefined);
  }

  private open() {
    const index = this.files.length + 1;
    const path = join(this.options.dir, `${this.options.base}-${String(index).padStart(3, '0')}.csv`);
    this.files.push(path);
    const out: WriteStream = createWriteStream(path);
    const stringifier = stringify({
      header: true,
      columns: this.columns.map((c) => c.header),
      bom: this.options.bom === true,
      record_delimiter: 'windows',
    });
    stringifier.pipe(out);
    return { stringifier, done: once(out, 'close') };
  }

  private async closeFile(): Promise<void> {
    if (!this.current) return;
    this.current.stringifier.end();
    await this.current.done;
    this.current = null;
  }

  /** Writes one row (waits while the file's buffer is full). */
  async write(row: R): Promise<void> {
    await this.ready;
    if (!this.current || this.inFile >= this.limit) {
      await this.closeFile();
      this.current = this.open();
      this.inFile = 0;
    }
    const record = this.columns.map((c) => {
      const value = c.value(row);
      return c.kind === 'url' ? (this.urls.cell(value) ?? '') : csvCell(c.kind, value);
    });
    if (!this.current.stringifier.write(record)) await once(this.current.stringifier, 'drain');
    this.inFile += 1;
    this.total += 1;
  }

  /** Ends the last file (an empty list still gets its header); one file needs no number. */
  async close(): Promise<CsvFilesWritten> {
    await this.ready;
    if (!this.current) this.current = this.open();
    await this.closeFile();
    if (this.files.length === 1) {
      const single = join(this.options.dir, `${this.options.base}.csv`);
      await rename(this.files[0]!, single);
      this.files[0] = single;
    }
    return { files: [...this.files], rows: this.total, urlsLeftOut: this.urls.leftOut };
  }
}

/**
 * Writes rows (any iterable, async included: the list is never held whole) into one CSV file, or
 * several at `rowLimit` rows each, and gives their paths.
 *
 * @example
 * await writeCsvFiles(rows, [{ header: 'Name', kind: 'text', value: (r) => r.name }], { dir, base: 'prospects-hubspot', bom: false });
 */
export async function writeCsvFiles<R>(
  rows: Iterable<R> | AsyncIterable<R>,
  columns: readonly CsvColumn<R>[],
  options: CsvFileOptions,
): Promise<CsvFilesWritten> {
  const out = new CsvFilesWriter(columns, options);
  for await (const row of rows as AsyncIterable<R>) await out.write(row);
  return out.close();
}
