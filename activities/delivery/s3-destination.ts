/**
 * The S3 destination as a job file gives it (`{ s3: { bucket, prefix, region, endpoint } }`),
 * validated with the schema of schema.ts; a bad one is an S3DestinationError naming the field.
 */
import { fieldOf } from '../../lib/fields.js';
import { S3DestinationSchema } from '../../config/destinations.js';
import type { S3Destination } from '../../config/destinations.js';

/** A destination that breaks the schema; `field` is the path of the first bad field (`s3.bucket`). */
export class S3DestinationError extends Error {
  readonly code = 'invalid_s3_destination';
  constructor(
    readonly field: string | null,
    readonly detail: string,
  ) {
    super(field ? `S3 destination: ${field}: ${detail}` : `S3 destination: ${detail}`);
    this.name = 'S3DestinationError';
  }
}

/**
 * Validates a job's destination (`{ s3: {...} }`) and returns its `s3` part with defaults.
 * A bad value is an S3DestinationError naming the field (`s3.bucket: "My_Bucket" is not a
 * valid S3 bucket name: ...`); several bad values are listed in one message.
 *
 * @param base the path of the destination in the job (`delivery[2]`), put before the field.
 */
export function parseS3Destination(input: unknown, base = ''): S3Destination {
  const parsed = S3DestinationSchema.safeParse(input);
  if (parsed.success) return parsed.data.s3;
  const at = (path: readonly PropertyKey[]) => [base, fieldOf(path)].filter(Boolean).join('.');
  const issues = parsed.error.issues.map((i) => ({ field: at(i.path), text: i.message }));
  const first = issues[0]!;
  if (issues.length === 1) return fail(first.field || null, first.text);
  return fail(first.field || null, issues.map((i) => `${i.field}: ${i.text}`).join('; '));
}

function fail(field: string | null, detail: string): never {
  throw new S3DestinationError(field, detail);
}
