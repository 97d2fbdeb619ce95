/**
 * The portal's guards, from the outside, over real HTTP: a portal on every address with a token,
 * asked through this machine's own network address (a client that is not loopback), and through
 * 127.0.0.1; a form without its CSRF field changes nothing in Temporal; values from a job file
 * come out escaped; no secret reaches a page.
 */
import { randomBytes } from 'node:crypto';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { applySchedules } from '../../cli/commands/schedules.js';
import { CliError } from '../../cli/errors.js';
import { startPortal, type RunningPortal } from '../../portal/server.js';
import { uniqueName } from '../cli/helpers.js';
import { KEYS } from '../helpers/sandbox.js';
import { csrfOf, flat, outsideAddress, PortalClient, usePortalBed } from './portal-bed.js';

const TOKEN = `tok-${randomBytes(18).toString('hex')}`;
const SMTP_PASSWORD = `smtp-pw-${randomBytes(9).toString('hex')}`;
const WEBHOOK_SECRET = `whsec-${randomBytes(9).toString('hex')}`;
const EVIL = '<script>alert("vir")</script> & <b>Co</b>';
const group = uniqueName('portal-sec');
const jobId = uniqueName('evil');
const scheduledId = uniqueName('weekly');
const scheduleId = `vir-${group}-${scheduledId}`;

const bed = usePortalBed({
  name: 'portal-sec',
  key: KEYS.vc,
  env: { VIR_PORTAL_TOKEN: TOKEN, VIR_SMTP_PASSWORD: SMTP_PASSWORD, VIR_WEBHOOK_SECRET: WEBHOOK_SECRET },
  jobs: () =>
    [
      `group: ${group}`,
      'jobs:',
      `  - id: ${jobId}`,
      '    kind: smoke',
      `    title: '${EVIL}'`,
      '    country: Germany',
      '    records: 20',
      `  - id: ${scheduledId}`,
      '    kind: smoke',
      '    title: Once a year',
      '    country: Germany',
      '    records: 20',
      "    schedule: { cron: '0 7 1 1 *', timezone: Europe/Berlin }",
      '',
    ].join('\n'),
});

/** The portal on every address, guarded by the token. */
let open: RunningPortal;
/** Requests to it from a client that is not loopback (this machine's network address), or null. */
let outside: PortalClient | null;
const address = outsideAddress();

beforeAll(async () => {
  open = await startPortal({ ctx: bed.ctx, host: '0.0.0.0', port: 0, jobFiles: [bed.jobFile] });
  outside = address ? new PortalClient(`http://${address}:${open.port}`) : null;
  await applySchedules(bed.ctx, bed.jobFile);
});

afterAll(async () => {
  await open?.close();
  const client = await bed.ctx.temporal();
  await client.schedule
    .getHandle(scheduleId)
    .delete()
    .catch(() => undefined);
});

/** GET from a client that is not loopback: over the network when the machine has an address, else in process. */
async function fromOutside(path: string, headers: Record<string, string> = {}) {
  if (outside) return outside.get(path, headers);
  const res = await open.inject({
    method: 'GET',
    url: path,
    remoteAddress: '203.0.113.9',
    headers: { accept: 'text/html', ...headers },
  });
  return {
    status: res.statusCode,
    headers: new Headers(res.headers as Record<string, string>),
    text: flat(res.body),
    raw: res.body,
  };
}

describe('who may ask', () => {
  test('the portal refuses to listen on another address without a token', async () => {
    await expect(startPortal({ ctx: bed.ctx, host: '0.0.0.0', port: 0, token: null })).rejects.toThrow(
      CliError,
    );
    await expect(startPortal({ ctx: bed.ctx, host: '0.0.0.0', port: 0, token: null })).rejects.toThrow(
      /set VIR_PORTAL_TOKEN/,
    );
  });

  test('another machine gets 401 without the token, 200 with the bearer header or the cookie', async () => {
    if (!outside)
      console.warn('no non-loopback IPv4 address: requests from another machine are made in process');
    const refused = await fromOutside('/');
    expect(refused.status).toBe(401);
    expect(refused.text).toContain('<label for="token">Token</label>');
    expect(refused.text).not.toContain(TOKEN);
    expect((await fromOutside('/runs', { accept: 'application/json' })).status).toBe(401);
    expect((await fromOutside('/credits', { authorization: `Bearer ${TOKEN}x` })).status).toBe(401);
    expect((await fromOutside('/runs/x/files/0')).status).toBe(401);

    const bearer = await fromOutside('/', { authorization: `Bearer ${TOKEN}` });
    expect(bearer.status, bearer.text).toBe(200);
    expect(bearer.text).toContain('<h1>Jobs</h1>');

    // The cookie: set once by /login?token=…, which sends the browser on without the token.
    if (outside) {
      expect((await outside.get('/login?token=wrong-token-000000')).status).toBe(401);
      const login = await outside.get(`/login?token=${TOKEN}&next=/runs`);
      expect(login.status).toBe(303);
      expect(login.headers.get('location')).toBe('/runs');
      const setCookies = login.headers.getSetCookie().join('\n');
      expect(setCookies).toContain('vir_portal_session=');
      expect(setCookies).toContain('HttpOnly');
      expect(setCookies).not.toContain(TOKEN);
      const withCookie = await outside.get('/runs');
      expect(withCookie.status).toBe(200);
      expect(withCookie.text).toContain('<h1>Runs</h1>');
      // The login form too (a POST needs no CSRF field: the token is what it checks).
      const other = new PortalClient(outside.base);
      expect(
        (await other.post('/login', { token: TOKEN, next: '//evil.example/' })).headers.get('location'),
      ).toBe('/');
      expect((await other.get('/credits')).status).toBe(200);
    }
  });

  test('this machine needs no token, unless its request names another host (DNS rebinding)', async () => {
    const local = new PortalClient(open.url);
    expect((await local.get('/')).status).toBe(200);
    // fetch() sends no Host header of its own choosing: undici's request does.
    const rebound = await request(`${open.url}/`, { headers: { host: `evil.example:${open.port}` } });
    await rebound.body.dump();
    expect(rebound.statusCode).toBe(401);
    const named = await request(`${open.url}/`, { headers: { host: `localhost:${open.port}` } });
    await named.body.dump();
    expect(named.statusCode).toBe(200);
    // The portal of `vir dev`: 127.0.0.1 only, no token needed.
    expect((await bed.client().get('/credits')).status).toBe(200);
  });
});

describe('actions', () => {
  test('a POST without the CSRF field, or with a wrong one, is refused and changes nothing', async () => {
    const client = await bed.ctx.temporal();
    const handle = client.schedule.getHandle(scheduleId);
    expect((await handle.describe()).state.paused).toBe(false);
    const browser = bed.client();
    const confirm = await browser.get(`/schedules/${scheduleId}/pause`);
    expect(confirm.status).toBe(200);
    const csrf = csrfOf(confirm.text);

    expect((await browser.post(`/schedules/${scheduleId}/pause`, {})).status).toBe(403);
    expect((await browser.post(`/schedules/${scheduleId}/pause`, { csrf: `${csrf}x` })).status).toBe(403);
    // Another client's field (its own cookie differs) is no good either.
    const stranger = bed.client();
    expect((await stranger.post(`/schedules/${scheduleId}/pause`, { csrf })).status).toBe(403);
    // A form posted from another site, with the right field: refused by its Origin.
    expect(
      (await browser.post(`/schedules/${scheduleId}/pause`, { csrf }, { origin: 'http://evil.example' }))
        .status,
    ).toBe(403);
    // With the bearer token too: the CSRF field is still required.
    const outsider = new PortalClient(open.url, { authorization: `Bearer ${TOKEN}` });
    expect((await outsider.post(`/schedules/${scheduleId}/pause`, { csrf: 'x' })).status).toBe(403);
    expect((await handle.describe()).state.paused).toBe(false);
  });

  test('pause, then resume, a schedule through the portal: Temporal has it so', async () => {
    const client = await bed.ctx.temporal();
    const handle = client.schedule.getHandle(scheduleId);
    const browser = bed.client();
    const jobs = await browser.get('/');
    expect(jobs.text).toContain(`href="/schedules/${scheduleId}/pause"`);

    const paused = await browser.submit(`/schedules/${scheduleId}/pause`, `/schedules/${scheduleId}/pause`);
    expect(paused.status, paused.text).toBe(303);
    expect(paused.headers.get('location')).toBe('/?notice=paused');
    const desc = await handle.describe();
    expect(desc.state.paused).toBe(true);
    expect(desc.state.note).toBe('paused in the portal');
    expect((await browser.get('/?notice=paused')).text).toContain('The schedule is paused.');

    const resumed = await browser.submit(
      `/schedules/${scheduleId}/resume`,
      `/schedules/${scheduleId}/resume`,
    );
    expect(resumed.status, resumed.text).toBe(303);
    expect((await handle.describe()).state.paused).toBe(false);

    // No such schedule: 404, nothing done.
    const plan = await browser.get(`/jobs/${jobId}/plan`);
    const missing = await browser.post('/schedules/no-such-schedule/pause', { csrf: csrfOf(plan.text) });
    expect(missing.status).toBe(404);
  });
});

describe('what pages show', () => {
  test('every value from a job file is escaped', async () => {
    const browser = bed.client();
    for (const path of ['/', `/jobs/${jobId}/plan`, '/credits', `/runs?job=${jobId}`]) {
      const page = await browser.get(path);
      expect(page.status, `${path}: ${page.text}`).toBe(200);
      expect(page.text, path).not.toContain('<script>alert');
      expect(page.text, path).not.toContain('<b>Co</b>');
      expect(page.headers.get('content-security-policy'), path).toContain("script-src 'self'");
      expect(page.headers.get('x-frame-options')).toBe('DENY');
    }
    const jobs = await browser.get('/');
    expect(jobs.text).toContain(
      '&lt;script&gt;alert(&quot;vir&quot;)&lt;/script&gt; &amp; &lt;b&gt;Co&lt;/b&gt;',
    );
    expect(jobs.text).toContain('the 1st of the month in January at 07:00 (Europe/Berlin)');
    // Every table header cell says what it heads.
    expect(jobs.text).not.toMatch(/<th>(?!<)/);
  });

  test('no secret appears in any page: the API key, the token, the delivery secrets', async () => {
    const browser = bed.client();
    const paths = [
      '/',
      '/runs',
      '/credits',
      `/jobs/${jobId}/plan`,
      '/login',
      '/no-such-page',
      '/runs/no-such-run',
    ];
    for (const path of paths) {
      const page = await browser.get(path);
      for (const secret of [KEYS.vc, TOKEN, SMTP_PASSWORD, WEBHOOK_SECRET]) {
        expect(page.text.includes(secret), `${secret} in ${path}`).toBe(false);
        expect(
          [...page.headers.values()].join('\n').includes(secret),
          `${secret} in the headers of ${path}`,
        ).toBe(false);
      }
    }
    expect((await browser.get('/runs/no-such-run')).status).toBe(404);
  });
});
