/**
 * Parameter validation shared by the client and the sandbox: one message format that names
 * the parameter and its bound.
 */
import type { z } from 'zod';
import { OPERATIONS, type OperationName, type ParamsOut } from './operations.js';

export interface ParamIssue {
  /** Dotted path of the parameter, e.g. `limit` or `countries.0`. */
  field: string;
  message: string;
}

export type ValidationResult<N extends OperationName> =
  { ok: true; value: ParamsOut<N> } | { ok: false; issues: ParamIssue[]; message: string };

function issueText(issue: z.core.$ZodIssue): ParamIssue {
  const field = issue.path.map(String).join('.') || '(body)';
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.join(', ');
    return { field: issue.keys[0] ?? field, message: `unknown parameter ${keys}` };
  }
  let message = issue.message;
  if (issue.code === 'invalid_type' && issue.input === undefined) {
    message = message.includes('required') ? message : `${field} is required`;
  }
  if (!message.startsWith(field.split('.')[0] ?? '')) message = `${field}: ${message}`;
  return { field, message };
}

/**
 * Validates the parameters of an operation against the spec's bounds.
 *
 * @example
 * const r = validateParams('search_investors', { limit: 101 });
 * // r.ok === false; r.message === 'search_investors: limit must be at most 100 (1 to 100)'
 */
export function validateParams<N extends OperationName>(name: N, params: unknown): ValidationResult<N> {
  const schema = OPERATIONS[name].params as z.ZodType;
  if (params === null || typeof params !== 'object' || Array.isArray(params)) {
    return {
      ok: false,
      issues: [{ field: '(body)', message: 'parameters must be a JSON object' }],
      message: `${name}: parameters must be a JSON object`,
    };
  }
  const parsed = schema.safeParse(params, { reportInput: true });
  if (parsed.success) return { ok: true, value: parsed.data as ParamsOut<N> };
  const issues = parsed.error.issues.map(issueText);
  return { ok: false, issues, message: `${name}: ${issues.map((i) => i.message).join('; ')}` };
}
