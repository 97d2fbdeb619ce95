/**
 * Delivery's decisions (workflows/delivery.ts: `deliverRun` at the end of a run, and
 * `redeliverRunWorkflow`) on the time-skipping server, the delivery activities plain functions
 * (test/helpers/stub-activities.ts): after the manifest, object storage first and then email and
 * webhooks; the outcomes recorded in the job's order; a destination that fails after its
 * attempts (their backoff timers skipped) does not stop the others, and the run says which one
 * failed; a quiet fund-match digest delivers nothing when its job says so; a redelivery asks
 * every destination again, object storage first. What each destination received is proven by
 * the senders' own tests against real servers.
 */
import { describe, expect, it } from 'vitest';
import { parseJob } from '../../../jobs/files.js';
import { DELIVERY_MAX_ATTEMPTS } from '../../../shared/types.js';
import type { DeliveryOutcome } from '../../../shared/delivery.js';
import { smokeWorkflow } from '../../../jobs/smoke/workflow.js';
import type { SmokeJob } from '../../../jobs/smoke/job.js';
import { fundMatchWorkflow } from '../../../jobs/fund-match/workflow.js';
import type { FundMatchJob } from '../../../jobs/fund-match/job.js';
import { redeliverRunWorkflow } from '../../../workflows/delivery.js';
import { progressQuery } from '../../../workflows/progress.js';
import { failure, stubBed } from '../../helpers/stub-activities.js';

/** The job's destinations, in its order: ids email-1, webhook-1, s3-1, s3-2. */
const DELIVERY = [
  { email: { to: ['partners@example.com'] } },
  { webhook: { url: 'https://hooks.example.com/vir' } },
  { s3: { bucket: 'vir-reports', prefix: 'weekly' } },
  { s3: { bucket: 'vir-archive' } },
];
const JOB_ORDER = ['email-1', 'webhook-1', 's3-1', 's3-2'];
const kindOf = (id: string) => id.replace(/-\d+$/, '') as DeliveryOutcome['kind'];

const smokeJob = (over: Record<string, unknown> = {}) =>
  parseJob({
    id: 'delivered-smoke',
    kind: 'smoke',
    title: 'Delivered',
    country: 'Germany',
    records: 100,
    delivery: DELIVERY,
    ...over,
  }) as SmokeJob;

describe('delivery on the time-skipping server', () => {
  const stubs = stubBed();

  /**
   * A deliverToDestination that records when each destination starts and ends. An S3 delivery
   * holds for a moment before it answers: a delivery started beside it (the order broken) starts
   * within that window and shows in the log; in the right order nothing starts, so the window is
   * a fixed wait with no event to wait for instead.
   */
  function orderedDeliveries(fail: Record<string, () => never> = {}) {
    const events: string[] = [];
    const deliver = async ({ destination }: { destination: string }): Promise<DeliveryOutcome> => {
      events.push(`start ${destination}`);
      if (destination.startsWith('s3')) await new Promise((r) => setTimeout(r, 150));
      events.push(`end ${destination}`);
      fail[destination]?.();
      return {
        destination,
        kind: kindOf(destination),
        ok: true,
        detail: `sent to ${destination}`,
        attempts: 1,
      };
    };
    return { events, deliver };
  }

  it('after the manifest, S3 first, then email and webhooks; outcomes in the job order', async () => {
    const { events, deliver } = orderedDeliveries();
    const kit = stubs.use({ overrides: { deliverToDestination: deliver } });
    const handle = await kit.start(smokeWorkflow, smokeJob());
    const result = await handle.result();
    // The manifest finalizeRun wrote is the one every delivery reads.
    const manifestPath = `${kit.inputsOf('finalizeRun')[0].render.outDir}/manifest.json`;
    expect(result.manifestPath).toBe(manifestPath);
    // Delivery comes after the manifest (it reads what it sends from it), in its own phase.
    const names = kit.names();
    expect(names.indexOf('finalizeRun')).toBeLessThan(names.indexOf('deliverToDestination'));
    expect(names.at(-1)).toBe('recordDeliveries');
    for (const d of kit.log.filter((r) => r.activity === 'deliverToDestination')) {
      expect(d.phase).toBe('delivering');
      expect(d.input.manifestPath).toBe(manifestPath);
    }
    // Both S3 destinations end before email or webhook starts.
    const lastS3End = Math.max(events.indexOf('end s3-1'), events.indexOf('end s3-2'));
    const firstOther = Math.min(events.indexOf('start email-1'), events.indexOf('start webhook-1'));
    expect(lastS3End).toBeGreaterThanOrEqual(0);
    expect(firstOther).toBeGreaterThan(lastS3End);
    // Each destination once; the outcomes in the job's order.
    expect(events.filter((e) => e.startsWith('start')).sort()).toEqual(
      JOB_ORDER.map((d) => `start ${d}`).sort(),
    );
    const recorded = kit.inputsOf('recordDeliveries');
    expect(recorded).toHaveLength(1);
    expect(recorded[0].manifestPath).toBe(manifestPath);
    expect(recorded[0].outcomes.map((o: DeliveryOutcome) => o.destination)).toEqual(JOB_ORDER);
    expect(result.delivery?.status).toBe('delivered');
    expect(result.delivery?.outcomes.map((o) => o.destination)).toEqual(JOB_ORDER);
    expect(await handle.query(progressQuery)).toMatchObject({ phase: 'done' });
  });

  it('a destination that fails after its attempts: the others still delivered, the run says which', async () => {
    const { events, deliver } = orderedDeliveries({
      // Retryable: Temporal tries again after 2, 4 and 8 s (skipped), then the workflow records it.
      'webhook-1': () => {
        throw failure('HTTP 503 from hooks.example.com', 'WebhookError', false);
      },
      // Not retryable: one attempt, then recorded.
      's3-1': () => {
        throw failure('AccessDenied: the bucket refused the upload', 'S3Error');
      },
    });
    const kit = stubs.use({ overrides: { deliverToDestination: deliver } });
    const result = await (await kit.start(smokeWorkflow, smokeJob())).result();
    expect(events.filter((e) => e === 'start webhook-1')).toHaveLength(DELIVERY_MAX_ATTEMPTS);
    expect(events.filter((e) => e === 'start s3-1')).toHaveLength(1);
    // The email and the other bucket were delivered all the same (a failed S3 does not hold emails back).
    expect(events).toContain('end email-1');
    expect(events).toContain('end s3-2');
    const outcomes = kit.inputsOf('recordDeliveries')[0].outcomes as DeliveryOutcome[];
    expect(outcomes.map((o) => [o.destination, o.ok])).toEqual([
      ['email-1', true],
      ['webhook-1', false],
      ['s3-1', false],
      ['s3-2', true],
    ]);
    expect(outcomes[1]).toMatchObject({
      kind: 'webhook',
      detail: 'HTTP 503 from hooks.example.com',
      attempts: DELIVERY_MAX_ATTEMPTS,
    });
    expect(outcomes[2]).toMatchObject({ kind: 's3', detail: 'AccessDenied: the bucket refused the upload' });
    expect(result.delivery?.status).toBe('delivered partially');
    // The run itself is done, not failed or partial: its data and files are whole.
    expect(result.partial).toBe(false);
  });

  it('a quiet fund-match digest is not delivered unless its job says so', async () => {
    const fundJob = (deliverWhenQuiet: boolean) =>
      parseJob({
        id: 'quiet-funds',
        kind: 'fund-match',
        title: 'Quiet',
        limit: 5,
        budget: { credits: 3 },
        deliverWhenQuiet,
        delivery: DELIVERY.slice(0, 1),
      }) as FundMatchJob;
    const quietDigest = (input: { runKey: string }) => ({
      digestRef: `${input.runKey}/digest.json`,
      snapshotRef: `${input.runKey}/history.json`,
      baseline: false,
      quiet: true,
      counts: { batch: 3, new: 0, changed: 0, dropped: 0, events: 0 },
    });
    const kit = stubs.use({ probe: false, overrides: { buildFundDigest: quietDigest } });
    const skipped = await (await kit.start(fundMatchWorkflow, fundJob(false))).result();
    expect(kit.names()).not.toContain('deliverToDestination');
    expect(kit.inputsOf('recordDeliveries')).toEqual([
      {
        manifestPath: skipped.manifestPath,
        outcomes: [],
        skipped: 'nothing new, changed or dropped since the last run (deliverWhenQuiet: false)',
      },
    ]);
    expect(skipped.delivery).toMatchObject({ status: 'skipped', outcomes: [] });

    const sent = stubs.use({ probe: false, overrides: { buildFundDigest: quietDigest } });
    const delivered = await (await sent.start(fundMatchWorkflow, fundJob(true))).result();
    expect(sent.inputsOf('deliverToDestination').map((i) => i.destination)).toEqual(['email-1']);
    expect(delivered.delivery?.status).toBe('delivered');

    // A job that names no destination delivers nothing and says nothing about delivery.
    const none = stubs.use({ probe: false });
    const plain = await (await none.start(smokeWorkflow, smokeJob({ delivery: undefined }))).result();
    expect(none.names().filter((n) => /deliver/i.test(n))).toEqual([]);
    expect(plain).not.toHaveProperty('delivery');
  });

  it('a redelivery asks every destination again, S3 first, and records the outcomes', async () => {
    const { events, deliver } = orderedDeliveries({
      'webhook-1': () => {
        throw failure('HTTP 410 Gone', 'WebhookError');
      },
    });
    const kit = stubs.use({
      probe: false,
      overrides: {
        deliveryState: () => JOB_ORDER.map((id) => ({ id, kind: kindOf(id) })),
        // The activity's record decides what was delivered before: here, both buckets.
        deliverToDestination: async (input: { destination: string }) => {
          const out = await deliver(input);
          return input.destination.startsWith('s3') ? { ...out, already: true } : out;
        },
      },
    });
    const manifestPath = '/stub/out/delivered-smoke/2026-11-26/manifest.json';
    const delivery = await stubs.env.client.workflow.execute(redeliverRunWorkflow, {
      taskQueue: kit.taskQueue,
      workflowId: `${kit.taskQueue}-redeliver`,
      args: [{ runWorkflowId: 'smoke-delivered-smoke-1', manifestPath }],
    });
    expect(kit.inputsOf('deliveryState')).toEqual([{ manifestPath }]);
    const lastS3End = Math.max(events.indexOf('end s3-1'), events.indexOf('end s3-2'));
    const firstOther = Math.min(events.indexOf('start email-1'), events.indexOf('start webhook-1'));
    expect(firstOther).toBeGreaterThan(lastS3End);
    expect(kit.inputsOf('deliverToDestination').every((i) => i.manifestPath === manifestPath)).toBe(true);
    expect(delivery.outcomes.map((o) => [o.destination, o.ok, o.already ?? false])).toEqual([
      ['email-1', true, false],
      ['webhook-1', false, false],
      ['s3-1', true, true],
      ['s3-2', true, true],
    ]);
    expect(delivery.status).toBe('delivered partially');
    expect(kit.inputsOf('recordDeliveries')[0].manifestPath).toBe(manifestPath);
  });
});
