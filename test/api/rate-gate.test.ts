import { describe, expect, it } from 'vitest';
import { LongWaitError, RateGate } from '../../activities/rate-gate.js';

describe('RateGate', () => {
  it('lets calls go while the window has room, counting the ones in flight', async () => {
    const gate = new RateGate();
    gate.release({ remaining: 2, resetAt: new Date(Date.now() + 60_000) });
    await gate.acquire();
    await gate.acquire();
    // Both calls left are in flight: a third looks again shortly, for their answers.
    expect(gate.waitMs()).toBeGreaterThan(0);
    expect(gate.waitMs()).toBeLessThanOrEqual(100);
    gate.release({ remaining: 0, resetAt: new Date(Date.now() + 60_000) });
    expect(gate.usedUp).toBe(true);
    expect(gate.waitMs()).toBeGreaterThan(59_000);
  });

  it('ignores a late answer of a window that has ended: the window now limits', async () => {
    let now = 61_000;
    const gate = new RateGate(() => now);
    gate.release({ remaining: 5, resetAt: new Date(120_000) });
    // The last answer of the window that ended at 60 s, used up, comes back late.
    gate.release({ remaining: 0, resetAt: new Date(60_000) });
    expect(gate.usedUp).toBe(false);
    // The five calls left of the window now go; a sixth waits for their answers.
    for (let i = 0; i < 5; i++) {
      expect(gate.waitMs()).toBe(0);
      await gate.acquire();
    }
    expect(gate.waitMs()).toBeGreaterThan(0);
    // One of the window now, its reset read a second earlier: it lowers what is left.
    gate.release({ remaining: 0, resetAt: new Date(119_000) });
    expect(gate.usedUp).toBe(true);
    now = 120_100;
    expect(gate.waitMs()).toBe(0);
  });

  it('holds a call until the reset, however far off (no cap)', async () => {
    let now = 0;
    const gate = new RateGate(() => now);
    gate.release({ remaining: 0, resetAt: new Date(45_000) });
    expect(gate.waitMs()).toBe(45_025);
    now = 45_100;
    expect(gate.waitMs()).toBe(0);
  });

  it('waits out a short reset for real', async () => {
    const gate = new RateGate();
    gate.release({ remaining: 0, resetAt: new Date(Date.now() + 300) });
    const started = Date.now();
    await gate.acquire();
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('throws LongWaitError, without counting the call, when the reset is further off than allowed', async () => {
    const gate = new RateGate();
    const reset = new Date(Date.now() + 5_000);
    gate.release({ remaining: 0, resetAt: reset });
    const err = await gate.acquire(1_000).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LongWaitError);
    expect((err as LongWaitError).resetAt).toEqual(reset);
  });
});

describe('RateGate with calls in flight', () => {
  it('waits briefly (not until the reset) when the room left is taken by calls in flight', async () => {
    const gate = new RateGate();
    gate.release({ remaining: 1, resetAt: new Date(Date.now() + 60_000) });
    await gate.acquire(2_000);
    // The one call left is in flight: a new one looks again soon, and is not a long wait.
    expect(gate.waitMs()).toBeLessThanOrEqual(100);
    expect(gate.usedUp).toBe(false);
    // Another holder releases the gate later (the time is the point: the waiter must wait for it).
    setTimeout(() => gate.release({ remaining: 5, resetAt: new Date(Date.now() + 60_000) }), 150);
    await gate.acquire(2_000);
  });
});
