/**
 * The Result envelope of every sandbox response, success or error: every field is always
 * present; data is null and charts empty on errors.
 */
import type { ChartSpec } from './result-shapes.js';
import type { Envelope } from './types.js';

/** Credits of a response: what the call charged and the balance left (null when the account is unknown). */
export type EnvelopeCredits = Envelope['credits'];

/** Builds a success envelope. */
export function successEnvelope(input: {
  operation: string;
  data: Record<string, unknown>;
  summary: string;
  charts?: ChartSpec[] | undefined;
  url?: string | null | undefined;
  credits: EnvelopeCredits;
}): Envelope {
  return {
    success: true,
    operation: input.operation,
    data: input.data,
    summary: input.summary,
    charts: input.charts ?? [],
    url: input.url ?? null,
    credits: input.credits,
  };
}

/**
 * Builds an error envelope; the summary repeats the message so readers that only show the
 * summary still see why the call failed.
 *
 * @example
 * errorEnvelope('ask', 'insufficient_credits', 'ask costs 1 credit; balance 0', { charged: 0, remaining: 0 });
 */
export function errorEnvelope(
  operation: string,
  code: string,
  message: string,
  credits: EnvelopeCredits,
): Envelope {
  return {
    success: false,
    operation,
    data: null,
    summary: message,
    charts: [],
    url: null,
    credits,
    error: { code, message },
  };
}
