/**
 * Waiting for Ctrl-C / SIGTERM in long-running commands. The first signal resolves the wait
 * (the command then shuts down cleanly); a second one forces the process to exit.
 */

export interface ShutdownSignal {
  /** Resolves with the signal's name on the first SIGINT or SIGTERM. */
  readonly received: Promise<NodeJS.Signals>;
  /** Removes the handlers. */
  dispose(): void;
}

/**
 * Installs SIGINT/SIGTERM handlers.
 *
 * @example
 * const signal = onShutdownSignal((s) => io.err(`${s}: stopping (again to force)`));
 * await Promise.race([signal.received, running]);
 */
export function onShutdownSignal(
  onFirst: (signal: NodeJS.Signals) => void = () => {},
  forceExit: (signal: NodeJS.Signals) => void = (signal) => process.exit(signal === 'SIGINT' ? 130 : 143),
): ShutdownSignal {
  let count = 0;
  let resolve!: (s: NodeJS.Signals) => void;
  const received = new Promise<NodeJS.Signals>((r) => (resolve = r));
  const handler = (signal: NodeJS.Signals) => {
    count += 1;
    if (count === 1) {
      onFirst(signal);
      resolve(signal);
    } else {
      forceExit(signal);
    }
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return {
    received,
    dispose() {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    },
  };
}
