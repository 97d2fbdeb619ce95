/**
 * What every `vir` command runs with: the environment, lazily loaded settings, logger and
 * Temporal client, where output goes, and a stack of closers that `close()` runs in reverse
 * order (the entry point calls it in `finally`).
 */
import { Client, Connection } from '@temporalio/client';
import type { Logger } from 'pino';
import { loadSettings, type Settings } from '../config/settings.js';
import { createLogger } from './logger.js';

/** Where a command writes: `out` for results (stdout), `err` for diagnostics (stderr). */
export interface CliIO {
  out(line: string): void;
  err(line: string): void;
}

export const STD_IO: CliIO = {
  out: (line) => void process.stdout.write(`${line}\n`),
  err: (line) => void process.stderr.write(`${line}\n`),
};

/** The context of one CLI invocation. */
export class CliContext {
  /** Exit code the entry point uses when the command returns normally. */
  exitCode = 0;
  #settings: Settings | undefined;
  #logger: Logger | undefined;
  #temporal: Promise<Client> | undefined;
  readonly #closers: (() => Promise<void> | void)[] = [];

  constructor(
    readonly env: NodeJS.ProcessEnv = process.env,
    readonly io: CliIO = STD_IO,
  ) {}

  /** Settings from the environment, loaded on first use (a bad value throws SettingsError). */
  settings(): Settings {
    this.#settings ??= loadSettings(this.env);
    return this.#settings;
  }

  /** Replaces the settings (e.g. `vir dev` points the workers at the sandbox it started). */
  useSettings(settings: Settings): void {
    this.#settings = settings;
  }

  logger(): Logger {
    this.#logger ??= createLogger(this.settings());
    return this.#logger;
  }

  /**
   * A Temporal client on TEMPORAL_ADDRESS / TEMPORAL_NAMESPACE; the connection closes with the
   * context. A connection that failed is tried again at the next call (a long-lived context, the
   * portal's, outlives a Temporal server that was down).
   */
  temporal(): Promise<Client> {
    if (this.#temporal) return this.#temporal;
    const connecting = (async () => {
      const s = this.settings();
      let connection: Connection;
      try {
        connection = await Connection.connect({ address: s.temporalAddress, connectTimeout: 10_000 });
      } catch (err) {
        throw new Error(
          `cannot connect to Temporal at ${s.temporalAddress} (TEMPORAL_ADDRESS): ${(err as Error).message}`,
          {
            cause: err,
          },
        );
      }
      this.defer(() => connection.close());
      return new Client({ connection, namespace: s.temporalNamespace });
    })();
    this.#temporal = connecting;
    connecting.catch(() => {
      if (this.#temporal === connecting) this.#temporal = undefined;
    });
    return connecting;
  }

  /** Registers something to close when the command ends (last registered closes first). */
  defer(fn: () => Promise<void> | void): void {
    this.#closers.push(fn);
  }

  /** Runs the closers, newest first; a failing closer does not stop the others. */
  async close(): Promise<void> {
    while (this.#closers.length > 0) {
      const fn = this.#closers.pop()!;
      try {
        await fn();
      } catch (err) {
        this.io.err(`vir: while closing: ${(err as Error).message}`);
      }
    }
  }
}
