/**
 * `vir demo` for a deck triage (`npm run demo:decks`): the job's links are served on this
 * machine. The decks are made at run time from the example slides (invented startups, PDF and
 * PPTX; jobs/deck-triage/examples/) into `<VIR_DATA_DIR>/demo-decks/<time>/`, a certificate for
 * localhost and 127.0.0.1 is made with openssl, and an https server answers on the links' port
 * with the files there (404 for a file not there). The sandbox trusts the certificate
 * (`trustedCa`) and answers analyze_deck after a short wait (`deckWaitMs`), so a deck whose
 * analysis takes longer is polled; the workers trust it too (`deckCaFile`). Every deck but the
 * last link's is there for the first run; the last one arrives before the second run.
 */
import { execFile } from 'node:child_process';
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import type { KindDemo } from '../kind.js';
import { buildExampleDeck, EXAMPLE_DECKS, type ExampleDeck } from './examples/decks.js';
import type { DeckTriageJob } from './job.js';

/** How long the demo's sandbox waits for an analysis before analyze_deck answers 'running'. */
export const DEMO_DECK_WAIT_MS = 2500;

/**
 * The deck the demo makes slow: its technical appendix of drawing sheets gives it enough pages
 * that its analysis outlasts {@link DEMO_DECK_WAIT_MS}, so the run polls it on timers.
 */
export const SLOW_DEMO_DECK = 'kelvinforge_investor_presentation.pptx';
const APPENDIX_SHEETS = 30;

/** Content types the server answers with, by extension. */
const TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
};

/** One deck the demo serves: where its link points and the example deck behind it. */
interface DemoDeck {
  url: string;
  /** The path below the served folder, e.g. `decks/Shiftnook Series A Deck.pdf`. */
  path: string;
  deck: ExampleDeck;
}

/** The example deck as the demo serves it: the slow one with its appendix. */
export function demoDeck(deck: ExampleDeck): ExampleDeck {
  if (deck.file !== SLOW_DEMO_DECK) return deck;
  const appendix = Array.from({ length: APPENDIX_SHEETS }, (_, i) => [
    'Technical appendix',
    `Engineering drawing of the storage unit, sheet ${i + 1} of ${APPENDIX_SHEETS}.`,
  ]);
  return { ...deck, slides: [...deck.slides, ...appendix] };
}

/** The job's links, each with its example deck; one origin on this machine (or an error saying why not). */
function demoDecks(job: DeckTriageJob): { origin: URL; decks: DemoDeck[] } {
  const urls = job.decks.urls ?? [];
  if (urls.length < 2)
    throw new Error(
      `the deck demo needs a job with at least two deck links (job ${job.id} has ${urls.length})`,
    );
  const origin = new URL(urls[0]!);
  const local = (u: URL) => u.hostname === 'localhost' || u.hostname === '127.0.0.1';
  const decks = urls.map((url) => {
    const u = new URL(url);
    if (u.origin !== origin.origin || !local(u))
      throw new Error(
        `the deck demo serves the job's links on this machine, at one https://localhost:<port>: ${url} is not there`,
      );
    const path = decodeURIComponent(u.pathname).replace(/^\/+/, '');
    const file = path.split('/').pop() ?? '';
    const deck = EXAMPLE_DECKS.find((d) => d.file === file);
    if (!deck)
      throw new Error(
        `the deck demo has no example deck named ${JSON.stringify(file)} (link ${url}); its decks: ${EXAMPLE_DECKS.map((d) => d.file).join(', ')}`,
      );
    return { url, path, deck: demoDeck(deck) };
  });
  return { origin, decks };
}

/**
 * The openssl arguments that make a self-signed certificate (RSA 2048, one day) for localhost,
 * 127.0.0.1 and ::1, its key in `keyFile` and itself in `certFile` (the demo's, and the tests').
 */
export function selfSignedCertArgs(keyFile: string, certFile: string): string[] {
  return [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=localhost',
    '-addext',
    'subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1',
    '-keyout',
    keyFile,
    '-out',
    certFile,
  ];
}

/** A self-signed certificate for localhost and 127.0.0.1 (one day), made with openssl in `dir`. */
export async function makeDemoCertificate(dir: string): Promise<{ key: string; cert: string }> {
  await mkdir(dir, { recursive: true });
  const keyFile = join(dir, 'key.pem');
  const certFile = join(dir, 'cert.pem');
  try {
    await promisify(execFile)('openssl', selfSignedCertArgs(keyFile, certFile));
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: string };
    if (e.code === 'ENOENT')
      throw new Error(
        'the deck demo makes the certificate of its https deck server with openssl, which is not installed here (on Debian: apt-get install openssl)',
        { cause: err },
      );
    throw new Error(
      `the deck demo could not make its certificate with openssl: ${(e.stderr ?? e.message).trim()}`,
      { cause: err },
    );
  }
  return { key: await readFile(keyFile, 'utf8'), cert: await readFile(certFile, 'utf8') };
}

/** An https server of the files under `root` (GET and HEAD; 404 for what is not there). */
function deckServer(root: string, tls: { key: string; cert: string }): Server {
  return createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    let path: string;
    try {
      path = resolve(
        root,
        decodeURIComponent(new URL(req.url ?? '/', 'https://localhost').pathname).slice(1),
      );
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('bad path');
      return;
    }
    const notFound = () => res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    if (!path.startsWith(root + sep)) return notFound();
    readFile(path).then(
      (body) => {
        const ext = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
        res.writeHead(200, {
          'content-type': TYPES[ext] ?? 'application/octet-stream',
          'content-length': body.length,
        });
        res.end(req.method === 'HEAD' ? undefined : body);
      },
      () => notFound(),
    );
  });
}

/** Listens on `port` of `host`; a port taken fails with a message naming it. */
function listen(server: Server, port: number, host: string, origin: string): Promise<boolean> {
  return new Promise((resolveListen, reject) => {
    const failed = (err: NodeJS.ErrnoException) => {
      server.off('listening', listening);
      // A machine without IPv6 loopback serves on 127.0.0.1 only.
      if (host === '::1' && (err.code === 'EADDRNOTAVAIL' || err.code === 'EAFNOSUPPORT'))
        return resolveListen(false);
      if (err.code === 'EADDRINUSE')
        return reject(
          new Error(
            `the deck demo serves its decks at ${origin}, but port ${port} is taken on this machine ` +
              `(${host}; another demo still running?): stop what listens on port ${port} and run it again`,
          ),
        );
      if (err.code === 'EACCES')
        return reject(new Error(`the deck demo may not listen on port ${port} (${host}) as this user`));
      reject(err);
    };
    const listening = () => {
      server.off('error', failed);
      resolveListen(true);
    };
    server.once('error', failed);
    server.once('listening', listening);
    server.listen(port, host);
  });
}

/** A path for people: relative to the current folder when under it. */
function shown(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}

/** Starts the deck demo of `job` (see the module's comment). */
export async function startDeckDemo(ctx: { dataDir: string; job: DeckTriageJob }): Promise<KindDemo> {
  const { origin, decks } = demoDecks(ctx.job);
  const port = Number(origin.port || 443);
  const root = resolve(ctx.dataDir, 'demo-decks', new Date().toISOString().replace(/[:.]/g, '-'));
  const write = async (d: DemoDeck) => {
    const path = join(root, d.path);
    await mkdir(join(path, '..'), { recursive: true });
    await writeFile(path, await buildExampleDeck(d.deck));
  };
  const first = decks.slice(0, -1);
  const late = decks.at(-1)!;
  for (const d of first) await write(d);

  const tls = await makeDemoCertificate(join(root, 'tls'));
  // The self-signed certificate is its own CA: the workers' VIR_DECK_CA_FILE for the demo.
  const caFile = join(root, 'tls', 'ca.pem');
  await writeFile(caFile, tls.cert);

  const servers: Server[] = [];
  const close = async () => {
    await Promise.all(
      servers.map(
        (s) =>
          new Promise<void>((done) => {
            s.closeAllConnections();
            s.close(() => done());
          }),
      ),
    );
    servers.length = 0;
  };
  try {
    for (const host of ['127.0.0.1', '::1']) {
      const server = deckServer(root, tls);
      if (await listen(server, port, host, origin.origin)) servers.push(server);
    }
  } catch (err) {
    await close();
    throw err;
  }

  const folder = shown(join(root, late.path, '..'));
  return {
    sandbox: { trustedCa: [tls.cert], deckWaitMs: DEMO_DECK_WAIT_MS },
    settings: { deckCaFile: caFile },
    beforeRun: async (run) => {
      if (run === 1)
        return (
          `${first.length} decks made (PDF and PPTX, invented startups) in ${folder}, served at ` +
          `${origin.origin} with a certificate made for this demo; ${late.deck.file} has not arrived yet`
        );
      if (run === 2) {
        await write(late);
        return `a new deck arrived: ${late.deck.file} (${late.deck.startupName})`;
      }
      return null;
    },
    close,
  };
}
