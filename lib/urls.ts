/**
 * URLs a job file names, checked as the service and the senders need them: a website is an
 * http(s) URL (or a bare domain) with a host name; a destination on another machine must be
 * https unless the job says otherwise. Each check returns
 * why a value fails, in words that follow the field's name, or null when it is fine.
 */

/** A host name of labels separated by dots (letters of any script, digits and hyphens). */
const DOMAIN_RE = /^(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.)+[\p{L}\p{N}-]{2,63}$/u;
/** A scheme at the start of a value (`https:`, `javascript:`), not a `host:port`. */
const SCHEME_RE = /^([a-z][a-z0-9+.-]*):(?!\d+(?:[/?#]|$))/i;

/**
 * Whether a URL's host is this machine: `localhost` (and names under `.localhost`), any address
 * of 127.0.0.0/8, or `::1`.
 *
 * @example
 * isLoopbackHost('127.0.0.1') // true
 * isLoopbackHost('[::1]') // true
 * isLoopbackHost('hooks.example.com') // false
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '::1' || host === '0:0:0:0:0:0:0:1') return true;
  return /^127(?:\.\d{1,3}){3}$/.test(host) && host.split('.').every((n) => Number(n) <= 255);
}

/**
 * Why a value is not a website the service can read, or null when it is one: an http or https
 * URL with a host name, or a bare domain (`acme.io`, `www.acme.io/about`), without spaces or a
 * user name.
 *
 * @example
 * websiteProblem('https://acme.io') // null
 * websiteProblem('acme.io') // null
 * websiteProblem('not a url at all') // '"not a url at all" is not a URL: …'
 */
export function websiteProblem(value: string): string | null {
  const text = value.trim();
  const shown = JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
  const hint = "give the company's site as a URL with a host name, like https://example.com";
  if (/\s/.test(text)) return `${shown} is not a URL (it holds spaces): ${hint}`;
  const scheme = SCHEME_RE.exec(text)?.[1]?.toLowerCase();
  if (scheme !== undefined && scheme !== 'http' && scheme !== 'https') {
    return `${shown} is a ${scheme}: link, not a website: ${hint}`;
  }
  let url: URL;
  try {
    url = new URL(scheme === undefined ? `https://${text.replace(/^\/\//, '')}` : text);
  } catch {
    return `${shown} is not a URL: ${hint}`;
  }
  if (url.username !== '' || url.password !== '') {
    return `${shown} must not carry a user name or password: ${hint}`;
  }
  const host = url.hostname.replace(/\.$/, '');
  if (!DOMAIN_RE.test(host) && !/^\d{1,3}(?:\.\d{1,3}){3}$/.test(host)) {
    return `${shown} has no host name the service can read: ${hint}`;
  }
  return null;
}

/**
 * Why an http(s) destination URL may not be used as it is, or null: one on another machine must
 * be https (what is sent there would travel in clear text) unless `insecure` allows plain http;
 * this machine's (loopback) may be http.
 *
 * @example
 * insecureUrlProblem('http://hooks.example.com/vir', false) // 'must be https …'
 * insecureUrlProblem('http://127.0.0.1:8080/hook', false) // null
 */
export function insecureUrlProblem(value: string, insecure: boolean): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' || insecure || isLoopbackHost(url.hostname)) return null;
  return (
    `must be https for a host that is not this machine (${url.hostname}): over http the signed ` +
    'manifest travels in clear text; set insecure: true on the destination to allow it'
  );
}
