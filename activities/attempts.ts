/**
 * Counting the requests an API activity sends, its retries included. Temporal retries the
 * activity itself, so each attempt reads what the earlier ones sent from the heartbeat details
 * (the last one is delivered with a failure, never throttled away). An attempt records itself
 * in a heartbeat at the moment it sends its request (the API worker does not throttle
 * heartbeats), so an earlier attempt that left no such record (its worker died while it waited
 * for its turn) sent nothing.
 */
import { Context } from '@temporalio/activity';
import { heartbeatNow } from './heartbeat.js';
import { ATTEMPTS_DETAIL, type AttemptsDetail, type CallAttempts } from '../shared/types.js';

/** What the attempts of an activity so far sent and did not send (the heartbeat details). */
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
   * @param previous the heartbeat details the previous attempts left, if any
   */
  constructor(attempt: number, previous: unknown) {
    const prev = (previous ?? {}) as Partial<AttemptsSoFar>;
    const sent = count(prev.sent);
    const unrecorded = Math.max(0, attempt - 1 - sent - count(prev.notSent));
    this.#earlier = { sent, notSent: count(prev.notSent) + unrecorded };
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

  /** Records, in a heartbeat, that this attempt's request goes out now. */
  sending(): void {
    this.#sentNow = true;
    heartbeatNow(this.heartbeatDetails());
  }

  /** Corrects the record after a failure: did the request reach the service after all? */
  reached(yes: boolean): void {
    this.#sentNow = yes;
  }

  /** The heartbeat details while this attempt runs. */
  heartbeatDetails(): AttemptsSoFar {
    return { sent: this.#earlier.sent + (this.#sentNow ? 1 : 0), notSent: this.#earlier.notSent };
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
