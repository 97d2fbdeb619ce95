/**
 * A prospect list worth calling, proved against the sandbox itself: the same search paged
 * directly gives each startup's status and last round date, and the list the job delivers is
 * checked against them. By default no closed or acquired company is listed and the brief says
 * how many were left out and why; `keepClosed` keeps them, flagged; `raisedWithin` keeps only
 * companies whose last round is that recent. The HubSpot and Salesforce CSVs' Industry values
 * are all in that CRM's pick-list as kept in the repo.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { followRun, startJobRun } from '../../../cli/run-job.js';
import { SECTORS } from '../../../api/enums.js';
import {
  HUBSPOT_INDUSTRIES,
  industryFor,
  SALESFORCE_INDUSTRIES,
} from '../../../jobs/prospect-list/industries.js';
import {
  parseProspectListJob,
  type ProspectListJob,
  type ProspectListResult,
} from '../../../jobs/prospect-list/index.js';
import { raisedSince } from '../../../jobs/prospect-list/job.js';
import type { RunningSandbox } from '../../../sandbox/index.js';
import { callSandbox, KEYS, startTestSandbox } from '../../helpers/sandbox.js';
import { QUIET, startRunner, type RunnerHarness } from '../../helpers/runner.js';
import { openWorkbook, pdfText } from '../../helpers/reports.js';

const KEY = KEYS.provider;
/**
 * Germany's seed startups: a few pages, with closed, acquired, recent and older companies of
 * every sector (asserted below where a test needs them); the size is not the point.
 */
const SEARCH = { countries: ['Germany'], stages: ['seed'] };

let sandbox: RunningSandbox;
let h: RunnerHarness;

interface Direct {
  key: string;
  status: string;
  lastRoundDate: string | null;
  sector: string | null;
}

/** The search paged directly against the sandbox: each startup's status and last round date. */
async function searchedDirectly(): Promise<Direct[]> {
  const out: Direct[] = [];
  for (let offset = 0; ; offset += 100) {
    const r = await callSandbox(sandbox, 'search_startups', {
      key: KEY,
      params: { ...SEARCH, limit: 100, offset },
    });
    const page = (
      r.body.data as {
        startups: { key: string; status: string; last_round_date: string | null; sector: string | null }[];
      }
    ).startups;
    out.push(
      ...page.map((s) => ({
        key: s.key,
        status: s.status,
        lastRoundDate: s.last_round_date ? s.last_round_date.slice(0, 10) : null,
        sector: s.sector,
      })),
    );
    if (page.length < 100) return out;
  }
}

function job(id: string, over: Record<string, unknown> = {}): ProspectListJob {
  return parseProspectListJob({
    id,
    kind: 'prospect-list',
    title: 'Worth calling',
    searches: [{ ...SEARCH, cap: 2000 }],
    enrich: 0,
    crm: ['hubspot', 'salesforce', 'generic'],
    outputs: ['csv', 'xlsx', 'pdf'],
    destination: join(h.dir, 'reports', id),
    ...over,
  });
}

async function run(j: ProspectListJob): Promise<ProspectListResult> {
  const handle = await startJobRun(h.client, h.settings, j);
  const result = await followRun<ProspectListResult>(handle, QUIET);
  expect(result.partial, result.reasons.join('; ')).toBe(false);
  return result;
}

function readCsv(path: string): Record<string, string>[] {
  const records: string[][] = parse(readFileSync(path, 'utf8'), { bom: true });
  const header = records[0]!;
  return records.slice(1).map((r) => Object.fromEntries(header.map((name, i) => [name, r[i] ?? ''])));
}

/** The brief's text on one line (pdftotext breaks lines where the layout does). */
const briefOf = (r: ProspectListResult) => pdfText(r.files.pdf!).replace(/\s+/g, ' ');

beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimitPerMinute: 10_000 });
  h = await startRunner({ baseUrl: sandbox.url, apiKey: KEY, name: 'worth-calling' });
}, 120_000);

afterAll(async () => {
  await h?.close();
  await sandbox?.close();
});

describe('a prospect list worth calling', () => {
  let direct: Direct[];
  const gone = (d: Direct) => d.status === 'closed' || d.status === 'acquired';

  beforeAll(async () => {
    direct = await searchedDirectly();
  });

  test('leaves out closed and acquired companies by default and says how many and why', async () => {
    const closed = direct.filter((d) => d.status === 'closed');
    const acquired = direct.filter((d) => d.status === 'acquired');
    // The sandbox's data has both, or the test proves nothing.
    expect(closed.length).toBeGreaterThan(0);
    expect(acquired.length).toBeGreaterThan(0);
    const result = await run(job('worth-default'));
    const rows = readCsv(result.files['csv-generic']!);
    const keys = new Set(rows.map((r) => r.service_key));
    for (const d of [...closed, ...acquired]) expect(keys.has(d.key), `${d.key} ${d.status}`).toBe(false);
    expect(rows).toHaveLength(direct.length - closed.length - acquired.length);
    expect(rows.every((r) => r.closed_or_acquired === '')).toBe(true);
    // The brief states the counts and the reason; the manifest's figures carry them.
    const text = briefOf(result);
    expect(text).toContain(
      `${closed.length.toLocaleString('en-US')} companies left out: closed (the service's status)`,
    );
    expect(text).toContain(
      `${acquired.length.toLocaleString('en-US')} companies left out: acquired (the service's status)`,
    );
    // How the cap chose its rows: the service's order, said in the brief.
    const manifest = JSON.parse(readFileSync(result.manifestPath, 'utf8')) as {
      summary: { figures: { label: string; value: string; note?: string }[] };
    };
    const left = manifest.summary.figures.find((f) => f.label === 'Left out')!;
    expect(left.value).toBe(String(closed.length + acquired.length));
    // The tile's note names the counts when they fit whole in it, else how many reasons (the
    // counts are in the brief's text above, and below the tile).
    expect([`${closed.length} closed, ${acquired.length} acquired`, 'for 2 reasons']).toContain(left.note);
    // The workbook's Summary sheet has the same counts.
    const wb = await openWorkbook(result.files.xlsx!);
    const summary = wb.getWorksheet('Summary')!;
    const figure = (label: string) => {
      let v: unknown;
      summary.eachRow((row) => {
        if (row.getCell(1).text === label) v = row.getCell(2).value;
      });
      return v;
    };
    expect(figure("Left out: closed (the service's status)")).toBe(closed.length);
    expect(figure("Left out: acquired (the service's status)")).toBe(acquired.length);

    // Industry: every HubSpot and Salesforce value is in that CRM's list as kept in the repo.
    for (const [profile, list, column] of [
      ['hubspot', HUBSPOT_INDUSTRIES, 'Industry'],
      ['salesforce', SALESFORCE_INDUSTRIES, 'Industry'],
    ] as const) {
      const allowed = new Set(list.values.map((v) => v.value));
      const csv = readCsv(result.files[`csv-${profile}`]!);
      const industries = csv.map((r) => r[column]!).filter((v) => v !== '');
      expect(industries.length, profile).toBe(
        csv.filter((r) => r['Startup sector'] !== '' || r['Startup Sector'] !== '').length,
      );
      for (const v of industries) expect(allowed.has(v), `${profile} ${v}`).toBe(true);
      // The service's sector is kept beside it.
      const sectorCol = profile === 'hubspot' ? 'Startup sector' : 'Startup Sector';
      expect(new Set(csv.map((r) => r[sectorCol]))).toEqual(
        new Set(direct.filter((d) => !gone(d)).map((d) => d.sector ?? '')),
      );
    }
  }, 300_000);

  test('keepClosed keeps closed and acquired companies, flagged', async () => {
    const result = await run(job('worth-keep', { keepClosed: true }));
    const rows = readCsv(result.files['csv-generic']!);
    expect(rows).toHaveLength(direct.length);
    const byKey = new Map(rows.map((r) => [r.service_key, r]));
    for (const d of direct) {
      const flag = byKey.get(d.key)!.closed_or_acquired;
      expect(flag, d.key).toBe(d.status === 'closed' ? 'Closed' : d.status === 'acquired' ? 'Acquired' : '');
    }
  }, 300_000);

  test('raisedWithin keeps only companies whose last round is that recent', async () => {
    const result = await run(job('worth-recent', { raisedWithin: '12 months' }));
    const manifest = JSON.parse(readFileSync(result.manifestPath, 'utf8')) as { startedAt: string };
    const since = raisedSince(manifest.startedAt.slice(0, 10), '12 months')!;
    const rows = readCsv(result.files['csv-generic']!);
    const byKey = new Map(direct.map((d) => [d.key, d]));
    for (const r of rows) {
      const d = byKey.get(r.service_key ?? '')!;
      expect(d.lastRoundDate, r.service_key).not.toBeNull();
      expect(d.lastRoundDate! >= since, `${r.service_key} ${d.lastRoundDate}`).toBe(true);
      expect(gone(d)).toBe(false);
    }
    const recent = direct.filter((d) => !gone(d) && d.lastRoundDate !== null && d.lastRoundDate >= since);
    const older = direct.filter((d) => !gone(d) && d.lastRoundDate !== null && d.lastRoundDate < since);
    expect(older.length).toBeGreaterThan(0);
    expect(rows).toHaveLength(recent.length);
    expect(briefOf(result)).toContain(
      `${older.length.toLocaleString('en-US')} companies left out: last round before`,
    );
  }, 300_000);

  test('a raisedWithin that is not a period is refused, naming the field', () => {
    expect(() => job('worth-bad', { raisedWithin: 'lately' })).toThrow(/raisedWithin/);
  });

  test('each of the eight sectors maps to a value of each CRM list kept in the repo, with its source', () => {
    for (const list of [HUBSPOT_INDUSTRIES, SALESFORCE_INDUSTRIES]) {
      expect(list.source).toMatch(/^https:\/\//);
      expect(list.retrieved).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
    const hub = new Set(HUBSPOT_INDUSTRIES.values.map((v) => v.value));
    const sf = new Set(SALESFORCE_INDUSTRIES.values.map((v) => v.value));
    for (const sector of SECTORS) {
      expect(hub.has(industryFor('hubspot', sector)!), sector).toBe(true);
      expect(sf.has(industryFor('salesforce', sector)!), sector).toBe(true);
    }
  });
});
