/**
 * A job's destination stays inside the reports folder: `..` is refused when the job file is
 * read (naming the file, job and field); a relative destination is resolved inside
 * VIR_REPORTS_DIR; an absolute one must be inside it or inside a folder VIR_DESTINATION_ROOTS
 * allows, or the worker refuses to write there, naming the setting. Every kind's render
 * activity finds its folder the same way (`renderInto`), the market report's included.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { destinationRoot } from '../../activities/render-files.js';
import { LocalStore } from '../../activities/store.js';
import { createMarketReportActivities } from '../../jobs/market-report/activities.js';
import { marketModelFixture } from '../../jobs/market-report/fixtures/market-model.js';
import { JobFileError, parseJobFile } from '../../jobs/files.js';
import { loadSettings } from '../../config/settings.js';
import { runCli } from '../cli/helpers.js';

const file = (destination: string) =>
  `jobs:\n  - id: out\n    kind: market-report\n    title: Out\n    countries: [Germany]\n    destination: "${destination}"\n`;

test('`..` in a destination is refused when the file is read, naming the field', () => {
  for (const bad of ['../../../../tmp/x', 'reports/../../x', '..', 'a\\\\..\\\\b']) {
    let err: unknown;
    try {
      parseJobFile(file(bad), 'out.yaml');
    } catch (e) {
      err = e;
    }
    expect(err, bad).toBeInstanceOf(JobFileError);
    expect((err as JobFileError).field).toBe('destination');
    expect((err as Error).message).toBe(
      'out.yaml: job "out": destination: must not contain ".." (a destination stays inside the reports folder)',
    );
  }
  expect(parseJobFile(file('weekly/partners'), 'ok.yaml').jobs[0]!.destination).toBe('weekly/partners');
});

test('relative destinations go inside the reports folder; absolute ones only inside it or an allowed root', () => {
  const root = mkdtempSync(join(tmpdir(), 'vir-dest-'));
  try {
    const reports = join(root, 'reports');
    const shared = join(root, 'shared');
    expect(destinationRoot(undefined, reports)).toBe(reports);
    expect(destinationRoot('weekly', reports)).toBe(join(reports, 'weekly'));
    expect(destinationRoot(join(reports, 'a'), reports)).toBe(join(reports, 'a'));
    expect(() => destinationRoot(join(root, 'elsewhere'), reports)).toThrow(
      `destination ${join(root, 'elsewhere')} is outside the reports folder ${reports} (VIR_REPORTS_DIR); allow its folder with VIR_DESTINATION_ROOTS`,
    );
    // A sibling whose name starts like the root is not inside it.
    expect(() => destinationRoot(`${reports}-old`, reports)).toThrow(/outside the reports folder/);
    const settings = loadSettings({ VIR_REPORTS_DIR: reports, VIR_DESTINATION_ROOTS: `${shared}, /srv/vir` });
    expect(settings.destinationRoots).toEqual([shared, '/srv/vir']);
    expect(destinationRoot(join(shared, 'board'), reports, settings.destinationRoots)).toBe(
      join(shared, 'board'),
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test("the market report's render activity refuses a destination outside the allowed roots, as every kind's does", async () => {
  const root = mkdtempSync(join(tmpdir(), 'vir-dest-market-'));
  try {
    const reports = join(root, 'reports');
    const shared = join(root, 'shared');
    const store = new LocalStore(join(root, 'store'));
    const acts = createMarketReportActivities({ store, reportsDir: reports, destinationRoots: [shared] });
    const modelRef = await store.putJson('run-1', 'report/model', marketModelFixture());
    const render = (destination: string | undefined, workflowId: string) =>
      acts.renderMarketReport({
        modelRef,
        job: { id: 'weekly', outputs: ['xlsx'], ...(destination !== undefined ? { destination } : {}) },
        date: '2025-06-30',
        workflowId,
      });
    // Outside the reports folder and every allowed root: refused before anything is written.
    await expect(render(join(root, 'elsewhere'), 'run-away')).rejects.toMatchObject({
      type: 'invalid_destination',
      nonRetryable: true,
      message: `destination ${join(root, 'elsewhere')} is outside the reports folder ${reports} (VIR_REPORTS_DIR); allow its folder with VIR_DESTINATION_ROOTS`,
    });
    expect(existsSync(join(root, 'elsewhere'))).toBe(false);
    // A relative destination goes inside the reports folder, not the worker's working folder.
    const relative = await render('weekly/partners', 'run-relative');
    expect(relative.outDir).toBe(join(reports, 'weekly/partners', 'weekly', '2025-06-30'));
    expect(relative.files.xlsx).toBe(join(relative.outDir, 'weekly-2025-06-30.xlsx'));
    expect(existsSync(relative.files.xlsx!)).toBe(true);
    // Inside an allowed root: written there.
    const allowed = await render(join(shared, 'board'), 'run-shared');
    expect(allowed.outDir).toBe(join(shared, 'board', 'weekly', '2025-06-30'));
    expect(existsSync(allowed.files.xlsx!)).toBe(true);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('VIR_DESTINATION_ROOTS must name absolute folders', () => {
  expect(() => loadSettings({ VIR_DESTINATION_ROOTS: 'relative/folder' })).toThrow(
    'VIR_DESTINATION_ROOTS must be absolute folders, separated by commas, got "relative/folder"',
  );
});

test('vir run refuses a destination outside the reports folder before starting anything', async () => {
  const root = mkdtempSync(join(tmpdir(), 'vir-dest-cli-'));
  try {
    const path = join(root, 'jobs.yaml');
    writeFileSync(
      path,
      `jobs:\n  - id: away\n    kind: smoke\n    title: Away\n    country: France\n    destination: ${join(root, 'elsewhere')}\n`,
    );
    // No Temporal at this address: the refusal comes before any connection.
    const env = {
      VIR_REPORTS_DIR: join(root, 'reports'),
      TEMPORAL_ADDRESS: '127.0.0.1:9',
      VIS_API_KEY: 'vis_live_x',
      // Nothing listens here either: the countries are left unchecked, with a warning.
      VIS_BASE_URL: 'http://127.0.0.1:9',
      VIR_DATA_DIR: join(root, 'data'),
    };
    await expect(runCli(env, ['run', 'away', '--file', path])).rejects.toThrow(
      `${path}: job "away": destination: destination ${join(root, 'elsewhere')} is outside the reports folder ${join(root, 'reports')} (VIR_REPORTS_DIR); allow its folder with VIR_DESTINATION_ROOTS`,
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
