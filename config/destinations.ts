/**
 * What a job file may say about delivery, validated with zod and nothing else: the `email`,
 * `webhook` and `s3` destinations and the job's `delivery` list. No sender is loaded here
 * (nodemailer, the AWS SDK, undici): job files are parsed by the CLI, the schedules and the
 * workers, and parsing a job must not pull them in. The senders (email-*.ts, webhook-*.ts,
 * s3-*.ts) import their schema from here.
 *
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
import { insecureUrlProblem } from '../lib/urls.js';

// ---------------------------------------------------------------------------------------------
// Mailboxes
// ---------------------------------------------------------------------------------------------

const ADDRESS_RE =
  /^[^\s@<>(),;:"[\]\\]+@([A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+)$/;

/** Splits `Name <addr>` or `addr` into the address and its domain; null when it is neither. */
export function parseMailbox(value: string): { address: string; domain: string } | null {
  const trimmed = value.trim();
  const angled = /^[^<>\r\n]*<([^<>\s]+)>$/.exec(trimmed);
  const address = angled ? angled[1]! : trimmed;
  const m = ADDRESS_RE.exec(address);
  if (!m || address.length > 254) return null;
  return { address, domain: m[1]!.toLowerCase() };
}

// ---------------------------------------------------------------------------------------------
// Email
// ---------------------------------------------------------------------------------------------

/** The placeholders a subject template may use. */
export const SUBJECT_PLACEHOLDERS = ['job', 'title', 'date', 'status'] as const;

/** What an email destination is when the job file does not say. */
export const EMAIL_DEFAULTS = {
  subject: '{title} - {date}',
  attach: 'files',
  zipCsv: false,
  sizeLimitMb: 20,
} as const;

/** Bytes in the size limit's megabyte (decimal, as mail providers state their limits). */
export const MB = 1_000_000;

/** Most recipients one destination may list (to and cc together). */
const MAX_RECIPIENTS = 50;

const address = z.string().superRefine((value, ctx) => {
  if (parseMailbox(value) === null || /[<>]/.test(value))
    ctx.addIssue({ code: 'custom', message: `${JSON.stringify(value)} is not an email address` });
});

/** One address, several, or a comma-separated list: always an array. */
const addressList = z.preprocess(
  (v) => (typeof v === 'string' ? v.split(',').map((s) => s.trim()) : v),
  z
    .array(address)
    .min(1, { message: 'must name at least one address' })
    .max(MAX_RECIPIENTS, { message: `must name at most ${MAX_RECIPIENTS} addresses` }),
);

const subjectTemplate = z
  .string()
  .min(1, { message: 'must not be empty' })
  .max(200, { message: 'must be at most 200 characters' })
  .superRefine((value, ctx) => {
    for (const m of value.matchAll(/\{([^{}]*)\}/g)) {
      if (!(SUBJECT_PLACEHOLDERS as readonly string[]).includes(m[1]!))
        ctx.addIssue({
          code: 'custom',
          message: `unknown placeholder {${m[1]}} (known: ${SUBJECT_PLACEHOLDERS.map((p) => `{${p}}`).join(', ')})`,
        });
    }
    if (/[\r\n]/.test(value)) ctx.addIssue({ code: 'custom', message: 'must be one line' });
  });

/** The email destination as a job file gives it (`delivery.email`). No secrets here: SMTP comes from the environment. */
export const EmailDestinationSchema = z
  .object({
    /** The destination's id in the job (default `email-1`, `email-2`, … by position). */
    id: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, { message: 'must be letters, digits, . _ - (up to 64)' })
      .optional(),
    to: addressList,
    cc: addressList.optional(),
    subject: subjectTemplate.default(EMAIL_DEFAULTS.subject),
    attach: z
      .enum(['files', 'links'], { message: 'must be "files" or "links"' })
      .default(EMAIL_DEFAULTS.attach),
    zipCsv: z.boolean({ message: 'must be true or false' }).default(EMAIL_DEFAULTS.zipCsv),
    sizeLimitMb: z
      .number({ message: 'must be a number of megabytes' })
      .min(1, { message: 'must be at least 1' })
      .max(100, { message: 'must be at most 100' })
      .default(EMAIL_DEFAULTS.sizeLimitMb),
  })
  .strict();

/** A validated email destination, defaults applied. */
export type EmailDestination = z.output<typeof EmailDestinationSchema>;

// ---------------------------------------------------------------------------------------------
// Webhook
// ---------------------------------------------------------------------------------------------

/** The variable that holds the signing secret when a destination names none. */
export const DEFAULT_WEBHOOK_SECRET_ENV = 'VIR_WEBHOOK_SECRET';

/** Every default of a webhook delivery, in one place. */
export const WEBHOOK_DEFAULTS = {
  format: 'json',
  secretEnv: DEFAULT_WEBHOOK_SECRET_ENV,
  /** Per attempt: connect, headers and body together. */
  timeoutMs: 10_000,
  /**
   * The longest Retry-After a delivery waits for before its next attempt; a receiver asking for
   * longer ends the delivery (its attempts are Temporal's: workflows/delivery.ts).
   */
  maxRetryAfterMs: 30_000,
  /** A receiver's signature check accepts a timestamp this far from its clock. */
  toleranceSeconds: 300,
} as const;

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Field names that would hold a secret's value (the job file never does). */
const SECRET_FIELD = /secret|token|password|passwd|api[-_]?key|signing[-_]?key|^key$|^hmac/i;

export function httpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

const KNOWN_FIELDS = new Set(['type', 'id', 'url', 'format', 'secretEnv', 'timeoutMs', 'insecure']);

/**
 * Why a webhook destination's URL may not be used, or null: to a host that is not this machine
 * it must be https (the signed manifest would otherwise travel in clear text) unless the
 * destination says `insecure: true`; loopback http (127.0.0.0/8, ::1, localhost) is allowed.
 * The job file's schema and the run's first activity (jobs/preflight.ts) both ask it.
 *
 * @example
 * webhookUrlProblem({ url: 'http://hooks.example.com/vir' }) // 'must be https for a host …'
 * webhookUrlProblem({ url: 'http://hooks.example.com/vir', insecure: true }) // null
 */
export function webhookUrlProblem(destination: {
  url: string;
  insecure?: boolean | undefined;
}): string | null {
  return insecureUrlProblem(destination.url, destination.insecure === true);
}

/**
 * A `webhook` destination of a job file. The signing secret is never here: `secretEnv` names the
 * environment variable that holds it (or `<NAME>_FILE`, a secrets file).
 *
 * @example
 * // in a job file
 * // delivery:
 * //   - type: webhook
 * //     url: https://hooks.slack.com/services/T000/B000/XXXX
 * //     format: slack
 * //     secretEnv: VIR_SLACK_WEBHOOK_SECRET
 */
export const WebhookDestinationSchema = z
  .looseObject({
    /** Present when the destination comes from a list of several kinds. */
    type: z.literal('webhook').optional(),
    /** The destination's id in the job (keys the Idempotency-Key); `webhook-<n>` when absent. */
    id: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, {
        message: 'must be 1 to 64 letters, digits, ".", "_" or "-"',
      })
      .optional(),
    url: z
      .string({ message: 'is required: the http or https URL to POST to' })
      .refine(httpUrl, { message: 'must be an http or https URL (like https://hooks.example.com/vir)' })
      .refine((u) => !httpUrl(u) || (new URL(u).username === '' && new URL(u).password === ''), {
        message: 'must not carry a user name or password (the signing secret comes from the environment)',
      }),
    format: z
      .enum(['slack', 'json'], { message: 'must be "slack" or "json"' })
      .default(WEBHOOK_DEFAULTS.format),
    secretEnv: z
      .string()
      .regex(ENV_NAME, {
        message:
          'must be the NAME of an environment variable (like VIR_WEBHOOK_SECRET), not the secret itself',
      })
      .max(128, { message: 'must be the NAME of an environment variable, at most 128 characters' })
      .default(WEBHOOK_DEFAULTS.secretEnv),
    timeoutMs: z
      .number({ message: 'must be a number of milliseconds' })
      .int({ message: 'must be a whole number of milliseconds' })
      .min(100, { message: 'must be at least 100' })
      .max(300_000, { message: 'must be at most 300000' })
      .default(WEBHOOK_DEFAULTS.timeoutMs),
    /**
     * Allows plain http to a host that is not this machine (the signed manifest then travels in
     * clear text); without it such a URL is refused.
     */
    insecure: z.boolean({ message: 'must be true or false' }).default(false),
  })
  .superRefine((value, ctx) => {
    if (typeof value.url === 'string' && httpUrl(value.url)) {
      const problem = webhookUrlProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', path: ['url'], message: problem });
    }
    for (const key of Object.keys(value)) {
      if (KNOWN_FIELDS.has(key)) continue;
      ctx.addIssue({
        code: 'custom',
        path: [key],
        message: SECRET_FIELD.test(key)
          ? 'a secret never goes in the job file: put it in the environment variable named by ' +
            `secretEnv (default ${DEFAULT_WEBHOOK_SECRET_ENV}) or in a file named by <NAME>_FILE`
          : `unknown field (a webhook has ${[...KNOWN_FIELDS].join(', ')})`,
      });
    }
  })
  .transform(({ type, id, url, format, secretEnv, timeoutMs, insecure }) => ({
    ...(type === undefined ? {} : { type }),
    ...(id === undefined ? {} : { id }),
    url,
    format,
    secretEnv,
    timeoutMs,
    ...(insecure ? { insecure: true as const } : {}),
  }));

/** A webhook destination as the job file gives it (defaults optional). */
export type WebhookDestinationInput = z.input<typeof WebhookDestinationSchema>;
/** A webhook destination with its defaults. */
export type WebhookDestination = z.output<typeof WebhookDestinationSchema>;

// ---------------------------------------------------------------------------------------------
// Object storage (S3)
// ---------------------------------------------------------------------------------------------

/** Reserved prefixes and suffixes of S3 bucket names (AWS general purpose bucket rules). */
const RESERVED_BUCKET_PREFIXES = ['xn--', 'sthree-', 'amzn-s3-demo-'];
const RESERVED_BUCKET_SUFFIXES = ['-s3alias', '--ol-s3', '.mrap', '--x-s3', '--table-s3'];

/** Why a bucket name breaks S3's naming rules, or null when it is a valid name. */
export function bucketNameProblem(name: string): string | null {
  if (name.length < 3 || name.length > 63) return `must be 3 to 63 characters long (got ${name.length})`;
  if (!/^[a-z0-9.-]+$/.test(name)) return 'may hold only lowercase letters, digits, dots and hyphens';
  if (!/^[a-z0-9]/.test(name) || !/[a-z0-9]$/.test(name))
    return 'must begin and end with a letter or a digit';
  if (name.includes('..')) return 'must not hold two adjacent dots';
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(name)) return 'must not be formatted as an IP address';
  const prefix = RESERVED_BUCKET_PREFIXES.find((p) => name.startsWith(p));
  if (prefix) return `must not begin with the reserved prefix "${prefix}"`;
  const suffix = RESERVED_BUCKET_SUFFIXES.find((s) => name.endsWith(s));
  if (suffix) return `must not end with the reserved suffix "${suffix}"`;
  return null;
}

const bucketSchema = z
  .string({ error: 'is required: the bucket the files are written to' })
  .superRefine((name, ctx) => {
    const problem = bucketNameProblem(name);
    if (problem)
      ctx.addIssue({ code: 'custom', message: `"${name}" is not a valid S3 bucket name: it ${problem}` });
  });

const prefixSchema = z
  .string()
  .default('')
  .transform((p) => p.replace(/^\/+|\/+$/g, ''))
  .superRefine((p, ctx) => {
    if (p !== '' && p.split('/').some((seg) => seg === '' || seg === '.' || seg === '..')) {
      ctx.addIssue({ code: 'custom', message: `"${p}" must not hold empty, "." or ".." segments` });
    }
    if (Buffer.byteLength(p) > 512)
      ctx.addIssue({ code: 'custom', message: 'must be at most 512 bytes long' });
  });

const endpointSchema = z.string().superRefine((s, ctx) => {
  let url: URL;
  try {
    url = new URL(s);
  } catch {
    ctx.addIssue({ code: 'custom', message: `"${s}" is not a URL (expected http:// or https://)` });
    return;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    ctx.addIssue({ code: 'custom', message: `"${s}" must be an http:// or https:// URL` });
  }
  if (url.username || url.password) {
    ctx.addIssue({ code: 'custom', message: 'must not hold credentials: keys come from the environment' });
  }
});

/** The inner `s3:` mapping of a destination, before defaults. */
export const S3DestinationFieldsSchema = z
  .object({
    /** The bucket (must exist; S3 naming rules). */
    bucket: bucketSchema,
    /** Folder the run's folders go under (`reports/weekly`); leading/trailing slashes are dropped. */
    prefix: prefixSchema,
    /** The bucket's region. */
    region: z
      .string()
      .regex(/^[a-z0-9-]+$/, { message: 'must be a region name such as "eu-central-1"' })
      .default('us-east-1'),
    /** An S3-compatible store's URL (MinIO, Ceph, versitygw, R2...); AWS when absent. */
    endpoint: endpointSchema.optional(),
    /** Address buckets as `<endpoint>/<bucket>` (default: true when `endpoint` is set). */
    forcePathStyle: z.boolean().optional(),
  })
  .strict()
  .transform((d) => ({ ...d, forcePathStyle: d.forcePathStyle ?? d.endpoint !== undefined }));

/** A destination as the job file writes it: `{ s3: { bucket, prefix?, region?, endpoint?, forcePathStyle? } }`. */
export const S3DestinationSchema = z
  .object({
    /** The destination's id in the job (default `s3-1` is given by the caller). */
    id: z.string().min(1).optional(),
    s3: S3DestinationFieldsSchema,
  })
  .strict();

/** A validated destination with its defaults applied. */
export type S3Destination = z.output<typeof S3DestinationFieldsSchema>;

// ---------------------------------------------------------------------------------------------
// The delivery list
// ---------------------------------------------------------------------------------------------

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
