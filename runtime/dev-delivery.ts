/**
 * Delivery on one machine for `vir dev`: the mail catcher (runtime/mail-catcher.ts) and the
 * S3-compatible server (runtime/dev-s3.ts), and the delivery settings that point the workers at
 * them, written into the environment only where the user has set nothing.
 *
 * @example
 * const delivery = await startDevDelivery({ mail: { port: 2525, dir }, s3: { port: 7070, dataDir }, env: process.env });
 * // ... start the workers: smtpSettingsFromEnv(process.env) now names the catcher ...
 * await delivery.close();
 */
import { startDevS3, type DevS3 } from './dev-s3.js';
import type * as MailCatcherModule from './mail-catcher.js';
import { supervise, type SuperviseOptions } from './supervisor.js';

/** The From address of the mail `vir dev` catches (`.localhost`: a name reserved for this machine). */
export const DEV_SMTP_FROM = 'reports@vir.localhost';

/** The servers the delivery settings point at. */
export interface DevDeliveryServers {
  mail: { host: string; port: number } | null;
  s3: { endpoint: string; accessKeyId: string; secretAccessKey: string } | null;
}

/** What {@link applyDevDeliveryEnv} did: the variables it set, and the user's it left as they were. */
export interface DevDeliveryEnv {
  set: string[];
  kept: string[];
}

/**
 * Settings that go together: set when none of `unlessSet` is set, each of `values` only when
 * the user has not set it.
 */
interface EnvGroup {
  values: [string, string][];
  unlessSet: string[];
}

function groupsFor(servers: DevDeliveryServers): EnvGroup[] {
  const groups: EnvGroup[] = [];
  if (servers.mail) {
    groups.push({
      // A server of the user's (VIR_SMTP_URL or VIR_SMTP_HOST) keeps its own port and TLS.
      values: [
        ['VIR_SMTP_HOST', servers.mail.host],
        ['VIR_SMTP_PORT', String(servers.mail.port)],
        ['VIR_SMTP_STARTTLS', 'off'],
      ],
      unlessSet: ['VIR_SMTP_URL', 'VIR_SMTP_HOST'],
    });
    groups.push({ values: [['VIR_SMTP_FROM', DEV_SMTP_FROM]], unlessSet: [] });
  }
  if (servers.s3) {
    groups.push({
      // Keys are a pair: half of the user's with half of vir dev's would be neither.
      values: [
        ['VIR_S3_ACCESS_KEY_ID', servers.s3.accessKeyId],
        ['VIR_S3_SECRET_ACCESS_KEY', servers.s3.secretAccessKey],
      ],
      unlessSet: ['VIR_S3_ACCESS_KEY_ID', 'VIR_S3_SECRET_ACCESS_KEY', 'VIR_S3_SESSION_TOKEN'],
    });
    groups.push({ values: [['VIR_S3_ENDPOINT', servers.s3.endpoint]], unlessSet: [] });
  }
  return groups;
}

/**
 * Points the delivery settings at `vir dev`'s servers, in `env`, only where the user has set
 * nothing (an empty variable counts as unset, as the settings read it): `VIR_SMTP_HOST`,
 * `VIR_SMTP_PORT`, `VIR_SMTP_STARTTLS=off` (none of the three when `VIR_SMTP_URL` or
 * `VIR_SMTP_HOST` names a server), `VIR_SMTP_FROM`, the S3 key pair (not when either key or
 * `VIR_S3_SESSION_TOKEN` is set) and `VIR_S3_ENDPOINT`.
 */
export function applyDevDeliveryEnv(env: NodeJS.ProcessEnv, servers: DevDeliveryServers): DevDeliveryEnv {
  const given = (name: string) => (env[name] ?? '').trim() !== '';
  const set: string[] = [];
  const kept = new Set<string>();
  for (const group of groupsFor(servers)) {
    const blocking = group.unlessSet.filter(given);
    if (blocking.length > 0) {
      for (const name of blocking) kept.add(name);
      continue;
    }
    for (const [name, value] of group.values) {
      if (given(name)) {
        kept.add(name);
      } else {
        env[name] = value;
        set.push(name);
      }
    }
  }
  return { set, kept: [...kept] };
}

export interface DevDeliveryOptions {
  /** The mail catcher: its port on 127.0.0.1 (0: a free one) and folder; false: none. */
  mail: { port: number; dir: string; log?: (line: string) => void } | false;
  /** The S3 server: its port (0: a free one) and VIR_DATA_DIR (data in `<dataDir>/s3`); false: none. */
  s3: { port: number; dataDir: string; dieWithParent?: boolean; executable?: string } | false;
  /** Where the delivery settings are written (see {@link applyDevDeliveryEnv}); default process.env. */
  env?: NodeJS.ProcessEnv;
  /**
   * Restart a server that stops on its own (same port, same folder), saying so in one line, or
   * give up (runtime/supervisor.ts); default: not watched.
   */
  supervise?: Pick<SuperviseOptions, 'log' | 'onGiveUp'>;
}

/** What {@link startDevDelivery} started. */
export interface DevDelivery {
  mail: { url: string; host: string; port: number; dir: string } | null;
  s3: Omit<DevS3, 'close' | 'output' | 'exited'> | null;
  env: DevDeliveryEnv;
  /** Stops the S3 server, then the mail catcher. Idempotent. */
  close(): Promise<void>;
}

/** Loads the mail catcher: smtp-server and mailparser are dependencies, but a trimmed install may lack them. */
async function mailCatcherModule(): Promise<typeof MailCatcherModule> {
  try {
    return await import('./mail-catcher.js');
  } catch (err) {
    throw new Error(
      `the mail catcher cannot start: its packages (smtp-server, mailparser) are not installed here ` +
        `(${(err as Error).message.split('\n')[0]}); install the dependencies (npm ci) or pass --no-mail`,
      { cause: err },
    );
  }
}

/**
 * Starts the mail catcher, then the S3 server, then writes the delivery settings pointing at
 * them; a start that fails stops what it had started.
 */
export async function startDevDelivery(options: DevDeliveryOptions): Promise<DevDelivery> {
  const closers: (() => Promise<void>)[] = [];
  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      for (const c of closers.reverse()) await c().catch(() => undefined);
    })());
  try {
    let mail: DevDelivery['mail'] = null;
    if (options.mail) {
      const { startMailCatcher } = await mailCatcherModule();
      const { log, dir } = options.mail;
      const startCatcher = (port: number) =>
        startMailCatcher({ port, dir, ...(log ? { log: (line: string) => log(line) } : {}) });
      const catcher = await startCatcher(options.mail.port);
      if (options.supervise) {
        const watched = supervise(
          {
            name: 'the mail catcher',
            start: () => startCatcher(catcher.port),
            exited: (c) => c.stopped.then(() => `(${c.url}) stopped listening`),
            close: (c) => c.close(),
            restartNote: `same port, messages in ${dir}`,
          },
          catcher,
          options.supervise,
        );
        closers.push(() => watched.stop());
      } else {
        closers.push(() => catcher.close());
      }
      mail = { url: catcher.url, host: catcher.host, port: catcher.port, dir: catcher.dir };
    }
    let s3: DevDelivery['s3'] = null;
    if (options.s3) {
      const s3Options = options.s3;
      const server = await startDevS3(s3Options);
      if (options.supervise) {
        const watched = supervise(
          {
            name: 'the S3 server',
            start: () => startDevS3({ ...s3Options, port: server.port }),
            exited: (srv) => srv.exited.then((how) => `(versitygw, pid ${srv.pid}) ${how}`),
            close: (srv) => srv.close(),
            restartNote: `same port, objects in ${server.dir}`,
            describe: (srv) => `pid ${srv.pid}`,
          },
          server,
          options.supervise,
        );
        closers.push(() => watched.stop());
      } else {
        closers.push(() => server.close());
      }
      const { close: _close, output: _output, exited: _exited, ...info } = server;
      s3 = info;
    }
    const env = applyDevDeliveryEnv(options.env ?? process.env, { mail, s3 });
    return { mail, s3, env, close };
  } catch (err) {
    await close();
    throw err;
  }
}
