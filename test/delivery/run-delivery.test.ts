/**
 * Delivery end to end, on the real embedded Temporal server with real workers: a market report,
 * a prospect list and a fund-match digest each sent to an email (a real SMTP server with a
 * login), two webhooks (JSON and Slack, a real HTTP receiver) and an S3 bucket (versitygw), and
 * read back from each: the email's attachments equal the files on disk byte for byte, every
 * webhook signature verifies, the S3 objects equal the files. A quiet fund-match week sends
 * nothing unless the job says so. No secret reaches a history, a log, a manifest or a message.
 */
import { createHash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { deliveryRecordRef } from '../../activities/delivery/deliver.js';
import { runMessageId, verifyWebhookSignature } from '../../activities/delivery/index.js';
import type { RunDelivery } from '../../shared/delivery.js';
import { followRun, startJobRun } from '../../cli/run-job.js';
import { parseFundMatchJob } from '../../jobs/fund-match/index.js';
import { parseMarketReportJob } from '../../jobs/market-report/index.js';
import { parseProspectListJob } from '../../jobs/prospect-list/index.js';
import { parseSmokeJob } from '../../jobs/smoke/index.js';
import type { AnyJob } from '../../jobs/files.js';
import type { JobRunResult } from '../../workflows/engine.js';
import { startDeliveryBed, type DeliveryBed } from '../helpers/delivery-bed.js';
import { runHistories } from '../helpers/histories.js';
import { capturedLogs, QUIET, startRunner, type RunnerHarness } from '../helpers/runner.js';
import { KEYS } from '../helpers/sandbox.js';

let bed: DeliveryBed;
let h: RunnerHarness;
let restoreEnv: () => void = () => undefined;

beforeAll(async () => {
  bed = await startDeliveryBed();
  restoreEnv = bed.useEnv();
  h = await startRunner({ baseUrl: bed.sandbox.url, apiKey: KEYS.vc, name: 'delivery' });
}, 120_000);

afterAll(async () => {
  await h?.close();
  await bed?.close();
  restoreEnv();
});

/** JSON.stringify's replacer that writes payload bytes (raw or base64) as their text, so a search sees them. */
function payloadText(key: string, v: unknown): unknown {
  if (v instanceof Uint8Array) return Buffer.from(v).toString('utf8');
  if (typeof v === 'bigint') return v.toString();
  if (key === 'data' && typeof v === 'string') return Buffer.from(v, 'base64').toString('utf8');
  return v;
}

type Delivered = JobRunResult & { delivery: RunDelivery };

async function run(job: AnyJob): Promise<Delivered> {
  const result = await followRun(await startJobRun(h.client, h.settings, job), QUIET);
  expect(result.delivery, 'the run has a delivery').toBeDefined();
  return result as Delivered;
}

/** Everything a run's destinations received, checked against its files on disk. */
async function expectDelivered(result: Delivered, prefix: string, mailsBefore: number) {
  const outDir = dirname(result.manifestPath);
  const files = Object.values(result.files);
  expect(result.delivery.status, JSON.stringify(result.delivery)).toBe('delivered');
  expect(result.delivery.outcomes.map((o) => [o.destination, o.ok])).toEqual([
    ['email-1', true],
    ['webhook-1', true],
    ['chat', true],
    ['s3-1', true],
  ]);

  // Email: one message to both recipients, its Message-ID derived from the run and recipients.
  await bed.smtp.waitFor(mailsBefore + 1);
  const mails = bed.smtp.messages.slice(mailsBefore);
  expect(mails).toHaveLength(1);
  const mail = mails[0]!;
  expect(mail.envelope.to.sort()).toEqual(['analyst@fund.test', 'partner@fund.test']);
  expect(mail.parsed.messageId).toBe(
    runMessageId(result.workflowId, ['partner@fund.test', 'analyst@fund.test'], 'vir.test'),
  );
  expect(mail.parsed.text).toContain(result.workflowId);

  // Webhooks: one JSON and one Slack message, each signed with the secret.
  const requests = bed.hook.requests.filter((r) => r.url.startsWith(`/hook/${prefix}`));
  expect(requests.map((r) => r.url).sort()).toEqual([`/hook/${prefix}`, `/hook/${prefix}/chat`]);
  for (const r of requests) {
    expect(
      verifyWebhookSignature(
        bed.env.VIR_WEBHOOK_SECRET!,
        r.headers['x-vir-timestamp'] as string,
        r.body,
        r.headers['x-vir-signature'] as string,
      ),
      `signature of ${r.url}`,
    ).toBe(true);
    expect(
      verifyWebhookSignature(
        'not-the-secret',
        r.headers['x-vir-timestamp'] as string,
        r.body,
        r.headers['x-vir-signature'] as string,
      ),
    ).toBe(false);
  }
  const json = JSON.parse(requests.find((r) => r.url === `/hook/${prefix}`)!.body) as {
    job: { id: string };
    run: { id: string };
    status: string;
    figures: { label: string; value: string }[];
    links: { name: string; url: string }[];
    manifest: { files: string[] };
  };
  expect(json.run.id).toBe(result.workflowId);
  expect(json.status).toBe(result.partial ? 'partial' : 'complete');
  // The key figures are the ones the PDF opens with, as the render gave them to the manifest.
  const opening = (
    JSON.parse(readFileSync(result.manifestPath, 'utf8')) as {
      summary: { figures: unknown[]; headline: string };
    }
  ).summary;
  expect(opening.figures.length).toBeGreaterThan(2);
  expect(json.figures).toEqual(opening.figures);
  const first = opening.figures[0] as { label: string; value: string };
  expect(mail.parsed.text).toContain(first.label);
  expect(mail.parsed.text).toContain(first.value);
  expect(mail.parsed.text).toContain(opening.headline.slice(0, 40));
  expect(json.manifest.files.sort()).toEqual(files.map((f) => basename(f)).sort());
  // The links are pre-signed links to the S3 objects, and they work.
  expect(json.links.map((l) => l.name).sort()).toEqual(
    [...files.map((f) => basename(f)), 'manifest.json'].sort(),
  );
  for (const link of json.links.filter((l) => l.name !== 'manifest.json')) {
    const res = await fetch(link.url);
    expect(res.status, link.name).toBe(200);
    const local = files.find((f) => basename(f) === link.name)!;
    expect(Buffer.from(await res.arrayBuffer()).equals(readFileSync(local)), link.name).toBe(true);
  }
  const slack = JSON.parse(requests.find((r) => r.url.endsWith('/chat'))!.body) as {
    text: string;
    blocks: unknown[];
  };
  expect(slack.blocks.length).toBeGreaterThan(2);

  // S3: every file and the manifest under <prefix>/<job>/<run folder>/ (the folder the delivery
  // claimed, its marker naming the run), bytes equal.
  const jobId = (JSON.parse(readFileSync(result.manifestPath, 'utf8')) as { job: { id: string } }).job.id;
  const s3Outcome = result.delivery.outcomes.find((o) => o.kind === 's3')!;
  const folder = s3Outcome.folder!;
  expect(folder).toBe(`${prefix}/${jobId}/${basename(outDir).slice(0, 10)}`);
  const keys = await bed.keys(prefix);
  expect(keys).toEqual(
    [
      ...files.map((f) => `${folder}/${basename(f)}`),
      `${folder}/manifest.json`,
      `${folder}/.run.json`,
    ].sort(),
  );
  expect(JSON.parse((await bed.object(`${folder}/.run.json`)).toString('utf8'))).toMatchObject({
    workflowId: result.workflowId,
  });
  for (const f of files) {
    expect((await bed.object(`${folder}/${basename(f)}`)).equals(readFileSync(f)), f).toBe(true);
  }

  // The manifest lists each delivery with its outcome.
  const manifest = JSON.parse(readFileSync(result.manifestPath, 'utf8')) as { delivery: RunDelivery };
  expect(manifest.delivery.status).toBe('delivered');
  expect(manifest.delivery.outcomes.map((o) => o.destination)).toEqual([
    'email-1',
    'webhook-1',
    'chat',
    's3-1',
  ]);
  return { mail, files };
}

describe('delivery of each kind to email, webhooks and S3', () => {
  test('a market report: the PDF and workbook attached byte for byte', async () => {
    const before = bed.smtp.messages.length;
    const result = await run(
      parseMarketReportJob({
        id: 'weekly-delivered',
        title: 'Weekly delivered report',
        countries: ['Germany'],
        top: { investors: 3, startups: 3 },
        paging: { maxInvestorsPerCountry: 50, maxStartupsPerCountry: 50 },
        enrich: { investors: 1, startups: 1 },
        questions: [],
        budget: { credits: 0 },
        destination: join(h.dir, 'reports'),
        delivery: bed.destinations('market', { subject: '{title}: {status} ({date})' }),
      }),
    );
    const { mail, files } = await expectDelivered(result, 'market', before);
    expect(mail.parsed.subject).toMatch(/^Weekly delivered report: complete \(\d{4}-\d{2}-\d{2}\)$/);
    const attached = mail.parsed.attachments.map((a) => a.filename).sort();
    expect(attached).toEqual(files.map((f) => basename(f)).sort());
    for (const a of mail.parsed.attachments) {
      const local = files.find((f) => basename(f) === a.filename)!;
      expect(a.content.equals(readFileSync(local)), a.filename).toBe(true);
    }
  });

  test('a prospect list: the CSV files zipped, the zip holding them byte for byte', async () => {
    const before = bed.smtp.messages.length;
    const result = await run(
      parseProspectListJob({
        id: 'prospects-delivered',
        kind: 'prospect-list',
        title: 'Prospects delivered',
        searches: [{ countries: ['Germany'], cap: 40 }],
        enrich: 0,
        budget: { credits: 0 },
        outputs: ['csv', 'xlsx', 'pdf'],
        destination: join(h.dir, 'reports'),
        delivery: bed.destinations('prospects', { zipCsv: true }),
      }),
    );
    const { mail, files } = await expectDelivered(result, 'prospects', before);
    const csv = files.filter((f) => f.endsWith('.csv'));
    expect(csv.length).toBeGreaterThan(0);
    const zip = mail.parsed.attachments.find((a) => a.filename?.endsWith('.zip'));
    expect(zip, 'a zip attachment').toBeDefined();
    const unzipped = await JSZip.loadAsync(zip!.content);
    expect(Object.keys(unzipped.files).sort()).toEqual(csv.map((f) => basename(f)).sort());
    for (const f of csv) {
      const inZip = await unzipped.file(basename(f))!.async('nodebuffer');
      expect(inZip.equals(readFileSync(f)), f).toBe(true);
    }
    for (const f of files.filter((x) => !x.endsWith('.csv'))) {
      const a = mail.parsed.attachments.find((x) => x.filename === basename(f));
      expect(a?.content.equals(readFileSync(f)), f).toBe(true);
    }
  });

  test('a fund-match digest: delivered, then a quiet week sends nothing unless the job says so', async () => {
    const fund = (over: Record<string, unknown> = {}) =>
      parseFundMatchJob({
        id: 'fund-delivered',
        kind: 'fund-match',
        title: 'Fund match delivered',
        limit: 10,
        watchlist: 20,
        budget: { credits: 3 },
        destination: join(h.dir, 'reports'),
        delivery: bed.destinations('fund'),
        ...over,
      });
    const before = bed.smtp.messages.length;
    const first = await run(fund());
    const { mail } = await expectDelivered(first, 'fund', before);
    for (const a of mail.parsed.attachments) {
      const local = Object.values(first.files).find((f) => basename(f) === a.filename)!;
      expect(a.content.equals(readFileSync(local)), a.filename).toBe(true);
    }

    // Nothing moved in the market: the second run is quiet, and sends nothing.
    const hooks = bed.hook.requests.length;
    const keys = (await bed.keys('fund')).length;
    const quiet = await run(fund());
    expect(quiet.delivery.status).toBe('skipped');
    expect(quiet.delivery.reason).toMatch(/nothing new/);
    expect(bed.smtp.messages.length).toBe(before + 1);
    expect(bed.hook.requests.length).toBe(hooks);
    expect((await bed.keys('fund')).length).toBe(keys);

    // With deliverWhenQuiet, a quiet week is sent too.
    const told = await run(fund({ deliverWhenQuiet: true }));
    expect(told.delivery.status).toBe('delivered');
    await bed.smtp.waitFor(before + 2);
    expect(bed.hook.requests.length).toBe(hooks + 2);
  });

  test('an email that links: pre-signed links to the S3 objects; without S3, a note saying where the files are', async () => {
    const smoke = (id: string, delivery: unknown[]) =>
      parseSmokeJob({
        id,
        title: `Smoke ${id}`,
        country: 'France',
        records: 50,
        destination: join(h.dir, 'reports'),
        delivery,
      });
    const before = bed.smtp.messages.length;
    const linked = await run(
      smoke('smoke-linked', [
        { email: { to: ['links@fund.test'], attach: 'links' } },
        { s3: { bucket: bed.bucket, prefix: 'linked', endpoint: bed.s3.endpoint, region: bed.s3.region } },
      ]),
    );
    expect(linked.delivery.status).toBe('delivered');
    await bed.smtp.waitFor(before + 1);
    const mail = bed.smtp.messages[before]!;
    expect(mail.parsed.attachments).toHaveLength(0);
    const urls = [...(mail.parsed.text ?? '').matchAll(/https?:\/\/\S+/g)].map((m) => m[0]);
    const files = Object.values(linked.files);
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      const url = urls.find((u) => u.includes(`/${basename(f)}?`));
      expect(url, `a link to ${basename(f)} in:\n${mail.parsed.text}`).toBeDefined();
      const res = await fetch(url!);
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(readFileSync(f)), f).toBe(true);
    }

    const noted = await run(smoke('smoke-noted', [{ email: { to: ['note@fund.test'], attach: 'links' } }]));
    await bed.smtp.waitFor(before + 2);
    const note = bed.smtp.messages[before + 1]!;
    expect(note.parsed.attachments).toHaveLength(0);
    expect(note.parsed.text?.replace(/\s+/g, ' ')).toContain(
      `The files are not attached and no links were made for this run; they are in ${dirname(noted.manifestPath)}`,
    );
  });

  test('two runs of one day, the reports folder gone between them: both runs kept in the bucket byte for byte', async () => {
    const reports = join(h.dir, 'reports', 'gone');
    const job = parseSmokeJob({
      id: 'smoke-twice',
      title: 'Smoke twice a day',
      country: 'France',
      records: 40,
      destination: reports,
      delivery: [
        { s3: { bucket: bed.bucket, prefix: 'twice', endpoint: bed.s3.endpoint, region: bed.s3.region } },
      ],
    });
    const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
    /** A run's files as it rendered them: name -> SHA-256 (read before the folder goes). */
    const rendered = (r: Delivered) =>
      Object.fromEntries(
        [...Object.values(r.files), r.manifestPath].map((f) => [basename(f), sha(readFileSync(f))]),
      );
    const first = await run(job);
    const firstFiles = rendered(first);
    // The local folder gone (a retention clean-up, or a worker on another host): the second run
    // of the day gets the day's local folder again, but not the bucket's.
    rmSync(reports, { recursive: true, force: true });
    const second = await run(job);
    const secondFiles = rendered(second);
    expect(dirname(second.manifestPath)).toBe(dirname(first.manifestPath));
    expect(Object.keys(secondFiles).sort()).toEqual(Object.keys(firstFiles).sort());

    const date = basename(dirname(first.manifestPath)).slice(0, 10);
    const folders = [first, second].map((r) => r.delivery.outcomes[0]!.folder);
    expect(folders).toEqual([`twice/smoke-twice/${date}`, `twice/smoke-twice/${date}_2`]);
    const keys = await bed.keys('twice');
    for (const [r, files, folder] of [
      [first, firstFiles, folders[0]!],
      [second, secondFiles, folders[1]!],
    ] as const) {
      // The outcome recorded the keys the delivery chose; the bucket holds exactly the run's files.
      expect(r.delivery.outcomes[0]!.objects!.map((o) => o.key).sort()).toEqual(
        Object.keys(files)
          .map((n) => `${folder}/${n}`)
          .sort(),
      );
      expect(keys.filter((k) => k.startsWith(`${folder}/`))).toEqual(
        [...Object.keys(files), '.run.json'].map((n) => `${folder}/${n}`).sort(),
      );
      for (const [name, digest] of Object.entries(files)) {
        if (name === 'manifest.json') continue; // rewritten with the delivery section after the upload
        expect(sha(await bed.object(`${folder}/${name}`)), `${folder}/${name}`).toBe(digest);
      }
      const marker = JSON.parse((await bed.object(`${folder}/.run.json`)).toString('utf8')) as {
        workflowId: string;
      };
      const manifest = JSON.parse((await bed.object(`${folder}/manifest.json`)).toString('utf8')) as {
        workflowId: string;
      };
      expect([marker.workflowId, manifest.workflowId]).toEqual([r.workflowId, r.workflowId]);
      // The delivery record in the store (exactly once) names the same keys.
      const record = JSON.parse(
        readFileSync(join(h.settings.storeDir, deliveryRecordRef(r.workflowId, 's3-1')), 'utf8'),
      ) as { status: string; outcome: { folder: string } };
      expect([record.status, record.outcome.folder]).toEqual(['delivered', folder]);
    }
    // The manifests differ (each names its own run): the second did not land on the first's keys.
    expect(firstFiles['manifest.json']).not.toBe(secondFiles['manifest.json']);
  });

  test('no secret in histories, logs, manifests, email headers, messages or objects', async () => {
    const texts: [string, string][] = [];
    for await (const wf of h.client.workflow.list({ query: `TaskQueue = '${h.settings.taskQueue}'` })) {
      for (const r of await runHistories(h.client, wf.workflowId)) {
        texts.push([`history ${r.workflowId}`, JSON.stringify(r.history, payloadText)]);
      }
    }
    expect(texts.length).toBeGreaterThan(3);
    // The search can see what it looks for: the destinations' URLs are in the histories.
    expect(texts.some(([, t]) => t.includes('/hook/market'))).toBe(true);
    texts.push(['logs', JSON.stringify(capturedLogs, payloadText)]);
    for (const m of bed.smtp.messages) texts.push([`mail ${m.parsed.messageId}`, m.raw.toString('latin1')]);
    for (const r of bed.hook.requests) texts.push([`webhook ${r.url}`, JSON.stringify(r.headers) + r.body]);
    for (const prefix of ['market', 'prospects', 'fund', 'linked']) {
      for (const key of (await bed.keys(prefix)).filter((k) => k.endsWith('manifest.json'))) {
        texts.push([`object ${key}`, (await bed.object(key)).toString('utf8')]);
      }
    }
    for (const [where, text] of texts) {
      for (const secret of [...bed.secrets, bed.env.VIR_SMTP_USER!]) {
        expect(text.includes(secret), `${where} holds a secret`).toBe(false);
        expect(
          text.includes(Buffer.from(secret).toString('base64')),
          `${where} holds a secret in base64`,
        ).toBe(false);
      }
    }
    // A webhook URL's path can hold a chat service's token: manifests show its origin only.
    const manifest = texts.find(([w]) => w.startsWith('object market/'))![1];
    expect(manifest).not.toContain('/hook/market');
  });
});
