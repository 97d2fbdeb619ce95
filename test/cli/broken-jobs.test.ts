/**
 * Broken job files are refused before anything starts: each of them goes through
 * `vir schedules apply` and `vir run` (the CLI's own entry, in process; two of them through the
 * real `cli/vir.sh` process too), which must exit 2 with a message naming the file, the job and
 * the field, and leave no schedule and no run behind. Countries are checked against the
 * sandbox's country_overview, asked once a day per country (its request log is the witness).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { runVir } from '../../cli/entry.js';
import { JOB_KINDS } from '../../jobs/registry.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { eventually, uniqueName, writeTmp } from './helpers.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const KEY = 'vis_live_sandbox_vc';
const tag = uniqueName('bj').replace(/[^a-z0-9-]/g, '');
const group = `broken-${tag}`;
/** The kinds a refused `kind:` lists: every registered one. */
const KINDS = JOB_KINDS.map((k) => k.kind).join(', ');
let sandbox: RunningSandbox;
let connection: Connection;
let client: Client;
let dir: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimitPerMinute: 10_000 });
  dir = mkdtempSync(join(tmpdir(), 'vir-broken-jobs-'));
  env = {
    ...process.env,
    TEMPORAL_ADDRESS: inject('temporalAddress'),
    TEMPORAL_NAMESPACE: 'default',
    VIR_TASK_QUEUE: `jobs-${tag}`,
    VIS_BASE_URL: sandbox.url,
    VIS_API_KEY: KEY,
    VIR_DATA_DIR: join(dir, 'data'),
    VIR_REPORTS_DIR: join(dir, 'reports'),
    VIR_LOG_LEVEL: 'silent',
    VIR_DEBUG: '',
  };
  connection = await Connection.connect({ address: inject('temporalAddress') });
  client = new Client({ connection, namespace: 'default' });
});

afterAll(async () => {
  await connection?.close();
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A valid job (its id `<tag>-<n>`), with lines added or replaced by the case. */
function job(n: number, extra = '', fields: Record<string, string> = {}): string {
  const base: Record<string, string> = {
    id: `${tag}-${n}`,
    kind: 'market-report',
    title: `Broken job ${n}`,
    countries: '[Germany]',
    schedule: '{ cron: "0 7 * * 1", timezone: UTC }',
    ...fields,
  };
  const lines = Object.entries(base)
    .filter(([, v]) => v !== '')
    .map(([k, v], i) => `${i === 0 ? '  - ' : '    '}${k}: ${v}`);
  return `${lines.join('\n')}\n${extra}`;
}
const file = (body: string) => `group: ${group}\njobs:\n${body}`;

interface Case {
  what: string;
  text: (n: number) => string;
  /** What the message says after `vir: <file>: ` (the job, the field and the problem). */
  says: RegExp;
  /** What `vir run` says when it differs (it checks only the job it runs). */
  runSays?: RegExp;
}

const CASES: Case[] = [
  { what: 'an empty file', text: () => '', says: /^is empty: a job file needs a `jobs:` list/ },
  {
    what: 'a file of comments only',
    text: () => '# nothing here\n',
    says: /^has no content \(only comments\)/,
  },
  {
    what: 'an unclosed list',
    text: () => `group: ${group}\njobs: [unclosed\n`,
    says: /^not valid YAML at the end of the file \(line 2\)/,
  },
  {
    what: 'a nested mapping in a compact one',
    text: (n) => file(job(n, '', { title: 'a: b' })),
    says: /^not valid YAML at line \d+, column \d+: .*; the line reads " {4}title: a: b"/,
  },
  {
    what: 'an empty job list',
    text: () => `group: ${group}\njobs: []\n`,
    says: /^jobs: must list at least one job/,
  },
  { what: 'no job list', text: () => `group: ${group}\n`, says: /jobs/ },
  {
    what: 'a job that is not a mapping',
    text: () => file('  - just a string\n'),
    says: /a job must be a mapping/,
  },
  {
    what: 'a job without a kind',
    text: (n) => file(job(n, '', { kind: '' })),
    says: new RegExp(`job "[^"]+": kind: is required: one of ${KINDS}`),
  },
  {
    what: 'an unknown kind',
    text: (n) => file(job(n, '', { kind: 'weather' })),
    says: new RegExp(`kind: unknown kind "weather": one of ${KINDS}`),
  },
  {
    what: 'an id in capitals',
    text: (n) => file(job(n, '', { id: `Bad_${n}` })),
    says: /job "Bad_\d+": id: must be lowercase/,
  },
  { what: 'no title', text: (n) => file(job(n, '', { title: '' })), says: /job "[^"]+": title: / },
  {
    what: 'countries and a region',
    text: (n) => file(job(n, '    region: dach\n')),
    says: /countries: needs exactly one of countries or region/,
  },
  {
    what: 'neither countries nor a region',
    text: (n) => file(job(n, '', { countries: '' })),
    says: /countries: needs exactly one of countries or region/,
  },
  {
    what: 'an unknown region',
    text: (n) => file(job(n, '    region: atlantis\n', { countries: '' })),
    says: /region: .*dach/,
  },
  { what: 'an empty country list', text: (n) => file(job(n, '', { countries: '[]' })), says: /countries: / },
  {
    what: 'a top list of zero',
    text: (n) => file(job(n, '    top: { investors: 0 }\n')),
    says: /top\.investors: must be at least 1/,
  },
  {
    what: 'a huge number',
    text: (n) => file(job(n, '    top: { investors: 99999999999999999999 }\n')),
    says: /top\.investors: must be at most 100$/,
  },
  {
    what: 'a negative budget',
    text: (n) => file(job(n, '    budget: { credits: -3 }\n')),
    says: /budget\.credits: must be at least 0/,
  },
  {
    what: 'a fraction',
    text: (n) => file(job(n, '    enrich: { investors: 2.5 }\n')),
    says: /enrich\.investors: must be a whole number/,
  },
  {
    what: 'text for a number',
    text: (n) => file(job(n, '    budget: { credits: ten }\n')),
    says: /budget\.credits: must be a number \(got text\)/,
  },
  { what: 'an unknown field', text: (n) => file(job(n, '    colour: blue\n')), says: /colour/ },
  {
    what: 'a bad cron expression',
    text: (n) => file(job(n, '', { schedule: '{ cron: "every monday", timezone: UTC }' })),
    says: /schedule\.cron: /,
  },
  {
    what: 'an unknown time zone',
    text: (n) => file(job(n, '', { schedule: '{ cron: "0 7 * * 1", timezone: Europe/Berln }' })),
    says: /schedule\.timezone: .*IANA/,
  },
  {
    what: 'cron and calendar together',
    text: (n) =>
      file(job(n, '', { schedule: '{ cron: "0 7 * * 1", calendar: { hour: 7 }, timezone: UTC }' })),
    says: /schedule: .*exactly one of cron or calendar/,
  },
  {
    what: 'an unknown overlap policy',
    text: (n) => file(job(n, '    overlap: sometimes\n')),
    says: /overlap: .*skip/,
  },
  {
    what: 'an unknown output',
    text: (n) => file(job(n, '    outputs: [docx]\n')),
    says: /outputs\[0\]: .*xlsx/,
  },
  {
    what: 'a destination climbing out with ..',
    text: (n) => file(job(n, '    destination: ../../../../tmp/x\n')),
    says: /destination: /,
  },
  {
    what: 'an absolute destination outside the reports folder',
    text: (n) => file(job(n, '    destination: /tmp/elsewhere\n')),
    says: /job "[^"]+": destination: .*reports/,
  },
  {
    what: 'a country the service does not know',
    text: (n) => file(job(n, '', { countries: '[Germany, Atlantis]' })),
    says: /job "[^"]+": countries\[1\]: unknown country 'Atlantis': the service says "[^"]*Atlantis/,
  },
  {
    what: 'a smoke job in a country the service does not know',
    text: (n) => file(job(n, '    records: 10\n', { kind: 'smoke', countries: '', country: 'Narnia' })),
    says: /job "[^"]+": country: unknown country 'Narnia'/,
  },
  {
    what: 'a prospect list whose suppression list is missing',
    text: (n) =>
      file(
        job(n, '    briefs: [{ brief: law firm for seed fintech }]\n    suppress: no-such-export.csv\n', {
          kind: 'prospect-list',
          countries: '',
        }),
      ),
    says: /job "[^"]+": suppress: \/.*no-such-export\.csv: no such file/,
  },
  {
    what: 'a prospect list whose suppression list is binary',
    text: (n) => {
      writeTmp(
        `${tag}-crm-binary.csv`,
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]),
      );
      return file(
        job(n, `    briefs: [{ brief: law firm for seed fintech }]\n    suppress: ${tag}-crm-binary.csv\n`, {
          kind: 'prospect-list',
          countries: '',
        }),
      );
    },
    says: /job "[^"]+": suppress: suppression list \/.*-crm-binary\.csv, line 3: is a binary file, not a CSV text file/,
  },
  {
    what: 'a prospect list whose suppression list has a bare quote in an unquoted field',
    text: (n) => {
      writeTmp(`${tag}-crm-quote.csv`, 'name,domain\nAcme,acme.io\nFoo "Bar" Inc,foo.io\n');
      return file(
        job(n, `    briefs: [{ brief: law firm for seed fintech }]\n    suppress: ${tag}-crm-quote.csv\n`, {
          kind: 'prospect-list',
          countries: '',
        }),
      );
    },
    says: /job "[^"]+": suppress: suppression list \/.*-crm-quote\.csv, line 3: not a readable CSV file \(Invalid Opening Quote: /,
  },
  {
    what: 'an investor shortlist whose company website is not a URL',
    text: (n) =>
      file(
        job(n, '    companies: [{ name: Acme, website: not a url at all }]\n', {
          kind: 'investor-shortlist',
          countries: '',
        }),
      ),
    says: /job "[^"]+": companies\[0\]\.website: "not a url at all" is not a URL \(it holds spaces\)/,
  },
  {
    what: 'a webhook over http to a host that is not this machine',
    text: (n) => file(job(n, '    delivery: [{ webhook: { url: "http://hooks.example.com/vir" } }]\n')),
    says: /job "[^"]+": delivery\[0\]\.webhook\.url: must be https for a host that is not this machine \(hooks\.example\.com\).*insecure: true/,
  },
  {
    what: 'a prospect list searching a country the service does not know',
    text: (n) =>
      file(
        job(n, '    searches: [{ countries: [France, Gondor] }]\n', { kind: 'prospect-list', countries: '' }),
      ),
    says: /job "[^"]+": searches\[0\]\.countries\[1\]: unknown country 'Gondor'/,
  },
  {
    what: 'a duplicate id',
    text: (n) => file(job(n) + job(n)),
    says: /job "[^"]+": id: is used by more than one job/,
  },
  {
    what: 'two bad jobs, both reported',
    text: (n) => file(job(n, '    top: { investors: 0 }\n') + job(n + 1000, '    budget: { credits: -1 }\n')),
    says: /^2 jobs have problems: job "[^"]+": top\.investors: must be at least 1; job "[^"]+": budget\.credits: must be at least 0/,
  },
  {
    what: 'one job with three problems, all reported',
    text: (n) => file(job(n, '    top: { investors: 0 }\n    budget: { credits: -1 }\n    colour: red\n')),
    says: /^job "[^"]+": 3 problems: (?=.*top\.investors: must be at least 1)(?=.*budget\.credits: must be at least 0)(?=.*\(the job\): unknown field "colour")/,
  },
  {
    what: 'unknown countries and a bad destination in two jobs, all reported',
    text: (n) =>
      file(
        job(n, '    destination: /tmp/elsewhere\n') +
          job(n + 1000, '', { countries: '[Atlantis, Germany, Lemuria]' }),
      ),
    says: /^3 problems:\n {2}job "[^"]+": destination: .*\n {2}job "[^"]+": countries\[0\]: unknown country 'Atlantis'.*\n {2}job "[^"]+": countries\[2\]: unknown country 'Lemuria'/,
    runSays: /^job "[^"]+": destination: .*outside the reports folder/,
  },
];

/** Runs `vir <args>` in process; its exit code and stderr. */
async function vir(args: string[]): Promise<{ code: number; err: string; out: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runVir(args, env, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, err: err.join('\n'), out: out.join('\n') };
}

/** Runs the real `cli/vir.sh` process; its exit code and stderr. */
function virProcess(args: string[]): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(join(root, 'cli/vir.sh'), args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, stderr }));
  });
}

/** The schedules of the test's group (ids start with the group), and runs on its task queue. */
async function leftBehind(): Promise<{ schedules: string[]; runs: string[] }> {
  const schedules: string[] = [];
  for await (const s of client.schedule.list()) if (s.scheduleId.includes(tag)) schedules.push(s.scheduleId);
  const runs: string[] = [];
  for await (const w of client.workflow.list({ query: `TaskQueue = '${env.VIR_TASK_QUEUE}'` }))
    runs.push(w.workflowId);
  return { schedules, runs };
}

test(`${CASES.length} broken job files are refused by schedules apply and run, and nothing starts`, async () => {
  expect(CASES.length).toBeGreaterThanOrEqual(25);
  const before = sandbox.requestLog().length;
  for (const [i, c] of CASES.entries()) {
    const n = i + 1;
    const path = writeTmp(`${tag}-case-${String(n).padStart(2, '0')}.yaml`, c.text(n));
    for (const [args, says] of [
      [['schedules', 'apply', path], c.says],
      [['run', `${tag}-${n}`, '--file', path, '--detach'], c.runSays ?? c.says],
    ] as const) {
      const res = await vir([...args]);
      expect(res.code, `${c.what}: vir ${args.join(' ')}\n${res.err}`).toBe(2);
      expect(res.err.startsWith(`vir: ${path}: `), `${c.what}: ${res.err}`).toBe(true);
      expect(res.err.slice(`vir: ${path}: `.length), `${c.what}: vir ${args[0]}`).toMatch(says);
      expect(res.out, c.what).toBe('');
    }
  }
  // Each unknown country was asked once (the day's answers are kept), Germany once too.
  const asked = sandbox
    .requestLog()
    .slice(before)
    .filter((r) => r.operation === 'country_overview');
  expect(asked.length).toBe(6); // Germany, Atlantis, Narnia, Lemuria, France, Gondor

  // The real process says the same, with the same exit code (the two processes at once).
  const real = [CASES[0]!, CASES.find((x) => x.what.startsWith('a country the service'))!];
  const results = await Promise.all(
    real.map((c) => {
      const n = CASES.indexOf(c) + 1;
      const path = join(root, 'test', '.tmp', `${tag}-case-${String(n).padStart(2, '0')}.yaml`);
      return virProcess(['schedules', 'apply', path]).then((res) => ({ c, path, res }));
    }),
  );
  for (const { c, path, res } of results) {
    expect(res.status, res.stderr).toBe(2);
    expect(res.stderr.startsWith(`vir: ${path}: `), res.stderr).toBe(true);
    expect(res.stderr.slice(`vir: ${path}: `.length).trimEnd()).toMatch(c.says);
  }

  // A valid file does start things, so the listing below would see what a broken one started;
  // its webhook over http to another host is allowed by `insecure: true`.
  const insecure = '    delivery: [{ webhook: { url: "http://hooks.example.com/vir", insecure: true } }]\n';
  const good = writeTmp(`${tag}-good.yaml`, file(job(999, insecure)));
  const applied = await vir(['schedules', 'apply', good]);
  expect(applied.code, applied.err).toBe(0);
  const started = await vir(['run', `${tag}-999`, '--file', good, '--detach']);
  expect(started.code, started.err).toBe(0);
  const seen = await eventually(async () => {
    const now = await leftBehind();
    return now.schedules.length > 0 && now.runs.length > 0 ? now : undefined;
  });
  expect(seen.schedules).toEqual([`vir-${group}-${tag}-999`]);
  expect(seen.runs).toEqual([started.out.trim()]);
  await client.workflow.getHandle(started.out.trim()).terminate('test over');
  await client.schedule.getHandle(seen.schedules[0]!).delete();
}, 240_000);
