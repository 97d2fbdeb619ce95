/**
 * A deck link fetched once, the way the service will fetch it: undici over https, redirects
 * followed (each hop checked again with {@link checkDeckLink}), a size cap and a time limit, the
 * system's CAs and any extra ones (a local https deck server in tests and the demo). What comes
 * back is a deck (its bytes and type) or the reason it is none, in words for the report.
 */
import { STATUS_CODES } from 'node:http';
import { rootCertificates } from 'node:tls';
import { Agent, request } from 'undici';
import { checkDeckLink, deckLinkLabel } from './deck-links.js';
import { formatSize, notADeck, sniffDeck, type DeckKind } from './deck-files.js';

/** Limits of a link's fetch. */
export interface DeckFetchLimits {
  /** The whole fetch (every hop, headers and body), ms. Default 30 000. */
  timeoutMs?: number;
  /** The largest file read, bytes. Default 25 MiB. */
  maxBytes?: number;
  /** Extra CA certificates (PEM) trusted besides the system's. */
  trustedCa?: string[];
  /** Redirects followed at most. Default 5. */
  maxRedirects?: number;
}

export const DECK_FETCH_DEFAULTS = {
  timeoutMs: 30_000,
  maxBytes: 25 * 1024 * 1024,
  maxRedirects: 5,
} as const;

/** A fetched link: the deck's bytes and type, or why there is no deck. */
export type FetchedLink = { ok: true; bytes: Buffer; kind: DeckKind } | { ok: false; problem: string };

const ACCEPT =
  'application/pdf, application/vnd.openxmlformats-officedocument.presentationml.presentation, */*;q=0.1';

/** Why a request failed below HTTP, in words. */
function networkProblem(err: unknown, timeoutMs: number): string {
  const e = err as { code?: string; name?: string; cause?: { code?: string } };
  const code = e.code ?? e.cause?.code ?? '';
  if (
    e.name === 'TimeoutError' ||
    e.name === 'AbortError' ||
    /^UND_ERR_(CONNECT|HEADERS|BODY)_TIMEOUT$/.test(code)
  ) {
    return `the link did not answer within ${Math.round(timeoutMs / 1000)} s`;
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return "the link's host name does not resolve";
  if (code === 'ECONNREFUSED') return "the link's server refused the connection";
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return "the link's server dropped the connection";
  if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/i.test(code)) {
    return `the link's server has a TLS certificate that is not trusted (${code})`;
  }
  return `the link could not be fetched (${code || (err as Error).message || 'network error'})`;
}

/** An undici Agent trusting the system's CAs and `trustedCa`, with the fetch's time limit. */
export function deckAgent(timeoutMs: number, trustedCa: readonly string[] = []): Agent {
  return new Agent({
    connect: { timeout: timeoutMs, ...(trustedCa.length ? { ca: [...rootCertificates, ...trustedCa] } : {}) },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
}

/**
 * Fetches a deck link once. Never throws for what the link does (an HTTP error, a web page, a
 * file too large, a host that does not answer): those are the deck's problem. `dispatcher` may
 * be shared by the links of a run; without one, an Agent is made and closed for this fetch.
 */
export async function fetchDeckLink(
  url: string,
  limits: DeckFetchLimits = {},
  dispatcher?: Agent,
): Promise<FetchedLink> {
  const timeoutMs = limits.timeoutMs ?? DECK_FETCH_DEFAULTS.timeoutMs;
  const maxBytes = limits.maxBytes ?? DECK_FETCH_DEFAULTS.maxBytes;
  const maxRedirects = limits.maxRedirects ?? DECK_FETCH_DEFAULTS.maxRedirects;
  const agent = dispatcher ?? deckAgent(timeoutMs, limits.trustedCa);
  const signal = AbortSignal.timeout(timeoutMs);
  const fail = (problem: string): FetchedLink => ({ ok: false, problem });
  try {
    const refused = checkDeckLink(url);
    if (refused) return fail(refused);
    let current = new URL(url.trim());
    for (let hop = 0; ; hop++) {
      let res: Awaited<ReturnType<typeof request>>;
      try {
        res = await request(current, {
          method: 'GET',
          dispatcher: agent,
          signal,
          headers: { accept: ACCEPT, 'user-agent': 'vir-deck-triage/1.0' },
        });
      } catch (err) {
        return fail(networkProblem(err, timeoutMs));
      }
      const status = res.statusCode;
      if (status >= 300 && status < 400 && res.headers.location) {
        await res.body.dump().catch(() => undefined);
        if (hop >= maxRedirects) return fail(`the link redirects more than ${maxRedirects} times`);
        const next = new URL(String(res.headers.location), current);
        const why = checkDeckLink(next.toString());
        if (why)
          return fail(
            `the link redirects to ${deckLinkLabel(next.toString())}: ${why.replace(/^the link /, 'that link ')}`,
          );
        current = next;
        continue;
      }
      if (status < 200 || status >= 300) {
        await res.body.dump().catch(() => undefined);
        return fail(`the link answered ${status} ${STATUS_CODES[status] ?? 'an HTTP error'}`.trim());
      }
      const type = String(res.headers['content-type'] ?? '')
        .split(';')[0]!
        .trim()
        .toLowerCase();
      if (type === 'text/html' || type === 'application/xhtml+xml') {
        await res.body.dump().catch(() => undefined);
        return fail(
          'the link serves a web page (text/html), not the file: give the direct link to the PDF or PPTX file, not a viewer page',
        );
      }
      const declared = Number(res.headers['content-length'] ?? NaN);
      if (Number.isFinite(declared) && declared > maxBytes) {
        await res.body.dump().catch(() => undefined);
        return fail(
          `the file is ${formatSize(declared)}, larger than the ${formatSize(maxBytes)} a deck may be`,
        );
      }
      const chunks: Buffer[] = [];
      let size = 0;
      try {
        for await (const chunk of res.body) {
          const buf = chunk as Buffer;
          size += buf.length;
          if (size > maxBytes) {
            res.body.destroy();
            return fail(`the file is larger than the ${formatSize(maxBytes)} a deck may be`);
          }
          chunks.push(buf);
        }
      } catch (err) {
        return fail(networkProblem(err, timeoutMs));
      }
      const bytes = Buffer.concat(chunks);
      const sniffed = await sniffDeck(bytes);
      if (sniffed.kind === null) {
        const page =
          sniffed.is === 'a web page (HTML)' ? ': give the direct link to the file, not a viewer page' : '';
        return fail(`${notADeck('the link serves', sniffed.is)}${page}`);
      }
      return { ok: true, bytes, kind: sniffed.kind };
    }
  } finally {
    if (!dispatcher) await agent.close().catch(() => undefined);
  }
}
