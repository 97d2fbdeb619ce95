/**
 * The email a run delivers links the run's page in the portal when VIR_PORTAL_URL is set: a real
 * run (real workers on the suite's Temporal, the sandbox over HTTP) delivers to a real SMTP
 * server (smtp-server on port 0, with a login), read back with mailparser; the link's path opens
 * the run's page on the portal. A delivery refused by the server is sent again from the run's
 * page (redeliver, with its CSRF field), and arrives with the same link.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { portalRunLink } from '../../config/settings.js';
import { followRun, startJobRun } from '../../cli/run-job.js';
import { loadJobFile } from '../../jobs/files.js';
import type { JobRunResult } from '../../workflows/engine.js';
import { uniqueName } from '../cli/helpers.js';
import { QUIET } from '../helpers/runner.js';
import { KEYS } from '../helpers/sandbox.js';
import { startSmtpServer, type RunningSmtpServer } from '../helpers/smtp-server.js';
import { usePortalBed } from './portal-bed.js';

const PORTAL_URL = 'https://reports.example.test/vir';
const LOGIN = {
  user: `mailer-${randomBytes(4).toString('hex')}`,
  password: `pw-${randomBytes(12).toString('hex')}`,
};
const jobId = uniqueName('mailed');

let smtp: RunningSmtpServer;
const restore: [string, string | undefined][] = [];

// The in-process workers read the delivery settings from this process's environment.
beforeAll(async () => {
  smtp = await startSmtpServer({ auth: LOGIN });
  const env: Record<string, string> = {
    VIR_SMTP_HOST: smtp.host,
    VIR_SMTP_PORT: String(smtp.port),
    VIR_SMTP_USER: LOGIN.user,
    VIR_SMTP_PASSWORD: LOGIN.password,
    VIR_SMTP_STARTTLS: 'off',
    VIR_SMTP_FROM: 'Venture reports <reports@vir.test>',
    VIR_PORTAL_URL: `${PORTAL_URL}/`,
  };
  for (const [k, v] of Object.entries(env)) {
    restore.push([k, process.env[k]]);
    process.env[k] = v;
  }
});

afterAll(async () => {
  for (const [k, v] of restore) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  await smtp?.close();
});

const bed = usePortalBed({
  name: 'portal-mail',
  key: KEYS.vc,
  env: { VIR_PORTAL_URL: PORTAL_URL },
  jobs: () =>
    [
      'jobs:',
      `  - id: ${jobId}`,
      '    kind: smoke',
      '    title: Smoke, mailed',
      '    country: Germany',
      '    records: 20',
      '    delivery:',
      '      - email: { to: [partner@fund.test] }',
      '',
    ].join('\n'),
});

async function run(): Promise<JobRunResult> {
  const job = (await loadJobFile(bed.jobFile)).jobs[0]!;
  return followRun(await startJobRun(bed.runner.client, bed.runner.settings, job), QUIET);
}

/** The portal link in a message's text and HTML, checked to be the run's page. */
function expectLink(mail: RunningSmtpServer['messages'][number], workflowId: string): string {
  const link = `${PORTAL_URL}/runs/${encodeURIComponent(workflowId)}`;
  expect(mail.parsed.text).toContain(`The run in the report portal: ${link}`);
  const html = typeof mail.parsed.html === 'string' ? mail.parsed.html : '';
  expect(html).toContain(`<a href="${link}">Open the run in the report portal</a>`);
  return link;
}

describe('the portal link in a delivered email', () => {
  test("is VIR_PORTAL_URL/runs/<workflow id>, and its path opens the run's page", async () => {
    const before = smtp.messages.length;
    const result = await run();
    expect(result.delivery?.status).toBe('delivered');
    await smtp.waitFor(before + 1);
    const link = expectLink(smtp.messages[before]!, result.workflowId);
    const page = await bed.client().get(link.slice(PORTAL_URL.length));
    expect(page.status).toBe(200);
    expect(page.text).toContain(`<h1>Run ${result.workflowId}</h1>`);
    expect(page.text).toContain('<span class="badge good">delivered</span>');
  });

  test('a delivery the server refused goes again from the run page, with the link', async () => {
    smtp.refuseNext(1, 550);
    const before = smtp.messages.length;
    const result = await run();
    expect(result.delivery?.status).toBe('not delivered');
    const path = `/runs/${encodeURIComponent(result.workflowId)}`;
    const browser = bed.client();
    const page = await browser.get(path);
    expect(page.text).toContain('<span class="badge bad">not delivered</span>');
    expect(page.text).toContain(`href="${path}/redeliver"`);
    const sent = await browser.submit(`${path}/redeliver`, `${path}/redeliver`);
    expect(sent.status, sent.text).toBe(303);
    expect(sent.headers.get('location')).toBe(`${path}?notice=redelivered`);
    await smtp.waitFor(before + 1);
    expectLink(smtp.messages[before]!, result.workflowId);
    const after = await browser.get(`${path}?notice=redelivered`);
    expect(after.text).toContain('Redelivered to the destinations');
    expect(after.text).toContain('<span class="badge good">delivered</span>');
    expect(after.text).toContain('(after a redelivery)');
    expect(after.text).not.toContain(LOGIN.password);
  });

  test('no link without VIR_PORTAL_URL, or with a value that is no http(s) URL', () => {
    expect(portalRunLink({}, 'run-1')).toBeNull();
    expect(portalRunLink({ VIR_PORTAL_URL: 'reports.example.test' }, 'run-1')).toBeNull();
    expect(portalRunLink({ VIR_PORTAL_URL: 'https://r.example.test//' }, 'a/b:c')).toBe(
      'https://r.example.test/runs/a%2Fb%3Ac',
    );
  });
});
