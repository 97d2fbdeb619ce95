/**
 * The webhook destination as a job file gives it: validating it, the target that errors and
 * logs name (its origin), and the signing secret it names in the environment.
 */
import { readFileSync } from 'node:fs';
import { WebhookDestinationSchema } from '../../config/destinations.js';
import type { WebhookDestination } from '../../config/destinations.js';
import { WebhookConfigError, WebhookSecretError } from './webhook-errors.js';

/**
 * Validates a destination; a bad one is a WebhookConfigError naming the field.
 *
 * @example
 * parseWebhookDestination({ url: 'ftp://x' }); // throws: webhook url: must be an http or https URL ...
 */
export function parseWebhookDestination(input: unknown): WebhookDestination {
  const parsed = WebhookDestinationSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field =
    issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : String(p))).join('.') || '(webhook)';
  const message =
    issue.code === 'invalid_type' && issue.path.length === 0
      ? 'must be a mapping of fields (url, format, secretEnv, timeoutMs)'
      : issue.message;
  throw new WebhookConfigError(field, message);
}

/** Where a message goes, as errors and logs name it: the origin only (a path may hold a token). */
export function webhookTarget(dest: Pick<WebhookDestination, 'url'>): string {
  try {
    return new URL(dest.url).origin;
  } catch {
    return '(invalid url)';
  }
}

/**
 * The destination's signing secret: the variable `secretEnv` names, or the file its `<NAME>_FILE`
 * variable names (a Docker/Kubernetes secret; a trailing newline is dropped). Errors name the
 * variable, never the value.
 *
 * @example
 * webhookSecretFromEnv({ secretEnv: 'VIR_WEBHOOK_SECRET' }, process.env)
 */
export function webhookSecretFromEnv(
  dest: Pick<WebhookDestination, 'secretEnv'>,
  env: NodeJS.ProcessEnv = process.env,
): string {
  const name = dest.secretEnv;
  const fileVar = `${name}_FILE`;
  const direct = env[name];
  const file = env[fileVar];
  const hasDirect = direct !== undefined && direct.trim() !== '';
  const hasFile = file !== undefined && file.trim() !== '';
  if (hasDirect && hasFile) {
    throw new WebhookSecretError(name, `set either ${name} or ${fileVar}, not both`);
  }
  if (hasDirect) return direct.trim();
  if (hasFile) {
    let text: string;
    try {
      text = readFileSync(file.trim(), 'utf8');
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      throw new WebhookSecretError(
        fileVar,
        `cannot read the secrets file it names${typeof code === 'string' ? ` (${code})` : ''}`,
        err,
      );
    }
    const secret = text.replace(/\r?\n$/, '').trim();
    if (secret === '') throw new WebhookSecretError(fileVar, 'the secrets file it names is empty');
    return secret;
  }
  throw new WebhookSecretError(
    name,
    `is not set: the webhook's signing secret comes from ${name} or from a file named by ${fileVar}`,
  );
}
