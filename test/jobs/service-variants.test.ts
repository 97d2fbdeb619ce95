/**
 * The runner works against services that read the spec otherwise. Every job kind's example
 * job runs through each variant of test/helpers/service-variants.ts (a proxy in front of the
 * sandbox changes the answers: names, totals, charts, account fields, sections, unknown
 * fields, numbers as strings, reset formats) to a complete report, and its figures equal
 * those of the same job run against the plain sandbox, except what the variant removed,
 * which the report names as "not provided by the service".
 *
 * The kinds come from the registry, each with its part of the test in its own test folder
 * (test/jobs/<kind>/variant-case.ts, test/helpers/variant-cases.ts): its job made smaller, what
 * a run gave, and how the runs compare. Each kind runs with its sandbox key.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { VisClient } from '../../api/client.js';
import { readAccount } from '../../api/read-account.js';
import { snapshotRefOf } from '../../activities/run.js';
import { followRun, startJobRun } from '../../cli/run-job.js';
import { parseJob } from '../../jobs/files.js';
import type { AnyJobKind } from '../../jobs/kind.js';
import { JOB_KINDS, type AnyJob } from '../../jobs/registry.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { startCountingProxy, type CountingProxy, type ProxiedAnswer } from '../helpers/counting-proxy.js';
import { kindCaseFile } from '../helpers/kind-cases.js';
import { maskClock, maskVolatile, reportDigest } from '../helpers/report-digest.js';
import { startRerender } from '../../cli/commands/runs-rerender.js';
import type { RerenderResult } from '../../shared/types.js';
import { openWorkbook, pdfText } from '../helpers/reports.js';
import type { JobRunResult } from '../../workflows/engine.js';
import { startFixedDateSandbox } from '../helpers/sandbox.js';
import { sharedTestCert } from '../fixtures/decks/tls-server.js';
import { QUIET, startRunner, type RunnerHarness } from '../helpers/runner.js';
import { SERVICE_VARIANTS, variantTransform, type ServiceVariant } from '../helpers/service-variants.js';
import { variantCases, type Manifest, type Outcome } from '../helpers/variant-cases.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const CASES = await variantCases();
/** The account's balance before every run, so that runs that spend the same end the same. */
const BALANCE = 50_000;
const KEY = 'vis_live_sandbox_vc';

let sandbox: RunningSandbox;
let proxy: CountingProxy;
/** A runner per sandbox key the kinds run with (each kind's own, else the VC account's). */
const runners = new Map<string, RunnerHarness>();

/** The key a kind runs with: find_customers is for providers, find_investors for startups. */
const keyOf = (kind: AnyJobKind) => kind.sandboxKey ?? KEY;

beforeAll(async () => {
  // Deck links of a kind's case are served with the test process' certificate, which the
  // sandbox (fetching them) and the workers (hashing them) trust.
  const deckCa = sharedTestCert();
  // Every deck analysis answers 'running' at first, so the room's id and status are read back
  // and the deck is asked again: what a variant moves elsewhere in `data` is then used.
  sandbox = await startFixedDateSandbox({ trustedCa: [deckCa.cert], deckWaitMs: 0, deckAnalysisMs: 500 });
  proxy = await startCountingProxy(sandbox.url);
  for (const key of new Set(JOB_KINDS.map(keyOf))) {
    const name = `variants-${key.replace(/^vis_live_sandbox_/, '')}`;
    const env = { VIR_DECK_CA_FILE: deckCa.caFile };
    runners.set(key, await startRunner({ baseUrl: proxy.url, apiKey: key, name, env }));
  }
});

afterAll(async () => {
  for (const runner of runners.values()) await runner.close();
  await proxy?.close();
  await sandbox?.close();
});

/**
 * Each kind's example job at a smaller size, as the variants run it: its demo when it has one,
 * read from the file and made smaller by its case.
 */
async function exampleJob(kind: AnyJobKind): Promise<AnyJob> {
  const file = resolve(root, kind.examples.find((f) => f.endsWith('/demo.yaml')) ?? kind.examples[0]!);
  const doc = parseYaml(readFileSync(file, 'utf8')) as { jobs: Record<string, unknown>[] };
  const raw = structuredClone(doc.jobs.find((j) => j.kind === kind.kind)!);
  CASES.get(kind.kind)?.smaller?.(raw);
  return parseJob(raw, file);
}

/** A plain run of a kind's smaller example job, loaded machine (about 15 s alone). */
const PLAIN_RUN_MS = 120_000;
/** One run through a variant, and its comparison (about 10 s alone). */
const VARIANT_RUN_MS = 120_000;

function copyAnswer(a: ProxiedAnswer): ProxiedAnswer {
  return { ...a, headers: structuredClone(a.headers), body: Buffer.from(a.body) };
}

/** How many of the answers the variant changes (status, headers or body). */
function changedAnswers(v: ServiceVariant, answers: readonly ProxiedAnswer[]): number {
  const transform = variantTransform(v);
  let changed = 0;
  for (const a of answers) {
    const out = transform(copyAnswer(a)) as ProxiedAnswer;
    const same =
      out.status === a.status &&
      out.body.equals(a.body) &&
      JSON.stringify(out.headers) === JSON.stringify(a.headers);
    if (!same) changed += 1;
  }
  return changed;
}

function account(key = KEY) {
  const id = sandbox.state.keys.get(key)!.account_id;
  return sandbox.state.accounts.get(id)!;
}

async function runThrough(
  kind: AnyJobKind,
  job: AnyJob,
  label: string,
): Promise<Outcome & { result: JobRunResult }> {
  const runner = runners.get(keyOf(kind))!;
  // Every run is a first run: the comparison with an earlier run is another test's business.
  rmSync(join(runner.dir, 'store', snapshotRefOf(job.id)), { force: true });
  account(runner.settings.visApiKey).credits = BALANCE;
  const run = { ...job, destination: join(runner.dir, 'reports', label) } as AnyJob;
  const result = await followRun(await startJobRun(runner.client, runner.settings, run), QUIET);
  const manifest = JSON.parse(readFileSync(result.manifestPath, 'utf8')) as Manifest;
  const mask = (v: unknown) =>
    JSON.parse(
      maskClock(maskVolatile(JSON.stringify(v), result.workflowId, manifest.startedAt.slice(0, 10))),
    ) as Record<string, unknown>;
  const read = await CASES.get(kind.kind)!.outcome({
    result,
    manifest,
    runDir: join(runner.dir, 'store', 'runs', result.workflowId),
    mask,
    balanceBefore: BALANCE,
    balance: () => account(runner.settings.visApiKey).credits,
  });
  return { manifest, ...read, result };
}

/**
 * What a person reads in a run's files, whatever their formats: the PDF's text and the
 * workbook's cells (report-digest), any other file's text; run ids and times masked.
 */
async function filesDigest(files: Record<string, string>, workflowIds: string[], runDate: string) {
  const out: Record<string, unknown> = {};
  const mask = (text: string) => workflowIds.reduce((t, id) => maskVolatile(t, id, runDate), text);
  for (const [format, path] of Object.entries(files)) {
    if (format === 'pdf' || format === 'xlsx') {
      const d = await reportDigest({ [format]: path }, { workflowId: workflowIds[0]!, runDate });
      out[format] = (format === 'pdf' ? d.pdf : d.workbook).map((l) => maskClock(mask(l)));
    } else {
      out[format] = maskClock(mask(readFileSync(path, 'utf8')));
    }
  }
  return out;
}

/** The template change of the rerender: a notice in every footer (VIR_REPORT_NOTICE). */
const NOTICE = 'Confidential: Northwind partners';

/**
 * The notice is where the changed template puts it: in the footer of every PDF page (the
 * cover, which has none, aside) and of every printed sheet. Files of other formats have no footer.
 */
async function expectNotice(files: Record<string, string>) {
  if (files.pdf) {
    const pages = pdfText(files.pdf)
      .split('\f')
      .filter((p) => p.trim() !== '');
    expect(pages.length).toBeGreaterThan(1);
    for (const [i, page] of pages.slice(1).entries())
      expect(
        page.split('\n').map((l) => l.trim()),
        `page ${i + 2}`,
      ).toContain(NOTICE);
  }
  if (files.xlsx) {
    const wb = await openWorkbook(files.xlsx);
    wb.eachSheet((ws) => expect(ws.headerFooter.oddFooter, ws.name).toContain(`&L${NOTICE}&C`));
  }
}

test('every job kind has its part of this test', () => {
  const missing = JOB_KINDS.filter((k) => !CASES.has(k.kind)).map((k) =>
    kindCaseFile(k.kind, 'variant-case'),
  );
  expect(missing, 'no variant case').toEqual([]);
});

for (const kind of JOB_KINDS.filter((k) => CASES.has(k.kind))) {
  const c = CASES.get(kind.kind)!;
  describe(`${kind.kind} through services that read the spec otherwise`, () => {
    let job: AnyJob;
    let plain: Outcome & { result: JobRunResult };
    /** Every answer the plain run got, as the proxy passed it on. */
    const answers: ProxiedAnswer[] = [];

    beforeAll(async () => {
      job = await exampleJob(kind);
      proxy.setTransform((a) => (answers.push(copyAnswer(a)), a));
      try {
        plain = await runThrough(kind, job, `${kind.kind}-plain`);
      } finally {
        proxy.setTransform(null);
      }
      expect(plain.manifest.status).toBe('complete');
      expect(plain.manifest.notProvided).toEqual([]);
      expect(answers.length).toBe(plain.manifest.calls.total);
    }, PLAIN_RUN_MS);

    test(
      'made again from what the run kept: no call, no credit, the same report',
      async () => {
        const runner = runners.get(keyOf(kind))!;
        const { result } = plain;
        const requests = sandbox.requestLog().length;
        const balance = account(runner.settings.visApiKey).credits;
        // The template changed since the run: another worker, on the same store and reports
        // folder, prints a notice in every footer (VIR_REPORT_NOTICE) and makes the reports again.
        const restyled = await startRunner({
          baseUrl: proxy.url,
          apiKey: keyOf(kind),
          name: 'variants-restyled',
          env: {
            VIR_STORE_DIR: runner.settings.storeDir,
            VIR_REPORTS_DIR: runner.settings.reportsDir,
            VIR_REPORT_NOTICE: NOTICE,
          },
        });
        let again: RerenderResult;
        try {
          again = await startRerender(restyled.client, restyled.settings.taskQueue, {
            runWorkflowId: result.workflowId,
            runManifestPath: result.manifestPath,
          });
        } finally {
          await restyled.close();
        }
        const formats = Object.keys(result.files);
        // Only the first format: the option changes what is written, not what it says.
        const fewer = await startRerender(runner.client, runner.settings.taskQueue, {
          runWorkflowId: result.workflowId,
          outputs: [formats[0]!.replace(/-.*$/, '')],
        });
        // The service saw nothing and the account paid nothing.
        expect(sandbox.requestLog().length).toBe(requests);
        expect(account(runner.settings.visApiKey).credits).toBe(balance);
        // New folders beside the run's; the run's own files are as they were.
        expect(again.outDir).toBe(`${result.outDir}_rerender-1`);
        expect(fewer.outDir).toBe(`${result.outDir}_rerender-2`);
        expect(Object.keys(again.files).sort()).toEqual([...formats].sort());
        expect(Object.keys(fewer.files).every((f) => f.startsWith(formats[0]!.replace(/-.*$/, '')))).toBe(
          true,
        );
        const runDate = plain.manifest.startedAt.slice(0, 10);
        const ids = [result.workflowId, again.workflowId, fewer.workflowId];
        const original = await filesDigest(result.files, ids, runDate);
        await expectNotice(again.files);
        const restyledDigest = await filesDigest(again.files, ids, runDate);
        const unstyled = Object.fromEntries(
          Object.entries(restyledDigest).map(([format, d]) => [
            format,
            Array.isArray(d) ? d.filter((line) => line !== NOTICE) : d,
          ]),
        );
        expect(unstyled).toEqual(original);
        const firstOnly = await filesDigest(fewer.files, ids, runDate);
        for (const [format, text] of Object.entries(firstOnly)) expect(text).toEqual(original[format]);
        const manifest = JSON.parse(readFileSync(again.manifestPath, 'utf8'));
        expect(manifest).toMatchObject({
          status: 'rerendered',
          rerenderOf: { workflowId: result.workflowId, manifest: result.manifestPath },
          calls: { total: 0 },
          credits: { charged: 0 },
        });
        expect(manifest.code.package).toMatch(/^\d+\.\d+\.\d+/);
      },
      VARIANT_RUN_MS,
    );

    for (const v of SERVICE_VARIANTS) {
      test(
        `${v.name}: ${v.description}`,
        async () => {
          if (changedAnswers(v, answers) === 0) {
            // The variant changes none of the operations this kind calls (paging and sections for
            // the fund match and the shortlist): each answer of the plain run comes back from it
            // byte for byte, headers included, so a run through it gets the plain run's answers
            // and makes the plain run's calls; it is the plain run, already compared above.
            expect(answers.map((a) => a.operation)).toContain('my_account');
            return;
          }
          proxy.setTransform(variantTransform(v));
          let got: Outcome;
          try {
            got = await runThrough(kind, job, `${kind.kind}-${v.name}`);
          } finally {
            proxy.setTransform(null);
          }
          expect(got.manifest.status).toBe('complete');
          expect(got.manifest.calls.byOperation).toEqual(plain.manifest.calls.byOperation);
          c.compare(plain, got, v);
        },
        VARIANT_RUN_MS,
      );
    }
  });
}

test('the account variant: the balance is read from data when the envelope carries none', async () => {
  const client = new VisClient({ baseUrl: proxy.url, apiKey: KEY });
  try {
    proxy.setTransform(variantTransform(SERVICE_VARIANTS.find((x) => x.name === 'account')!));
    const account = await client.call('my_account', {});
    expect(account.credits?.remaining).toBeNull();
    expect(account.data?.credits_balance).toBeUndefined();
    proxy.setTransform(null);
    const plainAccount = await client.call('my_account', {});
    expect(readAccount(account)).toEqual(readAccount(plainAccount));
    expect(readAccount(account).balance).toBeGreaterThan(0);
  } finally {
    proxy.setTransform(null);
    await client.close();
  }
});
