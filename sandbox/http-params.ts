/**
 * Reading request parameters off HTTP: a POST body (JSON text) and GET query parameters, as
 * the /v1 routes and the HTML views take them.
 */
import { OPERATIONS } from '../api/index.js';
import { InvalidBody } from './pipeline.js';

/** Reads a POST body (a string from the /v1 content parser) into parameters or an InvalidBody. */
export function readJsonBody(body: unknown): unknown {
  if (body === undefined || body === null || (typeof body === 'string' && body.trim() === '')) {
    return new InvalidBody(
      'the request body is required: send a JSON object ({} for an operation without parameters)',
    );
  }
  if (typeof body !== 'string') return body;
  try {
    return JSON.parse(body) as unknown;
  } catch (error) {
    return new InvalidBody(`the request body is not valid JSON (${(error as Error).message})`);
  }
}

/**
 * Reads GET query parameters: array parameters accept repeated parameters and comma-separated
 * values (both at once too); integer parameters are decoded from decimal text; any other
 * parameter given twice stays an array (and fails validation naming it).
 */
export function readQueryParams(operation: keyof typeof OPERATIONS, search: string): Record<string, unknown> {
  const def = OPERATIONS[operation];
  const query = new URLSearchParams(search);
  const out: Record<string, unknown> = {};
  for (const name of new Set(query.keys())) {
    const values = query.getAll(name);
    if (def.arrayParams.includes(name)) {
      out[name] = values
        .flatMap((v) => v.split(','))
        .map((v) => v.trim())
        .filter((v) => v !== '');
    } else if (def.integerParams.includes(name)) {
      const decoded = values.map((v) => (/^\s*-?\d+\s*$/.test(v) ? Number(v) : v));
      out[name] = decoded.length === 1 ? decoded[0] : decoded;
    } else {
      out[name] = values.length === 1 ? values[0] : values;
    }
  }
  return out;
}
