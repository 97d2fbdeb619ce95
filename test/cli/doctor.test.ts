/**
 * `vir doctor` against a running sandbox and the test run's Temporal server (ok verdicts), and
 * against a wrong key, a wrong URL, a wrong OpenAPI document and a closed Temporal port (FAIL).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { checkOpenApi, checkWorker, formatDoctor, runDoctor } from '../../cli/commands/doctor.js';
import { loadSettings } from '../../config/settings.js';
import { freePort } from '../../runtime/temporal-server.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { KEYS, startTestSandbox } from '../helpers/sandbox.js';
import { runCli, uniqueName } from './helpers.js';

const address = inject('temporalAddress');
let sandbox: RunningSandbox;
let scripted: Server;
let scriptedUrl: string;
let scriptedDoc: unknown = {};
/** The Authorization header of the last GET /openapi.json the scripted service received. */
let seenAuthorization: string | undefined;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  scripted = createServer((req, res) => {
    if (req.url === '/openapi.json') {
      seenAuthorization = req.headers.authorization;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(scriptedDoc));
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((r) => scripted.listen(0, '127.0.0.1', r));
  scriptedUrl = `http://127.0.0.1:${(scripted.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await sandbox?.close();
  await new Promise((r) => scripted?.close(r));
});

function env(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    VIS_BASE_URL: sandbox.url,
    VIS_API_KEY: KEYS.vc,
    TEMPORAL_ADDRESS: address,
    VIR_LOG_LEVEL: 'silent',
    ...extra,
  };
}

describe('vir doctor', () => {
  it('says ok for the sandbox with a good key and the running Temporal server', async () => {
    const report = await runDoctor(loadSettings(env()));
    expect(report.ok).toBe(true);
    expect(report.checks.map((c) => [c.name, c.ok])).toEqual([
      ['key', true],
      ['openapi', true],
      ['temporal', true],
    ]);
    expect(report.checks[0]!.detail).toMatch(
      /^plan paid, \d+ credits, \d+ tools \(.*find_startups_for_fund.*\)$/,
    );
    expect(report.checks[1]!.detail).toMatch(/^openapi 3\.1\.\d+, version 1\.0\.0$/);
    expect(report.checks[2]!.detail).toMatch(new RegExp(`^${address}, server \\S+, namespace default$`));

    const cli = await runCli(env(), ['doctor']);
    expect(cli.code).toBe(0);
    expect(cli.out).toHaveLength(3);
    for (const line of cli.out) expect(line).toMatch(/^ok {3}(key|openapi|temporal) /);
  });

  it('fails the key check with a wrong key, exits 1, and never shows the key', async () => {
    const wrong = 'vis_live_wrong_key_0123456789';
    const cli = await runCli(env({ VIS_API_KEY: wrong }), ['doctor']);
    expect(cli.code).toBe(1);
    expect(cli.out[0]).toMatch(/^FAIL key {6}\S/);
    expect(cli.out[1]).toMatch(/^ok {3}openapi/);
    expect(cli.out.join('\n')).not.toContain(wrong);
    const report = await runDoctor(loadSettings(env({ VIS_API_KEY: wrong })));
    expect(report.checks[0]!.detail).toMatch(/401|unauthori[sz]ed|invalid|revoked/i);
  });

  it('fails the key check when VIS_API_KEY is not set', async () => {
    const report = await runDoctor(loadSettings(env({ VIS_API_KEY: '' })));
    expect(report.ok).toBe(false);
    expect(report.checks[0]).toEqual({
      name: 'key',
      ok: false,
      detail: expect.stringMatching(/^VIS_API_KEY is not set/),
    });
  });

  it('fails key and openapi against a wrong URL, and temporal against a closed port', async () => {
    const closed = await freePort();
    const report = await runDoctor(
      loadSettings(
        env({ VIS_BASE_URL: `http://127.0.0.1:${closed}`, TEMPORAL_ADDRESS: `127.0.0.1:${closed}` }),
      ),
      { timeoutMs: 2000 },
    );
    expect(report.ok).toBe(false);
    expect(report.checks.map((c) => c.ok)).toEqual([false, false, false]);
    expect(report.checks[1]!.detail).toContain(`GET http://127.0.0.1:${closed}/openapi.json failed`);
    expect(report.checks[2]!.detail).toContain(`127.0.0.1:${closed} namespace default:`);
    expect(formatDoctor(report).every((l) => l.startsWith('FAIL '))).toBe(true);
  });

  it('fails the temporal check for an unknown namespace', async () => {
    const report = await runDoctor(loadSettings(env({ TEMPORAL_NAMESPACE: 'no-such-namespace' })));
    expect(report.checks[2]).toMatchObject({ name: 'temporal', ok: false });
    expect(report.checks[2]!.detail).toMatch(/no-such-namespace/);
  });

  it('sends the key with GET /openapi.json, like every call to the service', async () => {
    scriptedDoc = { openapi: '3.1.0', info: { version: '1.0.0' } };
    seenAuthorization = undefined;
    expect((await checkOpenApi(loadSettings(env({ VIS_BASE_URL: scriptedUrl })))).ok).toBe(true);
    expect(seenAuthorization).toBe(`Bearer ${KEYS.vc}`);
    // Without a key the document is still read (the key check fails on its own).
    expect((await checkOpenApi(loadSettings(env({ VIS_BASE_URL: scriptedUrl, VIS_API_KEY: '' })))).ok).toBe(
      true,
    );
    expect(seenAuthorization).toBeUndefined();
  });

  it('checks the OpenAPI version and info.version', async () => {
    const settings = loadSettings(env({ VIS_BASE_URL: scriptedUrl }));
    scriptedDoc = { openapi: '3.0.3', info: { version: '1.0.0' } };
    expect(await checkOpenApi(settings)).toEqual({
      name: 'openapi',
      ok: false,
      detail: 'expected openapi 3.1.x, got "3.0.3"',
    });
    scriptedDoc = { openapi: '3.1.0', info: { version: '2.0.0' } };
    expect(await checkOpenApi(settings)).toEqual({
      name: 'openapi',
      ok: false,
      detail: 'expected info.version 1.0.0, got "2.0.0"',
    });
    scriptedDoc = { openapi: '3.1.1', info: { version: '1.0.0' } };
    expect(await checkOpenApi(settings)).toEqual({
      name: 'openapi',
      ok: true,
      detail: 'openapi 3.1.1, version 1.0.0',
    });
    const missing = await checkOpenApi(loadSettings(env({ VIS_BASE_URL: `${scriptedUrl}/nothing` })));
    expect(missing).toEqual({
      name: 'openapi',
      ok: false,
      detail: `GET ${scriptedUrl}/nothing/openapi.json answered 404`,
    });
  });

  it('checks that workers poll the three task queues (--worker), with --json output', async () => {
    const queue = uniqueName('doctor-q');
    const apiQueue = `${queue}-api`;
    const accountQueue = `${queue}-accounts`;
    const e = env({
      VIR_TASK_QUEUE: queue,
      VIR_API_TASK_QUEUE: apiQueue,
      VIR_ACCOUNT_TASK_QUEUE: accountQueue,
    });
    const before = await checkWorker(loadSettings(e));
    expect(before.ok).toBe(false);
    expect(before.detail).toContain(
      `no worker polls ${queue} (workflow): 0 pollers, ${apiQueue} (activity): 0 pollers, ${accountQueue} (account): 0 pollers`,
    );

    // Real long polls (the server ignores polls with less than 2 s to wait); it remembers the pollers.
    const connection = await Connection.connect({ address });
    try {
      const poll = (fn: () => Promise<unknown>) =>
        connection.withDeadline(Date.now() + 3000, fn).catch(() => undefined);
      await Promise.all([
        poll(() =>
          connection.workflowService.pollWorkflowTaskQueue({
            namespace: 'default',
            taskQueue: { name: queue },
            identity: 'doctor-test',
          }),
        ),
        poll(() =>
          connection.workflowService.pollWorkflowTaskQueue({
            namespace: 'default',
            taskQueue: { name: accountQueue },
            identity: 'doctor-test',
          }),
        ),
        poll(() =>
          connection.workflowService.pollActivityTaskQueue({
            namespace: 'default',
            taskQueue: { name: apiQueue },
            identity: 'doctor-test',
          }),
        ),
      ]);
    } finally {
      await connection.close();
    }
    const cli = await runCli(e, ['doctor', '--worker', '--json']);
    expect(cli.code).toBe(0);
    const report = JSON.parse(cli.out.join('\n')) as {
      ok: boolean;
      checks: { name: string; ok: boolean; detail: string }[];
    };
    expect(report.ok).toBe(true);
    expect(report.checks.map((c) => c.name)).toEqual(['key', 'openapi', 'temporal', 'worker']);
    expect(report.checks[3]!.detail).toBe(
      `${queue} (workflow): 1 poller, ${apiQueue} (activity): 1 poller, ${accountQueue} (account): 1 poller`,
    );
  });
});
