/**
 * A reverse proxy in front of a service that counts what reached it: the outside witness of
 * which calls a run made (tests compare it with the run's own manifest). It can also change
 * the answers on their way back (`setTransform`): a service that reads the spec otherwise.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';

/** An answer on its way back to the client. */
export interface ProxiedAnswer {
  /** The operation of a `/v1/<operation>` path, or null. */
  operation: string | null;
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
}

/** Changes an answer (called for every response; return it unchanged to pass it through). */
export type AnswerTransform = (answer: ProxiedAnswer) => ProxiedAnswer | Promise<ProxiedAnswer>;

export interface CountingProxy {
  url: string;
  /** Changes the answers from now on (null: pass them through as they are). */
  setTransform(transform: AnswerTransform | null): void;
  /** Requests received, by path (`/v1/search_startups`), in arrival order, with the status answered. */
  requests: { method: string; path: string; at: number; status?: number }[];
  /** Requests received for each operation. */
  counts(): Record<string, number>;
  close(): Promise<void>;
}

/** Starts a proxy on 127.0.0.1 and a free port that forwards every request to `target`. */
export async function startCountingProxy(target: string): Promise<CountingProxy> {
  const requests: CountingProxy['requests'] = [];
  let transform: AnswerTransform | null = null;
  const forward = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const path = req.url ?? '/';
    const entry: CountingProxy['requests'][number] = {
      method: req.method ?? 'GET',
      path: path.split('?')[0]!,
      at: Date.now(),
    };
    requests.push(entry);
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
    let answer: ProxiedAnswer = {
      operation: /^\/v1\/(\w+)/.exec(path)?.[1] ?? null,
      status: upstream.statusCode,
      headers: out,
      body: Buffer.from(await upstream.body.arrayBuffer()),
    };
    if (transform) {
      answer = await transform(answer);
      answer.headers['content-length'] = String(answer.body.length);
    }
    entry.status = answer.status;
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
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
    setTransform(t) {
      transform = t;
    },
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
