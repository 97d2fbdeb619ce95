/**
 * What changed between two runs of a job, read from the answers each kept in its store folder
 * (`runs/<run>/…`, every answer the service charged for, as `StoredCall`s). Nothing is called.
 *
 * - Answers are paired by operation and parameters, the paging ones (offset, limit, cursor…)
 *   left out: the pages of one search are merged into one set of records keyed by `recordKey`,
 *   and its records are added (only in B), removed (only in A) or changed (a leaf moved, see
 *   run-diff-leaves.ts). Figures of a search beside its list (total, counts) are compared as the
 *   first page has them.
 * - Any other answer (a profile, an overview, an ask answer) is a single answer: present in one
 *   run only (added/removed), or compared leaf by leaf ("figures moved").
 * - my_account answers are left out (the balance moves every run): only counted.
 * - An answer read in an unexpected layout (no data, no list where a list belongs) is not
 *   comparable, with the reason; its search or answer is then not compared at all.
 *
 * @example
 * const a = await readRunDocuments(store, runA); const b = await readRunDocuments(store, runB);
 * const diff = diffRuns(a, b); // diff.operations[0].groups[0].added …
 */
import { OPERATIONS, type OperationName } from '../api/operations.js';
import { asObject, readField, type Obj } from '../api/read.js';
import { recordKey } from '../api/read-keys.js';
import { readPage } from '../api/read-page.js';
import type { StoreRef } from '../shared/types.js';
import { changedLeaves, leavesOf, leafText, type FieldChange } from './run-diff-leaves.js';
import { runFolderRef, type Store } from './store.js';

export type { FieldChange, Leaf } from './run-diff-leaves.js';

/** The documents of one run's store folder: each parsed, or why it could not be. */
export interface RunDocuments {
  runKey: string;
  folder: StoreRef;
  docs: { ref: StoreRef; doc?: unknown; error?: string }[];
}

/** Operations whose answers are lists of records (ask's rows have no keys: it is a single answer). */
export const RECORD_OPERATIONS: readonly string[] = [
  'search_investors',
  'search_startups',
  'find_investors',
  'find_startups_for_fund',
  'find_customers',
];
/** Left out of the diff: the account's balance moves on every run. */
export const LEFT_OUT_OPERATIONS: readonly string[] = ['my_account'];
/** Parameters that page a list (compared without spaces, underscores or case). */
const PAGING_PARAMS = new Set([
  'offset',
  'limit',
  'cursor',
  'page',
  'pagesize',
  'perpage',
  'pagetoken',
  'nextcursor',
  'nexttoken',
  'startingafter',
  'skip',
  'take',
]);
/** Where a record or an answer says its name. */
const NAME_FIELD = {
  kind: 'string',
  names: ['name', 'title', 'company_name', 'label', 'country', 'query'],
} as const;

export interface RecordRef {
  key: string;
  name: string | null;
}
export interface ChangedRecord extends RecordRef {
  fields: FieldChange[];
}

/** One search (its pages merged) or one single answer, in both runs. */
export interface GroupDiff {
  operation: string;
  kind: 'records' | 'answer';
  /** The parameters the answers were paired by (paging ones left out). */
  params: unknown;
  /** The parameters as text: `country=Germany, sort=score`. */
  label: string;
  /** Answers (pages) of it in each run. */
  answers: { a: number; b: number };
  /** Records of a search in each run (unique keys). */
  records: { a: number; b: number } | null;
  added: RecordRef[];
  removed: RecordRef[];
  changed: ChangedRecord[];
  unchanged: number;
  /** A search's figures beside its list that moved (first page's). */
  figures: FieldChange[];
  /** Records without a key, not compared, per run. */
  unkeyed: { a: number; b: number };
  /** Why this search or answer was not compared (null: it was). */
  notComparable: string | null;
}

export interface OperationDiff {
  operation: string;
  kind: 'records' | 'answer';
  added: number;
  removed: number;
  changed: number;
  unchanged: number;
  notComparable: number;
  groups: GroupDiff[];
}

/** A stored answer (or a document that may be one) that could not be read as expected. */
export interface NotComparable {
  run: 'a' | 'b';
  ref: StoreRef;
  operation: string | null;
  reason: string;
}

export interface RunDiff {
  /** Stored answers found in each run's folder (my_account's included). */
  answers: { a: number; b: number };
  /** Answers left out by operation (my_account): counted per run. */
  leftOut: Record<string, { a: number; b: number }>;
  operations: OperationDiff[];
  notComparable: NotComparable[];
}

/** One of the two runs compared. */
export interface RunSide {
  workflowId: string;
  type: string;
  jobId: string;
  startTime: string;
  closeTime: string | null;
  /** Where its answers were read: a folder or an s3:// URL. */
  where: string;
}

/** What `vir runs diff` reports: the two runs and their diff. */
export interface RunDiffReport extends RunDiff {
  jobId: string;
  a: RunSide;
  b: RunSide;
}

/** Whether a document is a stored answer: an object with operation, params, fetchedAt and result. */
export function isStoredAnswer(doc: unknown): doc is Obj {
  const o = asObject(doc);
  return o !== null && ['operation', 'params', 'fetchedAt', 'result'].every((k) => k in o);
}

/** Documents read at a time (an S3 store answers each with a request of its own). */
const READS_AT_ONCE = 8;

/**
 * Reads every JSON document of a run's folder, keeping the stored answers only (a model or a
 * chunk of rows is dropped once read: `doc` null) and, for a document that is not JSON, its error.
 */
export async function readRunDocuments(store: Store, runKey: string): Promise<RunDocuments> {
  const folder = runFolderRef(runKey);
  const refs = (await store.list(folder)).filter((r) => r.endsWith('.json'));
  const docs: RunDocuments['docs'] = new Array(refs.length);
  let next = 0;
  const reader = async () => {
    for (let i = next++; i < refs.length; i = next++) {
      const ref = refs[i]!;
      try {
        const doc = await store.getJson(ref);
        docs[i] = { ref, doc: isStoredAnswer(doc) ? doc : null };
      } catch (err) {
        docs[i] = { ref, error: (err as Error).message };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(READS_AT_ONCE, refs.length) }, reader));
  return { runKey, folder, docs };
}

/** How many stored answers a run's documents hold. */
export function answerCount(run: RunDocuments): number {
  return run.docs.filter((d) => isStoredAnswer(d.doc)).length;
}

/** JSON with object keys sorted: the same parameters give the same text. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  const o = asObject(v);
  if (o === null) return JSON.stringify(v) ?? 'null';
  const keys = Object.keys(o).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`).join(',')}}`;
}

/** The parameters without the paging ones. */
function baseParams(params: unknown): unknown {
  const o = asObject(params);
  if (o === null) return params ?? {};
  return Object.fromEntries(
    Object.entries(o).filter(([k]) => !PAGING_PARAMS.has(k.toLowerCase().replace(/[_\s-]/g, ''))),
  );
}

/** Parameters as people read them: `country=Germany, sort=score`; `(no parameters)` for none. */
export function paramsLabel(params: unknown): string {
  const o = asObject(params);
  if (o === null)
    return params === undefined || params === null ? '(no parameters)' : leafText(canonical(params), 80);
  const parts = Object.keys(o)
    .sort()
    .map((k) => {
      const v = o[k];
      const text = Array.isArray(v)
        ? v.map((x) => (typeof x === 'string' ? x : canonical(x))).join('|')
        : typeof v === 'string'
          ? v
          : canonical(v);
      return `${k}=${leafText(text, 60)}`;
    });
  return parts.length > 0 ? parts.join(', ') : '(no parameters)';
}

/** One answer of a run, read. */
interface ReadAnswer {
  ref: StoreRef;
  fetchedAt: string;
  /** The paging offset (0 when none): a search's pages in order. */
  offset: number;
  data: Obj;
  problem: string | null;
}

interface Side {
  answers: ReadAnswer[];
}
interface Group {
  operation: string;
  kind: 'records' | 'answer';
  params: unknown;
  a: Side;
  b: Side;
}

/** Why an answer cannot be compared, or its data. */
function readAnswer(operation: string, doc: Obj): { data: Obj } | { problem: string } {
  const result = asObject(doc.result);
  if (result === null) return { problem: 'its result is not an object' };
  if (result.success === false) return { problem: 'the service answered an error' };
  const data = asObject(result.data);
  if (data === null) return { problem: 'its result holds no data object' };
  if (RECORD_OPERATIONS.includes(operation) && !readPage(operation as OperationName, data).listFound)
    return { problem: 'no list of records under any name the reader knows' };
  return { data };
}

/** Sorts a run's documents into groups; not-comparable documents are also listed. */
function collect(run: RunDocuments, side: 'a' | 'b', groups: Map<string, Group>, diff: RunDiff): void {
  for (const { ref, doc, error } of run.docs) {
    if (error !== undefined) {
      diff.notComparable.push({ run: side, ref, operation: null, reason: `not readable: ${error}` });
      continue;
    }
    if (!isStoredAnswer(doc)) continue;
    diff.answers[side] += 1;
    const operation = typeof doc.operation === 'string' ? doc.operation : null;
    if (operation === null) {
      diff.notComparable.push({ run: side, ref, operation: null, reason: 'its operation is not a name' });
      continue;
    }
    if (LEFT_OUT_OPERATIONS.includes(operation)) {
      (diff.leftOut[operation] ??= { a: 0, b: 0 })[side] += 1;
      continue;
    }
    const kind = RECORD_OPERATIONS.includes(operation) ? 'records' : 'answer';
    const params = kind === 'records' ? baseParams(doc.params) : (doc.params ?? {});
    const id = `${operation} ${canonical(params)}`;
    let group = groups.get(id);
    if (!group) {
      group = { operation, kind, params, a: { answers: [] }, b: { answers: [] } };
      groups.set(id, group);
    }
    const read = readAnswer(operation, doc);
    const offset = Number(asObject(doc.params)?.offset ?? 0);
    const problem = 'problem' in read ? read.problem : null;
    if (problem !== null) diff.notComparable.push({ run: side, ref, operation, reason: problem });
    group[side].answers.push({
      ref,
      fetchedAt: typeof doc.fetchedAt === 'string' ? doc.fetchedAt : '',
      offset: Number.isFinite(offset) ? offset : 0,
      data: 'data' in read ? read.data : {},
      problem,
    });
  }
}

/** A search's records by key (pages in offset order, a key seen again keeps its first record). */
function mergedRecords(operation: string, side: Side): { records: Map<string, Obj>; unkeyed: number } {
  const pages = [...side.answers].sort(
    (x, y) => x.offset - y.offset || x.fetchedAt.localeCompare(y.fetchedAt),
  );
  const records = new Map<string, Obj>();
  let unkeyed = 0;
  for (const page of pages) {
    for (const item of readPage(operation as OperationName, page.data).items) {
      const key = recordKey(operation as OperationName, item);
      if (key === null) unkeyed += 1;
      else if (!records.has(key)) records.set(key, item);
    }
  }
  return { records, unkeyed };
}

/**
 * An answer without its lists of records (arrays of objects at its top or one level down, such
 * as `startups` or `batch.startups`): what is left are the figures beside the list.
 */
function withoutLists(data: Obj): Obj {
  const isList = (v: unknown) => Array.isArray(v) && v.some((x) => asObject(x) !== null);
  const out: Obj = {};
  for (const [k, v] of Object.entries(data)) {
    if (isList(v)) continue;
    const o = asObject(v);
    out[k] = o === null ? v : Object.fromEntries(Object.entries(o).filter(([, x]) => !isList(x)));
  }
  return out;
}

function nameOf(obj: unknown): string | null {
  const direct = readField(obj, NAME_FIELD);
  if (direct !== null) return direct;
  const o = asObject(obj);
  if (o === null) return null;
  for (const v of Object.values(o)) {
    const inner = asObject(v) === null ? null : readField(v, NAME_FIELD);
    if (inner !== null) return inner;
  }
  return null;
}

function emptyGroup(g: Group): GroupDiff {
  return {
    operation: g.operation,
    kind: g.kind,
    params: g.params,
    label: paramsLabel(g.params),
    answers: { a: g.a.answers.length, b: g.b.answers.length },
    records: null,
    added: [],
    removed: [],
    changed: [],
    unchanged: 0,
    figures: [],
    unkeyed: { a: 0, b: 0 },
    notComparable: null,
  };
}

function problemOf(g: Group): string | null {
  const bad = [
    ...g.a.answers.map((x) => ['A', x] as const),
    ...g.b.answers.map((x) => ['B', x] as const),
  ].filter(([, x]) => x.problem !== null);
  if (bad.length === 0) return null;
  return bad.map(([run, x]) => `run ${run} ${x.ref}: ${x.problem}`).join('; ');
}

function diffRecords(g: Group): GroupDiff {
  const out = emptyGroup(g);
  out.notComparable = problemOf(g);
  if (out.notComparable !== null) return out;
  const a = mergedRecords(g.operation, g.a);
  const b = mergedRecords(g.operation, g.b);
  out.records = { a: a.records.size, b: b.records.size };
  out.unkeyed = { a: a.unkeyed, b: b.unkeyed };
  for (const [key, item] of b.records) if (!a.records.has(key)) out.added.push({ key, name: nameOf(item) });
  for (const [key, item] of a.records) {
    const now = b.records.get(key);
    if (now === undefined) {
      out.removed.push({ key, name: nameOf(item) });
      continue;
    }
    const fields = changedLeaves(leavesOf(item), leavesOf(now));
    if (fields.length === 0) out.unchanged += 1;
    else out.changed.push({ key, name: nameOf(now) ?? nameOf(item), fields });
  }
  const first = (s: Side) => [...s.answers].sort((x, y) => x.offset - y.offset)[0];
  const fa = first(g.a);
  const fb = first(g.b);
  if (fa && fb) out.figures = changedLeaves(leavesOf(withoutLists(fa.data)), leavesOf(withoutLists(fb.data)));
  return out;
}

/** The key of a single answer: its one parameter's value, else its parameters as text. */
function answerKey(params: unknown): string {
  const o = asObject(params);
  const values = o === null ? [] : Object.values(o);
  if (values.length === 1 && (typeof values[0] === 'string' || typeof values[0] === 'number'))
    return String(values[0]);
  return paramsLabel(params);
}

function diffAnswer(g: Group): GroupDiff {
  const out = emptyGroup(g);
  out.notComparable = problemOf(g);
  if (out.notComparable !== null) return out;
  // A question asked twice in a run: its last answer.
  const last = (s: Side) => [...s.answers].sort((x, y) => x.fetchedAt.localeCompare(y.fetchedAt)).at(-1);
  const a = last(g.a);
  const b = last(g.b);
  const key = answerKey(g.params);
  if (!a && b) out.added.push({ key, name: nameOf(b.data) });
  else if (a && !b) out.removed.push({ key, name: nameOf(a.data) });
  else if (a && b) {
    const fields = changedLeaves(leavesOf(a.data), leavesOf(b.data));
    if (fields.length === 0) out.unchanged = 1;
    else out.changed.push({ key, name: nameOf(b.data) ?? nameOf(a.data), fields });
  }
  return out;
}

/** Operations in the catalog's order, unknown ones after them by name. */
function operationOrder(name: string): number {
  const i = Object.keys(OPERATIONS).indexOf(name);
  return i < 0 ? Number.MAX_SAFE_INTEGER : i;
}

/**
 * The diff of two runs' documents (A the earlier, B the later, as the caller names them).
 * Never throws on a document's content.
 */
export function diffRuns(a: RunDocuments, b: RunDocuments): RunDiff {
  const diff: RunDiff = { answers: { a: 0, b: 0 }, leftOut: {}, operations: [], notComparable: [] };
  const groups = new Map<string, Group>();
  collect(a, 'a', groups, diff);
  collect(b, 'b', groups, diff);
  const byOp = new Map<string, OperationDiff>();
  const ids = [...groups.keys()].sort((x, y) => {
    const gx = groups.get(x)!;
    const gy = groups.get(y)!;
    return operationOrder(gx.operation) - operationOrder(gy.operation) || x.localeCompare(y);
  });
  for (const id of ids) {
    const g = groups.get(id)!;
    const gd = g.kind === 'records' ? diffRecords(g) : diffAnswer(g);
    let op = byOp.get(g.operation);
    if (!op) {
      op = {
        operation: g.operation,
        kind: g.kind,
        added: 0,
        removed: 0,
        changed: 0,
        unchanged: 0,
        notComparable: 0,
        groups: [],
      };
      byOp.set(g.operation, op);
      diff.operations.push(op);
    }
    op.groups.push(gd);
    op.added += gd.added.length;
    op.removed += gd.removed.length;
    op.changed += gd.changed.length;
    op.unchanged += gd.unchanged;
    if (gd.notComparable !== null) op.notComparable += 1;
  }
  return diff;
}
