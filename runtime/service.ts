/**
 * The one way to build the service's client from the settings: base URL, key and timeouts.
 */
import { VisClient } from '../api/client.js';
import { requireApiKey, type Settings } from '../config/settings.js';

/**
 * A client of VIS_BASE_URL with VIS_API_KEY and VIR_HTTP_TIMEOUT_MS; throws a SettingsError
 * naming VIS_API_KEY when the key is not set. Close it when done.
 *
 * @example
 * const client = serviceClient(loadSettings());
 * try { console.log(readAccount(await client.call('my_account', {})).plan); } finally { await client.close(); }
 */
export function serviceClient(
  settings: Pick<Settings, 'visBaseUrl' | 'visApiKey' | 'httpTimeoutMs'>,
  options: {
    /** One limit for connecting, headers and body instead of the settings' (checks). */ timeoutMs?: number;
  } = {},
): VisClient {
  const timeoutMs = options.timeoutMs ?? settings.httpTimeoutMs;
  return new VisClient({
    baseUrl: settings.visBaseUrl,
    apiKey: requireApiKey(settings),
    ...(options.timeoutMs === undefined ? {} : { connectTimeoutMs: timeoutMs }),
    headersTimeoutMs: timeoutMs,
    bodyTimeoutMs: timeoutMs,
  });
}
