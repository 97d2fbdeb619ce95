/**
 * The suppression list of a prospect list: a CSV the user exports from their CRM, whose rows
 * leave companies out of the list. A row names a company by its website (or domain) and/or its
 * name; companies are matched by normalised domain first, then by normalised name. A row that
 * cannot be read is counted and the first few are quoted in the report; only a file that cannot
 * be read at all (missing, binary, not CSV) fails, naming the file and the line. The file is read
 * before the run starts (`vir run`, `vir schedules apply`, the run's first activity) and again
 * where the list is merged.
 */
import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';

/** Header names read as the company's website or domain (case and spacing ignored). */
const DOMAIN_HEADERS = [
  'domain',
  'website',
  'company domain name',
  'company domain',
  'url',
  'web site',
  'domains',
];
/** Header names read as the company's name. */
const NAME_HEADERS = [
  'name',
  'company name',
  'company',
  'account name',
  'organization name',
  'organisation name',
];

/** Legal-form words left out when names are compared ("Acme GmbH" is "Acme"). */
const LEGAL_FORMS = new Set([
  'inc',
  'incorporated',
  'llc',
  'ltd',
  'limited',
  'corp',
  'corporation',
  'co',
  'company',
  'gmbh',
  'ag',
  'sa',
  'sas',
  'sarl',
  'bv',
  'nv',
  'plc',
  'oy',
  'ab',
  'as',
  'aps',
  'srl',
  'spa',
  'kg',
  'ug',
  'pty',
  'pte',
  'kk',
]);

/**
 * A website or domain as one comparable host: lower case, no scheme, no `www.`, no path or port.
 *
 * @example
 * normaliseDomain('https://WWW.Acme.io/about?x=1') // 'acme.io'
 */
export function normaliseDomain(value: string): string | null {
  let text = value.trim().toLowerCase();
  if (text === '') return null;
  text = text.replace(/^[a-z][a-z0-9+.-]*:\/\//, '').replace(/^\/\//, '');
  text = text
    .split(/[/?#]/, 1)[0]!
    .replace(/:\d+$/, '')
    .replace(/^www\d*\./, '')
    .replace(/\.$/, '');
  if (!/^[\p{L}\p{N}-]+(\.[\p{L}\p{N}-]+)+$/u.test(text)) return null;
  return text;
}

/**
 * A company name as comparable words: lower case, accents and punctuation gone, legal forms
 * left out.
 *
 * @example
 * normaliseName('Acme, Inc.') === normaliseName('ACME inc') // true
 */
export function normaliseName(value: string): string | null {
  const words = value
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '' && !LEGAL_FORMS.has(w));
  return words.length > 0 ? words.join(' ') : null;
}

/** A row of the file that could not be used, for the report. */
export interface SuppressionProblem {
  /** 1-based line of the file. */
  line: number;
  reason: string;
}

/** A suppression list read from its file. */
export interface SuppressionList {
  file: string;
  domains: Set<string>;
  names: Set<string>;
  /** Rows read (the header left out). */
  rows: number;
  /** Rows that named no usable domain nor name. */
  malformed: number;
  /** The first few of them, quoted in the report. */
  examples: SuppressionProblem[];
}

/** A suppression file that cannot be read at all. */
export class SuppressionFileError extends Error {
  constructor(
    readonly file: string,
    readonly line: number | null,
    detail: string,
  ) {
    super(`suppression list ${file}${line === null ? '' : `, line ${line}`}: ${detail}`);
    this.name = 'SuppressionFileError';
  }
}

/** How many malformed rows the report quotes. */
export const QUOTED_PROBLEMS = 5;

const headerKey = (h: string) =>
  h
    .trim()
    .toLowerCase()
    .replace(/[_\s]+/g, ' ');

/**
 * Reads a suppression CSV (UTF-8, a BOM allowed; `,` or `;` between fields).
 *
 * @example
 * const list = await readSuppressionList('config/crm-export.csv');
 * isSuppressed(list, { domain: 'acme.io', name: 'Acme' }) // 'domain'
 */
export async function readSuppressionList(file: string): Promise<SuppressionList> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (err) {
    throw new SuppressionFileError(
      file,
      null,
      `cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  const nul = bytes.indexOf(0);
  if (nul >= 0) {
    const line = 1 + bytes.subarray(0, nul).filter((b) => b === 0x0a).length;
    throw new SuppressionFileError(
      file,
      line,
      'is a binary file, not a CSV text file (it holds a NUL byte; UTF-16 text does too): export the list from the CRM as CSV in UTF-8',
    );
  }
  return parseSuppressionList(bytes.toString('utf8'), file);
}

/** Parses a suppression CSV's text (see {@link readSuppressionList}). */
export function parseSuppressionList(text: string, file: string): SuppressionList {
  const firstLine = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  const delimiter = (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? ';' : ',';
  let records: string[][];
  try {
    records = parse(text, {
      bom: true,
      delimiter,
      relax_column_count: true,
      skip_empty_lines: true,
    });
  } catch (err) {
    const line = (err as { lines?: number }).lines ?? null;
    throw new SuppressionFileError(
      file,
      line,
      `not a readable CSV file (${(err as Error).message.split('\n')[0]})`,
    );
  }
  const header = (records[0] ?? []).map(headerKey);
  const domainAt = header.findIndex((h) => DOMAIN_HEADERS.includes(h));
  const nameAt = header.findIndex((h) => NAME_HEADERS.includes(h));
  if (records.length === 0) throw new SuppressionFileError(file, null, 'is empty: it needs a header line');
  if (domainAt < 0 && nameAt < 0) {
    throw new SuppressionFileError(
      file,
      1,
      `no column names the company: the header needs one of ${[...DOMAIN_HEADERS, ...NAME_HEADERS].map((h) => `"${h}"`).join(', ')}`,
    );
  }
  const list: SuppressionList = {
    file,
    domains: new Set(),
    names: new Set(),
    rows: 0,
    malformed: 0,
    examples: [],
  };
  records.slice(1).forEach((record, i) => {
    list.rows += 1;
    const rawDomain = domainAt >= 0 ? (record[domainAt] ?? '') : '';
    const rawName = nameAt >= 0 ? (record[nameAt] ?? '') : '';
    // A cell may list several domains (Attio's "Domains"): each counts.
    const domains = rawDomain
      .split(/[;,\s]+/)
      .map(normaliseDomain)
      .filter((d): d is string => d !== null);
    const name = normaliseName(rawName);
    for (const d of domains) list.domains.add(d);
    if (name) list.names.add(name);
    if (domains.length === 0 && !name) {
      list.malformed += 1;
      if (list.examples.length < QUOTED_PROBLEMS) {
        const shown = record.join(delimiter).slice(0, 80);
        list.examples.push({
          line: i + 2,
          reason:
            rawDomain.trim() !== ''
              ? `"${rawDomain.trim().slice(0, 60)}" is not a domain and the row has no name`
              : `no domain nor name (${JSON.stringify(shown)})`,
        });
      }
    }
  });
  return list;
}

/** Why a company is suppressed (`domain` first, then `name`), or null. */
export function isSuppressed(
  list: Pick<SuppressionList, 'domains' | 'names'>,
  company: { domain?: string | null; name?: string | null },
): 'domain' | 'name' | null {
  const domain = company.domain ? normaliseDomain(company.domain) : null;
  if (domain && list.domains.has(domain)) return 'domain';
  const name = company.name ? normaliseName(company.name) : null;
  if (name && list.names.has(name)) return 'name';
  return null;
}
