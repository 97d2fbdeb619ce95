/**
 * A real node:http server on 127.0.0.1 (port 0) that answers from a script and records every
 * request, for client tests (failure sequences, request counting). No mocking.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { expect } from 'vitest';
import { isVisError, type VisError } from '../../api/index.js';

/** One scripted answer. */
export interface Scripted {
  status?: number;
  headers?: Record<string, string>;
  /** A string is sent as is; anything else as JSON. */
  body?: unknown;
  /** Destroy the socket without answering. */
  destroy?: boolean;
  /** Never answer (the client's headers timeout fires). */
  hang?: boolean;
  /** Send the headers and the first part of the body, then stall. */
  stallBody?: boolean;
  /** Wait this long before answering. */
  delayMs?: number;
}

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** Index of the TCP connection the request came on (keep-alive check). */
  connection: number;
}

export type Responder = (req: RecordedRequest) => Scripted;

export interface ScriptedServer {
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** TCP connections accepted so far. */
  connections: () => number;
  /** Queues answers, used in order; when the queue is empty the fallback answers. */
  script: (...answers: (Scripted | Responder)[]) => void;
  /** Answer of last resort (default: 500 "nothing scripted"). */
  fallback: Responder;
  close: () => Promise<void>;
}

/** Success envelope for `operation` with `data`. */
export function okEnvelope(
  operation: string,
  data: Record<string, unknown>,
  extra: Record<string, unknown> = {},
) {
  return {
    success: true,
    operation,
    data,
    summary: `${operation} ok`,
    charts: [],
    url: null,
    credits: { charged: 0, remaining: 100 },
    ...extra,
  };
}

/** Error envelope. */
export function errorEnvelope(
  operation: string,
  code: string,
  message: string,
  extra: Record<string, unknown> = {},
) {
  return { success: false, operation, error: { code, message }, ...extra };
}

/** Starts a scripted server on 127.0.0.1, port 0. */
export async function startScriptedServer(): Promise<ScriptedServer> {
  const queue: (Scripted | Responder)[] = [];
  const sockets = new Set<Socket>();
  const socketIds = new WeakMap<Socket, number>();
  let connectionCount = 0;
  const state: ScriptedServer = {
    url: '',
    port: 0,
    requests: [],
    connections: () => connectionCount,
    script: (...answers) => queue.push(...answers),
    fallback: () => ({
      status: 500,
      body: {
        success: false,
        operation: 'unknown',
        error: { code: 'internal_error', message: 'nothing scripted' },
      },
    }),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  const send = (res: ServerResponse, answer: Scripted) => {
    const body =
      answer.body === undefined
        ? ''
        : typeof answer.body === 'string'
          ? answer.body
          : JSON.stringify(answer.body);
    const isString = typeof answer.body === 'string';
    res.writeHead(answer.status ?? 200, {
      'content-type': isString ? 'text/html; charset=utf-8' : 'application/json',
      ...answer.headers,
    });
    if (answer.stallBody) {
      res.write(body.slice(0, Math.max(1, Math.floor(body.length / 2))));
      return;
    }
    res.end(body);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        connection: socketIds.get(req.socket) ?? -1,
      };
      state.requests.push(recorded);
      const next = queue.shift() ?? state.fallback;
      const answer = typeof next === 'function' ? next(recorded) : next;
      const act = () => {
        if (answer.destroy) {
          req.socket.destroy();
          return;
        }
        if (answer.hang) return;
        send(res, answer);
      };
      if (answer.delayMs)
        setTimeout(act, answer.delayMs); // a slow answer, as scripted
      else act();
    });
  });
  server.on('connection', (socket: Socket) => {
    socketIds.set(socket, connectionCount++);
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  state.port = port;
  state.url = `http://127.0.0.1:${port}`;
  return state;
}

/**
 * Runs `fn`, expecting it to reject with a VisError (asserted); returns the error.
 */
export async function failure(fn: () => Promise<unknown>): Promise<VisError> {
  try {
    await fn();
  } catch (err) {
    expect(isVisError(err)).toBe(true);
    return err as VisError;
  }
  throw new Error('expected the call to fail');
}
