/**
 * The Result envelope and the error response: the one part of an answer read strictly, as the
 * spec shows it (success, operation, data, summary, charts, url, credits). Unknown fields pass
 * through; what is inside `data` and each chart is read by api/read.ts, never rejected here.
 */
import { z } from 'zod';

/**
 * A chart spec as the runner reads it: an object whose named keys (type, title, xKey, series,
 * data, unit) are all read tolerantly by the chart renderer, since the spec shows neither the
 * shape of series items nor the allowed types. Any object is accepted here.
 */
export const ChartSpecObject = z.record(z.string(), z.unknown());
export interface ChartSpec {
  type?: unknown;
  title?: unknown;
  xKey?: unknown;
  series?: unknown;
  data?: unknown;
  unit?: unknown;
  [field: string]: unknown;
}

export const CreditsSchema = z.looseObject({
  charged: z.number().int(),
  remaining: z.number().int().nullable(),
});
export type Credits = z.infer<typeof CreditsSchema>;

export const ErrorBodySchema = z.looseObject({
  code: z.string(),
  message: z.string(),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** The Result envelope every operation returns, success or error. */
export const ResultSchema = z.looseObject({
  success: z.boolean(),
  operation: z.string(),
  data: z.record(z.string(), z.unknown()).nullable().optional(),
  summary: z.string().nullable().optional(),
  charts: z.array(ChartSpecObject).nullable().optional(),
  url: z.string().nullable().optional(),
  credits: CreditsSchema.nullable().optional(),
  error: ErrorBodySchema.optional(),
});
/**
 * A Result as the service sent it (the envelope checked, everything else as received). `data`
 * is read with api/read.ts.
 */
export type Result = z.infer<typeof ResultSchema>;

/** An error response: success false with an error object. */
export const ErrorResponseSchema = ResultSchema.extend({
  success: z.literal(false),
  error: ErrorBodySchema,
});
export type ErrorResponse = z.infer<typeof ErrorResponseSchema>;

/**
 * Error codes. The spec names upgrade_required and insufficient_credits; the others are the
 * sandbox's choice (documented in the README) and the client classifies by status first.
 */
export const ERROR_CODES = {
  invalid_input: 400,
  unauthorized: 401,
  upgrade_required: 402,
  insufficient_credits: 402,
  insufficient_scope: 403,
  plan_required: 403,
  account_type_required: 403,
  not_found: 404,
  rate_limited: 429,
  internal_error: 500,
  service_unavailable: 503,
} as const;
export type ErrorCode = keyof typeof ERROR_CODES;
