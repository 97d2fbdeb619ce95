/**
 * Fetches a deck file over https with undici: a size cap, a time limit, redirects followed
 * (each hop checked again), the CA certificates the sandbox trusts, and a check that what came
 * back is a PDF or PPTX file and not a web page.
 */
import { rootCertificates } from 'node:tls';
import { Agent, request } from 'undici';
import { SandboxError } from '../types.js';
import { checkDeckUrl, type DeckKind } from './url.js';

/** Limits of the deck fetcher. */
export interface DeckFetchOptions {
  /** Extra CA certificates (PEM) trusted besides the system's. */
  trustedCa?: string[];
  /** Whole fetch time limit (connect, headers and body), ms. Default 20 000. */
  timeoutMs?: number;
  /** Largest file accepted, bytes. Default 25 MiB. */
  maxBytes?: number;
  /** Redirects followed at most. Default 5. */
  maxRedirects?: number;
}

export const DECK_FETCH_DEFAULTS = {
  timeoutMs: 20_000,
  maxBytes: 25 * 1024 * 1024,
  maxRedirects: 5,
} as const;

/** A fetched deck file. */
export interface FetchedDeck {
  /** The URL the file was read from (after redirects). */
  url: string;
  kind: DeckKind;
  bytes: Uint8Array;
  contentType: string;
}

const PDF_TYPES = new Set(['application/pdf', 'application/x-pdf']);
const PPTX_TYPES = new Set(['application/vnd.openxmlformats-officedocument.presentationml.presentation']);
const GENERIC_TYPES = new Set([
  'application/octet-stream',
  'binary/octet-stream',
  'application/zip',
  'application/x-zip-compressed',
  '',
]);

/** 422 deck_fetch_failed: the link is well formed but the file could not be read from it. */
export const fetchFailed = (why: string) =>
  new SandboxError(422, 'deck_fetch_failed', `deck_url could not be fetched: ${why}`);
const invalid = (why: string) => new SandboxError(400, 'invalid_input', `deck_url ${why}`);

/** Tells the file type from its first bytes: %PDF- or a ZIP (PPTX) header. */
export function sniffDeckKind(bytes: Uint8Array): DeckKind | null {
  const head = Buffer.from(bytes.subarray(0, 5)).toString('latin1');
  if (head.startsWith('%PDF-')) return 'pdf';
  if (head.startsWith('PK\u0003\u0004')) return 'pptx';
  return null;
}

function describeNetworkError(err: unknown): string {
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e.code ?? e.cause?.code ?? '';
  if (
    code === 'UND_ERR_CONNECT_TIMEOUT' ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT' ||
    code === 'ABORT_ERR' ||
    (e as Error).name === 'AbortError' ||
    (e as Error).name === 'TimeoutError'
  ) {
    return 'the server did not answer in time';
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'the host name does not resolve';
  if (code === 'ECONNREFUSED') return 'the connection was refused';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'the connection was dropped';
  if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/i.test(code))
    return `the server's TLS certificate is not trusted (${code})`;
  return code ? `network error ${code}` : 'network error';
}

/**
 * Downloads the deck at a checked https URL.
 * Throws 400 invalid_input when the content is a web page or another file type or exceeds the
 * size cap, and 422 deck_fetch_failed when the server cannot be reached, times out or answers
 * an HTTP error.
 */
export async function fetchDeck(rawUrl: string, options: DeckFetchOptions = {}): Promise<FetchedDeck> {
  const timeoutMs = options.timeoutMs ?? DECK_FETCH_DEFAULTS.timeoutMs;
  const maxBytes = options.maxBytes ?? DECK_FETCH_DEFAULTS.maxBytes;
  const maxRedirects = options.maxRedirects ?? DECK_FETCH_DEFAULTS.maxRedirects;
  const ca = options.trustedCa?.length ? [...rootCertificates, ...options.trustedCa] : undefined;
  const dispatcher = new Agent({
    connect: { timeout: timeoutMs, ...(ca ? { ca } : {}) },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    let checked = checkDeckUrl(rawUrl);
    for (let hop = 0; ; hop++) {
      let res: Awaited<ReturnType<typeof request>>;
      try {
        res = await request(checked.url, {
          method: 'GET',
          dispatcher,
          signal,
          headers: {
            accept:
              'application/pdf, application/vnd.openxmlformats-officedocument.presentationml.presentation, */*;q=0.1',
            'user-agent': 'vis-sandbox-deck-fetcher/1.0',
          },
        });
      } catch (err) {
        throw fetchFailed(describeNetworkError(err));
      }
      if (res.statusCode >= 300 && res.statusCode < 400 && res.headers.location) {
        await res.body.dump();
        if (hop >= maxRedirects) throw fetchFailed(`more than ${maxRedirects} redirects`);
        const next = new URL(String(res.headers.location), checked.url).toString();
        checked = checkDeckUrl(next);
        continue;
      }
      if (res.statusCode >= 400) {
        await res.body.dump();
        throw fetchFailed(`the server answered HTTP ${res.statusCode}`);
      }
      const contentType = String(res.headers['content-type'] ?? '')
        .split(';')[0]!
        .trim()
        .toLowerCase();
      if (contentType === 'text/html' || contentType === 'application/xhtml+xml') {
        await res.body.dump();
        throw invalid(
          'serves a web page (text/html), not the file: give a direct link to the PDF or PPTX file, not a viewer page',
        );
      }
      const declared = Number(res.headers['content-length'] ?? NaN);
      if (Number.isFinite(declared) && declared > maxBytes) {
        await res.body.dump();
        throw invalid(`file is ${formatBytes(declared)}, larger than the ${formatBytes(maxBytes)} limit`);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      try {
        for await (const chunk of res.body) {
          const buf = chunk as Buffer;
          size += buf.length;
          if (size > maxBytes) {
            res.body.destroy();
            throw invalid(`file is larger than the ${formatBytes(maxBytes)} limit`);
          }
          chunks.push(buf);
        }
      } catch (err) {
        if (err instanceof SandboxError) throw err;
        throw fetchFailed(describeNetworkError(err));
      }
      const bytes = new Uint8Array(Buffer.concat(chunks));
      const sniffed = sniffDeckKind(bytes);
      const declaredKind: DeckKind | null = PDF_TYPES.has(contentType)
        ? 'pdf'
        : PPTX_TYPES.has(contentType)
          ? 'pptx'
          : null;
      if (!declaredKind && !GENERIC_TYPES.has(contentType) && !sniffed) {
        throw invalid(`serves ${contentType} content, not a PDF or PPTX file`);
      }
      const kind = sniffed ?? null;
      if (!kind) {
        const text = Buffer.from(bytes.subarray(0, 512)).toString('utf8').toLowerCase();
        if (text.includes('<html') || text.includes('<!doctype html')) {
          throw invalid(
            'serves a web page, not the file: give a direct link to the PDF or PPTX file, not a viewer page',
          );
        }
        throw invalid('does not serve a PDF or PPTX file (its content is neither)');
      }
      return { url: checked.url.toString(), kind, bytes, contentType };
    }
  } finally {
    await dispatcher.close().catch(() => undefined);
  }
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(n / 1024)} KB`;
}
