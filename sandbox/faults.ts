/**
 * Fault injection for the /v1 routes: added latency, 500/503 answers, dropped connections,
 * responses that never finish, malformed bodies and bursts of 429. Off by default; decisions
 * come from a seeded PRNG so a run with the same seed and calls sees the same faults.
 * Faulted calls never reach the pipeline, so they never count against limits or charge credits;
 * the after-charge faults (`afterCharge`) are the exception: they replace the answer of a call
 * the pipeline already charged and saved, as a service that fails on its way back.
 */
import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { errorEnvelope } from './envelope.js';
import { epochSeconds } from './rate-limit.js';
import type { FaultOptions } from './types.js';

const rate = (name: string) =>
  z
    .number({ message: `${name} must be a number from 0 to 1` })
    .min(0, { message: `${name} must be at least 0` })
    .max(1, { message: `${name} must be at most 1` });
const ms = (name: string) =>
  z.number({ message: `${name} must be a number of ms` }).min(0, { message: `${name} must be at least 0` });

const FaultOptionsSchema = z
  .object({
    latencyMs: ms('latencyMs').optional(),
    jitterMs: ms('jitterMs').optional(),
    errorRate: rate('errorRate').optional(),
    dropRate: rate('dropRate').optional(),
    hangRate: rate('hangRate').optional(),
    malformedRate: rate('malformedRate').optional(),
    burst429: z
      .number()
      .int({ message: 'burst429 must be an integer >= 0' })
      .min(0, { message: 'burst429 must be an integer >= 0' })
      .optional(),
    seed: z.number().int({ message: 'seed must be an integer' }).optional(),
    afterCharge: z
      .object({
        dropRate: rate('afterCharge.dropRate').optional(),
        errorRate: rate('afterCharge.errorRate').optional(),
        hangRate: rate('afterCharge.hangRate').optional(),
        malformedRate: rate('afterCharge.malformedRate').optional(),
        operations: z.array(z.string()).optional(),
        times: z
          .number()
          .int({ message: 'afterCharge.times must be an integer >= 0' })
          .min(0, { message: 'afterCharge.times must be an integer >= 0' })
          .optional(),
      })
      .strict()
      .refine(
        (a) => (a.errorRate ?? 0) + (a.dropRate ?? 0) + (a.hangRate ?? 0) + (a.malformedRate ?? 0) <= 1,
        { message: 'afterCharge rates must not add up to more than 1' },
      )
      .optional(),
  })
  .strict()
  .refine((f) => (f.errorRate ?? 0) + (f.dropRate ?? 0) + (f.hangRate ?? 0) + (f.malformedRate ?? 0) <= 1, {
    message: 'errorRate + dropRate + hangRate + malformedRate must not exceed 1',
  });

/**
 * Validates fault options; throws an Error naming the field.
 *
 * @example
 * validateFaults({ errorRate: 2 }); // throws 'faults.errorRate: errorRate must be at most 1'
 */
export function validateFaults(faults: FaultOptions): FaultOptions {
  const parsed = FaultOptionsSchema.safeParse(faults);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field =
      issue?.path.map(String).join('.') || (issue?.code === 'unrecognized_keys' ? issue.keys.join(', ') : '');
    throw new Error(`faults${field ? `.${field}` : ''}: ${issue?.message ?? 'invalid fault options'}`);
  }
  return parsed.data;
}

/** mulberry32: a small, fast, seeded PRNG returning numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The shares of calls given each rate-driven fault (top-level faults and `afterCharge` alike). */
type FaultRates = Pick<FaultOptions, 'errorRate' | 'dropRate' | 'hangRate' | 'malformedRate'>;

/** What to do with one call. */
export type FaultKind = 'none' | 'error500' | 'error503' | 'drop' | 'hang' | 'malformed' | 'burst429';

export interface FaultAction {
  kind: FaultKind;
  /** Latency to add before answering (ms). */
  delayMs: number;
  /** For 'malformed': which variant. */
  variant: number;
}

/** Reset of a 429 from a burst: a short wait (1 s). */
export const BURST_RESET_MS = 1000;

const MALFORMED_BODIES = [
  { type: 'text/html; charset=utf-8', body: '<html><body><h1>502 Bad Gateway</h1></body></html>' },
  { type: 'application/json; charset=utf-8', body: '{"success": true, "operation": "' },
  { type: 'application/json; charset=utf-8', body: '{"status":"ok","result":[1,2,3]}' },
] as const;

/**
 * Decides and applies faults. One instance per running sandbox.
 */
export class FaultInjector {
  #faults: FaultOptions = {};
  #random: () => number = Math.random;
  #burstLeft = 0;
  #afterChargeLeft = Infinity;
  #afterChargeFaulted = 0;
  readonly #hanging = new Set<ServerResponse>();

  constructor(
    faults: FaultOptions,
    readonly defaultSeed: number,
    /** The per-minute limit reported in X-RateLimit-Limit of burst 429s. */
    readonly limitPerMinute: number,
  ) {
    this.set(faults);
  }

  /** Replaces the fault options (validated) and restarts the PRNG and the 429 burst. */
  set(faults: FaultOptions): void {
    this.#faults = validateFaults(faults);
    this.#random = seededRandom(this.#faults.seed ?? this.defaultSeed);
    this.#burstLeft = this.#faults.burst429 ?? 0;
    this.#afterChargeLeft = this.#faults.afterCharge?.times ?? Infinity;
  }

  /** Calls whose answer an after-charge fault replaced since the sandbox started. */
  get afterChargeFaulted(): number {
    return this.#afterChargeFaulted;
  }

  /**
   * Draws the after-charge fault of a call the pipeline answered: only a call that charged
   * credits (and is of the listed operations, when listed) can get one.
   */
  nextAfterCharge(operation: string, charged: number): FaultAction {
    const a = this.#faults.afterCharge;
    const none: FaultAction = { kind: 'none', delayMs: 0, variant: 0 };
    if (!a || charged <= 0 || this.#afterChargeLeft <= 0) return none;
    if (a.operations && !a.operations.includes(operation)) return none;
    const action = this.#draw(a, 0);
    if (action.kind !== 'none') {
      this.#afterChargeLeft -= 1;
      this.#afterChargeFaulted += 1;
    }
    return action;
  }

  /**
   * Draws one of the rate-driven faults (500/503 half each, drop, hang, malformed) from the
   * PRNG: one number for the kind, one more for the malformed body's variant when one is drawn.
   */
  #draw(rates: FaultRates, delayMs: number): FaultAction {
    const shares: [FaultKind, number][] = [
      ['error500', (rates.errorRate ?? 0) / 2],
      ['error503', (rates.errorRate ?? 0) / 2],
      ['drop', rates.dropRate ?? 0],
      ['hang', rates.hangRate ?? 0],
      ['malformed', rates.malformedRate ?? 0],
    ];
    const u = this.#random();
    let acc = 0;
    for (const [kind, share] of shares) {
      acc += share;
      if (u < acc) return { kind, delayMs, variant: Math.floor(this.#random() * MALFORMED_BODIES.length) };
    }
    return { kind: 'none', delayMs, variant: 0 };
  }

  get faults(): FaultOptions {
    return { ...this.#faults, burst429: this.#burstLeft };
  }

  /** Responses left hanging right now. */
  get hangingCount(): number {
    return this.#hanging.size;
  }

  /** Draws the fault of the next call. */
  next(): FaultAction {
    const f = this.#faults;
    const delayMs = (f.latencyMs ?? 0) + (f.jitterMs ? this.#random() * f.jitterMs : 0);
    if (this.#burstLeft > 0) {
      this.#burstLeft -= 1;
      return { kind: 'burst429', delayMs, variant: 0 };
    }
    const rates = [f.errorRate, f.dropRate, f.hangRate, f.malformedRate];
    if (rates.every((r) => (r ?? 0) === 0)) return { kind: 'none', delayMs, variant: 0 };
    return this.#draw(f, delayMs);
  }

  /**
   * Applies a fault to a /v1 call. Returns true when the call was answered (or dropped) by
   * the fault, false when the pipeline should answer it (after the latency). `headers` (the
   * caller's rate-limit headers) go on injected 500/503 answers.
   */
  async apply(
    action: FaultAction,
    operation: string,
    request: FastifyRequest,
    reply: FastifyReply,
    headers: Record<string, string> = {},
  ): Promise<boolean> {
    if (action.delayMs > 0) await sleep(action.delayMs);
    switch (action.kind) {
      case 'none':
        return false;
      case 'error500':
      case 'error503': {
        const status = action.kind === 'error500' ? 500 : 503;
        const code = status === 500 ? 'internal_error' : 'service_unavailable';
        const message =
          status === 500
            ? 'injected fault: internal error'
            : 'injected fault: service unavailable, retry later';
        void reply.headers(headers);
        if (status === 503) void reply.header('retry-after', '1');
        await reply
          .code(status)
          .type('application/json; charset=utf-8')
          .send(errorEnvelope(operation, code, message, null));
        return true;
      }
      case 'burst429': {
        const now = Date.now();
        const message = `rate limit exceeded (injected burst); retry after ${new Date(now + BURST_RESET_MS).toISOString()}`;
        await reply
          .code(429)
          .headers({
            'x-ratelimit-limit': String(this.limitPerMinute),
            'x-ratelimit-remaining': '0',
            'x-ratelimit-reset': String(epochSeconds(now + BURST_RESET_MS)),
            'retry-after': String(Math.ceil(BURST_RESET_MS / 1000)),
          })
          .type('application/json; charset=utf-8')
          .send(errorEnvelope(operation, 'rate_limited', message, null));
        return true;
      }
      case 'malformed': {
        const m = MALFORMED_BODIES[action.variant] ?? MALFORMED_BODIES[0];
        await reply.code(200).type(m.type).send(m.body);
        return true;
      }
      case 'drop':
        reply.hijack();
        request.raw.socket.destroy();
        return true;
      case 'hang': {
        reply.hijack();
        const raw = reply.raw;
        raw.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
        raw.write(`{"success":true,"operation":"${operation}","data":{"partial":`);
        this.#hanging.add(raw);
        raw.on('close', () => this.#hanging.delete(raw));
        return true;
      }
    }
  }

  /** Ends every hanging response by destroying its connection (used by close()). */
  destroyHanging(): void {
    for (const raw of this.#hanging) raw.destroy();
    this.#hanging.clear();
  }
}
