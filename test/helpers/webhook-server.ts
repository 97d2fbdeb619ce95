/**
 * A webhook receiver for tests: a real node:http server on 127.0.0.1, port 0, that records every
 * request (headers and raw body) and answers from a script, e.g. `[500, 500, 200]`, `'hang'`
 * (never answers: the sender's timeout fires) or `'destroy'` (drops the connection). It counts
 * the copies it accepted (answered 2xx) by Idempotency-Key. No mocking.
 *
 * @example
 * const hook = await startWebhookServer([500, 200]);
 * await postWebhook({ url: hook.url, timeoutMs: 1000 }, body, { secret, idempotencyKey: 'k' }); // throws: 500
 * await postWebhook({ url: hook.url, timeoutMs: 1000 }, body, { secret, idempotencyKey: 'k', attempt: 2 });
 * hook.requests.length; // 2
 * hook.accepted('k'); // 1
 * await hook.close();
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One scripted answer. */
export type WebhookAnswer =
  | number
  | 'hang'
  | 'destroy'
  | {
      status: number;
      headers?: Record<string, string>;
      body?: string;
      /** Answer after this many milliseconds. */
      delayMs?: number;
      /** Send the status and part of the body, then stall (the sender's timeout fires). */
      stallBody?: boolean;
    };

export interface WebhookRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  /** The raw body, exactly as received (what the signature covers). */
  body: string;
  /** When it arrived (Date.now()). */
  at: number;
}

export interface WebhookServer {
  /** `http://127.0.0.1:<port>/hook`. */
  url: string;
  requests: WebhookRequest[];
  /** Queues more answers; when the queue is empty, 200 answers. */
  script: (...answers: WebhookAnswer[]) => void;
  /** Copies answered with a 2xx for this Idempotency-Key (all keys when none given). */
  accepted: (key?: string) => number;
  close: () => Promise<void>;
}

/** Starts a receiver answering `answers` in order, then 200. */
export async function startWebhookServer(answers: WebhookAnswer[] = []): Promise<WebhookServer> {
  const queue = [...answers];
  const sockets = new Set<Socket>();
  const acceptedByKey = new Map<string, number>();
  const requests: WebhookRequest[] = [];

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      });
      const answer = queue.shift() ?? 200;
      if (answer === 'hang') return;
      if (answer === 'destroy') {
        req.socket.destroy();
        return;
      }
      const a = typeof answer === 'number' ? { status: answer } : answer;
      const send = () => {
        if (res.destroyed) return;
        const key = req.headers['idempotency-key'];
        res.on('finish', () => {
          if (a.status >= 200 && a.status < 300 && typeof key === 'string') {
            acceptedByKey.set(key, (acceptedByKey.get(key) ?? 0) + 1);
          }
        });
        res.writeHead(a.status, { 'content-type': 'text/plain; charset=utf-8', ...a.headers });
        if (a.stallBody) {
          // Counted as accepted: the status is out, the body never ends.
          if (a.status >= 200 && a.status < 300 && typeof key === 'string') {
            acceptedByKey.set(key, (acceptedByKey.get(key) ?? 0) + 1);
          }
          res.write('accep');
          return;
        }
        res.end(a.body ?? (a.status < 300 ? 'ok' : `status ${a.status}`));
      };
      if (a.delayMs)
        setTimeout(send, a.delayMs); // a slow endpoint, as scripted
      else send();
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/hook`,
    requests,
    script: (...more) => queue.push(...more),
    accepted: (key) =>
      key === undefined
        ? [...acceptedByKey.values()].reduce((a, b) => a + b, 0)
        : (acceptedByKey.get(key) ?? 0),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
