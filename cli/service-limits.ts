/**
 * The rate limits plans and estimates are made with: the ones the service reports for the key
 * (my_account, a free call: its data's rate limits, read tolerantly, else the response's
 * X-RateLimit-Limit for the minute), asked once with a short timeout; the settings'
 * (VIR_RATE_LIMIT_PER_MINUTE, VIR_RATE_LIMIT_PER_DAY) where there is no key, the service cannot be
 * reached or it reports none. The result says where each figure came from.
 *
 * @example
 * const limits = await serviceLimits(ctx.settings());
 * describeEstimate(job, limits); // at limits.rateLimitPerMinute calls/min
 * ctx.io.err(describeLimits(limits));
 */
import { readAccount } from '../api/read-account.js';
import type { Settings } from '../config/settings.js';
import { serviceClient } from '../runtime/service.js';

/** How long `vir plan` and `vir run` wait for my_account before using the settings (ms). */
export const SERVICE_LIMITS_TIMEOUT_MS = 3000;

/** Where a limit came from. */
export type LimitSource = 'service' | 'settings';

/** The limits a plan is made with, each with its source, and why the settings were used. */
export interface PlanLimits {
  rateLimitPerMinute: number;
  rateLimitPerDay: number;
  sources: { perMinute: LimitSource; perDay: LimitSource };
  /** Why a figure is the settings' (no key, the service not reached, not reported); null when both are the service's. */
  fallbackReason: string | null;
}

type LimitSettings = Pick<
  Settings,
  'visBaseUrl' | 'visApiKey' | 'httpTimeoutMs' | 'rateLimitPerMinute' | 'rateLimitPerDay'
>;

/** The settings' limits, with the reason they are used. */
function fromSettings(settings: LimitSettings, reason: string): PlanLimits {
  return {
    rateLimitPerMinute: settings.rateLimitPerMinute,
    rateLimitPerDay: settings.rateLimitPerDay,
    sources: { perMinute: 'settings', perDay: 'settings' },
    fallbackReason: reason,
  };
}

/** The first line of an error's message, without the key (never in a message, but never printed either). */
function reasonOf(err: unknown, apiKey: string): string {
  const text = (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';
  return apiKey ? text.split(apiKey).join('***') : text;
}

/**
 * Asks the service for the key's rate limits (my_account, once, `timeoutMs`), falling back to
 * the settings for each figure it does not give. Never throws.
 */
export async function serviceLimits(
  settings: LimitSettings,
  options: { timeoutMs?: number } = {},
): Promise<PlanLimits> {
  const key = settings.visApiKey;
  if (!key) return fromSettings(settings, 'VIS_API_KEY is not set');
  const timeoutMs = options.timeoutMs ?? SERVICE_LIMITS_TIMEOUT_MS;
  let client: ReturnType<typeof serviceClient>;
  try {
    client = serviceClient(settings, { timeoutMs });
  } catch (err) {
    return fromSettings(settings, `the service cannot be asked (${reasonOf(err, key)})`);
  }
  try {
    const call = await client.callDetailed('my_account', {}, { signal: AbortSignal.timeout(timeoutMs) });
    const reported = readAccount(call.result).rateLimits;
    const perMinute = reported.perMinute ?? call.rateLimit.limit;
    const perDay = reported.perDay;
    const missing = [perMinute === null ? 'a minute' : null, perDay === null ? 'a day' : null].filter(
      (m): m is string => m !== null,
    );
    return {
      rateLimitPerMinute: perMinute ?? settings.rateLimitPerMinute,
      rateLimitPerDay: perDay ?? settings.rateLimitPerDay,
      sources: {
        perMinute: perMinute === null ? 'settings' : 'service',
        perDay: perDay === null ? 'settings' : 'service',
      },
      fallbackReason:
        missing.length === 0
          ? null
          : `the service does not report its limit of calls ${missing.join(' or ')}`,
    };
  } catch (err) {
    return fromSettings(
      settings,
      `the service at ${settings.visBaseUrl} could not be asked (${reasonOf(err, key)})`,
    );
  } finally {
    await client.close().catch(() => undefined);
  }
}

/**
 * One line saying which limits the plan uses and where they came from, e.g.
 * `limits: 20 calls/min, 5000 calls/day, as reported by the service (my_account)` or
 * `limits: 60 calls/min, 5000 calls/day from the settings (VIR_RATE_LIMIT_PER_MINUTE, VIR_RATE_LIMIT_PER_DAY): VIS_API_KEY is not set`.
 */
export function describeLimits(limits: PlanLimits): string {
  const figures = `${limits.rateLimitPerMinute} calls/min, ${limits.rateLimitPerDay} calls/day`;
  const { perMinute, perDay } = limits.sources;
  if (perMinute === 'service' && perDay === 'service')
    return `limits: ${figures}, as reported by the service (my_account)`;
  if (perMinute === 'settings' && perDay === 'settings') {
    return `limits: ${figures} from the settings (VIR_RATE_LIMIT_PER_MINUTE, VIR_RATE_LIMIT_PER_DAY): ${limits.fallbackReason ?? 'not reported'}`;
  }
  const [service, fallback] =
    perMinute === 'service'
      ? ['the minute', 'VIR_RATE_LIMIT_PER_DAY']
      : ['the day', 'VIR_RATE_LIMIT_PER_MINUTE'];
  return `limits: ${figures}: ${service}'s as reported by the service (my_account), the other from the settings (${fallback}): ${limits.fallbackReason ?? 'not reported'}`;
}
