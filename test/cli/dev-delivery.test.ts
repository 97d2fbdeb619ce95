/**
 * `vir dev`'s delivery settings: it points the workers at its mail catcher and S3 server only
 * where the user has set nothing. The rules (applyDevDeliveryEnv), then a real `vir dev` in
 * process (no Temporal server of its own: --reuse-temporal on the suite's; no sandbox, no
 * workers) with the mail catcher and the S3 server on free ports.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { s3CredentialsFromEnv, s3EndpointFromEnv } from '../../activities/delivery/s3-client.js';
import { smtpSettingsFromEnv } from '../../activities/delivery/smtp-settings.js';
import { startDev } from '../../cli/commands/dev.js';
import { applyDevDeliveryEnv, DEV_SMTP_FROM, type DevDeliveryServers } from '../../runtime/dev-delivery.js';
import { DEV_S3_ACCESS_KEY_ID, DEV_S3_SECRET_ACCESS_KEY } from '../../runtime/dev-s3.js';
import { captureContext, portOpen } from './helpers.js';

const servers: DevDeliveryServers = {
  mail: { host: '127.0.0.1', port: 2525 },
  s3: {
    endpoint: 'http://127.0.0.1:7070',
    accessKeyId: DEV_S3_ACCESS_KEY_ID,
    secretAccessKey: DEV_S3_SECRET_ACCESS_KEY,
  },
};

describe('the delivery settings vir dev writes', () => {
  it('with nothing set: the catcher and the S3 server, valid for the delivery settings readers', () => {
    const env: NodeJS.ProcessEnv = {};
    const done = applyDevDeliveryEnv(env, servers);
    expect(env).toEqual({
      VIR_SMTP_HOST: '127.0.0.1',
      VIR_SMTP_PORT: '2525',
      VIR_SMTP_STARTTLS: 'off',
      VIR_SMTP_FROM: DEV_SMTP_FROM,
      VIR_S3_ACCESS_KEY_ID: DEV_S3_ACCESS_KEY_ID,
      VIR_S3_SECRET_ACCESS_KEY: DEV_S3_SECRET_ACCESS_KEY,
      VIR_S3_ENDPOINT: 'http://127.0.0.1:7070',
    });
    expect(done).toEqual({ set: Object.keys(env), kept: [] });
    expect(smtpSettingsFromEnv(env)).toMatchObject({
      host: '127.0.0.1',
      port: 2525,
      secure: false,
      starttls: 'off',
      user: undefined,
      fromDomain: 'vir.localhost',
    });
    expect(s3CredentialsFromEnv(env)).toEqual({
      accessKeyId: DEV_S3_ACCESS_KEY_ID,
      secretAccessKey: DEV_S3_SECRET_ACCESS_KEY,
    });
    expect(s3EndpointFromEnv(env)).toBe('http://127.0.0.1:7070');
  });

  it('never overrides a variable the user set; an empty one counts as unset', () => {
    const env: NodeJS.ProcessEnv = {
      VIR_SMTP_FROM: 'Team <team@example.com>',
      VIR_SMTP_PORT: '2526',
      VIR_S3_ENDPOINT: '',
    };
    const done = applyDevDeliveryEnv(env, servers);
    expect(env).toMatchObject({
      VIR_SMTP_HOST: '127.0.0.1',
      VIR_SMTP_PORT: '2526',
      VIR_SMTP_FROM: 'Team <team@example.com>',
      VIR_S3_ENDPOINT: 'http://127.0.0.1:7070',
    });
    expect(done.kept).toEqual(['VIR_SMTP_PORT', 'VIR_SMTP_FROM']);
  });

  it("a server of the user's keeps its port and TLS; keys go as a pair", () => {
    for (const own of [{ VIR_SMTP_URL: 'smtps://mail.example.com' }, { VIR_SMTP_HOST: 'mail.example.com' }]) {
      const env: NodeJS.ProcessEnv = { ...own, VIR_S3_SECRET_ACCESS_KEY: 'user-secret' };
      const done = applyDevDeliveryEnv(env, servers);
      expect(env).toEqual({
        ...own,
        VIR_SMTP_FROM: DEV_SMTP_FROM,
        VIR_S3_SECRET_ACCESS_KEY: 'user-secret',
        VIR_S3_ENDPOINT: 'http://127.0.0.1:7070',
      });
      expect(done.kept).toEqual([...Object.keys(own), 'VIR_S3_SECRET_ACCESS_KEY']);
    }
    const withToken: NodeJS.ProcessEnv = { VIR_S3_SESSION_TOKEN: 'token' };
    applyDevDeliveryEnv(withToken, { mail: null, s3: servers.s3 });
    expect(withToken).toEqual({ VIR_S3_SESSION_TOKEN: 'token', VIR_S3_ENDPOINT: 'http://127.0.0.1:7070' });
  });

  it('sets nothing for a server not started', () => {
    const env: NodeJS.ProcessEnv = {};
    expect(applyDevDeliveryEnv(env, { mail: null, s3: null })).toEqual({ set: [], kept: [] });
    expect(env).toEqual({});
  });
});

describe('vir dev with its mail catcher and S3 server', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('starts both before the workers, fills in only the unset variables, stops both', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'vir-dev-delivery-'));
    dirs.push(dataDir);
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      VIR_DATA_DIR: dataDir,
      TEMPORAL_ADDRESS: inject('temporalAddress'),
      VIR_LOG_LEVEL: 'silent',
      VIR_DEV_SMTP_PORT: '0',
      VIR_DEV_S3_PORT: '0',
      // The user's own: kept.
      VIR_SMTP_FROM: 'Team <team@example.com>',
      VIR_S3_ACCESS_KEY_ID: 'AKIAUSERKEY',
      VIR_S3_SECRET_ACCESS_KEY: 'user-secret',
    };
    const { ctx } = captureContext(env);
    const ports: number[] = [];
    try {
      const stack = await startDev(ctx, {
        sandbox: false,
        worker: false,
        headless: true,
        reuseTemporal: true,
      });
      const { mail, s3 } = stack.delivery!;
      expect(mail).toMatchObject({ host: '127.0.0.1', dir: join(dataDir, 'mail') });
      expect(s3).toMatchObject({ bucket: 'vir-reports', dir: join(dataDir, 's3') });
      ports.push(mail!.port, s3!.port);
      for (const port of ports) expect(await portOpen(port)).toBe(true);
      expect(env).toMatchObject({
        VIR_SMTP_HOST: '127.0.0.1',
        VIR_SMTP_PORT: String(mail!.port),
        VIR_SMTP_STARTTLS: 'off',
        VIR_SMTP_FROM: 'Team <team@example.com>',
        VIR_S3_ACCESS_KEY_ID: 'AKIAUSERKEY',
        VIR_S3_SECRET_ACCESS_KEY: 'user-secret',
        VIR_S3_ENDPOINT: s3!.endpoint,
      });
      expect(stack.delivery!.env).toEqual({
        set: ['VIR_SMTP_HOST', 'VIR_SMTP_PORT', 'VIR_SMTP_STARTTLS', 'VIR_S3_ENDPOINT'],
        kept: ['VIR_SMTP_FROM', 'VIR_S3_ACCESS_KEY_ID', 'VIR_S3_SECRET_ACCESS_KEY'],
      });
      expect(stack.notStarted).toEqual({ mail: null, s3: null, portal: '--no-portal' });
    } finally {
      await ctx.close();
    }
    for (const port of ports) expect(await portOpen(port)).toBe(false);
  });

  it('refuses a delivery port taken by a server it did not start, naming the variable and --no-mail / --no-s3', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'vir-dev-delivery-'));
    dirs.push(dataDir);
    const foreign = createServer();
    await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve));
    const { port } = foreign.address() as AddressInfo;
    try {
      for (const [variable, option] of [
        ['VIR_DEV_SMTP_PORT', '--no-mail'],
        ['VIR_DEV_S3_PORT', '--no-s3'],
      ] as const) {
        const env: NodeJS.ProcessEnv = {
          PATH: process.env.PATH,
          VIR_DATA_DIR: dataDir,
          TEMPORAL_ADDRESS: inject('temporalAddress'),
          VIR_LOG_LEVEL: 'silent',
          VIR_DEV_SMTP_PORT: '0',
          VIR_DEV_S3_PORT: '0',
          [variable]: String(port),
        };
        const { ctx } = captureContext(env);
        try {
          await expect(
            startDev(ctx, { sandbox: false, worker: false, headless: true, reuseTemporal: true }),
          ).rejects.toThrow(
            `127.0.0.1:${port} (${variable}) is already in use by a server this vir dev did not start ` +
              `(no live vir dev pid file in ${dataDir} records it): stop what listens there, set ${variable} to a free port, or pass ${option}`,
          );
          expect(env.VIR_SMTP_HOST).toBeUndefined();
        } finally {
          await ctx.close();
        }
      }
    } finally {
      await new Promise((resolve) => foreign.close(resolve));
    }
  });

  it('without versitygw it goes on with the mail catcher only; --no-mail starts no catcher', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'vir-dev-delivery-'));
    dirs.push(dataDir);
    const noVersitygw = (): NodeJS.ProcessEnv => ({
      PATH: process.env.PATH,
      VIR_DATA_DIR: dataDir,
      TEMPORAL_ADDRESS: inject('temporalAddress'),
      VIR_LOG_LEVEL: 'silent',
      VIR_DEV_SMTP_PORT: '0',
      VERSITYGW_PATH: join(dataDir, 'no-versitygw'),
    });
    const env = noVersitygw();
    const { ctx } = captureContext(env);
    try {
      const stack = await startDev(ctx, {
        sandbox: false,
        worker: false,
        headless: true,
        reuseTemporal: true,
      });
      expect(stack.delivery!.s3).toBeNull();
      expect(stack.delivery!.mail).not.toBeNull();
      expect(stack.notStarted.s3).toBe('versitygw is not built; run bash scripts/build-versitygw.sh');
      expect(env.VIR_S3_ENDPOINT).toBeUndefined();
      expect(env.VIR_SMTP_FROM).toBe(DEV_SMTP_FROM);
    } finally {
      await ctx.close();
    }
    const bare = noVersitygw();
    const second = captureContext(bare);
    try {
      const stack = await startDev(second.ctx, {
        sandbox: false,
        worker: false,
        headless: true,
        reuseTemporal: true,
        mail: false,
      });
      expect(stack.delivery).toBeNull();
      expect(stack.notStarted).toEqual({
        mail: '--no-mail',
        s3: 'versitygw is not built; run bash scripts/build-versitygw.sh',
        portal: '--no-portal',
      });
      expect(bare.VIR_SMTP_HOST).toBeUndefined();
    } finally {
      await second.ctx.close();
    }
  });
});
