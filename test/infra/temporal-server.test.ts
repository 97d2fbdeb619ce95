import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { Connection } from '@temporalio/client';
import { expect, inject, test } from 'vitest';
import { freePort, portIsFree } from '../../runtime/temporal-server.js';

test('the global setup started a real Temporal dev server', async () => {
  const conn = await Connection.connect({ address: inject('temporalAddress') });
  try {
    const info = await conn.workflowService.getSystemInfo({});
    expect(info.serverVersion).toMatch(/^1\.\d+/);
    const ns = await conn.workflowService.describeNamespace({ namespace: 'default' });
    expect(ns.namespaceInfo?.name).toBe('default');
  } finally {
    await conn.close();
  }
});

test('freePort picks free ports below the ephemeral range, where listen(0) and outgoing connections never land', async () => {
  const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
    .trim()
    .split(/\s+/)
    .map(Number);
  const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
  for (const port of ports) {
    expect(port).toBeGreaterThanOrEqual(10_000);
    expect(port).toBeLessThan(low!);
  }
  // Each can be listened on (a port found free is free).
  const servers = await Promise.all(
    [...new Set(ports)].map(
      (port) =>
        new Promise<Server>((resolve, reject) => {
          const srv = createServer();
          srv.once('error', reject);
          srv.listen(port, '127.0.0.1', () => resolve(srv));
        }),
    ),
  );
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  // What freePort checks each candidate with sees a port taken.
  const taken = ports[0]!;
  const holder = await new Promise<Server>((resolve) => {
    const srv = createServer();
    srv.listen(taken, '127.0.0.1', () => resolve(srv));
  });
  expect(await portIsFree('127.0.0.1', taken)).toBe(false);
  holder.close();
});
