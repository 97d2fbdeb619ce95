/**
 * A market report run with the claim-check store in S3 (VIR_STORE_URL=s3://…, versitygw), on
 * two worker setups that poll the same queues and share nothing but the bucket: each has its
 * own store folder and reports folder, and the render activity removes its local output folder
 * once the files are in the store. The manifest and every delivery (email, webhooks, an S3
 * destination) read the files from the store on whichever worker runs them; the report files
 * and the manifest end up in the store's bucket, byte for byte what the render wrote (the
 * SHA-256 the rendering worker computed from its file, kept in each object's metadata). Once
 * the first worker setup is gone, a redelivery on the second reads and rewrites the manifest in
 * the store, and a rerender on the second makes the run's reports again from the bucket alone
 * (no call). No secret reaches a history or the manifest.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateBucketCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  ListObjectsV2Command,
} from '@aws-sdk/client-s3';
import JSZip from 'jszip';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { RunDelivery } from '../../shared/delivery.js';
import { followRun, startJobRun } from '../../cli/run-job.js';
import { parseMarketReportJob } from '../../jobs/market-report/index.js';
import { safeFileName } from '../../lib/names.js';
import { redeliverRunWorkflow } from '../../workflows/index.js';
import { startRerender } from '../../cli/commands/runs-rerender.js';
import { maskClock, reportDigest } from '../helpers/report-digest.js';
import type { JobRunResult } from '../../workflows/engine.js';
import { startDeliveryBed, type DeliveryBed } from '../helpers/delivery-bed.js';
import { runHistories } from '../helpers/histories.js';
import { QUIET, startRunner, type RunnerHarness } from '../helpers/runner.js';
import { KEYS } from '../helpers/sandbox.js';

const STORE_BUCKET = 'vir-store';
const PREFIX = 'prod';

let bed: DeliveryBed;
let a: RunnerHarness | undefined;
let b: RunnerHarness;
let restoreEnv: () => void = () => undefined;

beforeAll(async () => {
  bed = await startDeliveryBed();
  restoreEnv = bed.useEnv();
  await bed.admin.send(new CreateBucketCommand({ Bucket: STORE_BUCKET }));
  // The workers' environment: the store's URL and endpoint (its keys are the S3 delivery's).
  const settings = {
    VIR_STORE_URL: `s3://${STORE_BUCKET}/${PREFIX}`,
    VIR_STORE_S3_ENDPOINT: bed.s3.endpoint,
    VIR_S3_ENDPOINT: bed.s3.endpoint,
  };
  const env = { ...process.env, ...bed.env, ...settings };
  a = await startRunner({
    baseUrl: bed.sandbox.url,
    apiKey: KEYS.vc,
    name: 's3store-a',
    env: settings,
    tuning: { env },
  });
  // The second setup: the same queues, folders of its own.
  b = await startRunner({
    baseUrl: bed.sandbox.url,
    apiKey: KEYS.vc,
    name: 's3store-b',
    env: { ...settings, VIR_TASK_QUEUE: a.settings.taskQueue, VIR_API_TASK_QUEUE: a.settings.apiTaskQueue },
    tuning: { env },
  });
}, 120_000);

afterAll(async () => {
  await a?.close();
  await b?.close();
  await bed?.close();
  restoreEnv();
});

async function storeKeys(prefix: string): Promise<string[]> {
  const out = await bed.admin.send(new ListObjectsV2Command({ Bucket: STORE_BUCKET, Prefix: prefix }));
  return (out.Contents ?? []).map((o) => o.Key!).sort();
}

async function storeObject(key: string): Promise<{ bytes: Buffer; sha256: string | undefined }> {
  const out = await bed.admin.send(new GetObjectCommand({ Bucket: STORE_BUCKET, Key: key }));
  const head = await bed.admin.send(new HeadObjectCommand({ Bucket: STORE_BUCKET, Key: key }));
  return { bytes: Buffer.from(await out.Body!.transformToByteArray()), sha256: head.Metadata?.sha256 };
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Every file under a folder (relative paths). */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1));
}

/** JSON.stringify's replacer that writes payload bytes as their text, so a search sees them. */
function payloadText(key: string, v: unknown): unknown {
  if (v instanceof Uint8Array) return Buffer.from(v).toString('utf8');
  if (typeof v === 'bigint') return v.toString();
  if (key === 'data' && typeof v === 'string') return Buffer.from(v, 'base64').toString('utf8');
  return v;
}

test('a market report on two worker setups sharing only the S3 store: files and manifest in the bucket, delivered from there', async () => {
  const mailsBefore = bed.smtp.messages.length;
  const job = parseMarketReportJob({
    id: 'weekly-s3-store',
    title: 'Weekly report from the S3 store',
    countries: ['Germany'],
    top: { investors: 3, startups: 3 },
    paging: { maxInvestorsPerCountry: 50, maxStartupsPerCountry: 50 },
    enrich: { investors: 1, startups: 1 },
    questions: [],
    budget: { credits: 0 },
    delivery: bed.destinations('market-s3'),
  });
  const result = await followRun<JobRunResult & { delivery: RunDelivery }>(
    await startJobRun(a!.client, a!.settings, job),
    QUIET,
  );
  expect(result.delivery.status, JSON.stringify(result.delivery)).toBe('delivered');
  expect(result.delivery.outcomes.map((o) => [o.destination, o.ok])).toEqual([
    ['email-1', true],
    ['webhook-1', true],
    ['chat', true],
    ['s3-1', true],
  ]);

  // The run's files and manifest: in the store under <prefix>/reports/<run>/, named by their URLs.
  const folder = `${PREFIX}/reports/${safeFileName(result.workflowId, 160, '_')}`;
  const url = (key: string) => `s3://${STORE_BUCKET}/${key}`;
  expect(result.outDir).toBe(url(folder));
  expect(result.manifestPath).toBe(url(`${folder}/manifest.json`));
  expect(Object.keys(result.files).sort()).toEqual(['pdf', 'xlsx']);
  const names = Object.values(result.files).map((f) => {
    expect(f.startsWith(`${url(folder)}/`), f).toBe(true);
    return f.slice(url(folder).length + 1);
  });
  expect(await storeKeys(`${folder}/`)).toEqual(
    [...names, 'manifest.json'].map((n) => `${folder}/${n}`).sort(),
  );

  // Byte for byte what the render wrote: the SHA-256 the rendering worker took of its file, the
  // object the SDK reads and the file in the server's folder agree.
  const objects = new Map<string, Buffer>();
  for (const name of names) {
    const { bytes, sha256: rendered } = await storeObject(`${folder}/${name}`);
    expect(rendered, name).toBe(sha256(bytes));
    expect(readFileSync(join(bed.s3.dir, STORE_BUCKET, folder, name)).equals(bytes), name).toBe(true);
    objects.set(name, bytes);
  }
  const pdf = objects.get(names.find((n) => n.endsWith('.pdf'))!)!;
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  const xlsx = await JSZip.loadAsync(objects.get(names.find((n) => n.endsWith('.xlsx'))!)!);
  expect(xlsx.file('xl/workbook.xml')).not.toBeNull();

  // The manifest in the store: the files, where each is, the run's deliveries.
  const manifestText = (await storeObject(`${folder}/manifest.json`)).bytes.toString('utf8');
  const manifest = JSON.parse(manifestText) as {
    workflowId: string;
    startedAt: string;
    files: string[];
    locations: Record<string, string>;
    delivery: RunDelivery;
  };
  expect(manifest.workflowId).toBe(result.workflowId);
  expect(manifest.files.sort()).toEqual([...names].sort());
  expect(manifest.locations).toEqual(Object.fromEntries(names.map((n) => [n, url(`${folder}/${n}`)])));
  expect(manifest.delivery.status).toBe('delivered');
  for (const secret of bed.secrets) expect(manifestText).not.toContain(secret);

  // The deliveries sent the store's bytes: the email's attachments and the S3 destination's objects.
  await bed.smtp.waitFor(mailsBefore + 1);
  const mail = bed.smtp.messages.slice(mailsBefore)[0]!;
  expect(mail.parsed.attachments.map((x) => x.filename).sort()).toEqual([...names].sort());
  for (const x of mail.parsed.attachments)
    expect(x.content.equals(objects.get(x.filename!)!), x.filename).toBe(true);
  const delivered = `market-s3/${job.id}/${manifest.startedAt.slice(0, 10)}`;
  expect(await bed.keys('market-s3')).toEqual(
    [...names, 'manifest.json', '.run.json'].map((n) => `${delivered}/${n}`).sort(),
  );
  for (const name of names)
    expect((await bed.object(`${delivered}/${name}`)).equals(objects.get(name)!)).toBe(true);
  const deliveredManifest = JSON.parse(
    (await bed.object(`${delivered}/manifest.json`)).toString('utf8'),
  ) as object;
  const { delivery: _delivery, ...beforeDelivery } = manifest;
  expect(deliveredManifest).toEqual(beforeDelivery);

  // Everything else of the run is in the store too: its pages, the delivery records, the snapshot.
  const run = safeFileName(result.workflowId, 160, '_');
  expect((await storeKeys(`${PREFIX}/runs/${run}/`)).length).toBeGreaterThan(3);
  expect(await storeKeys(`${PREFIX}/deliveries/${run}/`)).toEqual(
    ['_destinations', 'chat', 'email-1', 's3-1', 'webhook-1'].map(
      (d) => `${PREFIX}/deliveries/${run}/${d}.json`,
    ),
  );
  expect(await storeKeys(`${PREFIX}/snapshots/${job.id}/`)).toEqual([
    `${PREFIX}/snapshots/${job.id}/latest.json`,
  ]);

  // Nothing of the run on either setup's disk: no store folder, no report, no manifest.
  for (const h of [a!, b]) {
    expect(filesUnder(h.settings.storeDir), h.settings.storeDir).toEqual([]);
    expect(
      filesUnder(h.settings.reportsDir).filter(
        (f) => /\.(pdf|xlsx|json)$/.test(f) && !f.endsWith('.run.json'),
      ),
      h.settings.reportsDir,
    ).toEqual([]);
  }

  // No secret in the run's histories (they hold store URLs, never keys).
  const histories = JSON.stringify(await runHistories(a!.client, result.workflowId), payloadText);
  expect(histories).toContain(url(`${folder}/manifest.json`));
  for (const secret of bed.secrets) expect(histories).not.toContain(secret);

  // The first setup gone (its folders removed), a redelivery on the second reads the records and
  // the manifest from the store: every destination already has the run, nothing is sent again.
  const taskQueue = a!.settings.taskQueue;
  await a!.close();
  a = undefined;
  const again = await b.client.workflow.execute(redeliverRunWorkflow, {
    taskQueue,
    workflowId: `${result.workflowId}/redeliver`,
    args: [{ runWorkflowId: result.workflowId, manifestPath: result.manifestPath }],
  });
  expect(again.status).toBe('delivered');
  expect(again.outcomes.every((o) => o.already === true)).toBe(true);
  expect(bed.smtp.messages.length).toBe(mailsBefore + 1);
  const rewritten = JSON.parse((await storeObject(`${folder}/manifest.json`)).bytes.toString('utf8')) as {
    delivery: RunDelivery;
  };
  expect(rewritten.delivery.outcomes.every((o) => o.already === true)).toBe(true);

  // Its reports made again on the second setup, from the bucket alone: no call, the same
  // report, the new files and their manifest in the store beside the run's.
  const requests = bed.sandbox.requestLog().length;
  const remade = await startRerender(b.client, taskQueue, {
    runWorkflowId: result.workflowId,
    runManifestPath: result.manifestPath,
  });
  expect(bed.sandbox.requestLog().length).toBe(requests);
  const remadeFolder = `${PREFIX}/reports/${safeFileName(remade.workflowId, 160, '_')}`;
  expect(remade.outDir).toBe(url(remadeFolder));
  expect(await storeKeys(`${remadeFolder}/`)).toEqual(
    [...Object.values(remade.files).map((f) => f.slice(url(remadeFolder).length + 1)), 'manifest.json']
      .map((n) => `${remadeFolder}/${n}`)
      .sort(),
  );
  const scratch = mkdtempSync(join(tmpdir(), 'vir-s3-rerender-'));
  try {
    // Each file downloaded from the bucket, then read as a person would (PDF text, workbook cells).
    const local = async (files: Record<string, string>, tag: string) => {
      const out: Record<string, string> = {};
      for (const [format, file] of Object.entries(files)) {
        out[format] = join(scratch, `${tag}.${format}`);
        writeFileSync(out[format], (await storeObject(file.slice(`s3://${STORE_BUCKET}/`.length))).bytes);
      }
      return reportDigest(out, { workflowId: result.workflowId, runDate: manifest.startedAt.slice(0, 10) });
    };
    const mask = (d: { pdf: string[]; workbook: string[] }) =>
      JSON.parse(maskClock(JSON.stringify(d).replaceAll(remade.workflowId, '<workflow>'))) as object;
    expect(mask(await local(remade.files, 'again'))).toEqual(mask(await local(result.files, 'run')));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const remadeManifest = JSON.parse(
    (await storeObject(`${remadeFolder}/manifest.json`)).bytes.toString('utf8'),
  ) as Record<string, unknown>;
  expect(remadeManifest).toMatchObject({
    status: 'rerendered',
    rerenderOf: { workflowId: result.workflowId, manifest: result.manifestPath },
    calls: { total: 0 },
    credits: { charged: 0 },
  });

  // --replace on the store: the run's objects become the new render's, the old ones kept under
  // the rerender's replaced/, and the run's manifest in the bucket names what replaced them.
  // A typo found after delivery: the run's PDF is not what today's template makes.
  const pdfKey = result.files.pdf!.slice(`s3://${STORE_BUCKET}/`.length);
  await bed.admin.send(new PutObjectCommand({ Bucket: STORE_BUCKET, Key: pdfKey, Body: 'typo' }));
  const before = Object.fromEntries(
    await Promise.all(
      Object.values(result.files).map(
        async (f) => [f, (await storeObject(f.slice(`s3://${STORE_BUCKET}/`.length))).bytes] as const,
      ),
    ),
  );
  const replacing = await startRerender(b.client, taskQueue, {
    runWorkflowId: result.workflowId,
    runManifestPath: result.manifestPath,
    replace: true,
  });
  expect(bed.sandbox.requestLog().length).toBe(requests);
  const replacingFolder = `${PREFIX}/reports/${safeFileName(replacing.workflowId, 160, '_')}`;
  expect(replacing.replaced?.keptIn).toBe(`${url(replacingFolder)}/replaced`);
  for (const [f, old] of Object.entries(before)) {
    const name = f.slice(f.lastIndexOf('/') + 1);
    const now = (await storeObject(f.slice(`s3://${STORE_BUCKET}/`.length))).bytes;
    expect(now.equals((await storeObject(`${replacingFolder}/${name}`)).bytes), name).toBe(true);
    expect((await storeObject(`${replacingFolder}/replaced/${name}`)).bytes.equals(old), name).toBe(true);
  }
  expect((await storeObject(pdfKey)).bytes.toString('utf8').startsWith('%PDF')).toBe(true);
  expect(
    (
      await storeObject(`${replacingFolder}/replaced/${pdfKey.slice(pdfKey.lastIndexOf('/') + 1)}`)
    ).bytes.toString(),
  ).toBe('typo');
  const runManifestNow = JSON.parse(
    (await storeObject(`${folder}/manifest.json`)).bytes.toString('utf8'),
  ) as {
    replacedBy: { workflowId: string }[];
  };
  expect(runManifestNow.replacedBy.map((r) => r.workflowId)).toEqual([replacing.workflowId]);
  expect(filesUnder(b.settings.storeDir)).toEqual([]);
}, 180_000);
