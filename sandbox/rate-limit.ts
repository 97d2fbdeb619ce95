/**
 * Rate limits per API key: a per-minute and a per-day fixed window. A window starts with the
 * first counted call and ends after its length (the day window ends at the next UTC midnight
 * unless a length is given). Only authenticated calls are counted, and a refused call is not.
 * The windows live in a map the caller may pass: a persisted sandbox passes one that writes
 * every counted call through to its state file.
 */

export interface RateLimitConfig {
  perMinute: number;
  perDay: number;
  minuteWindowMs: number;
  /** undefined: the day window ends at the next UTC midnight. */
  dayWindowMs?: number | undefined;
}

/** The state of one key's limits at one moment. */
export interface RateLimitSnapshot {
  limit: number;
  /** Calls left now: the smaller of the minute and the day remainder. */
  remaining: number;
  /** When the caller may call again (ms since the epoch): the minute reset, or the day reset when the day is used up. */
  resetMs: number;
  limitDay: number;
  remainingDay: number;
  resetDayMs: number;
  /** Which window refused the call, if one did. */
  exceeded?: 'minute' | 'day';
}

/** One key's windows: when each ends (ms since the epoch) and the calls counted in it. */
export interface RateLimitWindows {
  minuteEnd: number;
  minuteCount: number;
  dayEnd: number;
  dayCount: number;
}

/** Next UTC midnight strictly after `ms`. */
export function nextUtcMidnight(ms: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
}

/**
 * Counts calls per key.
 *
 * @example
 * const limiter = new RateLimiter({ perMinute: 60, perDay: 5000, minuteWindowMs: 60_000 });
 * const r = limiter.consume('vis_live_x', Date.now()); // r.allowed, r.snapshot.remaining === 59
 */
export class RateLimiter {
  readonly #windows: Map<string, RateLimitWindows>;

  /**
   * @param windows the keys' windows, by API key (default an empty map); every counted call
   *   sets its key's entry again, so a map that writes through persists the counts.
   */
  constructor(
    readonly config: RateLimitConfig,
    windows: Map<string, RateLimitWindows> = new Map(),
  ) {
    this.#windows = windows;
  }

  #current(id: string, now: number): RateLimitWindows {
    let w = this.#windows.get(id);
    if (!w) {
      w = { minuteEnd: 0, minuteCount: 0, dayEnd: 0, dayCount: 0 };
      this.#windows.set(id, w);
    }
    if (now >= w.minuteEnd) {
      w.minuteEnd = now + this.config.minuteWindowMs;
      w.minuteCount = 0;
    }
    if (now >= w.dayEnd) {
      w.dayEnd = this.config.dayWindowMs === undefined ? nextUtcMidnight(now) : now + this.config.dayWindowMs;
      w.dayCount = 0;
    }
    return w;
  }

  #snapshot(w: RateLimitWindows): RateLimitSnapshot {
    const { perMinute, perDay } = this.config;
    const remainingMinute = Math.max(0, perMinute - w.minuteCount);
    const remainingDay = Math.max(0, perDay - w.dayCount);
    const snapshot: RateLimitSnapshot = {
      limit: perMinute,
      remaining: Math.min(remainingMinute, remainingDay),
      resetMs: remainingDay === 0 ? w.dayEnd : w.minuteEnd,
      limitDay: perDay,
      remainingDay,
      resetDayMs: w.dayEnd,
    };
    if (remainingDay === 0) snapshot.exceeded = 'day';
    else if (remainingMinute === 0) snapshot.exceeded = 'minute';
    return snapshot;
  }

  /** Counts one call of `id` unless a window is used up; a refused call is not counted. */
  consume(id: string, now: number): { allowed: boolean; snapshot: RateLimitSnapshot } {
    const w = this.#current(id, now);
    const before = this.#snapshot(w);
    if (before.exceeded) return { allowed: false, snapshot: before };
    w.minuteCount += 1;
    w.dayCount += 1;
    this.#windows.set(id, w);
    const after = this.#snapshot(w);
    delete after.exceeded;
    return { allowed: true, snapshot: after };
  }

  /** The limits of `id` without counting a call (for responses to unauthenticated or refused calls). */
  peek(id: string | undefined, now: number): RateLimitSnapshot {
    if (id === undefined) {
      const fresh = this.#snapshot({
        minuteEnd: now + this.config.minuteWindowMs,
        minuteCount: 0,
        dayEnd: this.config.dayWindowMs === undefined ? nextUtcMidnight(now) : now + this.config.dayWindowMs,
        dayCount: 0,
      });
      return fresh;
    }
    const snapshot = this.#snapshot(this.#current(id, now));
    delete snapshot.exceeded;
    return snapshot;
  }
}

/** Epoch seconds, rounded up so that waiting until then is always enough. */
export function epochSeconds(ms: number): number {
  return Math.ceil(ms / 1000);
}

/**
 * The X-RateLimit-* headers of a snapshot. Reset values are Unix time in seconds; 429s also
 * carry Retry-After (seconds to wait).
 */
export function rateLimitHeaders(
  snapshot: RateLimitSnapshot,
  now: number,
  refused = false,
): Record<string, string> {
  const headers: Record<string, string> = {
    'x-ratelimit-limit': String(snapshot.limit),
    'x-ratelimit-remaining': String(snapshot.remaining),
    'x-ratelimit-reset': String(epochSeconds(snapshot.resetMs)),
    'x-ratelimit-limit-day': String(snapshot.limitDay),
    'x-ratelimit-remaining-day': String(snapshot.remainingDay),
    'x-ratelimit-reset-day': String(epochSeconds(snapshot.resetDayMs)),
  };
  if (refused) headers['retry-after'] = String(Math.max(1, Math.ceil((snapshot.resetMs - now) / 1000)));
  return headers;
}

/**
 * Calls per window of a request log, counted the way the limiter counts them: a window starts
 * with the first call at or after the end of the previous one and lasts `windowMs`; a refused
 * call (429) neither counts nor starts one. Entries must be in arrival order.
 *
 * @example
 * callsPerWindow(sandbox.requestLog(), 60_000); // [60, 60, 12]
 */
export function callsPerWindow(
  log: readonly { at: number; status: number; fault?: string }[],
  windowMs: number,
): number[] {
  const counts: number[] = [];
  let end = -Infinity;
  for (const r of log) {
    // Calls the service took count, an after-charge fault's too; a 429 or a fault before it does not.
    if (r.status === 429 || (r.fault !== undefined && !r.fault.startsWith('after-charge'))) continue;
    if (r.at >= end) {
      end = r.at + windowMs;
      counts.push(0);
    }
    counts[counts.length - 1]! += 1;
  }
  return counts;
}
