/**
 * Delivery under faults, counted by what each destination received (the SMTP server's
 * messages, the webhook receiver's requests and accepted copies, the bucket's objects):
 * - the SMTP server refuses once (451), the webhook answers 429 with Retry-After: 1 and then 500
 *   (one POST per activity attempt: Temporal waits the second the receiver asked for, then the
 *   workflow's backoff), the S3 connection is dropped and then cut mid-body: each destination
 *   still gets exactly one copy, and each outcome counts the attempts made;
 * - a webhook that refuses for good (410) makes the run "delivered partially", keeps the files,
 *   and `vir runs redeliver` sends only what failed;
 * - the worker is killed (SIGKILL) while the SMTP server holds the message: another worker
 *   delivers it once, and nothing already delivered is sent again.
 */
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { verifyWebhookSignature, webhookIdempotencyKey } from '../../activities/delivery/index.js';
import type { RunDelivery } from '../../shared/delivery.js';
import { followRun, startJobRun } from '../../cli/run-job.js';
import { parseMarketReportJob } from '../../jobs/market-report/index.js';
import type { JobRunResult } from '../../workflows/engine.js';
import { runCli } from '../cli/helpers.js';
import { startDeliveryBed, type DeliveryBed } from '../helpers/delivery-bed.js';
import { QUIET, startRunner, type RunnerHarness } from '../helpers/runner.js';
import { KEYS } from '../helpers/sandbox.js';
import { startTcpFaultProxy, type TcpFaultProxy } from '../helpers/tcp-proxy.js';
import { killGroup, workerTestBed, type WorkerTestBed } from '../helpers/worker-process.js';

let bed: DeliveryBed;
let h: RunnerHarness;
let proxy: TcpFaultProxy;
let restoreEnv: () => void = () => undefined;

beforeAll(async () => {
  bed = await startDeliveryBed();
  proxy = await startTcpFaultProxy(new URL(bed.s3.endpoint).port);
  restoreEnv = bed.useEnv();
  h = await startRunner({ baseUrl: bed.sandbox.url, apiKey: KEYS.vc, name: 'delivery-faults' });
}, 120_000);

afterAll(async () => {
  await h?.close();
  await proxy?.close();
  await bed?.close();
  restoreEnv();
});

type Delivered = JobRunResult & { delivery: RunDelivery };

/** A small market report (no credits) delivered to an email, one JSON webhook and S3 through `s3Endpoint`. */
function job(id: string, prefix: string, s3Endpoint: string, reportsDir: string) {
  return parseMarketReportJob({
    id,
    title: `Faults ${id}`,
    countries: ['France'],
    top: { investors: 3, startups: 3 },
    paging: { maxInvestorsPerCountry: 50, maxStartupsPerCountry: 50 },
    enrich: { investors: 1, startups: 1 },
    questions: [],
    budget: { credits: 0 },
    destination: reportsDir,
    delivery: [
      { email: { to: ['partner@fund.test'] } },
      { webhook: { url: `${bed.hook.url}/${prefix}`, format: 'json' } },
      { s3: { bucket: bed.bucket, prefix, endpoint: s3Endpoint, region: bed.s3.region } },
    ],
  });
}

/** What each destination holds of a run: its email messages, accepted webhook copies, and objects checked byte for byte. */
async function copies(result: JobRunResult, prefix: string) {
  const mails = bed.smtp.messages.filter((m) => m.parsed.text?.includes(result.workflowId));
  const key = webhookIdempotencyKey(result.workflowId, 'webhook-1');
  const requests = bed.hook.requests.filter((r) => r.headers['idempotency-key'] === key);
  const keys = await bed.keys(prefix);
  const files = [...Object.values(result.files), result.manifestPath];
  for (const f of Object.values(result.files)) {
    const object = keys.find((k) => k.endsWith(`/${basename(f)}`));
    expect(object, f).toBeDefined();
    expect((await bed.object(object!)).equals(readFileSync(f)), f).toBe(true);
  }
  return {
    mails: mails.length,
    accepted: bed.hook.accepted(key),
    requests: requests.length,
    /** When each webhook request with the run's key arrived, and whether its own signature verifies. */
    posts: requests.map((r) => ({
      at: r.at,
      stamp: r.headers['x-vir-timestamp'] as string,
      signed: verifyWebhookSignature(
        bed.env.VIR_WEBHOOK_SECRET!,
        r.headers['x-vir-timestamp'] as string,
        r.body,
        r.headers['x-vir-signature'] as string,
        { now: r.at },
      ),
    })),
    // The run's objects, its folder's marker (`.run.json`, naming the run) aside.
    objects: keys.filter((k) => !k.endsWith('/.run.json')).length,
    files: files.length,
  };
}

describe('delivery under faults', () => {
  test('SMTP refuses once, the webhook 429 then 500, S3 drops a connection: one copy each', async () => {
    bed.smtp.refuseNext(1, 451);
    bed.hook.script({ status: 429, headers: { 'retry-after': '1' } }, 500);
    proxy.fault(proxy.connections() + 1, { drop: true });
    proxy.fault(proxy.connections() + 2, { cutAfterBytes: 20_000 });
    const refusedBefore = bed.smtp.refused;
    const result = await followRun<Delivered>(
      await startJobRun(
        h.client,
        h.settings,
        job('faults-once', 'once', proxy.endpoint, join(h.dir, 'reports')),
      ),
      QUIET,
    );
    expect(result.delivery.status, JSON.stringify(result.delivery)).toBe('delivered');
    const c = await copies(result, 'once');
    expect(bed.smtp.refused - refusedBefore).toBe(1);
    expect(c.mails).toBe(1);
    expect(c.requests).toBe(3);
    expect(c.accepted).toBe(1);
    expect(c.objects).toBe(c.files);
    expect(proxy.broken.map((b) => b.how)).toEqual(['drop', 'cut']);
    // One POST per attempt, each signed with its own timestamp, all with the run's key (above).
    expect(c.posts.map((p) => p.signed)).toEqual([true, true, true]);
    expect(new Set(c.posts.map((p) => p.stamp)).size).toBe(3);
    // The retry after the 429 came when the receiver asked (1 s, not the policy's 2 s); the one
    // after the 500, which asked nothing, after the policy's backoff (2 s doubled: 4 s).
    const [first, second, third] = c.posts.map((p) => p.at);
    expect(second! - first!).toBeGreaterThanOrEqual(950);
    expect(second! - first!).toBeLessThan(1_900);
    expect(third! - second!).toBeGreaterThanOrEqual(3_900);
    const byId = Object.fromEntries(result.delivery.outcomes.map((o) => [o.destination, o]));
    expect(byId['email-1']!.attempts).toBe(2);
    expect(byId['webhook-1']).toMatchObject({ ok: true, attempts: 3 });
    expect(byId['webhook-1']!.detail).toMatch(/\(HTTP 200, attempt 3\)$/);
  });

  test('a webhook refusing for good: delivered partially, files kept, redeliver sends only what failed', async () => {
    bed.hook.script(410);
    const result = await followRun<Delivered>(
      await startJobRun(
        h.client,
        h.settings,
        job('faults-redeliver', 'again', bed.s3.endpoint, join(h.dir, 'reports')),
      ),
      QUIET,
    );
    expect(result.delivery.status).toBe('delivered partially');
    const failed = result.delivery.outcomes.find((o) => !o.ok)!;
    expect(failed.destination).toBe('webhook-1');
    expect(failed.detail).toMatch(/410/);
    // A refusal is not retried: one POST, one attempt recorded.
    expect(failed.attempts).toBe(1);
    const manifest = JSON.parse(readFileSync(result.manifestPath, 'utf8')) as { delivery: RunDelivery };
    expect(manifest.delivery.status).toBe('delivered partially');
    for (const f of Object.values(result.files)) expect(readFileSync(f).length).toBeGreaterThan(0);
    let c = await copies(result, 'again');
    expect([c.mails, c.accepted, c.requests, c.objects]).toEqual([1, 0, 1, c.files]);

    const env = {
      ...process.env,
      TEMPORAL_ADDRESS: h.settings.temporalAddress,
      VIR_TASK_QUEUE: h.settings.taskQueue,
      VIR_LOG_LEVEL: 'warn',
    };
    const before = await runCli(env, ['runs', 'show', result.workflowId]);
    expect(before.out.join('\n')).toMatch(/delivery {3}delivered partially\n/);
    const out = await runCli(env, ['runs', 'redeliver', result.workflowId]);
    expect(out.code, out.err.join('\n')).toBe(0);
    c = await copies(result, 'again');
    expect([c.mails, c.accepted, c.objects]).toEqual([1, 1, c.files]);
    expect(out.out.join('\n')).toMatch(/Delivery: delivered/);
    expect(out.out.join('\n')).toMatch(/email-1 \(email\): already delivered/);
    const after = JSON.parse(readFileSync(result.manifestPath, 'utf8')) as { delivery: RunDelivery };
    expect(after.delivery.status).toBe('delivered');

    const shown = await runCli(env, ['runs', 'show', result.workflowId]);
    expect(shown.out.join('\n')).toMatch(/delivery {3}delivered \(after vir runs redeliver\)/);
    expect(shown.out.join('\n')).toMatch(/webhook-1 \(webhook\): ok/);

    // Everything delivered: a second redelivery sends nothing at all.
    const requests = bed.hook.requests.length;
    const again = await runCli(env, ['runs', 'redeliver', result.workflowId]);
    expect(again.code).toBe(0);
    expect(bed.hook.requests.length).toBe(requests);
    c = await copies(result, 'again');
    expect([c.mails, c.accepted]).toEqual([1, 1]);
  });
});

describe('a worker killed during a delivery', () => {
  let wb: WorkerTestBed;
  beforeAll(async () => {
    wb = await workerTestBed({
      name: 'deliver-kill',
      serviceUrl: bed.sandbox.url,
      key: KEYS.vc,
      temporalAddress: inject('temporalAddress'),
      env: bed.env,
    });
  }, 60_000);
  afterAll(async () => wb?.close(0));

  test('SIGKILL while the SMTP server holds the message: another worker sends it once', async () => {
    const worker = await wb.startWorker();
    const held = bed.smtp.holdNext();
    const dropped = bed.smtp.dropped;
    const handle = await startJobRun(
      wb.client,
      wb.settings,
      job('faults-kill', 'kill', bed.s3.endpoint, join(wb.dir, 'reports')),
    );
    await held;
    killGroup(worker, 'SIGKILL');
    await new Promise((r) => worker.once('exit', r));
    await wb.startWorker();
    const result = await followRun<Delivered>(handle, QUIET);
    expect(result.delivery.status, JSON.stringify(result.delivery)).toBe('delivered');
    expect(bed.smtp.dropped - dropped).toBe(1);
    const c = await copies(result, 'kill');
    expect(c.mails).toBe(1);
    expect(c.accepted).toBe(1);
    expect(c.objects).toBe(c.files);
  }, 120_000);
});
