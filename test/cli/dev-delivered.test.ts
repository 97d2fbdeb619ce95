/**
 * What a new user sees: `vir dev` (here in process, on the suite's Temporal with
 * --reuse-temporal, everything else on free ports), then `vir run weekly-delivered` (the example
 * job of jobs/market-report/examples/delivered.yaml, found by id) in a CLI context of its own, as
 * from a second terminal. Checked from the outside: the command's output, the mail catcher's
 * files in <VIR_DATA_DIR>/mail (the message the partners would get, its attachments the run's
 * files byte for byte) and the S3 server's files in <VIR_DATA_DIR>/s3/vir-reports.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { simpleParser, type AddressObject } from 'mailparser';
import { afterAll, expect, inject, test } from 'vitest';
import { startDev } from '../../cli/commands/dev.js';
import { captureContext, runCli } from './helpers.js';

const dataDir = mkdtempSync(join(tmpdir(), 'vir-dev-delivered-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** The addresses of a parsed To or Cc header. */
function addresses(field: AddressObject | AddressObject[] | undefined): string[] {
  return [field ?? []].flat().flatMap((a) => a.value.map((v) => v.address ?? ''));
}

test('npm run dev, then vir run weekly-delivered: the partners get the email, the bucket the files', async () => {
  // Queues of this test only: its workers take no other file's tasks, and no other file's workers take its.
  const tag = `delivered-${process.pid}-${Date.now().toString(36)}`;
  const base: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    VIR_DATA_DIR: dataDir,
    TEMPORAL_ADDRESS: inject('temporalAddress'),
    VIR_TASK_QUEUE: `jobs-${tag}`,
    VIR_API_TASK_QUEUE: `api-${tag}`,
    VIR_ACCOUNT_TASK_QUEUE: `accounts-${tag}`,
    VIR_LOG_LEVEL: 'error',
  };
  const devEnv: NodeJS.ProcessEnv = {
    ...base,
    VIR_SANDBOX_PORT: '0',
    VIR_DEV_SMTP_PORT: '0',
    VIR_DEV_S3_PORT: '0',
  };
  const dev = captureContext(devEnv);
  try {
    const stack = await startDev(dev.ctx, {
      sandbox: true,
      worker: true,
      headless: true,
      reuseTemporal: true,
      sandboxState: 'memory',
    });
    expect(stack.notStarted).toEqual({ mail: null, s3: null, portal: '--no-portal' });
    expect(stack.sandboxUrl).not.toBeNull();

    // The second terminal: its own environment, the sandbox at its URL (8787 outside tests).
    const run = await runCli({ ...base, VIS_BASE_URL: stack.sandboxUrl! }, ['run', 'weekly-delivered']);
    const output = run.out.join('\n');
    expect(run.code, `${output}\n${run.err.join('\n')}`).toBe(0);
    expect(output).toMatch(/^Complete run /);
    expect(run.out, output).toContain('  Delivery: delivered');
    expect(output).toMatch(/^ {4}email-1 \(email\): ok: /m);
    expect(output).toMatch(/^ {4}s3-1 \(s3\): ok: /m);

    // The run's files, where the output says they are.
    const pathOf = (label: string) => {
      const line = run.out.find((l) => l.startsWith(`  ${label}:`));
      expect(line, label).toBeDefined();
      return resolve(line!.slice(label.length + 3).trim());
    };
    const pdf = pathOf('PDF');
    const xlsx = pathOf('Workbook');
    const manifestPath = pathOf('Manifest');
    const runDir = dirname(manifestPath);
    expect(dirname(pdf)).toBe(runDir);
    expect(dirname(xlsx)).toBe(runDir);
    expect(runDir.startsWith(join(dataDir, 'reports', 'weekly-delivered'))).toBe(true);
    const dateFolder = basename(runDir);
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
      job: { title: string };
      delivery: { status: string; destinations: unknown };
    };
    expect(manifest.delivery.status).toBe('delivered');
    const title = manifest.job.title;
    expect(title).toBe('Weekly venture market report - United Kingdom');

    // The email, as the mail catcher saved it.
    const mailDir = join(dataDir, 'mail');
    const emls = readdirSync(mailDir).filter((n) => n.endsWith('.eml'));
    expect(emls).toHaveLength(1);
    const eml = join(mailDir, emls[0]!);
    const message = await simpleParser(readFileSync(eml));
    expect(addresses(message.to)).toEqual(['partners@example.com']);
    expect(addresses(message.cc)).toEqual(['analyst@example.com']);
    expect(message.subject).toBe(`${title} - ${dateFolder.slice(0, 10)} (complete)`);
    const attached = new Map(message.attachments.map((a) => [a.filename, a.content]));
    expect([...attached.keys()].sort()).toEqual([basename(pdf), basename(xlsx)].sort());
    expect(attached.get(basename(pdf))!.equals(readFileSync(pdf))).toBe(true);
    expect(attached.get(basename(xlsx))!.equals(readFileSync(xlsx))).toBe(true);
    const html = readFileSync(eml.replace(/\.eml$/, '.html'), 'utf8');
    expect(html).toContain(title);

    // The objects, as files of the S3 server's posix backend.
    const objects = join(dataDir, 's3', 'vir-reports', 'weekly', 'weekly-delivered', dateFolder);
    expect(readdirSync(objects)).toEqual(expect.arrayContaining([basename(pdf), basename(xlsx)]));
    for (const file of [pdf, xlsx])
      expect(readFileSync(join(objects, basename(file))).equals(readFileSync(file)), file).toBe(true);
  } finally {
    await dev.ctx.close();
  }
}, 180_000);
