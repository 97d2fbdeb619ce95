/**
 * Counting the requests an API activity sends, its retries included. Temporal retries the
 * activity itself, so each attempt reads what the earlier ones sent from the heartbeat details
 * (the last one is delivered with a failure, never throttled away) and carries it in its own
 * heartbeats. An earlier attempt that left nothing (its worker died, or it timed out) counts as
 * sent: its request may have gone out.
 */
import { Context } from '@temporalio/activity';
import { ATTEMPTS_DETAIL, type AttemptsDetail, type CallAttempts } from './types.js';

/** What earlier attempts of an activity sent and did not send (the heartbeat details). */
export interface AttemptsSoFar {
  sent: number;
  notSent: number;
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : 0;
}

/** The tally of one API activity execution. */
export class AttemptTally {
  readonly #earlier: AttemptsSoFar;
  #sentNow = false;

  /**
   * @param attempt the attempt number (1 for the first)
   * @param previous the heartbeat details the previous attempt left, if any
   */
  constructor(attempt: number, previous: unknown) {
    const prev = (previous ?? {}) as Partial<AttemptsSoFar>;
    const sent = count(prev.sent);
    const notSent = count(prev.notSent);
    const lost = Math.max(0, attempt - 1 - sent - notSent);
    this.#earlier = { sent: sent + lost, notSent };
  }

  /** The tally of the activity running now (a first attempt outside an activity). */
  static current(): AttemptTally {
    try {
      const info = Context.current().info;
      return new AttemptTally(info.attempt, info.heartbeatDetails);
    } catch {
      return new AttemptTally(1, undefined);
    }
  }

  /** Records that this attempt's request went out (or, for a failure, may have). */
  sent(reached = true): void {
    this.#sentNow = reached;
  }

  /** The heartbeat details while this attempt runs: what the earlier ones sent. */
  heartbeatDetails(): AttemptsSoFar {
    return { ...this.#earlier };
  }

  /** The heartbeat details this attempt leaves when it fails. */
  detailsAfterFailure(): AttemptsSoFar {
    const now = this.#sentNow ? 1 : 0;
    return { sent: this.#earlier.sent + now, notSent: this.#earlier.notSent + 1 - now };
  }

  /** What the call sent when this attempt succeeded: every earlier request failed. */
  succeeded(): CallAttempts {
    return { sent: this.#earlier.sent + 1, failed: this.#earlier.sent };
  }

  /** What the call sent when this attempt failed (the failure's details carry it). */
  failed(): AttemptsDetail {
    const sent = this.#earlier.sent + (this.#sentNow ? 1 : 0);
    return { kind: ATTEMPTS_DETAIL, sent, failed: sent };
  }
}
