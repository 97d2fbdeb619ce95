/**
 * The supervisor of `vir dev`'s servers with real ones: a mail catcher that stops listening and
 * the S3 server (versitygw) killed by SIGKILL are said in one line each and come back on the
 * same port; a server that cannot be started again is given up, once.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startDevDelivery } from '../../runtime/dev-delivery.js';
import { versitygwPath } from '../../runtime/dev-s3.js';
import { startMailCatcher, type MailCatcher } from '../../runtime/mail-catcher.js';
import { supervise } from '../../runtime/supervisor.js';
import { portOpen } from '../cli/helpers.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'vir-supervisor-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Resolves when `lines` has one matching `re`. */
async function lineMatching(lines: string[], re: RegExp, timeoutMs = 20_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = lines.find((l) => re.test(l));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no line matching ${re}:\n${lines.join('\n')}`);
    await new Promise((r) => setTimeout(r, 50)); // polls the lines for the event, until the deadline
  }
}

describe('supervise', () => {
  it('restarts a mail catcher that stopped listening, on the same port', async () => {
    const dir = tempDir();
    const lines: string[] = [];
    const first = await startMailCatcher({ port: 0, dir });
    const gaveUp: Error[] = [];
    const watched = supervise<MailCatcher>(
      {
        name: 'the mail catcher',
        start: () => startMailCatcher({ port: first.port, dir }),
        exited: (c) => c.stopped.then(() => 'stopped listening'),
        close: (c) => c.close(),
        restartNote: 'same port',
      },
      first,
      { log: (line) => lines.push(line), onGiveUp: (e) => gaveUp.push(e) },
    );
    cleanups.push(() => watched.stop());
    await first.close();
    expect(await lineMatching(lines, /restarted/)).toBe('the mail catcher restarted');
    expect(lines).toEqual([
      'the mail catcher stopped listening: restarting it (same port)',
      'the mail catcher restarted',
    ]);
    expect(watched.current()).not.toBe(first);
    expect(watched.current().port).toBe(first.port);
    expect(await portOpen(first.port)).toBe(true);
    expect(gaveUp).toEqual([]);

    await watched.stop();
    expect(await portOpen(first.port)).toBe(false);
    expect(lines).toHaveLength(2); // a stop is not an exit
  });

  it('gives up, once, a server that cannot be started again', async () => {
    const dir = tempDir();
    const lines: string[] = [];
    const first = await startMailCatcher({ port: 0, dir });
    const gaveUp: Error[] = [];
    const watched = supervise<MailCatcher>(
      {
        name: 'the mail catcher',
        start: () => Promise.reject(new Error('port taken')),
        exited: (c) => c.stopped.then(() => 'stopped listening'),
        close: (c) => c.close(),
      },
      first,
      { log: (line) => lines.push(line), onGiveUp: (e) => gaveUp.push(e) },
    );
    cleanups.push(() => watched.stop());
    await first.close();
    await lineMatching(lines, /could not be restarted/);
    expect(gaveUp.map((e) => e.message)).toEqual([
      'the mail catcher could not be restarted (port taken); vir dev stops',
    ]);
  });

  it.skipIf(!existsSync(versitygwPath()))(
    "vir dev's S3 server killed by SIGKILL comes back on its port with its objects' folder",
    async () => {
      const dataDir = tempDir();
      const lines: string[] = [];
      const gaveUp: Error[] = [];
      const delivery = await startDevDelivery({
        mail: false,
        s3: { port: 0, dataDir },
        env: {},
        supervise: { log: (line) => lines.push(line), onGiveUp: (e) => gaveUp.push(e) },
      });
      cleanups.push(() => delivery.close());
      const { pid, port } = delivery.s3!;
      process.kill(pid, 'SIGKILL');
      const said = await lineMatching(lines, /was killed by SIGKILL/);
      expect(said).toBe(
        `the S3 server (versitygw, pid ${pid}) was killed by SIGKILL: restarting it (same port, objects in ${join(dataDir, 's3')})`,
      );
      expect(await lineMatching(lines, /restarted/)).toMatch(/^the S3 server restarted \(pid \d+\)$/);
      expect(await portOpen(port)).toBe(true);
      expect(gaveUp).toEqual([]);
      await delivery.close();
      expect(await portOpen(port)).toBe(false);
    },
    60_000,
  );
});
