/**
 * Keeps a server of `vir dev` running: when it exits on its own (killed, crashed), says so in one
 * line and starts it again the same way (same port, same files); a server that cannot be started
 * again, or exits too often, is given up and the owner told, so it stops cleanly.
 *
 * @example
 * const temporal = supervise({
 *   name: 'Temporal dev server',
 *   start: () => startTemporalDevServer(options),
 *   exited: (s) => exitOf(s.process),
 *   close: (s) => s.close(),
 * }, first, { log: (line) => logger.warn(line), onGiveUp: (err) => stop(err) });
 * // ... on shutdown: await temporal.stop();
 */

/** How to start, watch and stop one kind of server. */
export interface SupervisedServer<T> {
  /** Its name in the lines, e.g. `Temporal dev server`. */
  name: string;
  /** Starts it again as it was started first (same port, same files). */
  start(): Promise<T>;
  /** Resolves, with how (e.g. `pid 4242 was killed by SIGKILL`), when the running server exits. */
  exited(server: T): Promise<string>;
  /** Stops it (idempotent). */
  close(server: T): Promise<void>;
  /** What the restart keeps, for the line saying it restarts, e.g. `on 127.0.0.1:7233, same SQLite file`. */
  restartNote?: string;
  /** How the restarted server is named in the line saying it is back, e.g. `pid 4343`. */
  describe?(server: T): string;
}

/** The supervisor's options. */
export interface SuperviseOptions {
  /** Where the one line per event goes (exited, restarted, given up). */
  log(line: string, level: 'warn' | 'info' | 'error'): void;
  /** Called when it has gone down, before it is started again. */
  onDown?(): void;
  /** Called once it answers again. */
  onUp?(): void;
  /** Called once when it is given up: it could not be started again, or exited too often. */
  onGiveUp(error: Error): void;
  /** Restarts allowed within {@link SuperviseOptions.windowMs} before it is given up (default 3). */
  maxRestarts?: number;
  /** The window of {@link SuperviseOptions.maxRestarts} (ms, default 60 s). */
  windowMs?: number;
}

/** A supervised server. */
export interface Supervision<T> {
  /** The server running now (the last one started). */
  current(): T;
  /** Restarts so far. */
  restarts(): number;
  /** Stops watching and stops the server; a restart in progress is stopped when it is done. Idempotent. */
  stop(): Promise<void>;
}

/**
 * Watches `first` (already started) and restarts it by `server.start()` whenever it exits while
 * not stopped.
 */
export function supervise<T>(
  server: SupervisedServer<T>,
  first: T,
  options: SuperviseOptions,
): Supervision<T> {
  const maxRestarts = options.maxRestarts ?? 3;
  const windowMs = options.windowMs ?? 60_000;
  let current = first;
  let stopping: Promise<void> | null = null;
  let restarting: Promise<void> | null = null;
  const restartTimes: number[] = [];
  let restarts = 0;

  const giveUp = (why: string, cause?: unknown) => {
    const error = new Error(`${server.name} ${why}`, cause === undefined ? undefined : { cause });
    options.log(error.message, 'error');
    options.onGiveUp(error);
  };

  const watch = (instance: T) => {
    void server.exited(instance).then((how) => {
      if (stopping || instance !== current) return;
      restarting = restart(how);
    });
  };

  const restart = async (how: string) => {
    options.onDown?.();
    const now = Date.now();
    while (restartTimes.length > 0 && now - restartTimes[0]! > windowMs) restartTimes.shift();
    if (restartTimes.length >= maxRestarts) {
      options.log(`${server.name} ${how}`, 'warn');
      giveUp(
        `exited ${restartTimes.length + 1} times within ${Math.round(windowMs / 1000)} s: not restarted again; vir dev stops`,
      );
      return;
    }
    restartTimes.push(now);
    options.log(
      `${server.name} ${how}: restarting it${server.restartNote ? ` (${server.restartNote})` : ''}`,
      'warn',
    );
    let next: T;
    try {
      next = await server.start();
    } catch (err) {
      giveUp(`could not be restarted (${(err as Error).message.split('\n')[0]}); vir dev stops`, err);
      return;
    }
    if (stopping) {
      await server.close(next).catch(() => undefined);
      return;
    }
    current = next;
    restarts += 1;
    options.onUp?.();
    options.log(`${server.name} restarted${server.describe ? ` (${server.describe(next)})` : ''}`, 'info');
    watch(next);
  };

  watch(first);
  return {
    current: () => current,
    restarts: () => restarts,
    stop: () =>
      (stopping ??= (async () => {
        await restarting?.catch(() => undefined);
        await server.close(current).catch(() => undefined);
      })()),
  };
}

/** How a child process exited, in words: `was killed by SIGKILL`, `exited with code 1`. */
export function describeExit(code: number | null, signal: NodeJS.Signals | null): string {
  return signal ? `was killed by ${signal}` : `exited with code ${code ?? '?'}`;
}
