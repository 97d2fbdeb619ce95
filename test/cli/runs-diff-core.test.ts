/**
 * The comparison core of `vir runs diff` (activities/run-diff.ts) on hand-made stored answers:
 * a search's pages merged before its records are compared, a record changed field by field, a
 * profile's figures moved, my_account left out, documents that are no answers skipped, and
 * answers of an unexpected layout counted as not comparable with their reason (no crash). Then
 * the text's caps, the workbook's rows and formula-safe cells, and the store's listing (local
 * folder and a real S3-compatible server, several pages of keys).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import {
  answerCount,
  diffRuns,
  readRunDocuments,
  type RunDiffReport,
  type RunDocuments,
} from '../../activities/run-diff.js';
import { runDiffRows, writeRunDiffWorkbook } from '../../activities/run-diff-workbook.js';
import { S3Store } from '../../activities/s3-store.js';
import { LocalStore } from '../../activities/store.js';
import { formatRunsDiff } from '../../cli/commands/runs-diff.js';
import { formulaLikeCells, openWorkbook } from '../helpers/reports.js';
import { startS3Server } from '../helpers/s3-server.js';

const at = '2026-11-23T07:00:00Z';
/** A stored answer as callOnce writes it. */
const answer = (operation: string, params: unknown, data: unknown, extra: object = {}) => ({
  operation,
  params,
  fetchedAt: at,
  result: { success: true, operation, data, credits: { charged: 0, remaining: 100 }, ...extra },
});
const startup = (key: string, raised: number, extra: object = {}) => ({
  key,
  name: `Startup ${key.toUpperCase()}`,
  total_raised_usd: raised,
  tags: ['ai', 'saas'],
  description: 'x'.repeat(300),
  ...extra,
});
const page = (offset: number, items: unknown[], total: number) =>
  answer(
    'search_startups',
    { countries: ['Germany'], limit: 2, offset },
    { startups: items, total, next_offset: offset + 2 },
  );
const run = (runKey: string, docs: unknown[]): RunDocuments => ({
  runKey,
  folder: `runs/${runKey}`,
  docs: docs.map((doc, i) => ({ ref: `runs/${runKey}/doc-${i}.json`, doc })),
});

const runA = run('a', [
  page(0, [startup('a', 100), startup('b', 90)], 4),
  page(2, [startup('c', 80), startup('d', 70)], 4),
  answer('get_startup', { key: 'a' }, { startup: { key: 'a', name: 'Startup A', total_raised_usd: 100 } }),
  answer('get_startup', { key: 'b' }, { startup: { key: 'b', name: 'Startup B', total_raised_usd: 90 } }),
  answer('my_account', {}, { plan: 'paid', balance: 100 }),
  answer('search_investors', { country: 'France' }, { investors: [{ key: 'i1', name: 'I1' }] }),
  { model: true, rows: [1, 2] }, // a model: no answer
]);
const runB = run('b', [
  // The pages in another order, one record moved from page 2 to page 1, one new, one gone.
  page(2, [startup('d', 70), startup('e', 60)], 5),
  page(0, [startup('a', 150, { tags: ['ai', 'saas', 'fintech'] }), startup('c', 80)], 5),
  answer('get_startup', { key: 'a' }, { startup: { key: 'a', name: 'Startup A', total_raised_usd: 150 } }),
  answer('get_startup', { key: 'e' }, { startup: { key: 'e', name: 'Startup E', total_raised_usd: 60 } }),
  answer('my_account', {}, { plan: 'paid', balance: 97 }),
  answer('my_account', {}, { plan: 'paid', balance: 96 }),
  // Unexpected layouts: no list where one belongs, no data, a result that is no object.
  answer('search_investors', { country: 'France' }, { weird: { nested: 1 } }),
  answer('country_overview', { country: 'Germany' }, null),
  { operation: 'get_investor', params: 'odd', fetchedAt: 7, result: 'not an object' },
  { operation: 42, params: null, fetchedAt: null, result: {} },
  answer('search_startups', { countries: ['France'] }, { startups: [{ name: 'no key' }, 'junk', null] }),
]);

describe('the comparison core', () => {
  const diff = diffRuns(runA, runB);
  const group = (op: string) => diff.operations.find((o) => o.operation === op)!;

  it("merges a search's pages and compares its records by key", () => {
    const search = group('search_startups').groups.find((g) => g.label === 'countries=Germany')!;
    expect(search.answers).toEqual({ a: 2, b: 2 });
    expect(search.records).toEqual({ a: 4, b: 4 });
    expect(search.added).toEqual([{ key: 'e', name: 'Startup E' }]);
    expect(search.removed).toEqual([{ key: 'b', name: 'Startup B' }]);
    // c moved to page 1 and d stayed: the same records, unchanged; the long description is not compared.
    expect(search.unchanged).toBe(2);
    expect(search.changed).toEqual([
      {
        key: 'a',
        name: 'Startup A',
        fields: [
          { field: 'total_raised_usd', before: 100, after: 150, change: 50 },
          { field: 'tags', before: 'ai, saas', after: 'ai, saas, fintech', change: null },
        ],
      },
    ]);
    // The figures beside the list, from the first page.
    expect(search.figures).toEqual([{ field: 'total', before: 4, after: 5, change: 1 }]);
    // A search with records but no keys: counted, not compared.
    const france = group('search_startups').groups.find((g) => g.label === 'countries=France')!;
    expect(france.unkeyed).toEqual({ a: 0, b: 1 });
    expect(france.answers).toEqual({ a: 0, b: 1 });
  });

  it('compares single answers figure by figure, and leaves my_account out', () => {
    const profiles = group('get_startup');
    expect(profiles).toMatchObject({ kind: 'answer', added: 1, removed: 1, changed: 1, unchanged: 0 });
    expect(profiles.groups.flatMap((g) => g.changed)).toEqual([
      {
        key: 'a',
        name: 'Startup A',
        fields: [{ field: 'startup.total_raised_usd', before: 100, after: 150, change: 50 }],
      },
    ]);
    expect(profiles.groups.flatMap((g) => g.added)).toEqual([{ key: 'e', name: 'Startup E' }]);
    expect(diff.leftOut).toEqual({ my_account: { a: 1, b: 2 } });
    expect(diff.operations.map((o) => o.operation)).not.toContain('my_account');
    // Every stored answer counted (the model is none).
    expect(diff.answers).toEqual({ a: 6, b: 11 });
  });

  it('counts answers of an unexpected layout as not comparable, with the reason', () => {
    expect(diff.notComparable.map((n) => [n.run, n.operation, n.reason])).toEqual([
      ['b', 'search_investors', 'no list of records under any name the reader knows'],
      ['b', 'country_overview', 'its result holds no data object'],
      ['b', 'get_investor', 'its result is not an object'],
      ['b', null, 'its operation is not a name'],
    ]);
    const investors = group('search_investors');
    expect(investors.notComparable).toBe(1);
    expect(investors.groups[0]!.notComparable).toMatch(
      /^run B runs\/b\/doc-6\.json: no list of records under any name the reader knows$/,
    );
    expect(investors.groups[0]!.added).toEqual([]);
    // Nothing at all is readable: still no crash.
    const junk = run('j', [null, 5, 'x', [], { operation: 'ask' }, answer('ask', [], [1, 2])]);
    expect(() =>
      diffRuns(junk, { ...junk, docs: [{ ref: 'runs/j/bad.json', error: 'Unexpected token' }] }),
    ).not.toThrow();
  });

  it('caps the text: 20 records a section, 4 fields a record, and says how many more', () => {
    const many = (n: number, raised: number) =>
      answer(
        'search_investors',
        { country: 'Spain' },
        {
          investors: Array.from({ length: n }, (_, i) => ({
            key: `k${i}`,
            name: `N${i}`,
            a: raised,
            b: raised,
            c: raised,
            d: raised,
            e: raised,
            f: raised,
          })),
        },
      );
    const d = diffRuns(run('x', [many(25, 1)]), run('y', [many(50, 2)]));
    const report: RunDiffReport = {
      ...d,
      jobId: 'job',
      a: { workflowId: 'x', type: 't', jobId: 'job', startTime: at, closeTime: at, where: '/s/runs/x' },
      b: { workflowId: 'y', type: 't', jobId: 'job', startTime: at, closeTime: null, where: '/s/runs/y' },
    };
    const text = formatRunsDiff(report);
    expect(text.slice(0, 4)).toEqual([
      'runs diff of job job',
      `  A  x  started ${at}  closed ${at}`,
      `  B  y  started ${at}  closed -`,
      '  stored answers: A 1, B 1',
    ]);
    expect(text).toContain('search_investors (1 search): added 25, removed 0, changed 25, unchanged 0');
    expect(text).toContain('      … and 5 more');
    expect(text.filter((l) => l.startsWith('      + '))).toHaveLength(20);
    expect(text).toContain(
      '      ~ N0 (k0): a 1 → 2 (+1); b 1 → 2 (+1); c 1 → 2 (+1); d 1 → 2 (+1); and 2 more fields',
    );
    // Service text cannot drive the terminal: control characters are shown as '?'.
    const escape = diffRuns(
      run('x', []),
      run('y', [answer('get_startup', { key: 'k' }, { name: 'Evil\u001b[2J\nCo' })]),
    );
    expect(formatRunsDiff({ ...report, ...escape })).toContain('    + Evil?[2J?Co (k)');
  });
});

describe('the workbook', () => {
  it('holds every row, and no cell a spreadsheet could run as a formula', async () => {
    const evil = (key: string, name: string, v: unknown) =>
      answer('search_startups', {}, { startups: [{ key, name, v }] });
    const d = diffRuns(
      run('a', [
        evil('k1', '@SUM(A1)', '-5'),
        answer('get_startup', { key: 'k1' }, { name: '=1+1', x: '+3' }),
      ]),
      run('b', [
        evil('k1', '@SUM(A1)', '=HYPERLINK("http://x","y")'),
        evil('k2', '=cmd|"/c calc"!A1', 1),
        answer('get_startup', { key: 'k1' }, { name: '=1+1', x: '\tTAB' }),
      ]),
    );
    const report: RunDiffReport = {
      ...d,
      jobId: '=job',
      a: { workflowId: 'a', type: 't', jobId: '=job', startTime: at, closeTime: at, where: '' },
      b: { workflowId: 'b', type: 't', jobId: '=job', startTime: at, closeTime: at, where: '' },
    };
    const dir = await mkdtemp(join(tmpdir(), 'vir-diff-xlsx-'));
    try {
      const path = join(dir, 'diff.xlsx');
      await writeRunDiffWorkbook(report, path);
      const wb = await openWorkbook(path);
      expect(wb.worksheets.map((w) => w.name)).toEqual([
        'Summary',
        'Added',
        'Removed',
        'Changed',
        'Figures',
        'Not comparable',
      ]);
      expect(formulaLikeCells(wb)).toEqual([]);
      const texts = (sheet: string) => {
        const ws = wb.getWorksheet(sheet)!;
        const width = ws.getRow(1).cellCount;
        const rows: string[][] = [];
        ws.eachRow((r) => rows.push(Array.from({ length: width }, (_, i) => r.getCell(i + 1).text)));
        return rows;
      };
      expect(texts('Added')).toEqual([
        ['Operation', 'Search or answer', 'Key', 'Name'],
        ['search_startups', '(no parameters)', 'k2', `'=cmd|"/c calc"!A1`],
      ]);
      expect(texts('Changed')).toEqual([
        ['Operation', 'Search or answer', 'Key', 'Name', 'Field', 'Before', 'After', 'Change'],
        [
          'search_startups',
          '(no parameters)',
          'k1',
          `'@SUM(A1)`,
          'v',
          `'-5`,
          `'=HYPERLINK("http://x","y")`,
          '',
        ],
      ]);
      expect(texts('Figures')).toEqual([
        ['Operation', 'Search or answer', 'Key', 'Name', 'Field', 'Before', 'After', 'Change'],
        ['get_startup', 'key=k1', 'k1', `'=1+1`, 'x', `'+3`, `'\tTAB`, ''],
      ]);
      expect(texts('Changed').length - 1).toBe(runDiffRows(report).changed.length);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('Store.list', () => {
  const docs = [
    'runs/r1/batch.json',
    'runs/r1/profiles/startup-0.json',
    'runs/r1/profiles/startup-1.json',
    'runs/r1/render.json',
    'runs/r10/other.json',
  ];

  it('lists a run folder of the local store, its sub-folders included', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vir-list-'));
    try {
      const store = new LocalStore(dir);
      for (const ref of docs) await store.putJsonAt(ref, { ref });
      expect(await store.list('runs/r1')).toEqual(docs.slice(0, 4));
      expect(await store.list('runs/r1/')).toEqual(docs.slice(0, 4));
      expect(await store.list('runs/missing')).toEqual([]);
      await expect(store.list('../elsewhere')).rejects.toThrow(/escapes the store/);
      // A run's folder read: its answers kept, the other documents dropped, a broken one said.
      await store.putJson('r1', 'batch', answer('find_startups_for_fund', { limit: 10 }, { startups: [] }));
      await writeFile(join(dir, 'runs/r1/broken.json'), '{"operation": ');
      const read = await readRunDocuments(store, 'r1');
      expect(read.folder).toBe('runs/r1');
      expect(
        read.docs.map((d) => [d.ref, d.doc === null ? 'dropped' : d.error ? 'error' : 'answer']),
      ).toEqual([
        ['runs/r1/batch.json', 'answer'],
        ['runs/r1/broken.json', 'error'],
        ['runs/r1/profiles/startup-0.json', 'dropped'],
        ['runs/r1/profiles/startup-1.json', 'dropped'],
        ['runs/r1/render.json', 'dropped'],
      ]);
      expect(answerCount(read)).toBe(1);
      expect(diffRuns(read, read).notComparable).toEqual([
        expect.objectContaining({
          ref: 'runs/r1/broken.json',
          reason: expect.stringMatching(/^not readable: /),
        }),
        expect.objectContaining({ ref: 'runs/r1/broken.json', run: 'b' }),
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('lists a run folder of the S3 store through every page of keys', async () => {
    const s3 = await startS3Server();
    const admin = new S3Client({
      endpoint: s3.endpoint,
      region: s3.region,
      forcePathStyle: true,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    });
    const env = {
      VIR_S3_ENDPOINT: s3.endpoint,
      VIR_S3_ACCESS_KEY_ID: s3.accessKeyId,
      VIR_S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    };
    const store = S3Store.fromEnv({ bucket: 'vir-list', prefix: 'prod/vir' }, env);
    try {
      await admin.send(new CreateBucketCommand({ Bucket: 'vir-list' }));
      for (const ref of docs) await store.putJsonAt(ref, { ref });
      // Two keys a page: the four of r1 take two pages and a third to say there are no more.
      expect(await store.list('runs/r1', 2)).toEqual(docs.slice(0, 4));
      expect(await store.list('runs/r1')).toEqual(docs.slice(0, 4));
      expect(await store.list('runs/missing')).toEqual([]);
      expect(await store.getJson(docs[1]!)).toEqual({ ref: docs[1] });
    } finally {
      store.close();
      admin.destroy();
      await s3.close();
    }
  });
});
