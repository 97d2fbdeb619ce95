/**
 * A run's files through the portal, over real HTTP, from real runs (a prospect list: PDF,
 * workbook and CSV; a smoke check: its JSON summary; a market report: its interactive page): each
 * file is the bytes the run wrote in its reports folder, a PDF opens inline and the others
 * download under their real names; a file is named by its index in its own run's manifest only,
 * so a path, `..`, or an index past the run's own files is 404.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { request } from 'undici';
import { followRun, startJobRun } from '../../cli/run-job.js';
import { loadJobFile } from '../../jobs/files.js';
import type { JobRunResult } from '../../workflows/engine.js';
import { uniqueName } from '../cli/helpers.js';
import { QUIET } from '../helpers/runner.js';
import { KEYS } from '../helpers/sandbox.js';
import { usePortalBed } from './portal-bed.js';

const prospects = uniqueName('prospects');
const smoke = uniqueName('smoke');
const market = uniqueName('market');

const bed = usePortalBed({
  name: 'portal-files',
  key: KEYS.vc,
  jobs: () =>
    [
      'jobs:',
      `  - id: ${prospects}`,
      '    kind: prospect-list',
      '    title: Prospects in Germany',
      '    searches: [{ countries: [Germany], cap: 40 }]',
      '    enrich: 0',
      '    outputs: [csv, xlsx, pdf]',
      `  - id: ${smoke}`,
      '    kind: smoke',
      '    title: Smoke',
      '    country: France',
      '    records: 30',
      `  - id: ${market}`,
      '    kind: market-report',
      "    title: 'Market <i>report</i>'",
      '    countries: [Germany]',
      '    top: { investors: 3, startups: 3 }',
      '    paging: { maxInvestorsPerCountry: 100, maxStartupsPerCountry: 100 }',
      '    enrich: { investors: 0, startups: 0 }',
      '    outputs: [pdf, xlsx]',
      '',
    ].join('\n'),
});

const runs: Record<string, JobRunResult> = {};

beforeAll(async () => {
  const jobs = (await loadJobFile(bed.jobFile)).jobs;
  await Promise.all(
    [prospects, smoke, market].map(async (id) => {
      const job = jobs.find((j) => j.id === id)!;
      runs[id] = await followRun(await startJobRun(bed.runner.client, bed.runner.settings, job), QUIET);
    }),
  );
}, 180_000);

const runPath = (id: string) => `/runs/${encodeURIComponent(runs[id]!.workflowId)}`;

/** The files the run page lists: index and name, in order. */
function filesOf(page: string, id: string): { index: number; name: string }[] {
  const re = new RegExp(
    `<th scope="row"><a href="${runPath(id).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/files/(\\d+)">([^<]+)</a></th>`,
    'g',
  );
  return [...page.matchAll(re)].map((m) => ({ index: Number(m[1]), name: m[2]! }));
}

describe("a run's files", () => {
  test('each is the bytes in the reports folder; a PDF opens inline, the workbook and CSV download under their names', async () => {
    const browser = bed.client();
    const page = await browser.get(runPath(prospects));
    expect(page.status).toBe(200);
    const listed = filesOf(page.text, prospects);
    const written = Object.values(runs[prospects]!.files);
    expect(listed.map((f) => f.name).sort()).toEqual(written.map((p) => basename(p)).sort());
    expect(listed.map((f) => f.name.split('.').pop()).sort()).toEqual(['csv', 'pdf', 'xlsx']);
    for (const f of listed) {
      const res = await fetch(`${bed.portal.url}${runPath(prospects)}/files/${f.index}`);
      expect(res.status).toBe(200);
      const path = written.find((p) => basename(p) === f.name)!;
      expect(Buffer.from(await res.arrayBuffer()).equals(readFileSync(path)), f.name).toBe(true);
      const disposition = res.headers.get('content-disposition')!;
      const type = res.headers.get('content-type')!;
      if (f.name.endsWith('.pdf')) {
        expect(disposition).toBe(`inline; filename="${f.name}"; filename*=UTF-8''${f.name}`);
        expect(type).toBe('application/pdf');
      } else {
        expect(disposition).toBe(`attachment; filename="${f.name}"; filename*=UTF-8''${f.name}`);
        expect(type).toMatch(f.name.endsWith('.csv') ? /^text\/csv/ : /spreadsheetml/);
      }
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  test("a path, `..` or another run's index gets 404; the smoke run's index 0 is its own file", async () => {
    const smokeFiles = filesOf((await bed.client().get(runPath(smoke))).text, smoke);
    expect(smokeFiles).toHaveLength(1);
    const prospectCount = Object.keys(runs[prospects]!.files).length;
    // The prospect list's third file has no counterpart in the smoke run.
    for (const path of [
      `${runPath(smoke)}/files/${prospectCount - 1}`,
      `${runPath(smoke)}/files/1`,
      `${runPath(smoke)}/files/..`,
      `${runPath(smoke)}/files/..%2F..%2Fmanifest.json`,
      `${runPath(smoke)}/files/manifest.json`,
      `${runPath(smoke)}/files/-1`,
      `${runPath(smoke)}/files/0x0`,
      `/runs/no-such-run/files/0`,
    ]) {
      // undici sends the path as written (fetch would resolve `..` before sending it).
      const res = await request(`${bed.portal.url}${path}`);
      await res.body.dump();
      expect(res.statusCode, path).toBe(404);
    }
    const raw = await request(`${bed.portal.url}${runPath(smoke)}/files/../../../../etc/passwd`);
    expect(raw.statusCode).toBe(404);
    expect(await raw.body.text()).not.toContain('root:');
    const own = await fetch(`${bed.portal.url}${runPath(smoke)}/files/0`);
    const file = Object.values(runs[smoke]!.files)[0]!;
    expect(Buffer.from(await own.arrayBuffer()).equals(readFileSync(file))).toBe(true);
    expect(own.headers.get('content-disposition')).toContain(`attachment; filename="${basename(file)}"`);
  });

  test('a market report links its interactive page, which the portal serves with its PDF', async () => {
    const page = await bed.client().get(runPath(market));
    expect(page.text).toContain(`href="${runPath(market)}/report"`);
    const report = await bed.client().get(`${runPath(market)}/report`);
    expect(report.status, report.text.slice(0, 500)).toBe(200);
    expect(report.text).toContain('Market &lt;i&gt;report&lt;/i&gt;');
    expect(report.text).not.toContain('<i>report</i>');
    expect(report.headers.get('content-security-policy')).toContain("script-src 'self'");
    const pdf = filesOf(page.text, market).find((f) => f.name.endsWith('.pdf'))!;
    expect(report.text).toContain(`href="${runPath(market)}/files/${pdf.index}"`);
    expect((await fetch(`${bed.portal.url}/assets/vega-embed.min.js`)).status).toBe(200);
    // A smoke run has no interactive page, and its run page does not link one.
    expect((await bed.client().get(runPath(smoke))).text).not.toContain('/report"');
    expect((await bed.client().get(`${runPath(smoke)}/report`)).status).toBe(404);
  });
});
