/**
 * A job's delivery destinations, as its file writes them: a list of one-key objects, the key
 * naming the kind (`email`, `webhook`, `s3`), each with an optional `id` (default `<kind>-<n>`,
 * n counting that kind from 1). Each kind's own schema validates its fields; a problem is reported
 * at its full path (`delivery[1].email.to[0]`). Secrets are never part of a destination: each
 * sender reads its own from the environment when it runs.
 *
 * @example
 * delivery:
 *   - email: { to: [ann@example.com] }
 *   - webhook: { url: https://hooks.example.com/vir, format: slack }
 *   - s3: { bucket: vir-reports, prefix: weekly }
 */
import { z } from 'zod';
import { EmailDestinationSchema, type EmailDestination } from './email.js';
import { S3DestinationFieldsSchema, type S3Destination } from './s3.js';
import { WebhookDestinationSchema, type WebhookDestination } from './webhook.js';

export const DESTINATION_KINDS = ['email', 'webhook', 's3'] as const;
export type DestinationKind = (typeof DESTINATION_KINDS)[number];

/** One validated destination: its kind, its id, and its kind's fields with defaults applied. */
export type Destination =
  | { kind: 'email'; id: string; email: EmailDestination }
  | { kind: 'webhook'; id: string; webhook: WebhookDestination }
  | { kind: 's3'; id: string; s3: S3Destination };

const ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** The schema of each kind's fields (the id is the destination's, outside them). */
const FIELDS: Record<DestinationKind, z.ZodType> = {
  email: EmailDestinationSchema,
  webhook: WebhookDestinationSchema,
  s3: S3DestinationFieldsSchema,
};

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const SHAPES = '{ email: {...} }, { webhook: {...} } or { s3: {...} }';

/**
 * The `delivery` list of a job: every destination validated, each problem at its path, ids
 * given by position when absent and checked unique.
 */
export const DeliverySchema = z
  .array(z.unknown(), { message: `must be a list of destinations: ${SHAPES}` })
  .max(20, { message: 'must list at most 20 destinations' })
  .transform((list, ctx): Destination[] => {
    const out: Destination[] = [];
    const counts: Record<DestinationKind, number> = { email: 0, webhook: 0, s3: 0 };
    const seen = new Set<string>();
    list.forEach((item, index) => {
      if (!isPlainObject(item)) {
        ctx.addIssue({ code: 'custom', path: [index], message: `must be one of ${SHAPES}` });
        return;
      }
      const keys = Object.keys(item).filter((k) => k !== 'id');
      const kind = keys[0];
      if (keys.length !== 1 || !(DESTINATION_KINDS as readonly string[]).includes(kind ?? '')) {
        const unknown = keys.filter((k) => !(DESTINATION_KINDS as readonly string[]).includes(k));
        ctx.addIssue({
          code: 'custom',
          path: [index],
          message:
            keys.length === 0
              ? `names no kind: must be one of ${SHAPES}`
              : unknown.length > 0
                ? `unknown destination kind ${unknown.map((k) => `"${k}"`).join(', ')}: must be one of ${SHAPES}`
                : `names ${keys.length} kinds (${keys.join(', ')}): one destination a list item`,
        });
        return;
      }
      const k = kind as DestinationKind;
      counts[k] += 1;
      const inner = item[k];
      // An id may be given beside the kind or inside its fields (as the kinds' own schemas allow).
      const innerId = isPlainObject(inner) && typeof inner.id === 'string' ? inner.id : undefined;
      const given = item.id ?? innerId;
      if (given !== undefined && (typeof given !== 'string' || !ID.test(given))) {
        ctx.addIssue({
          code: 'custom',
          path: [index, 'id'],
          message: 'must be 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit',
        });
        return;
      }
      const id = given ?? `${k}-${counts[k]}`;
      if (seen.has(id)) {
        ctx.addIssue({
          code: 'custom',
          path: [index, 'id'],
          message: `"${id}" is the id of another destination`,
        });
        return;
      }
      seen.add(id);
      const parsed = FIELDS[k].safeParse(inner);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) {
          const message =
            issue.code === 'unrecognized_keys'
              ? `unknown field${issue.keys.length === 1 ? '' : 's'} ${issue.keys.map((x) => `"${x}"`).join(', ')}`
              : issue.message;
          ctx.addIssue({ code: 'custom', path: [index, k, ...issue.path], message });
        }
        return;
      }
      const fields = { ...(parsed.data as Record<string, unknown>) };
      delete fields.id;
      delete fields.type;
      out.push({ kind: k, id, [k]: fields } as Destination);
    });
    return out;
  });
