/**
 * What the scale-out tests on the local cluster share: the cluster of the global setup, one
 * versitygw (the S3 store every worker uses, bucket `vir-store`), a sandbox per scenario (the same
 * seeded data, fresh credits and repeat records), worker processes (runtime/worker-processes.ts)
 * each in a folder of its own, the two jobs they run (a market report and a prospect list on
 * the sandbox's service-provider key), and readers of what a run left in the bucket: its
 * manifest's figures and a digest of its files.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { Client, Connection, type WorkflowHandle } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { inject } from 'vitest';
import { startJobRun } from '../../cli/run-job.js';
import { parseMarketReportJob } from '../../jobs/market-report/index.js';
import { parseProspectListJob } from '../../jobs/prospect-list/index.js';
import type { JobRunResult } from '../../workflows/engine.js';
import {
  startWorkerProcess,
  type WorkerProcess,
  type WorkerProcessOptions,
} from '../../runtime/worker-processes.js';
import type { AnyJob } from '../../jobs/registry.js';
import type { RunningSandbox, SandboxRequest } from '../../sandbox/index.js';
import { maskClock, maskVolatile, reportDigest } from '../helpers/report-digest.js';
import { startS3Server, type S3Server } from '../helpers/s3-server.js';
import { KEYS, startTestSandbox } from '../helpers/sandbox.js';

export const STORE_BUCKET = 'vir-store';
/** One key for both jobs: a worker process calls the service with one key (VIS_API_KEY). */
export const KEY = KEYS.provider;
/** The service's window in the tests: 10 calls a second (a real limit the workers must share). */
export const SANDBOX_LIMIT = { rateLimitPerMinute: 10, minuteWindowMs: 1000 };
/** Concurrent API calls a worker runs (runtime/workers.ts' default): the most a killed worker had in flight. */
export const API_CALLS_PER_WORKER = 16;
/** Operations that cost credits in these jobs. */
export const PAID_OPERATIONS = ['ask', 'find_customers'];

const E = temporal.api.enums.v1;

export interface ClusterBed {
  client: Client;
  s3: S3Server;
  admin: S3Client;
  /** A scratch folder of the test process (downloads), removed by close. */
  dir: string;
  close(): Promise<void>;
}

/** Connects to the cluster and starts the S3 store (its bucket made). */
export async function startClusterBed(): Promise<ClusterBed> {
  const cluster = inject('cluster');
  const s3 = await startS3Server();
  const admin = new S3Client({
    endpoint: s3.endpoint,
    region: s3.region,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  });
  let connection: Connection | undefined;
  try {
    await admin.send(new CreateBucketCommand({ Bucket: STORE_BUCKET }));
    connection = await Connection.connect({ address: cluster.address });
  } catch (err) {
    admin.destroy();
    await s3.close();
    throw err;
  }
  const client = new Client({ connection, namespace: cluster.namespace });
  const dir = mkdtempSync(join(tmpdir(), 'vir-cluster-test-'));
  return {
    client,
    s3,
    admin,
    dir,
    async close() {
      await connection.close();
      admin.destroy();
      await s3.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A scenario: its sandbox, queues, store prefix and worker processes; `close` stops them all. */
export interface Scenario {
  name: string;
  sandbox: RunningSandbox;
  settings: { taskQueue: string; apiTaskQueue: string };
  prefix: string;
  workers: WorkerProcess[];
  /** Starts a worker of the scenario (`env` adds settings, e.g. VIR_WORKFLOWS_MODULE). */
  startWorker(label: string, env?: Record<string, string>): Promise<WorkerProcess>;
  /** The live workers. */
  live(): WorkerProcess[];
  /** Starts the market report and the prospect list; resolves with both handles. */
  startRuns(suffix?: string): Promise<{ market: WorkflowHandle; prospects: WorkflowHandle }>;
  close(): Promise<void>;
}

export async function startScenario(bed: ClusterBed, name: string): Promise<Scenario> {
  const cluster = inject('cluster');
  const sandbox = await startTestSandbox(SANDBOX_LIMIT);
  const suffix = `${name}-${process.pid}`;
  const queues = { jobs: `jobs-${suffix}`, api: `api-${suffix}`, accounts: `accounts-${suffix}` };
  const prefix = `scenarios/${name}`;
  const workers: WorkerProcess[] = [];
  const base: WorkerProcessOptions = {
    temporalAddress: cluster.address,
    namespace: cluster.namespace,
    serviceUrl: sandbox.url,
    apiKey: KEY,
    queues,
    rateLimitPerMinute: SANDBOX_LIMIT.rateLimitPerMinute,
    store: {
      url: `s3://${STORE_BUCKET}/${prefix}`,
      endpoint: bed.s3.endpoint,
      accessKeyId: bed.s3.accessKeyId,
      secretAccessKey: bed.s3.secretAccessKey,
      region: bed.s3.region,
    },
  };
  const settings = { taskQueue: queues.jobs, apiTaskQueue: queues.api };
  return {
    name,
    sandbox,
    settings,
    prefix,
    workers,
    async startWorker(label, env = {}) {
      const w = await startWorkerProcess({ ...base, name: `${name}-${label}`, env });
      workers.push(w);
      return w;
    },
    live: () => workers.filter((w) => w.running()),
    async startRuns(runSuffix = '') {
      const [market, prospects] = await Promise.all([
        startJobRun(bed.client, settings, marketJob(), `${name}-market${runSuffix}`),
        startJobRun(bed.client, settings, prospectJob(), `${name}-prospects${runSuffix}`),
      ]);
      return { market, prospects };
    },
    async close() {
      await Promise.all(workers.map((w) => w.stop(20_000).catch(() => w.kill9())));
      for (const w of workers) w.remove();
      await sandbox.close();
    },
  };
}

/** A market report for Germany and France: 2 overviews, 6 paged searches, 8 profiles, 2 questions. */
export function marketJob(): AnyJob {
  return parseMarketReportJob({
    id: 'cluster-market',
    title: 'Cluster market report - Germany and France',
    countries: ['Germany', 'France'],
    top: { investors: 5, startups: 5 },
    paging: { maxInvestorsPerCountry: 300, maxStartupsPerCountry: 300 },
    enrich: { investors: 2, startups: 2 },
    questions: ['largest rounds of the last 7 days in {country}'],
    budget: { credits: 5 },
    outputs: ['xlsx', 'pdf'],
  });
}

/** A prospect list: one brief (paid), one paged search, enrichment, CSV + workbook + brief. */
export function prospectJob(): AnyJob {
  return parseProspectListJob({
    id: 'cluster-prospects',
    kind: 'prospect-list',
    title: 'Cluster prospects - seed and series A in Germany and France',
    briefs: [
      {
        brief: 'Startup law firm for seed and series A software, AI and fintech companies that just raised',
        org_key: 'brightline-legal',
        regions: ['Germany', 'France'],
        limit: 20,
      },
    ],
    searches: [{ countries: ['Germany', 'France'], stages: ['seed', 'series-a'], cap: 600 }],
    enrich: 6,
    delivered: 'mark',
    crm: ['hubspot', 'generic'],
    budget: { credits: 10 },
    outputs: ['csv', 'xlsx', 'pdf'],
  });
}

/** Keys under a prefix of the store's bucket. */
export async function storeKeys(bed: ClusterBed, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const out = await bed.admin.send(
      new ListObjectsV2Command({ Bucket: STORE_BUCKET, Prefix: prefix, ContinuationToken: token }),
    );
    keys.push(...(out.Contents ?? []).map((o) => o.Key!));
    token = out.IsTruncated ? out.NextContinuationToken : undefined;
  } while (token);
  return keys.sort();
}

/** The bytes of an `s3://vir-store/<key>` URL. */
export async function storeBytes(bed: ClusterBed, url: string): Promise<Buffer> {
  const key = url.replace(`s3://${STORE_BUCKET}/`, '');
  const out = await bed.admin.send(new GetObjectCommand({ Bucket: STORE_BUCKET, Key: key }));
  return Buffer.from(await out.Body!.transformToByteArray());
}

export interface RunFigures {
  /**
   * The manifest's figures (no times, ids or attempts), the calls without my_account: a run
   * asks the balance once at its start, and once more for each paid call whose answer was lost
   * with a killed worker (the reconciliation before any retry), so their count depends on faults.
   */
  manifest: Record<string, unknown>;
  /** The run's my_account calls (its balance check and its reconciliations). */
  accountChecks: number;
  /** The manifest's attempts per operation (retries included). */
  attempts: Record<string, { attempted: number; succeeded: number; failed: number }>;
  /** Calls the run needed (the manifest's calls.total). */
  calls: number;
  /** The files as a person reads them: PDF text and workbook cells (digest), CSV text, masked. */
  files: Record<string, string[]>;
}

/** What a run left in the bucket: its manifest's figures and its files' digest. */
export async function runFigures(bed: ClusterBed, result: JobRunResult): Promise<RunFigures> {
  const manifest = JSON.parse((await storeBytes(bed, result.manifestPath)).toString('utf8')) as {
    startedAt: string;
    calls: {
      total: number;
      byOperation: Record<string, number>;
      pages: number;
      records: number;
      attempts: { byOperation: RunFigures['attempts'] };
    };
    [k: string]: unknown;
  };
  const runDate = manifest.startedAt.slice(0, 10);
  const mask = { workflowId: result.workflowId, runDate };
  const local = mkdtempSync(join(bed.dir, 'files-'));
  const files: Record<string, string[]> = {};
  for (const [format, url] of Object.entries(result.files)) {
    const name = url.slice(url.lastIndexOf('/') + 1);
    const path = join(local, name);
    writeFileSync(path, await storeBytes(bed, url));
    if (name.endsWith('.pdf')) files[format] = (await reportDigest({ pdf: path }, mask)).pdf.map(maskClock);
    else if (name.endsWith('.xlsx'))
      files[format] = (await reportDigest({ xlsx: path }, mask)).workbook.map(maskClock);
    else
      files[format] = (await storeBytes(bed, url))
        .toString('utf8')
        .split('\n')
        .map((l) => maskClock(maskVolatile(l, result.workflowId, runDate)));
  }
  for (const [format, lines] of Object.entries(files)) files[format] = faultNeutral(lines);
  const { calls, credits, status, reasons, charts, pages, notProvided, summary } = manifest;
  const { my_account: accountChecks = 0, ...byOperation } = calls.byOperation;
  return {
    accountChecks,
    manifest: {
      calls: { total: calls.total - accountChecks, byOperation, pages: calls.pages, records: calls.records },
      credits,
      status,
      reasons,
      files: (manifest.files as string[]).map((f) => f.replaceAll(result.workflowId, '<workflow>')),
      charts,
      pages,
      notProvided,
      summary,
    },
    attempts: calls.attempts.byOperation,
    calls: calls.total,
    files,
  };
}

/** Workbook row labels whose values depend on faults or on the other run's timing. */
const VARIANT_ROWS =
  /^(Calls made|API calls made|Account balance after the run|Credits left after the run|my_account)$/;

/**
 * The same figures in a report's text (the appendices of the run's own account): the calls made
 * and the balance left, each number masked where the words around it say what it is; and the
 * market report's appendix tiles (calls, credits of the budget, run time), whose first figure is
 * the calls made.
 */
const VARIANT_TEXT: [RegExp, string][] = [
  [/\b\d[\d,]* (calls?) to the service\b/g, '<variant> $1 to the service'],
  [/\b\d[\d,]* (credits? left (?:on the account|after the run))/g, '<variant> $1'],
  [/^\d+ (\d+ of \d+ <duration> )/, '<variant> $1'],
  // The market report's table of calls by operation: its my_account row (the balance checks)
  // and the total of its calls column.
  [/^my_account \d+ (\d+)$/, 'my_account <variant> $1'],
  [/^Total \d+ (\d+)$/, 'Total <variant> $1'],
];

/**
 * A report digest with the figures that depend on worker faults or on timing masked, and
 * nothing else (in workbook rows and in the text of the reports' run appendices): the calls made
 * and the my_account calls of the table of calls by operation (a run's balance checks: one more for each paid call
 * reconciled after its worker died) and the account's balance when the run ended (the other run
 * spends from the same account at its own pace). A brief's credits are not masked: a brief asked
 * again after its first answer was lost is the service's free repeat, and still cost the run the
 * first call's credits, as on one worker.
 */
export function faultNeutral(lines: string[]): string[] {
  const variantRows = new Set<string>();
  for (const line of lines) {
    const m = /^(.+)!A(\d+) string:(.*)$/.exec(line);
    if (m && VARIANT_ROWS.test(m[3]!)) variantRows.add(`${m[1]}!${m[2]}`);
  }
  return lines.map((line) => {
    const cell = /^(.+)!([B-Z])(\d+) /.exec(line);
    if (cell && variantRows.has(`${cell[1]}!${cell[3]}`)) return `${cell[1]}!${cell[2]}${cell[3]} <variant>`;
    return VARIANT_TEXT.reduce((text, [re, to]) => text.replace(re, to), line);
  });
}

/** The sandbox's credits left on the jobs' account. */
export function creditsLeft(sandbox: RunningSandbox): number {
  const accountId = sandbox.state.keys.get(KEY)!.account_id;
  return sandbox.state.accounts.get(accountId)!.credits;
}

/** Requests per operation in a sandbox's log. */
export function requestsByOperation(log: readonly SandboxRequest[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of log) out[r.operation] = (out[r.operation] ?? 0) + 1;
  return out;
}

/** Adds the attempts of several runs per operation. */
export function sumAttempts(...runs: RunFigures['attempts'][]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const run of runs)
    for (const [op, row] of Object.entries(run)) out[op] = (out[op] ?? 0) + row.attempted;
  return out;
}

/** An activity started on a worker now, in a run or one of its (paging) children. */
export interface StartedActivity {
  workflowId: string;
  type: string;
  identity: string;
}

/** The activities started now in these workflows and their pending children, and who runs them. */
export async function startedActivities(client: Client, workflowIds: string[]): Promise<StartedActivity[]> {
  const out: StartedActivity[] = [];
  const queue = [...workflowIds];
  while (queue.length > 0) {
    const id = queue.shift()!;
    const described = await client.workflow
      .getHandle(id)
      .describe()
      .catch(() => null);
    if (!described) continue;
    for (const child of described.raw.pendingChildren ?? [])
      if (child.workflowId) queue.push(child.workflowId);
    for (const a of described.raw.pendingActivities ?? []) {
      if (a.state === E.PendingActivityState.PENDING_ACTIVITY_STATE_STARTED) {
        out.push({ workflowId: id, type: a.activityType?.name ?? '', identity: a.lastWorkerIdentity ?? '' });
      }
    }
  }
  return out;
}

/** Waits (polling every 100 ms) until `find` returns something; throws after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  find: () => Promise<T | null>,
  timeoutMs = 120_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await find();
    if (found !== null) return found;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The identities that completed the workflow tasks of a run, in order, and the history's markers. */
export async function workflowTaskIdentities(
  client: Client,
  workflowId: string,
): Promise<{ identities: string[]; markers: string[] }> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const identities: string[] = [];
  const markers: string[] = [];
  for (const e of history.events ?? []) {
    if (e.eventType === E.EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED)
      identities.push(e.workflowTaskCompletedEventAttributes?.identity ?? '');
    if (e.eventType === E.EventType.EVENT_TYPE_MARKER_RECORDED) {
      // A patch marker: name core_patch, its details' payloads hold the patch id.
      const details = Object.values(e.markerRecordedEventAttributes?.details ?? {})
        .flatMap((p) => p.payloads ?? [])
        .map((p) => (p.data ? Buffer.from(p.data).toString('utf8') : ''));
      markers.push(`${e.markerRecordedEventAttributes?.markerName ?? ''} ${details.join(' ')}`);
    }
  }
  return { identities, markers };
}
