/**
 * The leaves a run diff compares: an answer or a record flattened to `path → value`, where a
 * value is a number, a boolean or short text (an array of such values is one leaf, its items
 * joined). Long text (a description, an explanation, an answer in prose) is not a figure and is
 * left out; so are arrays too deep or too many leaves (a cap, said by `truncated`). Items of an
 * array of objects are named by a field that tells them apart (`rounds[44062]`, `by_year[2024]`)
 * or else by their position. Nothing here throws on any JSON value.
 */
import { asObject } from '../api/read.js';

/** A compared value. */
export type Leaf = string | number | boolean | null;

/** Text longer than this is prose, not a figure: not compared. */
export const MAX_COMPARED_TEXT = 200;
/** At most this many leaves of one answer or record are read. */
const MAX_LEAVES = 5000;
const MAX_DEPTH = 8;

/** Fields that name the items of an array of objects, tried in order (unique among the items). */
const ITEM_IDS = [
  'key',
  'normalized_key',
  'id',
  'slug',
  'uuid',
  'year',
  'period',
  'stage',
  'sector',
  'country',
  'date',
  'name',
];

export interface Leaves {
  values: Map<string, Leaf>;
  /** Some leaves were not read (the cap). */
  truncated: boolean;
}

/** A number, boolean or string that is compared; undefined for anything else. */
function scalar(v: unknown): Leaf | undefined {
  if (v === null) return null;
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string') return v.length <= MAX_COMPARED_TEXT ? v : undefined;
  return undefined;
}

function isScalarValue(v: unknown): boolean {
  return v === null || ['string', 'number', 'boolean'].includes(typeof v);
}

/** The names of an array's object items: a field whose values are present and unique, else positions. */
function itemNames(items: readonly unknown[]): string[] {
  for (const field of ITEM_IDS) {
    const ids = items.map((it) => {
      const v = asObject(it)?.[field];
      return typeof v === 'string' || typeof v === 'number' ? String(v) : null;
    });
    if (ids.every((id) => id !== null && id !== '') && new Set(ids).size === ids.length)
      return ids as string[];
  }
  return items.map((_, i) => String(i));
}

/**
 * The leaves of a value, by path (`startup.total_raised_usd`, `rounds[44062].amount_usd`). The
 * value itself when it is a scalar is the leaf `(value)`.
 *
 * @example leavesOf({ a: 1, b: { c: 'x' }, tags: ['ai', 'saas'] }).values // a → 1, b.c → 'x', tags → 'ai, saas'
 */
export function leavesOf(value: unknown): Leaves {
  const values = new Map<string, Leaf>();
  let truncated = false;
  const put = (path: string, v: Leaf) => {
    if (values.size >= MAX_LEAVES) truncated = true;
    else values.set(path || '(value)', v);
  };
  const walk = (v: unknown, path: string, depth: number): void => {
    if (truncated) return;
    if (depth > MAX_DEPTH) {
      truncated = true;
      return;
    }
    if (Array.isArray(v)) {
      if (v.length === 0) return put(path, null);
      if (v.every(isScalarValue)) {
        const joined = scalar(v.map((x) => (x === null ? '' : String(x))).join(', '));
        if (joined !== undefined) put(path, joined);
        return;
      }
      const names = itemNames(v);
      v.forEach((item, i) => walk(item, `${path}[${names[i]}]`, depth + 1));
      return;
    }
    const o = asObject(v);
    if (o !== null) {
      for (const [k, child] of Object.entries(o)) {
        walk(child, path ? `${path}.${k}` : k, depth + 1);
      }
      return;
    }
    const s = scalar(v);
    if (s !== undefined) put(path, s);
  };
  walk(value, '', 0);
  return { values, truncated };
}

/** One leaf that moved between two runs; `change` is after − before when both are numbers. */
export interface FieldChange {
  field: string;
  before: Leaf;
  after: Leaf;
  change: number | null;
}

/**
 * The leaves that differ between two sets, in the first set's order then the second's. A leaf
 * missing on one side counts as null there (a field absent and a field null are the same).
 */
export function changedLeaves(a: Leaves, b: Leaves): FieldChange[] {
  const out: FieldChange[] = [];
  const fields = new Set([...a.values.keys(), ...b.values.keys()]);
  for (const field of fields) {
    const before = a.values.get(field) ?? null;
    const after = b.values.get(field) ?? null;
    if (before === after) continue;
    const change =
      typeof before === 'number' && typeof after === 'number' ? roundChange(after - before) : null;
    out.push({ field, before, after, change });
  }
  return out;
}

/** A difference without floating-point noise (95.8 − 93.1 is 2.7, not 2.6999999999999886). */
function roundChange(n: number): number {
  return Number.parseFloat(n.toPrecision(12));
}

/** A leaf as text: `(none)` for null, numbers as they are. */
export function leafText(v: Leaf, max = 60): string {
  if (v === null) return '(none)';
  const s = String(v);
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/** A change as text with its sign (`+8`, `-2.1`), or '' when it is not a number. */
export function changeText(change: number | null): string {
  if (change === null) return '';
  return change > 0 ? `+${change}` : String(change);
}
