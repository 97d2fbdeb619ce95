/**
 * The delivery activities: one run's reports to one destination (email, webhook, S3), exactly
 * once per run and destination, and the manifest's account of every delivery.
 *
 * Everything a delivery needs is read from the run's manifest (its status, key figures and
 * files) and from the store (the job's destinations, kept in full there by finalizeRun: the
 * manifest shows a webhook's URL cut to its origin), so the first delivery and
 * `vir runs redeliver` go the same way, and workflow history holds only the manifest's path and a
 * destination id: never a secret, a message body or a pre-signed link.
 *
 * Each delivery has a record in the store, keyed by the run's workflow id and the destination's
 * id (`deliveries/<run>/<destination>.json`). A retried or replayed activity that finds the
 * record `delivered` sends nothing and reports what was delivered. The one window left is a
 * worker that dies after the destination accepted and before the record was written: the next
 * attempt sends again, with the same email Message-ID and the same webhook Idempotency-Key, and
 * S3 finds the run's folder by its marker and the same bytes already stored there, and writes nothing.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, extname, join } from 'node:path';
import { ApplicationFailure, Context } from '@temporalio/activity';
import { redactText } from '../../api/redact.js';
import { safeFileName } from '../../lib/names.js';
import { manifestPlace, type Store } from '../store.js';
import { DELIVERY_MAX_ATTEMPTS, type StoreRef } from '../../shared/types.js';
import { EmailTransientError, isEmailError } from './email-errors.js';
import { buildRunEmail } from './email-message.js';
import { sendRunEmail } from './email-send.js';
import { s3ClientFromEnv, withEnvEndpoint } from './s3-client.js';
import { presignedUrls } from './s3-presign.js';
import { uploadRunFiles } from './s3-upload.js';
import type { Destination } from '../../config/destinations.js';
import { portalRunLink } from '../../config/settings.js';
import { smtpSecrets, smtpSettingsFromEnv } from './smtp-settings.js';
import { createSmtpTransport } from './smtp-transport.js';
import type {
  DeliveryFigure,
  DeliveryFile,
  DeliveryOutcome,
  DeliverySummary,
  RunDelivery,
} from '../../shared/delivery.js';
import { deliverWebhook } from './webhook.js';
import { webhookTarget } from './webhook-destination.js';

/** How long a pre-signed link in an email or a chat message works: 7 days, SigV4's longest. */
export const LINK_TTL_SECONDS = 7 * 24 * 3600;

/** A delivery's record in the store. */
export interface DeliveryRecord {
  runId: string;
  destination: string;
  kind: Destination['kind'];
  status: 'sending' | 'delivered' | 'failed';
  /** The activity attempt that wrote the record. */
  attempt: number;
  updatedAt: string;
  outcome?: DeliveryOutcome;
}

/** What a run's manifest holds that delivery reads (written by finalizeRun). */
export interface ManifestForDelivery {
  workflowId: string;
  job: { id: string; title?: string; kind?: string };
  /** When the run started (the run's date for a run whose files are in the store). */
  startedAt?: string;
  /** `rerendered`: a run's reports made again (`vir runs rerender --deliver`); `runStatus` is the run's. */
  status: 'complete' | 'partial' | 'rerendered';
  runStatus?: 'complete' | 'partial';
  rerenderOf?: { workflowId: string };
  reasons: string[];
  files: string[];
  summary?: { headline?: string | null; figures?: DeliveryFigure[] };
  calls?: { total?: number; records?: number };
  credits?: { charged?: number; budget?: number };
}

/** The input of {@link DeliveryActivities.deliverToDestination}. */
export interface DeliverInput {
  manifestPath: string;
  /** The destination's id in the job (`email-1`, `s3-1`, …). */
  destination: string;
}

/** Dependencies of the delivery activities. */
export interface DeliveryDeps {
  store: Store;
  /** Where SMTP settings, the webhook secret and S3 keys are read (default: the worker's environment). */
  env?: NodeJS.ProcessEnv;
}

/** The store reference of a delivery's record. */
export function deliveryRecordRef(runId: string, destination: string): StoreRef {
  return `deliveries/${safeFileName(runId, 160, '_')}/${safeFileName(destination, 80, '_')}.json`;
}

/** The store reference of a run's destinations as its job gave them (`_` starts no destination id). */
export function destinationsRef(runId: string): StoreRef {
  return `deliveries/${safeFileName(runId, 160, '_')}/_destinations.json`;
}

/**
 * A job's destinations as the manifest shows them: a webhook's URL cut to its origin (a chat
 * service's incoming-webhook URL holds a token in its path). The full ones are kept in the store.
 */
export function manifestDestinations(destinations: Destination[]): unknown[] {
  return destinations.map((d) =>
    d.kind === 'webhook' ? { ...d, webhook: { ...d.webhook, url: `${webhookTarget(d.webhook)}/…` } } : d,
  );
}

/** Content types of the files runs write, by extension. */
const CONTENT_TYPES: Record<string, string> = {
  '.pdf': 'application/pdf',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.csv': 'text/csv',
  '.json': 'application/json',
  '.zip': 'application/zip',
};

/** The content type of a run's file by its name's extension. */
export function contentTypeOf(name: string): string {
  return CONTENT_TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream';
}

/** The run's files as a delivery sends them (local paths in `dir`); the manifest too when `withManifest`. */
async function runFiles(
  dir: string,
  manifestName: string,
  manifest: ManifestForDelivery,
  withManifest: boolean,
) {
  const names = [...manifest.files, ...(withManifest ? [manifestName] : [])];
  const files: DeliveryFile[] = [];
  for (const name of names) {
    const path = join(dir, name);
    files.push({
      path,
      name: basename(name),
      contentType: contentTypeOf(name),
      bytes: (await stat(path)).size,
    });
  }
  return files;
}

const count = (n: number | undefined, noun: string) =>
  `${(n ?? 0).toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`;

/** The run as a message describes it: the figures its PDF opens with, else its calls and credits. */
export function summaryOf(manifest: ManifestForDelivery, date: string): DeliverySummary {
  const figures = manifest.summary?.figures?.length
    ? manifest.summary.figures
    : [
        { label: 'Calls', value: count(manifest.calls?.total, 'call') },
        { label: 'Records', value: count(manifest.calls?.records, 'record') },
        {
          label: 'Credits',
          value: String(manifest.credits?.charged ?? 0),
          note: manifest.credits?.budget ? `budget ${manifest.credits.budget}` : 'no budget set',
        },
      ];
  // A rerender says so first: the same answers as the run's, made again with today's templates.
  const rebuilt =
    manifest.status === 'rerendered'
      ? `Rebuilt from run ${manifest.rerenderOf?.workflowId ?? 'unknown'}'s stored answers with the current templates: no new data.`
      : null;
  const headline = [rebuilt, manifest.summary?.headline].filter(Boolean).join(' ');
  return {
    jobId: manifest.job.id,
    jobTitle: manifest.job.title ?? manifest.job.id,
    kind: manifest.job.kind ?? 'unknown',
    runId: manifest.workflowId,
    date,
    status: manifest.status === 'rerendered' ? (manifest.runStatus ?? 'complete') : manifest.status,
    reasons: manifest.reasons ?? [],
    figures,
    ...(headline ? { headline } : {}),
  };
}

function attemptOf(): number {
  try {
    return Context.current().info.attempt;
  } catch {
    return 1;
  }
}

function signalOf(): AbortSignal | undefined {
  try {
    return Context.current().cancellationSignal;
  } catch {
    return undefined;
  }
}

function logOf(): Pick<Console, 'info' | 'warn'> {
  try {
    const log = Context.current().log;
    return { info: (m: string) => log.info(m), warn: (m: string) => log.warn(m) };
  } catch {
    return { info: () => undefined, warn: () => undefined };
  }
}

/**
 * The delivery activities on the jobs task queue.
 *
 * @example
 * const acts = createDeliveryActivities({ store: new LocalStore('.data/store') });
 * const outcome = await acts.deliverToDestination({ manifestPath, destination: 'email-1' });
 */
export function createDeliveryActivities(deps: DeliveryDeps) {
  const { store } = deps;
  const env = () => deps.env ?? process.env;

  const readRecord = (runId: string, destination: string) =>
    store.getJson<DeliveryRecord>(deliveryRecordRef(runId, destination)).catch(() => null);
  const writeRecord = (record: DeliveryRecord) =>
    store.putJsonAt(deliveryRecordRef(record.runId, record.destination), record);

  const destinationsOf = (runId: string) =>
    store.getJson<Destination[]>(destinationsRef(runId)).catch(() => [] as Destination[]);

  /** Pre-signed links to the run's objects in the first S3 destination delivered to. */
  async function linksOf(manifest: ManifestForDelivery): Promise<{ name: string; url: string }[]> {
    for (const d of await destinationsOf(manifest.workflowId)) {
      if (d.kind !== 's3') continue;
      const record = await readRecord(manifest.workflowId, d.id);
      const keys = (record?.status === 'delivered' ? (record.outcome?.objects ?? []) : []).map((o) => o.key);
      if (keys.length === 0) continue;
      const client = s3ClientFromEnv(d.s3, env());
      try {
        const links = await presignedUrls(client, withEnvEndpoint(d.s3, env()), keys, LINK_TTL_SECONDS);
        return links.map((l) => ({ name: l.name, url: l.url }));
      } finally {
        client.destroy();
      }
    }
    return [];
  }

  /**
   * Where a run's manifest and files are: beside each other in a local folder (`manifestPath` a
   * path), or in the store (`manifestPath` the manifest's store URL, written by finalizeRun when
   * the render was kept in the store): read from there on whichever worker delivers.
   */
  function placeOf(manifestPath: string) {
    const files = store.files;
    const ref = files?.refOf(manifestPath) ?? null;
    const { read, write } = manifestPlace(store, manifestPath);
    if (!files || ref === null) {
      const dir = join(manifestPath, '..');
      return {
        where: dir,
        /** The run's date: its folder's name (`<date>` or `<date>_<n>`) begins with it. */
        date: (_m: ManifestForDelivery) => basename(dir).slice(0, 10),
        read,
        write,
        /** The local folder the files are in (`release` when the delivery is done). */
        local: async () => ({ dir, release: async () => undefined }),
      };
    }
    const folderRef = ref.slice(0, ref.lastIndexOf('/'));
    return {
      where: manifestPath.slice(0, manifestPath.lastIndexOf('/')),
      /** The run's date: when it started. */
      date: (m: ManifestForDelivery) => m.startedAt?.slice(0, 10) ?? basename(folderRef),
      read,
      write,
      /** The manifest and files fetched from the store into a scratch folder of this worker. */
      local: async () => {
        const dir = await mkdtemp(join(tmpdir(), 'vir-delivery-'));
        try {
          const manifest = await store.getJson<ManifestForDelivery>(ref);
          for (const name of [...manifest.files, basename(ref)]) {
            await files.getFile(`${folderRef}/${name}`, join(dir, name));
          }
        } catch (err) {
          await rm(dir, { recursive: true, force: true });
          throw err;
        }
        return { dir, release: () => rm(dir, { recursive: true, force: true }) };
      },
    };
  }

  /**
   * Sends to one destination; throws only to have Temporal try again (a transient email failure,
   * a webhook POST another attempt may deliver: one POST per attempt).
   */
  async function send(
    d: Destination,
    manifestPath: string,
    manifest: ManifestForDelivery,
    summary: DeliverySummary,
    attempt: number,
  ): Promise<DeliveryOutcome> {
    const place = placeOf(manifestPath);
    const manifestName = basename(manifestPath);
    if (d.kind === 's3') {
      const client = s3ClientFromEnv(d.s3, env());
      const local = await place.local();
      try {
        const files = await runFiles(local.dir, manifestName, manifest, true);
        const out = await uploadRunFiles(
          d.s3,
          files,
          // The folder in the bucket is decided there (its run marker), not by the local one.
          { jobId: manifest.job.id, date: place.date(manifest), runId: manifest.workflowId },
          { client },
          { destination: d.id },
        );
        return { ...out, attempts: attempt };
      } finally {
        client.destroy();
        await local.release();
      }
    }
    const links = await linksOf(manifest);
    const withLinks: DeliverySummary = links.length > 0 ? { ...summary, links } : summary;
    if (d.kind === 'webhook') {
      const raw = await place.read();
      const signal = signalOf();
      return deliverWebhook(d.webhook, withLinks, {
        destinationId: d.id,
        attempt,
        manifest: raw,
        env: env(),
        ...(signal ? { signal } : {}),
      });
    }
    const settings = smtpSettingsFromEnv(env());
    const secrets = smtpSecrets(settings);
    const transport = createSmtpTransport(settings);
    const local = await place.local();
    try {
      const email = await buildRunEmail(
        d.email,
        withLinks,
        await runFiles(local.dir, manifestName, manifest, false),
        { from: settings.from, where: place.where, portalLink: portalRunLink(env(), manifest.workflowId) },
      );
      return await sendRunEmail(transport, email, { destination: d.id, attempt, secrets });
    } catch (err) {
      if (err instanceof EmailTransientError && attempt < DELIVERY_MAX_ATTEMPTS) {
        throw ApplicationFailure.retryable(err.message, 'EmailTransientError');
      }
      throw err;
    } finally {
      transport.close();
      await local.release();
    }
  }

  return {
    /**
     * Delivers the run (its manifest at `manifestPath`) to one of its job's destinations, once:
     * a destination whose record says delivered gets nothing again. A failure that another
     * attempt could mend (an SMTP server refusing for now, a webhook answering 5xx or not at all)
     * is thrown for Temporal to retry; any other, or the last attempt's, is recorded and reported
     * as an outcome with `ok: false` and the attempts made.
     */
    async deliverToDestination(input: DeliverInput): Promise<DeliveryOutcome> {
      const place = placeOf(input.manifestPath);
      const manifest = await place.read<ManifestForDelivery>();
      const runId = manifest.workflowId;
      const d = (await destinationsOf(runId)).find((x) => x.id === input.destination);
      if (!d) {
        throw ApplicationFailure.nonRetryable(
          `the job of run ${runId} has no delivery destination "${input.destination}"`,
          'UnknownDestination',
        );
      }
      const log = logOf();
      const before = await readRecord(runId, d.id);
      if (before?.status === 'delivered' && before.outcome) {
        log.info(`delivery ${d.id} of ${runId}: already delivered, nothing sent`);
        return { ...before.outcome, already: true };
      }
      const attempt = attemptOf();
      const at = () => new Date().toISOString();
      await writeRecord({
        runId,
        destination: d.id,
        kind: d.kind,
        status: 'sending',
        attempt,
        updatedAt: at(),
      });
      const date = place.date(manifest).slice(0, 10);
      let outcome: DeliveryOutcome;
      try {
        outcome = await send(d, input.manifestPath, manifest, summaryOf(manifest, date), attempt);
      } catch (err) {
        if (err instanceof ApplicationFailure && !err.nonRetryable) throw err;
        const message = err instanceof Error ? err.message : String(err);
        const code = isEmailError(err) ? `${err.code}: ` : '';
        outcome = {
          destination: d.id,
          kind: d.kind,
          ok: false,
          detail: redactText(`${code}${message}`, secretsOf(env())),
          attempts: attempt,
        };
      }
      await writeRecord({
        runId,
        destination: d.id,
        kind: d.kind,
        status: outcome.ok ? 'delivered' : 'failed',
        attempt,
        updatedAt: at(),
        outcome,
      });
      (outcome.ok ? log.info : log.warn)(`delivery ${d.id} of ${runId}: ${outcome.detail}`);
      return outcome;
    },

    /**
     * Writes the run's deliveries into its manifest (`delivery`: the status and each
     * destination's outcome) and returns them.
     */
    async recordDeliveries(input: {
      manifestPath: string;
      outcomes: DeliveryOutcome[];
      skipped?: string;
    }): Promise<RunDelivery> {
      const delivery = runDeliveryOf(input.outcomes, input.skipped);
      const place = placeOf(input.manifestPath);
      const manifest = await place.read();
      await place.write({ ...manifest, delivery });
      return delivery;
    },

    /**
     * The destinations of a run's job (for `vir runs redeliver`: which of them were delivered is
     * each delivery's own record, read when it runs).
     */
    async deliveryState(input: {
      manifestPath: string;
    }): Promise<{ id: string; kind: Destination['kind'] }[]> {
      const manifest = await placeOf(input.manifestPath).read<ManifestForDelivery>();
      return (await destinationsOf(manifest.workflowId)).map((d) => ({ id: d.id, kind: d.kind }));
    },
  };
}

/** Every secret a delivery may hold (SMTP login, webhook secrets, S3 keys), to redact from messages. */
function secretsOf(env: NodeJS.ProcessEnv): string[] {
  const out: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (!value || value.length < 4) continue;
    if (/^VIR_SMTP_(PASSWORD|USER|URL)$|SECRET|SESSION_TOKEN/.test(name)) out.push(value);
  }
  return out;
}

/** The status of a run's deliveries from their outcomes. */
export function runDeliveryOf(outcomes: DeliveryOutcome[], skipped?: string): RunDelivery {
  if (skipped !== undefined) return { status: 'skipped', reason: skipped, outcomes: [] };
  const failed = outcomes.filter((o) => !o.ok).length;
  const status =
    failed === 0 ? 'delivered' : failed === outcomes.length ? 'not delivered' : 'delivered partially';
  return { status, outcomes };
}

export type DeliveryActivities = ReturnType<typeof createDeliveryActivities>;
