import { count, usd } from '../queries/format.js';
import { startupProfile, type StartupProfile } from '../queries/startups.js';
import { startupUrl } from '../queries/urls.js';
import { SandboxError, type Handler } from '../types.js';

/** "Acme (Berlin, Germany): seed Fintech startup, active; raised $12.3M in 3 rounds; last round …". */
export function startupSummary(startup: StartupProfile): string {
  const last = startup.rounds[startup.rounds.length - 1];
  const lastText = last ? `; last round ${last.stage} ${usd(last.amount_usd)} on ${last.date}` : '';
  return (
    `${startup.name} (${startup.hq_city}, ${startup.hq_country}): ${startup.stage} ${startup.sector} startup, ${startup.status}; ` +
    `raised ${usd(startup.total_raised_usd)} in ${count(startup.rounds.length)} round${startup.rounds.length === 1 ? '' : 's'}${lastText}`
  );
}

/**
 * get_startup: a startup profile by key or exact name (case-insensitive): what it does, HQ,
 * stage, status, founders, every round with its lead and other investors, total raised.
 * 404 not_found otherwise.
 */
export const get_startup: Handler<'get_startup'> = ({ db, params, baseUrl }) => {
  const startup = startupProfile(db, params.key, baseUrl);
  if (!startup) {
    throw new SandboxError(
      404,
      'not_found',
      `No startup with key or exact name '${params.key}'; search_startups lists keys`,
    );
  }
  return {
    data: { startup },
    summary: startupSummary(startup),
    charts: startup.rounds.length
      ? [
          {
            type: 'bar',
            title: `${startup.name}: funding rounds`,
            xKey: 'date',
            series: [{ key: 'amount_usd', name: 'Amount (USD)' }],
            data: startup.rounds.map((r) => ({ date: r.date, stage: r.stage, amount_usd: r.amount_usd })),
            unit: 'USD',
          },
        ]
      : [],
    url: startupUrl(baseUrl, startup.key),
  };
};
