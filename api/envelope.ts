/**
 * The Result envelope, chart spec and error response. Tolerant readers: unknown fields pass
 * through; fields the spec does not show are optional.
 */
import { z } from 'zod';

/** A chart spec as the service returns it (type, title, xKey, series, data, unit). */
export const ChartSpecSchema = z.looseObject({
  type: z.string(),
  title: z.string().optional(),
  xKey: z.string().optional(),
  /** Shape not shown by the spec: strings (data keys) or objects ({ key, name?, type?, ... }). */
  series: z.array(z.unknown()).optional(),
  data: z.array(z.record(z.string(), z.unknown())).optional(),
  unit: z.string().nullable().optional(),
});
export type ChartSpec = z.infer<typeof ChartSpecSchema>;

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
  charts: z.array(ChartSpecSchema).nullable().optional(),
  url: z.string().nullable().optional(),
  credits: CreditsSchema.nullable().optional(),
  error: ErrorBodySchema.optional(),
});
type ResultFields = z.infer<typeof ResultSchema>;
/**
 * A parsed Result with typed data. (A key-remapping mapped type, not `Omit`: `Omit` over the
 * loose object's index signature would drop every named field.)
 */
export type Result<D = Record<string, unknown>> = {
  [K in keyof ResultFields as K extends 'data' ? never : K]: ResultFields[K];
} & { data: D };

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
