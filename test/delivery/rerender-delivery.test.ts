/**
 * `vir runs rerender` beyond its own folder, end to end on the embedded Temporal server with
 * real workers, a real SMTP server, a webhook receiver and an S3 server (versitygw):
 * - `--deliver`: the rerender is a delivery of its own. One new email with a Message-ID of its
 *   own, webhooks with their own Idempotency-Key, its own folder in the bucket; a second
 *   delivery of the rerender sends nothing (its records). Not a call to the service.
 * - `--replace`: the run's own file is written over, the one replaced kept under `replaced/`,
 *   the run's manifest says what replaced it; asked twice, the first original stays kept.
 * - `--to`: a new folder inside the reports folder; a folder with files, or one outside the
 *   allowed places, is refused with the option named.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { WorkflowFailedError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runMessageId, webhookIdempotencyKey } from '../../activities/delivery/index.js';
import { replaceRunFiles } from '../../activities/rerender-place.js';
import { LocalStore } from '../../activities/store.js';
import { startRerender } from '../../cli/commands/runs-rerender.js';
import { followRun, startJobRun } from '../../cli/run-job.js';
import { parseSmokeJob } from '../../jobs/smoke/index.js';
import type { RerenderInput, RerenderResult } from '../../shared/types.js';
import { failureReason } from '../../workflows/failure.js';
import type { JobRunResult } from '../../workflows/engine.js';
import { redeliverRunWorkflow } from '../../workflows/delivery.js';
import { startDeliveryBed, type DeliveryBed } from '../helpers/delivery-bed.js';
import { QUIET, startRunner, type RunnerHarness } from '../helpers/runner.js';
import { KEYS } from '../helpers/sandbox.js';

let bed: DeliveryBed;
let h: RunnerHarness;
let restoreEnv: () => void = () => undefined;

beforeAll(async () => {
  bed = await startDeliveryBed();
  restoreEnv = bed.useEnv();
  h = await startRunner({ baseUrl: bed.sandbox.url, apiKey: KEYS.vc, name: 'rerender-delivery' });
}, 120_000);

afterAll(async () => {
  await h?.close();
  await bed?.close();
  restoreEnv();
});

const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

function account() {
  const id = bed.sandbox.state.keys.get(KEYS.vc)!.account_id;
  return bed.sandbox.state.accounts.get(id)!;
}

async function smokeRun(id: string, delivery: unknown[] = []): Promise<JobRunResult> {
  const job = parseSmokeJob({
    id,
    title: `Smoke ${id}`,
    country: 'France',
    records: 40,
    destination: join(h.dir, 'reports'),
    ...(delivery.length > 0 ? { delivery } : {}),
  });
  return followRun(await startJobRun(h.client, h.settings, job), QUIET);
}

function rerender(run: JobRunResult, more: Partial<RerenderInput> = {}): Promise<RerenderResult> {
  return startRerender(h.client, h.settings.taskQueue, {
    runWorkflowId: run.workflowId,
    runManifestPath: run.manifestPath,
    ...more,
  });
}

/** Why a rerender failed, as the CLI says it. */
async function refusal(run: JobRunResult, more: Partial<RerenderInput>): Promise<string> {
  try {
    await rerender(run, more);
  } catch (err) {
    if (err instanceof WorkflowFailedError) return failureReason(err);
    throw err;
  }
  throw new Error('the rerender was not refused');
}

describe('rerender --deliver', () => {
  test('a delivery of its own: new message ids and keys, its own bucket folder, once', async () => {
    const run = await smokeRun('smoke-redelivered', bed.destinations('again'));
    expect(run.delivery?.status).toBe('delivered');
    const mails = bed.smtp.messages.length;
    await bed.smtp.waitFor(mails);
    const firstMail = bed.smtp.messages[mails - 1]!;
    const hooks = bed.hook.requests.length;
    const keysBefore = await bed.keys('again');
    const requests = bed.sandbox.requestLog().length;
    const credits = account().credits;

    const made = await rerender(run, { deliver: true });
    expect(made.delivery?.status, JSON.stringify(made.delivery)).toBe('delivered');
    expect(made.delivery?.outcomes.map((o) => [o.destination, o.ok])).toEqual([
      ['email-1', true],
      ['webhook-1', true],
      ['chat', true],
      ['s3-1', true],
    ]);
    // Nothing asked of the service.
    expect(bed.sandbox.requestLog().length).toBe(requests);
    expect(account().credits).toBe(credits);

    // One new email, its Message-ID the rerender's, saying what it is.
    await bed.smtp.waitFor(mails + 1);
    expect(bed.smtp.messages.length).toBe(mails + 1);
    const mail = bed.smtp.messages[mails]!;
    const recipients = ['partner@fund.test', 'analyst@fund.test'];
    expect(mail.parsed.messageId).toBe(runMessageId(made.workflowId, recipients, 'vir.test'));
    expect(mail.parsed.messageId).not.toBe(firstMail.parsed.messageId);
    expect(mail.parsed.text?.replace(/\s+/g, ' ')).toContain(
      `Rebuilt from run ${run.workflowId}'s stored answers with the current templates: no new data.`,
    );
    const file = Object.values(made.files)[0]!;
    const attached = mail.parsed.attachments.find((a) => a.filename === basename(file));
    expect(attached?.content.equals(readFileSync(file))).toBe(true);

    // Two webhook posts, keyed by the rerender, not by the run.
    const posts = bed.hook.requests.slice(hooks);
    expect(posts.map((r) => r.url).sort()).toEqual(['/hook/again', '/hook/again/chat']);
    expect(posts.map((r) => r.headers['idempotency-key']).sort()).toEqual(
      [
        webhookIdempotencyKey(made.workflowId, 'webhook-1'),
        webhookIdempotencyKey(made.workflowId, 'chat'),
      ].sort(),
    );
    const body = JSON.parse(posts.find((r) => r.url === '/hook/again')!.body) as {
      run: { id: string };
      status: string;
    };
    expect(body.run.id).toBe(made.workflowId);
    expect(body.status).toBe('complete');

    // A folder of its own in the bucket, the run's left as it was; the bytes are the rerender's.
    const s3 = made.delivery!.outcomes.find((o) => o.kind === 's3')!;
    const keysAfter = await bed.keys('again');
    expect(keysAfter.filter((k) => keysBefore.includes(k))).toEqual(keysBefore);
    const added = keysAfter.filter((k) => !keysBefore.includes(k));
    expect(added).toEqual(
      [`${s3.folder}/.run.json`, `${s3.folder}/manifest.json`, `${s3.folder}/${basename(file)}`].sort(),
    );
    expect((await bed.object(`${s3.folder}/${basename(file)}`)).equals(readFileSync(file))).toBe(true);

    // Delivered again: its records say delivered, nothing is sent.
    const again = await h.client.workflow.execute(redeliverRunWorkflow, {
      taskQueue: h.settings.taskQueue,
      workflowId: `${made.workflowId}/redeliver`,
      args: [{ runWorkflowId: made.workflowId, manifestPath: made.manifestPath }],
    });
    expect(again.outcomes.every((o) => o.ok && o.already)).toBe(true);
    expect(bed.smtp.messages.length).toBe(mails + 1);
    expect(bed.hook.requests.length).toBe(hooks + 2);
    expect(await bed.keys('again')).toEqual(keysAfter);
  });

  test('a run whose job names no destination: delivery skipped, saying why', async () => {
    const run = await smokeRun('smoke-undelivered');
    const mails = bed.smtp.messages.length;
    const made = await rerender(run, { deliver: true });
    expect(made.delivery).toEqual({
      status: 'skipped',
      reason: `the job of run ${run.workflowId} names no destination`,
      outcomes: [],
    });
    expect(bed.smtp.messages.length).toBe(mails);
  });
});

describe('rerender --replace and --to', () => {
  test("--replace writes over the run's file, keeps the replaced one, and tells the run's manifest", async () => {
    const run = await smokeRun('smoke-replaced');
    const file = Object.values(run.files)[0]!;
    // A typo found after delivery: the run's file is not what today's template makes.
    writeFileSync(file, '{"typo": true}\n');
    const typo = sha(file);
    const requests = bed.sandbox.requestLog().length;

    const made = await rerender(run, { replace: true });
    expect(bed.sandbox.requestLog().length).toBe(requests);
    const fresh = made.files.json!;
    expect(sha(file)).toBe(sha(fresh));
    expect(sha(file)).not.toBe(typo);
    const kept = join(made.outDir, 'replaced', basename(file));
    expect(sha(kept)).toBe(typo);
    expect(made.replaced).toEqual({
      folder: dirname(run.manifestPath),
      files: [basename(file)],
      keptIn: join(made.outDir, 'replaced'),
    });
    const runManifest = JSON.parse(readFileSync(run.manifestPath, 'utf8')) as {
      status: string;
      replacedBy: { workflowId: string; files: string[] }[];
    };
    expect(runManifest.status).toBe('complete');
    expect(runManifest.replacedBy.map((r) => [r.workflowId, r.files])).toEqual([
      [made.workflowId, [basename(file)]],
    ]);
    const own = JSON.parse(readFileSync(made.manifestPath, 'utf8')) as { replaced: unknown };
    expect(own.replaced).toEqual(made.replaced);

    // Tried again (a retry after the copy): the original kept stays the original, the entry once.
    const store = new LocalStore(join(h.dir, 'store'));
    const render = { outDir: made.outDir, files: made.files, charts: 0, pages: null };
    const input = {
      runWorkflowId: run.workflowId,
      runManifestPath: run.manifestPath,
      rerenderWorkflowId: made.workflowId,
      render,
    };
    await replaceRunFiles(store, input);
    expect(sha(kept)).toBe(typo);
    expect(sha(file)).toBe(sha(fresh));
    const twice = JSON.parse(readFileSync(run.manifestPath, 'utf8')) as { replacedBy: unknown[] };
    expect(twice.replacedBy).toHaveLength(1);
  });

  test('--to a new folder; a folder with files or outside the allowed places is refused', async () => {
    const run = await smokeRun('smoke-elsewhere');
    const made = await rerender(run, { to: 'for-the-partner' });
    const to = join(h.dir, 'reports', 'for-the-partner');
    expect(made.outDir).toBe(to);
    expect(Object.values(made.files).every((f) => dirname(f) === to)).toBe(true);
    expect(sha(made.files.json!)).toBe(sha(run.files.json!));
    expect(JSON.parse(readFileSync(join(to, 'manifest.json'), 'utf8'))).toMatchObject({
      status: 'rerendered',
      rerenderOf: { workflowId: run.workflowId },
    });

    const busy = join(h.dir, 'reports', 'busy');
    mkdirSync(busy, { recursive: true });
    writeFileSync(join(busy, 'notes.txt'), 'mine');
    expect(await refusal(run, { to: busy })).toBe(
      `--to ${busy}: the folder ${busy} is not empty; name a new or empty folder`,
    );
    expect(readFileSync(join(busy, 'notes.txt'), 'utf8')).toBe('mine');
    expect(await refusal(run, { to: '/etc/vir-elsewhere' })).toMatch(
      /^--to: destination \/etc\/vir-elsewhere is outside the reports folder .* allow its folder with VIR_DESTINATION_ROOTS$/,
    );
  });
});
