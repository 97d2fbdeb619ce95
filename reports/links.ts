/**
 * Links a reader can open. A report is read on another machine, later: a link to the service's
 * interactive view at a loopback or private address (the sandbox's 127.0.0.1, a service inside
 * the company's network) opens nothing there, and is worse than no link. So a link goes into a
 * PDF, a workbook or a CSV file only when its host is public; a view link under the service's
 * base URL is rewritten to the service's public address when one is set (`VIS_PUBLIC_URL`).
 * Company and investor websites follow the same rule (a bare domain gets `https://`).
 */
import { isIP } from 'node:net';
import { webUrl } from './web-url.js';

/** Where the service is, and where readers reach its views (for links in reports). */
export interface ServiceLinks {
  /** The base URL the runner calls (VIS_BASE_URL), no trailing slash. */
  baseUrl: string;
  /** The public address of the service's views (VIS_PUBLIC_URL), or null. */
  publicUrl: string | null;
}

/** IPv4 ranges no reader elsewhere reaches: loopback, private, link-local, CGNAT, unspecified. */
function privateIpv4(host: string): boolean {
  const p = host.split('.').map(Number);
  if (p.length !== 4 || p.some((n) => !Number.isInteger(n) || n < 0 || n > 255)) return false;
  const [a, b] = p as [number, number, number, number];
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168)
  );
}

/** IPv6 addresses no reader elsewhere reaches: loopback, unspecified, unique-local, link-local, mapped private v4. */
function privateIpv6(host: string): boolean {
  const h = host.toLowerCase();
  if (h === '::1' || h === '::') return true;
  if (/^f[cd][0-9a-f]{2}:/.test(h) || /^fe[89ab][0-9a-f]:/.test(h)) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(h);
  return mapped ? privateIpv4(mapped[1]!) : false;
}

/**
 * Whether a host name is one only this machine or its own network can reach: `localhost` and
 * names under `.localhost`, `.local`, `.internal`, `.lan`, `.home.arpa`, a name with no dot, and
 * loopback, private, link-local and unspecified addresses (IPv4 and IPv6).
 *
 * @example
 * isPrivateHost('127.0.0.1') // true
 * isPrivateHost('192.168.1.20') // true
 * isPrivateHost('app.example.com') // false
 */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  if (host === '') return true;
  const ip = isIP(host);
  if (ip === 4) return privateIpv4(host);
  if (ip === 6) return privateIpv6(host);
  if (!host.includes('.')) return true;
  return /(^|\.)(localhost|local|internal|lan|home\.arpa)$/.test(host);
}

/**
 * The URL as a reader can open it, or null: an http(s) URL (a bare domain gets `https://`) whose
 * host is public. A link under the service's base URL is rewritten to its public address when
 * `links.publicUrl` is set; a loopback or private link with no public address is null.
 *
 * @example
 * const links = { baseUrl: 'http://127.0.0.1:8787', publicUrl: null };
 * readerUrl('http://127.0.0.1:8787/view/x', links)      // null
 * readerUrl('http://127.0.0.1:8787/view/x', { ...links, publicUrl: 'https://app.vis.io' }) // 'https://app.vis.io/view/x'
 * readerUrl('acme.io')                                   // 'https://acme.io'
 */
export function readerUrl(value: unknown, links?: ServiceLinks | null): string | null {
  const url = webUrl(value);
  if (url === null) return null;
  if (links?.publicUrl) {
    const base = links.baseUrl.replace(/\/+$/, '');
    if (url === base || url.startsWith(`${base}/`) || url.startsWith(`${base}?`)) {
      return webUrl(`${links.publicUrl.replace(/\/+$/, '')}${url.slice(base.length)}`);
    }
  }
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return null;
  }
  return isPrivateHost(host) ? null : url;
}
