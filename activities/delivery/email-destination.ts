/**
 * The email destination as a job file gives it, validated with the schema of schema.ts; a bad
 * one is an EmailDestinationError naming each field.
 */
import { fieldOf } from '../../lib/fields.js';
import { EmailDestinationError } from './email-errors.js';
import { EmailDestinationSchema } from '../../config/destinations.js';
import type { EmailDestination } from '../../config/destinations.js';

/**
 * Validates an email destination; a bad one is an `EmailDestinationError` naming each field
 * under `field` (`email.to[1]: "bob@" is not an email address`). Inside a job file the job's
 * own schema embeds {@link EmailDestinationSchema} and its loader words the same issues.
 */
export function parseEmailDestination(input: unknown, field = 'email'): EmailDestination {
  const parsed = EmailDestinationSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => {
    const at = fieldOf(i.path);
    const message =
      i.code === 'unrecognized_keys'
        ? `unknown field${i.keys.length === 1 ? '' : 's'} ${i.keys.map((k) => `"${k}"`).join(', ')}`
        : i.message;
    return { field: at === '' ? field : `${field}.${at}`, message };
  });
  throw new EmailDestinationError(issues);
}
