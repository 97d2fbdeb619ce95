/**
 * `vir plan` of a deck triage lists, deck by deck, what a run would do now and what it would
 * cost: the job's links fetched and its folder's files read as a run reads them, against the
 * last run's snapshot in the store. Nothing is published, the store is not written, and the
 * service is asked nothing but the account's limits.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { snapshotRefOf } from '../../activities/run.js';
import { EXAMPLE_DECKS } from '../../jobs/deck-triage/examples/deck-slides.js';
import { writeExampleDecks } from '../../jobs/deck-triage/examples/decks.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { serveExampleDecks } from '../fixtures/decks/example-host.js';
import { sharedTestCert } from '../fixtures/decks/tls-server.js';
import { KEYS, startTestSandbox } from '../helpers/sandbox.js';
import { runCli } from './helpers.js';

const [ledgerly, snackr, shiftnook, kelvinforge, auscura] = EXAMPLE_DECKS;
let dir: string;
let sandbox: RunningSandbox;
let host: Awaited<ReturnType<typeof serveExampleDecks>>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vir-plan-decks-'));
  sandbox = await startTestSandbox();
  host = await serveExampleDecks([auscura!]);
  // The inbox: three decks, a copy of the first, and a PDF that is no deck.
  const inbox = join(dir, 'inbox');
  await writeExampleDecks(inbox, [ledgerly!, snackr!, shiftnook!, kelvinforge!]);
  copyFileSync(join(inbox, ledgerly!.file), join(inbox, 'ledgerly-copy.pdf'));
  writeFileSync(join(inbox, 'notes.pdf'), 'meeting notes, not a deck');
  // The last run analysed Snackr's deck (its bytes).
  const sha = createHash('sha256')
    .update(await readFile(join(inbox, snackr!.file)))
    .digest('hex');
  const snapshot = join(dir, 'store', snapshotRefOf('plan-decks'));
  mkdirSync(join(snapshot, '..'), { recursive: true });
  writeFileSync(
    snapshot,
    JSON.stringify({
      decks: { [sha]: { label: snackr!.file, analysedOn: '2026-11-20', ref: 'runs/r/decks/deck-002.json' } },
    }),
  );
  writeFileSync(
    join(dir, 'decks.yaml'),
    [
      'jobs:',
      '  - id: plan-decks',
      '    kind: deck-triage',
      '    title: Plan decks',
      '    decks:',
      '      urls:',
      `        - ${host.linkOf(auscura!)}`,
      `        - ${host.url}/decks/gone.pdf`,
      '      folder: inbox',
      '    budget: { credits: 9 }',
      '',
    ].join('\n'),
  );
}, 60_000);

afterAll(async () => {
  await host?.close();
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('vir plan lists the decks a run would send now, each with its credits, spending nothing', async () => {
  const storeBefore = readdirSync(join(dir, 'store'), { recursive: true }).sort();
  const res = await runCli(
    {
      ...process.env,
      VIR_DEBUG: '',
      VIR_LOG_LEVEL: 'silent',
      VIS_BASE_URL: sandbox.url,
      VIS_API_KEY: KEYS.vc,
      VIR_STORE_DIR: join(dir, 'store'),
      VIR_REPORTS_DIR: join(dir, 'reports'),
      VIR_DECK_CA_FILE: sharedTestCert().caFile,
    },
    ['plan', 'plan-decks', '--file', join(dir, 'decks.yaml')],
  );
  expect(res.code, res.err.join('\n')).toBe(0);
  const from = res.out.indexOf('decks a run would send now (3 credits each):');
  expect(from, res.out.join('\n')).toBeGreaterThan(0);
  expect(res.out.slice(from)).toEqual([
    'decks a run would send now (3 credits each):',
    `  ${host.linkOf(auscura!)}: new: 3 credits`,
    `  ${host.url}/decks/gone.pdf: not sent: the link answered 404 Not Found`,
    // The folder's files in the order of their names.
    '  Shiftnook Series A Deck.pdf (Shiftnook): new: 3 credits',
    '  kelvinforge_investor_presentation.pptx (Kelvinforge): new: 3 credits',
    '  ledgerly-copy.pdf (Ledgerly): new, past the budget: not sent',
    '  ledgerly-seed-deck.pdf (Ledgerly): the same file as ledgerly-copy.pdf: sent once',
    '  notes.pdf (Notes): not sent: the file is neither a PDF nor a PPTX file',
    '  snackr-pitch.pptx (Snackr): analysed on 2026-11-20: carried, 0 credits',
    '3 of 8 decks sent: 9 credits of the budget of 9; 1 new past the budget',
  ]);
  // Each link fetched once; the service asked only for the account's limits; the store unchanged.
  expect(host.hits.get(`/decks/${auscura!.file}`)).toBe(1);
  expect(sandbox.requestLog().map((r) => r.operation)).toEqual(['my_account']);
  expect(readdirSync(join(dir, 'store'), { recursive: true }).sort()).toEqual(storeBefore);
});
