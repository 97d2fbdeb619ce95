/**
 * Tolerant readers of what the service returns inside `data` (the spec shows only
 * find_investors' fields; everything else is "not shown"). Each field the runner uses has the
 * names it is looked up under (the spec's name first, then plausible aliases, then the
 * sandbox's) and the forms it is read from (numbers given as numeric strings, a name given as
 * an object, a list missing or empty). Nothing here throws: what cannot be read is null, and
 * the caller names it "not provided by the service".
 *
 * This module is the reading itself: values at dotted paths, their forms, and field tables read
 * with {@link readField} and {@link readRecord}. The tables of each answer are beside it:
 * read-records.ts (investors, startups), read-profiles.ts (get_investor, get_startup),
 * read-answers.ts (country overview, ask, data rooms), read-account.ts (my_account),
 * read-page.ts (lists and paging) and read-keys.ts (the keys records are fetched by).
 *
 * @example
 * const page = readPage('search_investors', result.data);
 * // { items: [...], total: 1234 | null, nextOffset: 100 | null, listFound: true }
 * const inv = readRecord(page.items[0], INVESTOR_FIELDS);
 * // { key: 'sequoia-capital', name: 'Sequoia Capital', score: 97, ... }
 */

export type Obj = Record<string, unknown>;

/** The value as a plain object, or null. */
export function asObject(v: unknown): Obj | null {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : null;
}

/** The value at a dotted path (`paging.total`), or undefined. */
export function valueAt(obj: Obj, path: string): unknown {
  if (!path.includes('.')) return obj[path];
  let cur: unknown = obj;
  for (const part of path.split('.')) {
    if (Array.isArray(cur) && /^\d+$/.test(part)) {
      cur = cur[Number(part)];
      continue;
    }
    const o = asObject(cur);
    if (o === null) return undefined;
    cur = o[part];
  }
  return cur;
}

/** Whether any of the names is present (even as null) in the object. */
export function hasAny(obj: unknown, names: readonly string[]): boolean {
  const o = asObject(obj);
  return o !== null && names.some((n) => valueAt(o, n) !== undefined);
}

/** The first value under one of the names that is neither undefined nor null. */
export function pick(obj: unknown, names: readonly string[]): unknown {
  const o = asObject(obj);
  if (o === null) return undefined;
  for (const n of names) {
    const v = valueAt(o, n);
    if (v !== undefined && v !== null) return v;
  }
  return undefined;
}

const NUMERIC = /^[+-]?(\d{1,3}([,_ ]\d{3})+|\d+)(\.\d+)?([eE][+-]?\d+)?$/;
/** Names under which an object carries the number it stands for ({ amount: 5, currency: 'USD' }). */
const NUMBER_INSIDE = ['value', 'amount', 'balance', 'count', 'total', 'available', 'remaining'];

/** A finite number from a number, a numeric string ("1,234.5", " 12 ") or an object holding one. */
export function toNum(v: unknown, depth = 0): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string') {
    const s = v.trim();
    if (!NUMERIC.test(s)) return null;
    const n = Number(s.replace(/[,_ ]/g, ''));
    return Number.isFinite(n) ? n : null;
  }
  const o = asObject(v);
  if (o !== null && depth === 0) return toNum(pick(o, NUMBER_INSIDE), 1);
  return null;
}

/** Names under which an object carries the text it stands for ({ name: 'paid', id: 2 }). */
export const TEXT_INSIDE = ['name', 'label', 'title', 'value', 'id', 'code', 'slug'];

/** A non-empty string from a string, a number or an object holding one. */
export function toStr(v: unknown, depth = 0): string | null {
  if (typeof v === 'string') return v.trim() === '' ? null : v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  const o = asObject(v);
  if (o !== null && depth === 0) return toStr(pick(o, TEXT_INSIDE), 1);
  return null;
}

/** A list of strings from an array (of strings or named objects) or a comma-separated string. */
export function toStrings(v: unknown): string[] | null {
  if (typeof v === 'string') {
    const parts = v
      .split(/[,;]/)
      .map((s) => s.trim())
      .filter(Boolean);
    return parts;
  }
  if (!Array.isArray(v)) return null;
  return v.map((x) => toStr(x)).filter((x): x is string => x !== null);
}

/** The objects of a list (anything else in it is skipped); null when it is not a list. */
export function toObjects(v: unknown): Obj[] | null {
  if (!Array.isArray(v)) return null;
  return v.map((x) => asObject(x)).filter((x): x is Obj => x !== null);
}

/** A boolean from true/false, "true"/"false", "yes"/"no", 1/0. */
export function toBool(v: unknown): boolean | null {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v === 1 ? true : v === 0 ? false : null;
  if (typeof v === 'string') {
    const s = v.trim().toLowerCase();
    if (['true', 'yes', '1'].includes(s)) return true;
    if (['false', 'no', '0'].includes(s)) return false;
  }
  return null;
}

/** How a field is read. */
export type FieldKind = 'string' | 'number' | 'strings' | 'objects' | 'boolean';
export interface FieldSpec {
  kind: FieldKind;
  /** The spec's name first, then aliases, then the sandbox's; dotted paths reach into objects. */
  names: readonly string[];
}
export type FieldSpecs = Record<string, FieldSpec>;
type ValueOf<K extends FieldKind> = K extends 'string'
  ? string
  : K extends 'number'
    ? number
    : K extends 'strings'
      ? string[]
      : K extends 'objects'
        ? Obj[]
        : boolean;
/** A record read with a field table: each field its value or null. */
export type ReadRecord<F extends FieldSpecs> = { [K in keyof F]: ValueOf<F[K]['kind']> | null };

const CONVERT: Record<FieldKind, (v: unknown) => unknown> = {
  string: toStr,
  number: toNum,
  strings: toStrings,
  objects: toObjects,
  boolean: toBool,
};

/** The first value under the field's names that reads in the field's form. */
export function readField<K extends FieldKind>(obj: unknown, spec: { kind: K; names: readonly string[] }) {
  const o = asObject(obj);
  if (o === null) return null;
  for (const n of spec.names) {
    const v = valueAt(o, n);
    if (v === undefined || v === null) continue;
    const out = CONVERT[spec.kind](v);
    if (out !== null) return out as ValueOf<K>;
  }
  return null;
}

/** Reads every field of a table from one object (anything not an object reads as all null). */
export function readRecord<F extends FieldSpecs>(obj: unknown, fields: F): ReadRecord<F> {
  const out = {} as Record<string, unknown>;
  for (const [name, spec] of Object.entries(fields)) out[name] = readField(obj, spec);
  return out as ReadRecord<F>;
}

/**
 * The fields of a table that none of the objects carries under any of its names: what the
 * service did not provide (a field present with null is provided, as "no value").
 */
export function absentFields<F extends FieldSpecs>(objs: readonly unknown[], fields: F): (keyof F)[] {
  if (objs.length === 0) return [];
  return Object.keys(fields).filter((name) => !objs.some((o) => hasAny(o, fields[name]!.names)));
}

/** A field of a table: how it is read and the names it is looked up under, in order. */
export const field = <K extends FieldKind>(kind: K, ...names: string[]) => ({ kind, names }) as const;
