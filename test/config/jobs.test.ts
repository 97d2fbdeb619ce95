import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { JobFileError, loadJobFile, parseJobFile } from '../../jobs/files.js';
import { parseMarketReportJob, type MarketReportJob } from '../../jobs/market-report/index.js';
import { listJobFiles } from '../../cli/commands/run.js';
import { JOB_KINDS } from '../../jobs/registry.js';
import type { SmokeJob } from '../../jobs/smoke/index.js';

const base = `  - id: weekly-de
    kind: market-report
    title: Germany weekly
    countries: [Germany]
`;

function errorOf(text: string, file = 'jobs.yaml'): JobFileError {
  try {
    parseJobFile(text, file);
  } catch (err) {
    expect(err).toBeInstanceOf(JobFileError);
    return err as JobFileError;
  }
  throw new Error('expected a JobFileError');
}

describe('job files', () => {
  test('every example job file of every kind parses, each job of its own kind', async () => {
    const own = readdirSync('config/jobs').filter((f) => f.endsWith('.yaml'));
    const files = [...own.map((f) => join('config/jobs', f)), ...JOB_KINDS.flatMap((k) => k.examples)];
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const kind of JOB_KINDS) expect(kind.examples.length).toBeGreaterThan(0);
    for (const f of files) {
      const jf = await loadJobFile(f);
      expect(jf.jobs.length).toBeGreaterThan(0);
      for (const job of jf.jobs) {
        expect(JOB_KINDS.map((k) => k.kind)).toContain(job.kind);
        if (job.kind === 'market-report') expect(job.countries.length).toBeGreaterThan(0);
      }
    }
  });

  test('every job id is in one file only, so `vir run <id>` finds the job meant', async () => {
    const where = new Map<string, string[]>();
    for (const f of await listJobFiles()) {
      for (const job of (await loadJobFile(f)).jobs) where.set(job.id, [...(where.get(job.id) ?? []), f]);
    }
    expect([...where].filter(([, files]) => files.length > 1)).toEqual([]);
  });

  test('config/jobs has an example of the fund match and of the investor shortlist', async () => {
    const fund = await loadJobFile('config/jobs/fund-match.yaml');
    expect(fund.jobs.map((j) => [j.id, j.kind])).toEqual([['northwind-matches', 'fund-match']]);
    const shortlist = await loadJobFile('config/jobs/investor-shortlist.yaml');
    expect(shortlist.jobs.map((j) => [j.id, j.kind])).toEqual([
      ['portfolio-next-rounds', 'investor-shortlist'],
    ]);
  });

  test("a file may mix kinds: each job is read with its kind's schema", () => {
    const jf = parseJobFile(
      `jobs:\n${base}  - id: check\n    kind: smoke\n    title: Smoke\n    country: France\n`,
      'mixed.yaml',
    );
    const [report, smoke] = jf.jobs as [MarketReportJob, SmokeJob];
    expect(report.kind).toBe('market-report');
    expect(report.countries).toEqual(['Germany']);
    expect(smoke.kind).toBe('smoke');
    expect(smoke.records).toBe(200);
    expect(smoke.outputs).toEqual(['json']);
    // A field of another kind is refused, naming it.
    expect(
      errorOf(`jobs:\n  - id: check\n    kind: smoke\n    title: S\n    country: F\n    countries: [F]\n`)
        .message,
    ).toMatch(/job "check".*countries/);
  });

  test('every problem of a job is reported at once, each naming its field', () => {
    const err = errorOf(
      `jobs:\n  - id: many\n    kind: market-report\n    title: ""\n    countries: [Germany]\n    budget: { credits: -1 }\n    overlap: sometimes\n`,
    );
    expect(err.field).toBeNull();
    expect(err.message).toMatch(
      /^jobs.yaml: job "many": 3 problems: title: .*; overlap: .*; budget.credits: .*$/,
    );
    // A job without an id is named by its place in the file, its problem whole.
    const anonymous = errorOf(
      `jobs:\n${base}  - kind: market-report\n    title: "x: y"\n    countries: [Germany]\n`,
    );
    expect(anonymous.message).toMatch(/^jobs.yaml: job "#2": id: /);
  });

  test("a file's account caps go to each of its jobs; a bad cap names its field", () => {
    const jf = parseJobFile(`account:\n  caps: { day: 5, month: 40 }\njobs:\n${base}`, 'capped.yaml');
    expect(jf.jobs[0]!.accountCaps).toEqual({ day: 5, month: 40 });
    expect(parseJobFile(`jobs:\n${base}`, 'plain.yaml').jobs[0]!.accountCaps).toBeUndefined();
    const bad = errorOf(`account:\n  caps: { week: -1 }\njobs:\n${base}`);
    expect(bad.field).toBe('account.caps.week');
    const unknown = errorOf(`account:\n  caps: { year: 5 }\njobs:\n${base}`);
    expect(unknown.field).toBe('account.caps');
    expect(unknown.message).toMatch(/year/);
  });

  test('a job without a kind, or of an unknown kind, names the field and lists every kind', () => {
    const kinds = JOB_KINDS.map((k) => k.kind).join(', ');
    const missing = errorOf(`jobs:\n  - id: x\n    title: t\n    countries: [Germany]\n`);
    expect(missing.field).toBe('kind');
    expect(missing.message).toBe(`jobs.yaml: job "x": kind: is required: one of ${kinds}`);
    const unknown = errorOf(`jobs:\n  - id: x\n    kind: weather\n    title: t\n`);
    expect(unknown.message).toBe(`jobs.yaml: job "x": kind: unknown kind "weather": one of ${kinds}`);
  });

  test('defaults, region expansion and per-country questions', () => {
    const jf = parseJobFile(
      `jobs:\n  - id: dach\n    kind: market-report\n    title: DACH\n    region: dach\n    questions: ["largest rounds of the last 7 days in {country}", "top sectors in 2025"]\n`,
      'config/jobs/dach.yaml',
    );
    expect(jf.group).toBe('dach');
    const job = jf.jobs[0] as MarketReportJob;
    expect(job.countries).toEqual(['Germany', 'Austria', 'Switzerland']);
    expect(job.questions).toEqual([
      { text: 'largest rounds of the last 7 days in {country}', perCountry: true },
      { text: 'top sectors in 2025', perCountry: false },
    ]);
    expect(job.overlap).toBe('skip');
    expect(job.budget.credits).toBe(0);
    expect(job.outputs).toEqual(['xlsx', 'pdf']);
    expect(job.destination).toBeUndefined();
  });

  test.each([
    [
      'a bad cron',
      `    schedule: { cron: "every monday", timezone: UTC }\n`,
      'weekly-de',
      'schedule.cron',
      /cron/,
    ],
    [
      'an unknown time zone',
      `    schedule: { cron: "0 7 * * 1", timezone: Europe/Berln }\n`,
      'weekly-de',
      'schedule.timezone',
      /IANA/,
    ],
    [
      'both cron and calendar',
      `    schedule: { cron: "0 7 * * 1", calendar: { hour: 7 }, timezone: UTC }\n`,
      'weekly-de',
      'schedule',
      /exactly one of cron or calendar/,
    ],
    [
      'a negative budget',
      `    budget: { credits: -1 }\n`,
      'weekly-de',
      'budget.credits',
      /must be at least 0/,
    ],
    ['an unknown overlap policy', `    overlap: sometimes\n`, 'weekly-de', 'overlap', /skip/],
    ['an unknown field', `    colour: blue\n`, 'weekly-de', null, /colour/],
    [
      'a top list out of range',
      `    top: { investors: 0 }\n`,
      'weekly-de',
      'top.investors',
      /must be at least 1/,
    ],
    ['an unknown output', `    outputs: [docx]\n`, 'weekly-de', 'outputs[0]', /xlsx/],
  ])('%s is an error naming the file, the job and the field', (_what, extra, jobId, field, detail) => {
    const err = errorOf(`jobs:\n${base}${extra}`);
    expect(err.file).toBe('jobs.yaml');
    expect(err.jobId).toBe(jobId);
    if (field) expect(err.field).toBe(field);
    expect(err.message).toContain('jobs.yaml: job "weekly-de"');
    expect(err.message).toMatch(detail);
  });

  test('countries and region together, or neither, are refused', () => {
    expect(errorOf(`jobs:\n${base}    region: dach\n`).message).toMatch(
      /countries: needs exactly one of countries or region/,
    );
    expect(errorOf(`jobs:\n  - id: x\n    kind: market-report\n    title: t\n`).message).toMatch(
      /job "x": countries/,
    );
  });

  test('a job without an id is named by its position', () => {
    const err = errorOf(
      `jobs:\n${base}  - title: second\n    kind: market-report\n    countries: [France]\n`,
    );
    expect(err.jobId).toBe('#2');
    expect(err.field).toBe('id');
  });

  test('duplicate ids, empty files, bad YAML and unreadable files', async () => {
    expect(errorOf(`jobs:\n${base}${base}`).message).toMatch(
      /job "weekly-de": id: is used by more than one job/,
    );
    expect(errorOf(`jobs: []\n`).message).toMatch(/jobs.yaml: jobs: must list at least one job/);
    expect(errorOf(`jobs: [unclosed\n`).message).toBe(
      'jobs.yaml: not valid YAML at the end of the file (line 1): Flow sequence in block collection must be sufficiently indented and end with a ]',
    );
    // The reason is not cut at its colon, and the offending line is quoted.
    expect(errorOf(`jobs:\n  - id: x\n    title: a: b\n`).message).toBe(
      'jobs.yaml: not valid YAML at line 3, column 12: Nested mappings are not allowed in compact mappings; the line reads "    title: a: b"',
    );
    expect(errorOf('').message).toBe('jobs.yaml: is empty: a job file needs a `jobs:` list');
    expect(errorOf('  \n').message).toBe('jobs.yaml: is empty: a job file needs a `jobs:` list');
    expect(errorOf('# only a comment\n').message).toBe(
      'jobs.yaml: has no content (only comments): a job file needs a `jobs:` list',
    );
    const dir = mkdtempSync(join(tmpdir(), 'vir-jobs-'));
    await expect(loadJobFile(join(dir, 'missing.yaml'))).rejects.toThrow(
      /missing.yaml: cannot be read \(ENOENT\)/,
    );
    writeFileSync(join(dir, 'ok.yaml'), `jobs:\n${base}`);
    expect((await loadJobFile(join(dir, 'ok.yaml'))).jobs[0]!.id).toBe('weekly-de');
  });

  test('no id is reserved: reports go to the data folder, outside the source tree', () => {
    expect(parseMarketReportJob({ id: 'charts', title: 't', countries: ['X'] }).id).toBe('charts');
  });

  test('parseMarketReportJob validates a single job', () => {
    expect(() => parseMarketReportJob({ id: 'Bad Id', title: 't', countries: ['X'] })).toThrow(
      /job "Bad Id": id: must be lowercase/,
    );
  });
});
