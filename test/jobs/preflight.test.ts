/**
 * The checks a job goes through before any call that costs, as functions: websites as the service
 * needs them, webhooks to another host over https unless `insecure: true`, a suppression list
 * that is binary or not CSV refused with its file, line and reason, and the check activity the
 * run starts with (a non-retryable ApplicationFailure naming the job and the field). The same
 * checks from the outside (vir run, schedules, a run's first activity): test/cli/prerun-checks.test.ts.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import { afterAll, describe, expect, it } from 'vitest';
import { createCheckActivities, JOB_CHECK_FAILED } from '../../jobs/check.js';
import { DeliverySchema } from '../../config/destinations.js';
import { parseJob } from '../../jobs/files.js';
import { deliveryProblems, preflightProblems } from '../../jobs/preflight.js';
import { prospectListPreflight } from '../../jobs/prospect-list/preflight.js';
import { JOB_KINDS, findKind } from '../../jobs/registry.js';
import { insecureUrlProblem, isLoopbackHost, websiteProblem } from '../../lib/urls.js';

const dir = mkdtempSync(join(tmpdir(), 'vir-preflight-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

describe('websites', () => {
  it('takes an http(s) URL or a bare domain with a host name', () => {
    for (const site of [
      'https://acme.io',
      'http://www.acme.io/about?x=1',
      'acme.io',
      'a.io',
      'acme.io:8080/x',
    ])
      expect(websiteProblem(site), site).toBeNull();
  });

  it('refuses what has no host name, says why', () => {
    expect(websiteProblem('not a url at all')).toMatch(
      /^"not a url at all" is not a URL \(it holds spaces\)/,
    );
    expect(websiteProblem('javascript:alert(1)')).toMatch(/is a javascript: link, not a website/);
    expect(websiteProblem('ftp://acme.io')).toMatch(/is a ftp: link/);
    expect(websiteProblem('https://')).toMatch(/is not a URL/);
    expect(websiteProblem('acme')).toMatch(/has no host name/);
    expect(websiteProblem('https://ann:pw@acme.io')).toMatch(/must not carry a user name or password/);
  });

  it('an investor-shortlist job with a bad website is refused by its schema, naming the field', () => {
    const job = {
      id: 'bad-site',
      kind: 'investor-shortlist',
      title: 'Bad site',
      companies: [{ name: 'Acme', website: 'not a url at all' }],
    };
    expect(() => parseJob(job, 'jobs/x.yaml')).toThrow(
      /^jobs\/x\.yaml: job "bad-site": companies\[0\]\.website: "not a url at all" is not a URL/,
    );
  });
});

describe('webhooks', () => {
  it('loopback hosts', () => {
    for (const host of ['localhost', 'api.localhost', '127.0.0.1', '127.9.8.7', '[::1]', '::1'])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['hooks.example.com', '10.0.0.1', '128.0.0.1', '127.0.0.300', 'localhost.example.com'])
      expect(isLoopbackHost(host), host).toBe(false);
  });

  it('http to another host needs insecure: true; loopback http and https need nothing', () => {
    expect(insecureUrlProblem('http://hooks.example.com/vir', false)).toMatch(
      /^must be https for a host that is not this machine \(hooks\.example\.com\).*insecure: true/,
    );
    expect(insecureUrlProblem('http://hooks.example.com/vir', true)).toBeNull();
    expect(insecureUrlProblem('http://127.0.0.1:9/hook', false)).toBeNull();
    expect(insecureUrlProblem('http://localhost:9/hook', false)).toBeNull();
    expect(insecureUrlProblem('https://hooks.example.com/vir', false)).toBeNull();
  });

  it('the delivery schema refuses it at its path, and takes it with insecure: true', () => {
    const refused = DeliverySchema.safeParse([{ webhook: { url: 'http://hooks.example.com/vir' } }]);
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['0.webhook.url', expect.stringMatching(/^must be https for a host that is not this machine/)],
    ]);
    const allowed = DeliverySchema.parse([
      { webhook: { url: 'http://hooks.example.com/vir', insecure: true } },
    ]);
    expect(allowed[0]).toMatchObject({ kind: 'webhook', webhook: { insecure: true } });
    const local = DeliverySchema.parse([{ webhook: { url: 'http://127.0.0.1:8080/hook' } }]);
    expect(local[0]?.kind === 'webhook' && 'insecure' in local[0].webhook).toBe(false);
    expect(() =>
      DeliverySchema.parse([{ webhook: { url: 'https://h.example.com', insecure: 'yes' } }]),
    ).toThrow(/must be true or false/);
  });

  it('a destination validated before the switch existed is caught by the run-time check', () => {
    const delivery = [
      {
        kind: 'email' as const,
        id: 'email-1',
        email: DeliverySchema.parse([{ email: { to: 'a@example.com' } }])[0]!,
      },
      {
        kind: 'webhook' as const,
        id: 'webhook-1',
        webhook: {
          url: 'http://hooks.example.com/vir',
          format: 'json' as const,
          secretEnv: 'S',
          timeoutMs: 1000,
        },
      },
    ];
    expect(deliveryProblems({ delivery: delivery as never })).toEqual([
      { field: 'delivery[1].webhook.url', detail: expect.stringMatching(/^must be https/) },
    ]);
  });
});

describe('suppression lists', () => {
  it('a good list passes; a missing one says it cannot be read', async () => {
    expect(
      await prospectListPreflight({ suppress: file('good.csv', 'name,domain\nAcme,acme.io\n') }),
    ).toEqual([]);
    expect(await prospectListPreflight({})).toEqual([]);
    expect(await prospectListPreflight({ suppress: join(dir, 'missing.csv') })).toEqual([
      { field: 'suppress', detail: expect.stringMatching(/missing\.csv: cannot be read \(ENOENT\)$/) },
    ]);
  });

  it('a binary file is refused with its line', async () => {
    const bytes = Buffer.concat([
      Buffer.from('name,domain\nAcme,acme.io\n'),
      Buffer.from([0x89, 0x50, 0, 0x1a]),
    ]);
    const path = file('binary.csv', bytes);
    expect(await prospectListPreflight({ suppress: path })).toEqual([
      {
        field: 'suppress',
        detail: `suppression list ${path}, line 3: is a binary file, not a CSV text file (it holds a NUL byte; UTF-16 text does too): export the list from the CRM as CSV in UTF-8`,
      },
    ]);
  });

  it("a bare quote inside an unquoted field is refused with its line and the parser's reason", async () => {
    const path = file('quote.csv', 'name,domain\nAcme,acme.io\nFoo "Bar" Inc,foo.io\n');
    expect(await prospectListPreflight({ suppress: path })).toEqual([
      {
        field: 'suppress',
        detail: expect.stringMatching(
          new RegExp(
            `^suppression list ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, line 3: not a readable CSV file \\(Invalid Opening Quote: `,
          ),
        ),
      },
    ]);
  });
});

describe('the check activity', () => {
  const checks = createCheckActivities(JOB_KINDS);
  const checkJob = (input: Parameters<typeof checks.checkJob>[0]) => checks.checkJob(input);
  const prospects = (suppress: string) =>
    parseJob({
      id: 'crm-list',
      kind: 'prospect-list',
      title: 'CRM list',
      briefs: [{ brief: 'law firm for seed fintech' }],
      suppress,
    });

  it('passes a good job and fails a bad one, not retryable, naming the job and the field', async () => {
    await expect(checkJob({ job: prospects(file('ok.csv', 'domain\nacme.io\n')) })).resolves.toBeUndefined();
    const bad = prospects(file('bad.csv', 'name\n"Acme" Inc\nFoo "Bar"\n'));
    const err = await checkJob({ job: bad }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApplicationFailure);
    const failure = err as ApplicationFailure;
    expect(failure.nonRetryable).toBe(true);
    expect(failure.type).toBe(JOB_CHECK_FAILED);
    expect(failure.message).toMatch(
      /^job "crm-list": suppress: suppression list .*bad\.csv, line 2: not a readable CSV file/,
    );
  });

  it('checks what every kind shares (webhooks) and what a kind adds (websites)', async () => {
    const kind = findKind('investor-shortlist')!;
    const job = {
      id: 'old',
      kind: 'investor-shortlist',
      companies: [
        { name: 'A', website: 'https://a.io' },
        { name: 'B', website: 'not a url at all' },
      ],
      delivery: [
        {
          kind: 'webhook',
          id: 'webhook-1',
          webhook: { url: 'http://hooks.example.com/x', format: 'json', secretEnv: 'S', timeoutMs: 1000 },
        },
      ],
    };
    expect((await preflightProblems(kind, job as never)).map((p) => p.field)).toEqual([
      'delivery[0].webhook.url',
      'companies[1].website',
    ]);
  });
});
