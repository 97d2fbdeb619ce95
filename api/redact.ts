/**
 * Redaction of secrets (the API key) from text and from parsed response bodies. The client
 * passes its key explicitly; generic patterns also catch bearer tokens and service keys
 * (`<prefix>_live_…` / `<prefix>_test_…`) that it was not told about.
 */

/** What a redacted secret is replaced with. */
export const REDACTED = '[redacted]';

/** Secrets shorter than this are not matched literally (a one-letter "key" would shred text). */
const MIN_SECRET_LENGTH = 4;

/** `Bearer <token>`, unless already redacted (redaction is idempotent). */
const BEARER = /\b(Bearer)\s+(?!\[redacted\])[^\s"',;}\]]+/gi;
const SERVICE_KEY = /\b[A-Za-z0-9]+_(?:live|test)_[A-Za-z0-9_-]+/g;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Replaces every occurrence of the given secrets, of `Bearer <token>` and of service keys in
 * `text` with `[redacted]`.
 *
 * @example
 * redactText('bad key vis_live_abc', ['vis_live_abc']); // 'bad key [redacted]'
 */
export function redactText(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length < MIN_SECRET_LENGTH) continue;
    out = out.replace(new RegExp(escapeRegExp(secret), 'g'), REDACTED);
  }
  return out.replace(BEARER, `$1 ${REDACTED}`).replace(SERVICE_KEY, REDACTED);
}

/**
 * Returns a copy of a JSON-like value with every string (keys included) passed through
 * {@link redactText}. Non-plain objects are kept as they are; cycles are cut.
 */
export function redactDeep<T>(value: T, secrets: readonly string[] = []): T {
  const seen = new WeakSet<object>();
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return redactText(v, secrets);
    if (v === null || typeof v !== 'object') return v;
    if (seen.has(v)) return '[circular]';
    seen.add(v);
    if (Array.isArray(v)) return v.map(walk);
    const proto = Object.getPrototypeOf(v) as unknown;
    if (proto !== Object.prototype && proto !== null) return v;
    const out: Record<string, unknown> = {};
    for (const [k, inner] of Object.entries(v)) out[redactText(k, secrets)] = walk(inner);
    return out;
  };
  return walk(value) as T;
}
