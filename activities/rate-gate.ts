/**
 * A worker-wide gate in front of the service: it reads X-RateLimit-Remaining and -Reset from
 * every response (429s included) and holds new calls when the window is used up, until its
 * reset, however far off: one cool-down shared by every parallel call of the worker. It
 * complements the task queue's rate limit, whose token bucket may burst at a window's edge. A
 * wait longer than the caller allows (the daily limit) is not waited in the activity: `acquire`
 * throws {@link LongWaitError} and the workflow waits durably instead.
 */
export interface RateWindow {
  remaining: number | null;
  resetAt: Date | null;
}

/** The window is used up and resets later than the caller is willing to hold a call. */
export class LongWaitError extends Error {
  constructor(readonly resetAt: Date) {
    super(`the rate-limit window is used up until ${resetAt.toISOString()}`);
    this.name = 'LongWaitError';
  }
}

/** How often a call waiting only for calls in flight looks again. */
const IN_FLIGHT_POLL_MS = 100;

export class RateGate {
  #remaining: number | null = null;
  #resetAt = 0;
  #inFlight = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** Milliseconds a new call should wait now (0: go). */
  waitMs(): number {
    const t = this.now();
    if (t >= this.#resetAt) {
      this.#remaining = null;
      return 0;
    }
    if (this.#remaining === null || this.#remaining - this.#inFlight > 0) return 0;
    const untilReset = this.#resetAt - t + 25;
    // Room left but taken by calls in flight: their answers will tell more soon.
    return this.#remaining > 0 ? Math.min(IN_FLIGHT_POLL_MS, untilReset) : untilReset;
  }

  /** Whether the window is known to be used up (not only taken by calls in flight). */
  get usedUp(): boolean {
    return this.#remaining === 0 && this.now() < this.#resetAt;
  }

  /**
   * Waits until a call may be sent, then counts it in flight. A wait longer than `maxWaitMs`
   * throws {@link LongWaitError} at once (nothing is counted).
   */
  async acquire(maxWaitMs = Infinity): Promise<void> {
    for (let wait = this.waitMs(); wait > 0; wait = this.waitMs()) {
      if (wait > maxWaitMs && this.usedUp) throw new LongWaitError(new Date(this.#resetAt));
      await new Promise((r) => setTimeout(r, wait));
    }
    this.#inFlight += 1;
  }

  /** Ends a call, learning the window from its response headers when there were any. */
  release(window: RateWindow | null | undefined): void {
    this.#inFlight = Math.max(0, this.#inFlight - 1);
    if (!window || window.remaining === null || window.resetAt === null) return;
    const reset = window.resetAt.getTime();
    if (reset === this.#resetAt) {
      this.#remaining =
        this.#remaining === null ? window.remaining : Math.min(this.#remaining, window.remaining);
    } else if (reset > this.#resetAt) {
      // Another window: the latest answer tells which one limits now (a service may report the
      // minute's reset while the day has calls left, and the day's once it has none).
      this.#resetAt = reset;
      this.#remaining = window.remaining;
    } else if (reset > this.now()) {
      // An earlier reset not passed yet (the day's before the minute's, or another rounding of
      // the same window): it limits now, and can only lower what is left.
      this.#resetAt = reset;
      this.#remaining =
        this.#remaining === null ? window.remaining : Math.min(this.#remaining, window.remaining);
    }
    // Else the answer is of a window that has ended, come back late: it says nothing of the
    // window now.
  }
}
