/**
 * The bed of the client's test files: a scripted server and a VisClient on it, started before
 * the file's tests and closed after them, the recorded requests cleared after each test.
 */
import { afterAll, afterEach, beforeAll } from 'vitest';
import { createClient, VisClient, type VisClientOptions } from '../../api/index.js';
import { startScriptedServer, type ScriptedServer } from './scripted-server.js';

/** The key the client tests call with. */
export const KEY = 'vis_live_clienttest0123456789';

/** A search_investors answer of one investor. */
export const investors = {
  investors: [{ key: 'acme-ventures', name: 'Acme Ventures' }],
  total: 1,
  limit: 25,
  offset: 0,
};

/**
 * Starts the server and the client before the file's tests; `set` hands both to the file once
 * they run. Returns `withClient`, which runs `fn` with another client on the same server (of
 * other options) and closes it afterwards.
 *
 * @example
 * let server: ScriptedServer; let client: VisClient;
 * const { withClient } = clientBed((s, c) => ((server = s), (client = c)));
 */
export function clientBed(set: (server: ScriptedServer, client: VisClient) => void) {
  let server: ScriptedServer | undefined;
  let client: VisClient | undefined;
  beforeAll(async () => {
    server = await startScriptedServer();
    client = new VisClient({ baseUrl: server.url, apiKey: KEY });
    set(server, client);
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
  });
  afterEach(() => {
    if (server) server.requests.length = 0;
  });
  const withClient = <T>(
    options: Partial<VisClientOptions>,
    fn: (c: VisClient) => Promise<T>,
  ): Promise<T> => {
    const c = createClient({ baseUrl: server!.url, apiKey: KEY, ...options });
    return fn(c).finally(() => c.close());
  };
  return { withClient };
}
