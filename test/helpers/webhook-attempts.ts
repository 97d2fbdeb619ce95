/**
 * A webhook delivery driven the way Temporal drives it: the real deliverToDestination activity
 * (its record in a LocalStore, the run's manifest in a folder) run attempt after attempt in an
 * activity context (MockActivityEnvironment: `info.attempt` 1, 2, ...), each retry it asks for
 * waited out as the delivery workflow's retry policy would: its nextRetryDelay (the receiver's
 * Retry-After) when it names one, else a short stand-in for the policy's backoff. The policy
 * itself, on a real Temporal server, is test/delivery/faults.test.ts's.
 *
 * @example
 * const run = await webhookRun(hook.url);
 * const { outcome, retries, record } = await run.deliver();
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import { msToNumber } from '@temporalio/common/lib/time.js';
import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import {
  createDeliveryActivities,
  deliveryRecordRef,
  destinationsRef,
  type DeliveryRecord,
} from '../../activities/delivery/deliver.js';
import { parseWebhookDestination, webhookIdempotencyKey } from '../../activities/delivery/index.js';
import type { WebhookDestinationInput } from '../../activities/delivery/index.js';
import { LocalStore } from '../../activities/store.js';
import type { DeliveryOutcome } from '../../shared/delivery.js';
import { DELIVERY_MAX_ATTEMPTS } from '../../shared/types.js';
import { SECRET, summary } from './webhook-delivery.js';

/** What a delivery's attempts came to. */
export interface WebhookAttempts {
  outcome: DeliveryOutcome;
  /** The retries the attempts before the outcome asked Temporal for, in order. */
  retries: ApplicationFailure[];
  /** The delivery's record in the store after the last attempt. */
  record: DeliveryRecord;
  /** What the activity logged. */
  logs: string[];
}

/** A run whose job has one destination, `webhook-1`. */
export interface WebhookRun {
  runId: string;
  /** The Idempotency-Key of the run's delivery to `webhook-1`. */
  key: string;
  /**
   * Delivers the run to `webhook-1`, attempt after attempt from the first, until one gives an
   * outcome; a retry that names no delay waits `backoffMs`.
   */
  deliver(opts?: { backoffMs?: number }): Promise<WebhookAttempts>;
  close(): Promise<void>;
}

/** A run of the summary's job, in a scratch folder, delivered to a webhook at `url` (`fields` the rest of it). */
export async function webhookRun(
  url: string,
  fields: Omit<WebhookDestinationInput, 'url'> = {},
): Promise<WebhookRun> {
  const dir = await mkdtemp(join(tmpdir(), 'vir-webhook-run-'));
  const store = new LocalStore(join(dir, 'store'));
  const runId = summary.runId;
  const manifestPath = join(dir, 'reports', summary.date, 'manifest.json');
  await mkdir(join(manifestPath, '..'), { recursive: true });
  const manifest = {
    workflowId: runId,
    job: { id: summary.jobId, title: summary.jobTitle, kind: summary.kind },
    status: summary.status,
    reasons: summary.reasons,
    files: [],
    summary: { headline: summary.headline, figures: summary.figures },
  };
  await writeFile(manifestPath, JSON.stringify(manifest));
  const webhook = parseWebhookDestination({ url, ...fields });
  await store.putJsonAt(destinationsRef(runId), [{ id: 'webhook-1', kind: 'webhook', webhook }]);
  const acts = createDeliveryActivities({ store, env: { VIR_WEBHOOK_SECRET: SECRET } });

  async function deliver({ backoffMs = 20 } = {}): Promise<WebhookAttempts> {
    const retries: ApplicationFailure[] = [];
    const logs: string[] = [];
    const logger = new DefaultLogger('INFO', (entry) => logs.push(entry.message));
    for (let attempt = 1; attempt <= DELIVERY_MAX_ATTEMPTS; attempt++) {
      const env = new MockActivityEnvironment({ attempt }, { logger });
      try {
        const input = { manifestPath, destination: 'webhook-1' };
        const outcome = await env.run<[typeof input], DeliveryOutcome, typeof acts.deliverToDestination>(
          (i) => acts.deliverToDestination(i),
          input,
        );
        const record = await store.getJson<DeliveryRecord>(deliveryRecordRef(runId, 'webhook-1'));
        return { outcome, retries, record, logs };
      } catch (err) {
        if (!(err instanceof ApplicationFailure) || err.nonRetryable) throw err;
        retries.push(err);
        const delay = err.nextRetryDelay == null ? backoffMs : msToNumber(err.nextRetryDelay);
        await new Promise((r) => setTimeout(r, delay));
      }
    }
    throw new Error(`attempt ${DELIVERY_MAX_ATTEMPTS}, the last, asked for another instead of an outcome`);
  }

  return {
    runId,
    key: webhookIdempotencyKey(runId, 'webhook-1'),
    deliver,
    close: () => rm(dir, { recursive: true, force: true }),
  };
}
