/**
 * A parameter named by where its value is kept (`vir-store:<ref>#<field>`, shared/stored-params.ts):
 * the API activity reads it from the store just before the call, so a value that must not enter
 * a workflow's history (a pre-signed link to a deck) reaches the service all the same. Against
 * the sandbox over HTTP: the answer is the one for the stored value; what is stored with the
 * answer is the parameter as the workflow gave it; a reference to nothing fails, not retried,
 * and sends nothing.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createApiActivities } from '../../activities/api.js';
import { LocalStore } from '../../activities/store.js';
import { VisClient } from '../../api/client.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { storedParam } from '../../shared/stored-params.js';
import type { StoredCall } from '../../shared/types.js';
import { callSandbox, startTestSandbox } from '../helpers/sandbox.js';

const KEY = 'vis_live_sandbox_vc';
let sandbox: RunningSandbox;
let dir: string;

beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimitPerMinute: 10_000 });
  dir = mkdtempSync(join(tmpdir(), 'vir-stored-params-'));
});

afterAll(async () => {
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('the value is read from the store for the call; the stored answer keeps the reference', async () => {
  const page = await callSandbox(sandbox, 'search_startups', {
    key: KEY,
    params: { countries: ['France'], limit: 1 },
  });
  const startup = (page.body.data as { startups: { key: string; name: string }[] }).startups[0]!;
  const client = new VisClient({ baseUrl: sandbox.url, apiKey: KEY });
  const store = new LocalStore(join(dir, 'store'));
  const acts = createApiActivities({ client, store });
  try {
    const ref = await store.putJson('run-1', 'links', { first: startup.key });
    const param = storedParam(ref, 'first');
    expect(param).toBe(`vir-store:runs/run-1/links.json#first`);
    const out = await acts.callApi({
      operation: 'get_startup',
      params: { key: param },
      runKey: 'run-1',
      name: 'profile',
    });
    const stored = JSON.parse(readFileSync(join(dir, 'store', out.ref), 'utf8')) as StoredCall;
    // The service answered for the stored key: the profile of that startup.
    expect(JSON.stringify(stored.result.data)).toContain(startup.name);
    // What is kept is the reference, never the value it stands for.
    expect(stored.params).toEqual({ key: param });

    const before = sandbox.requestLog().length;
    const err = await acts
      .callApi({
        operation: 'get_startup',
        params: { key: storedParam(ref, 'second') },
        runKey: 'run-1',
        name: 'none',
      })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(ApplicationFailure);
    expect((err as ApplicationFailure).nonRetryable).toBe(true);
    expect((err as ApplicationFailure).message).toContain(
      `parameter key: the store's ${ref} holds no text at second`,
    );
    expect(sandbox.requestLog().length).toBe(before);
  } finally {
    await client.close();
  }
});
