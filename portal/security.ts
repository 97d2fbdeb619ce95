/**
 * The portal's guards, each in one place:
 *
 * - **Who may ask.** A request from this machine (a loopback address, naming a loopback or
 *   numeric host, or the host of VIR_PORTAL_URL) needs nothing more. Any other needs the token
 *   (VIR_PORTAL_TOKEN): `Authorization: Bearer <token>`, or the session cookie `/login` sets
 *   once. Else 401 (the login form for a browser). The cookie holds an HMAC of the token, never
 *   the token; no page ever shows it.
 * - **Actions.** Every POST carries a CSRF field: an HMAC of the client's CSRF cookie under a
 *   secret of this process (a page puts it in its forms); missing or wrong, 403. A POST whose
 *   Origin names another host is refused the same way.
 * - **Headers.** HTML goes out with a Content-Security-Policy (scripts and styles from the portal
 *   only), no framing, no referrer, no caching.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { redactText } from '../api/redact.js';
import { html, page } from './html.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The CSRF field this client's forms carry. */
    portalCsrf: string;
  }
}

/** The cookie that says a browser logged in with the token. */
export const SESSION_COOKIE = 'vir_portal_session';
/** The cookie the CSRF field is derived from. */
export const CSRF_COOKIE = 'vir_portal_csrf';
/** The form field of the CSRF token. */
export const CSRF_FIELD = 'csrf';

/** How long the session cookie lasts (30 days). */
const SESSION_MAX_AGE_S = 30 * 24 * 3600;

/** Whether an address (the socket's peer) is this machine's: 127.0.0.0/8, ::1, or IPv4-mapped 127.x. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.toLowerCase().replace(/^::ffff:/, '');
  return a === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(a);
}

/** Whether a host to listen on is a loopback one (`127.0.0.1`, `::1`, `localhost`). */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || isLoopbackAddress(host.replace(/^\[|\]$/g, ''));
}

/** The host name of a Host header (`127.0.0.1:8790`, `[::1]:8790`, `localhost`), lower case. */
function hostName(header: string | undefined): string {
  const h = (header ?? '').trim().toLowerCase();
  const v6 = /^\[([^\]]+)\]/.exec(h);
  if (v6) return v6[1]!;
  return h.replace(/:\d+$/, '');
}

/**
 * Whether a Host header names this machine as a browser on it would: `localhost` (or a name
 * under it), an IP address, or the host of the portal's public address. A page of another site
 * whose name was made to point at 127.0.0.1 (DNS rebinding) names its own host: it gets no trust.
 */
export function trustedHostHeader(header: string | undefined, publicHost: string | null): boolean {
  const name = hostName(header);
  if (name === '') return false;
  return (
    name === 'localhost' ||
    name.endsWith('.localhost') ||
    isIP(name) !== 0 ||
    name === publicHost?.toLowerCase()
  );
}

/** The cookies of a request, by name (the first of a name wins). */
export function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    if (name in out) continue;
    const value = part
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
    try {
      out[name] = decodeURIComponent(value);
    } catch {
      out[name] = value;
    }
  }
  return out;
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Compares two strings in a time that does not depend on where they differ. */
export function sameSecret(a: string, b: string): boolean {
  return timingSafeEqual(sha256(a), sha256(b));
}

/** The session cookie's value for a token: an HMAC of it (the cookie never holds the token). */
export function sessionValue(token: string): string {
  return createHmac('sha256', token).update('vir-portal-session-v1').digest('base64url');
}

function cookie(name: string, value: string, maxAgeS: number): string {
  return `${name}=${encodeURIComponent(value)}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeS}`;
}

/** Where to go after logging in: a path of the portal only (never another site). */
export function safeNext(next: unknown): string {
  return typeof next === 'string' && /^\/(?![/\\])[^\s]*$/.test(next) ? next : '/';
}

/** What the guards are given. */
export interface SecurityOptions {
  /** VIR_PORTAL_TOKEN; null: only requests from this machine are answered. */
  token: string | null;
  /** The host of VIR_PORTAL_URL (trusted in a Host header from this machine), or null. */
  publicHost: string | null;
  /** Values no page may show (the API key, the token, delivery secrets): replaced if one ever gets into a page. */
  secrets: readonly string[];
}

/**
 * Paths anyone may fetch: the login page, and the fixed files every page uses (the portal's
 * style sheet, fonts and script; the interactive report's libraries). None holds data.
 */
function isOpenPath(path: string): boolean {
  return path === '/login' || path.startsWith('/static/') || path.startsWith('/assets/');
}

function pathOf(request: FastifyRequest): string {
  return request.url.split('?')[0] ?? '/';
}

/** Whether a request carries the token: the bearer header or the session cookie. */
function carriesToken(request: FastifyRequest, token: string, cookies: Record<string, string>): boolean {
  const auth = request.headers.authorization;
  const bearer = typeof auth === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(auth)?.[1] : undefined;
  if (bearer !== undefined && sameSecret(bearer, token)) return true;
  const session = cookies[SESSION_COOKIE];
  return session !== undefined && sameSecret(session, sessionValue(token));
}

function wantsHtml(request: FastifyRequest): boolean {
  return request.method === 'GET' && (request.headers.accept ?? '').includes('text/html');
}

/** The login form (a page of its own; the token field empty, always). */
export function loginPage(next: string, problem: string | null, tokenSet: boolean): string {
  const body = tokenSet
    ? html`${problem ? html`<p class="problem" role="alert">${problem}</p>` : ''}
        <p>This portal answers other machines only with its token (VIR_PORTAL_TOKEN).</p>
        <form method="post" action="/login" class="login">
          <input type="hidden" name="next" value="${next}" />
          <label for="token">Token</label>
          <input id="token" name="token" type="password" autocomplete="current-password" required />
          <button type="submit">Log in</button>
        </form>`
    : html`<p class="problem" role="alert">
        This portal answers this machine only: no token (VIR_PORTAL_TOKEN) is set.
      </p>`;
  return page({ title: 'Log in', body }).text;
}

function refuse(
  reply: FastifyReply,
  request: FastifyRequest,
  status: 401 | 403,
  message: string,
  tokenSet: boolean,
) {
  if (status === 401 && wantsHtml(request)) {
    return reply
      .code(401)
      .type('text/html; charset=utf-8')
      .send(loginPage(safeNext(request.url), null, tokenSet));
  }
  return reply.code(status).type('text/plain; charset=utf-8').send(`${message}\n`);
}

/** Checks a login attempt; on success sets the session cookie and answers with the redirect. */
export function handleLogin(
  request: FastifyRequest,
  reply: FastifyReply,
  token: string | null,
  given: unknown,
  next: unknown,
): FastifyReply {
  const to = safeNext(next);
  if (typeof given !== 'string' || given === '') {
    return reply.type('text/html; charset=utf-8').send(loginPage(to, null, token !== null));
  }
  if (token === null || !sameSecret(given, token)) {
    return reply
      .code(401)
      .type('text/html; charset=utf-8')
      .send(loginPage(to, "That is not the portal's token.", token !== null));
  }
  reply.header('set-cookie', cookie(SESSION_COOKIE, sessionValue(token), SESSION_MAX_AGE_S));
  // Redirected at once: the token leaves the address bar.
  return reply.code(303).redirect(to);
}

/** Whether an Origin header (sent by browsers with a POST) names the host the request was sent to. */
function sameOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  if (origin === undefined || origin === 'null') return origin === undefined;
  try {
    return new URL(origin).host.toLowerCase() === (request.headers.host ?? '').toLowerCase();
  } catch {
    return false;
  }
}

const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Installs the guards on the portal's server: who may ask (401), the CSRF field of every POST
 * (403), and the security headers of every answer.
 */
export function installSecurity(app: FastifyInstance, options: SecurityOptions): void {
  const csrfSecret = randomBytes(32);
  const fieldFor = (cookieValue: string) =>
    createHmac('sha256', csrfSecret).update(cookieValue).digest('base64url');
  app.decorateRequest('portalCsrf', '');

  app.addHook('onRequest', async (request, reply) => {
    const cookies = parseCookies(request.headers.cookie);
    let csrfCookie = cookies[CSRF_COOKIE];
    if (!csrfCookie || !/^[A-Za-z0-9_-]{32,64}$/.test(csrfCookie)) {
      csrfCookie = randomBytes(24).toString('base64url');
      reply.header('set-cookie', cookie(CSRF_COOKIE, csrfCookie, SESSION_MAX_AGE_S));
    }
    request.portalCsrf = fieldFor(csrfCookie);

    const local =
      isLoopbackAddress(request.socket.remoteAddress) &&
      trustedHostHeader(request.headers.host, options.publicHost);
    if (!local && !isOpenPath(pathOf(request))) {
      if (options.token === null)
        return refuse(
          reply,
          request,
          401,
          'this portal answers this machine only (no VIR_PORTAL_TOKEN is set)',
          false,
        );
      if (!carriesToken(request, options.token, cookies))
        return refuse(
          reply,
          request,
          401,
          'the portal token is required (Authorization: Bearer <token>, or log in at /login)',
          true,
        );
    }
  });

  app.addHook('preHandler', async (request, reply) => {
    if (request.method !== 'POST' || pathOf(request) === '/login') return;
    const body = request.body as Record<string, unknown> | undefined;
    const field = body?.[CSRF_FIELD];
    if (!sameOrigin(request))
      return refuse(reply, request, 403, 'refused: the form came from another site', false);
    if (typeof field !== 'string' || !sameSecret(field, request.portalCsrf))
      return refuse(
        reply,
        request,
        403,
        'refused: the form has no valid CSRF token (reload the page and try again)',
        false,
      );
  });

  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('x-content-type-options', 'nosniff');
    // same-origin, not no-referrer: under no-referrer a browser sends `Origin: null` with the
    // portal's own form posts, which the origin check refuses. Other sites still get no referrer.
    reply.header('referrer-policy', 'same-origin');
    reply.header('x-frame-options', 'DENY');
    const type = String(reply.getHeader('content-type') ?? '');
    if (type.startsWith('text/html') && !reply.hasHeader('content-security-policy'))
      reply.header('content-security-policy', CSP);
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    // The last guard: a secret that reached a page's text (an error message quoting one) is cut out.
    if (typeof payload === 'string' && /^text\/(html|plain)/.test(type))
      return redactText(payload, options.secrets);
    return payload;
  });
}

/**
 * A Content-Disposition header: `inline` or `attachment` with the file's real name, ASCII in
 * `filename` and the exact name in `filename*` (RFC 6266, RFC 8187).
 *
 * @example
 * contentDisposition('attachment', 'weekly-dach-2026-11-23.xlsx')
 * // `attachment; filename="weekly-dach-2026-11-23.xlsx"; filename*=UTF-8''weekly-dach-2026-11-23.xlsx`
 */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
