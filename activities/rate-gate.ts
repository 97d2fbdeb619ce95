/**
 * A worker-wide gate in front of the service: it reads X-RateLimit-Remaining and -Reset from
 * every response (429s included) and holds new calls when the window is used up, until its
 * reset: one cool-down shared by every parallel call of the worker. It complements the task
 * queue's rate limit, whose token bucket may burst at a window's edge.
 */
export interface RateWindow {
  remaining: number | null;
  resetAt: Date | null;
}

export class RateGate {
  #remaining: number | null = null;
  #resetAt = 0;
  #inFlight = 0;

  constructor(
    /** Longest wait the gate imposes; a longer one (the daily limit) is left to the workflow. */
    private readonly maxWaitMs = 30_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Milliseconds a new call should wait now (0: go). */
  waitMs(): number {
    const t = this.now();
    if (t >= this.#resetAt) {
      this.#remaining = null;
      return 0;
    }
    if (this.#remaining === null || this.#remaining - this.#inFlight > 0) return 0;
    const wait = this.#resetAt - t + 25;
    return wait > this.maxWaitMs ? 0 : wait;
  }

  /** Waits until a call may be sent, then counts it in flight. */
  async acquire(): Promise<void> {
    for (let wait = this.waitMs(); wait > 0; wait = this.waitMs()) {
      await new Promise((r) => setTimeout(r, wait));
    }
    this.#inFlight += 1;
  }

  /** Ends a call, learning the window from its response headers when there were any. */
  release(window: RateWindow | null | undefined): void {
    this.#inFlight = Math.max(0, this.#inFlight - 1);
    if (!window || window.remaining === null || window.resetAt === null) return;
    const reset = window.resetAt.getTime();
    if (reset > this.#resetAt) {
      this.#resetAt = reset;
      this.#remaining = window.remaining;
    } else if (reset === this.#resetAt) {
      this.#remaining =
        this.#remaining === null ? window.remaining : Math.min(this.#remaining, window.remaining);
    }
  }
}
