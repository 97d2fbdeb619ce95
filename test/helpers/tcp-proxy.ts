/**
 * A TCP proxy that breaks connections on purpose: it forwards every connection to a target
 * (an S3 server, any TCP service) but can reset the Nth connection as soon as the client has
 * sent its first bytes (the request is gone, no answer comes) or cut it after the client has
 * sent K bytes (a body cut in the middle). Connections are numbered from 1 in accept order;
 * keep-alive clients reuse connections, so the Nth connection is not the Nth request.
 *
 * @example
 * const proxy = await startTcpFaultProxy(new URL(s3.endpoint).port);
 * proxy.fault(1, { drop: true });            // the first connection dies after its request
 * proxy.fault(2, { cutAfterBytes: 100_000 }); // the second after 100 kB of upload
 */
import { createServer, connect, type Socket } from 'node:net';

/** What happens to one connection. */
export type TcpFault = { drop: true } | { cutAfterBytes: number };

export interface TcpFaultProxy {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  port: number;
  /** Sets what happens to connection number `n` (1-based). */
  fault(n: number, what: TcpFault): void;
  /** Connections accepted so far. */
  connections(): number;
  /** Connections broken so far, by number, with the bytes the client had sent through. */
  broken: { n: number; how: 'drop' | 'cut'; bytes: number }[];
  close(): Promise<void>;
}

/** Starts the proxy on 127.0.0.1 and a free port, forwarding to `127.0.0.1:<targetPort>`. */
export async function startTcpFaultProxy(
  targetPort: number | string,
  targetHost = '127.0.0.1',
): Promise<TcpFaultProxy> {
  const faults = new Map<number, TcpFault>();
  const broken: TcpFaultProxy['broken'] = [];
  const open = new Set<Socket>();
  let count = 0;
  const server = createServer((client) => {
    const n = ++count;
    const fault = faults.get(n);
    const upstream = connect(Number(targetPort), targetHost);
    open.add(client);
    open.add(upstream);
    client.once('close', () => open.delete(client));
    upstream.once('close', () => open.delete(upstream));
    // Once a fault fires nothing more is forwarded from the client, and both sides are reset.
    let stopped = false;
    const breakBoth = (how: 'drop' | 'cut', bytes: number) => {
      stopped = true;
      broken.push({ n, how, bytes });
      client.resetAndDestroy();
      upstream.resetAndDestroy();
    };
    let sent = 0;
    client.on('data', (chunk: Buffer) => {
      if (stopped) return;
      if (fault && 'drop' in fault) {
        breakBoth('drop', 0);
        return;
      }
      if (fault && 'cutAfterBytes' in fault && sent + chunk.length > fault.cutAfterBytes) {
        const part = chunk.subarray(0, fault.cutAfterBytes - sent);
        sent += part.length;
        stopped = true;
        upstream.write(part, () => breakBoth('cut', sent));
        return;
      }
      sent += chunk.length;
      if (!upstream.write(chunk)) client.pause();
    });
    upstream.on('drain', () => client.resume());
    upstream.on('data', (chunk: Buffer) => {
      if (!client.write(chunk)) upstream.pause();
    });
    client.on('drain', () => upstream.resume());
    client.on('end', () => upstream.end());
    upstream.on('end', () => client.end());
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    port,
    fault: (n, what) => faults.set(n, what),
    connections: () => count,
    broken,
    close: async () => {
      for (const s of open) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
