/**
 * Delivery, the engine's last step: a run's reports to each destination its job names, once
 * the manifest is written. Each destination is one activity (activities/delivery/deliver.ts)
 * that reads what it sends from the manifest and keeps a record in the store, so a retried or
 * replayed activity, or a redelivery, sends nothing a destination already has. Object storage
 * goes first, so emails and chat messages can link to the objects. A delivery that fails after
 * its attempts makes the run "delivered partially"; `vir runs redeliver` sends what failed.
 *
 * Workflow code: no I/O here.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { DeliveryActivities } from '../activities/delivery/deliver.js';
import type { DestinationKind } from '../config/destinations.js';
import type { DeliveryOutcome, RunDelivery } from '../shared/delivery.js';
import { DELIVERY_MAX_ATTEMPTS } from '../shared/types.js';
import { failureMessage } from './calls.js';

/** The patch of the delivery step after the manifest. */
export const DELIVERY = 'delivery';

/** A destination as the workflow knows it: its id and kind (the activity reads the rest). */
export interface DestinationRef {
  id: string;
  kind: DestinationKind;
}

const deliveryActivities = proxyActivities<DeliveryActivities>({
  startToCloseTimeout: '10 minutes',
  // A worker killed during a delivery is seen within this and the delivery tried elsewhere.
  heartbeatTimeout: '10 seconds',
  retry: {
    initialInterval: '2 seconds',
    backoffCoefficient: 2,
    maximumInterval: '1 minute',
    maximumAttempts: DELIVERY_MAX_ATTEMPTS,
  },
});

/**
 * Delivers a run to its destinations (S3 first, then email and webhooks together), writes the
 * outcomes into the manifest and returns them. `skipped` (the job's reason) sends nothing.
 */
export async function deliverRun(
  manifestPath: string,
  destinations: readonly DestinationRef[],
  skipped?: string,
): Promise<RunDelivery> {
  if (skipped !== undefined) {
    return deliveryActivities.recordDeliveries({ manifestPath, outcomes: [], skipped });
  }
  const one = (d: DestinationRef): Promise<DeliveryOutcome> =>
    deliveryActivities
      .deliverToDestination({ manifestPath, destination: d.id })
      // The activity records a send's failure itself, with the attempts it made (for a webhook, its
      // POSTs). What fails the activity failed outside a send: on every attempt (a store out of
      // reach; the retries are spent, so the count below is true) or at once (an unknown
      // destination, nothing sent). Left as it is, so the workflow's commands stay as recorded.
      .catch((err: unknown): DeliveryOutcome => ({
        destination: d.id,
        kind: d.kind,
        ok: false,
        detail: failureMessage(err),
        attempts: DELIVERY_MAX_ATTEMPTS,
      }));
  const stored = await Promise.all(destinations.filter((d) => d.kind === 's3').map(one));
  const sent = await Promise.all(destinations.filter((d) => d.kind !== 's3').map(one));
  const byId = new Map([...stored, ...sent].map((o) => [o.destination, o]));
  const outcomes = destinations.map((d) => byId.get(d.id)!);
  return deliveryActivities.recordDeliveries({ manifestPath, outcomes });
}

/** Input of {@link redeliverRunWorkflow}. */
export interface RedeliverInput {
  /** The run's workflow id. */
  runWorkflowId: string;
  manifestPath: string;
}

/**
 * `vir runs redeliver`: delivers a finished run again to each of its destinations; those a
 * record shows delivered get nothing (their outcome says `already`), the others are sent.
 */
export async function redeliverRunWorkflow(input: RedeliverInput): Promise<RunDelivery> {
  const destinations = await deliveryActivities.deliveryState({ manifestPath: input.manifestPath });
  return deliverRun(input.manifestPath, destinations);
}
