/**
 * A reverse proxy in front of a service that counts what reached it: the outside witness of
 * which calls a run made (tests compare it with the run's own manifest).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';

export interface CountingProxy {
  url: string;
  /** Requests received, by path (`/v1/search_startups`), in arrival order. */
  requests: { method: string; path: string }[];
  /** Requests received for each operation. */
  counts(): Record<string, number>;
  close(): Promise<void>;
}

/** Starts a proxy on 127.0.0.1 and a free port that forwards every request to `target`. */
export async function startCountingProxy(target: string): Promise<CountingProxy> {
  const requests: { method: string; path: string }[] = [];
  const forward = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const path = req.url ?? '/';
    requests.push({ method: req.method ?? 'GET', path: path.split('?')[0]! });
    const headers = { ...req.headers };
    delete headers.host;
    delete headers.connection;
    const upstream = await request(`${target}${path}`, {
      method: (req.method ?? 'GET') as 'GET',
      headers,
      body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
    });
    const out: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(upstream.headers)) {
      if (v !== undefined && k !== 'transfer-encoding' && k !== 'connection') out[k] = v;
    }
    res.writeHead(upstream.statusCode, out);
    res.end(Buffer.from(await upstream.body.arrayBuffer()));
  };
  const server = createServer((req, res) => {
    forward(req, res).catch(() => {
      res.writeHead(502).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    counts() {
      const out: Record<string, number> = {};
      for (const r of requests) {
        const op = r.path.replace(/^\/v1\//, '');
        out[op] = (out[op] ?? 0) + 1;
      }
      return out;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
