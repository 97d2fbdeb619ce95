/**
 * The message a webhook receives: a Slack-compatible incoming-webhook message (Block Kit, every
 * string escaped for mrkdwn) or the plain JSON document of the run's summary and manifest.
 */
import { httpUrl } from '../../config/destinations.js';
import type { WebhookDestination } from '../../config/destinations.js';
import type { DeliveryFigure, DeliverySummary } from '../../shared/delivery.js';

/** Escapes the three characters Slack's mrkdwn (and plain text) gives meaning to. */
export function escapeSlack(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A link target safe inside `<url|name>`: http(s) only, with `|`, `<`, `>` percent-encoded. */
function slackUrl(url: string): string | null {
  if (!httpUrl(url)) return null;
  return new URL(url).href
    .replace(/\|/g, '%7C')
    .replace(/</g, '%3C')
    .replace(/>/g, '%3E')
    .replace(/&/g, '&amp;');
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function statusLine(summary: DeliverySummary): string {
  if (summary.status === 'complete') return 'complete';
  return summary.reasons.length === 0 ? 'partial' : `partial: ${summary.reasons.join('; ')}`;
}

function figureText(f: DeliveryFigure): string {
  return `*${escapeSlack(f.label)}*\n${escapeSlack(f.value)}${f.note ? ` _(${escapeSlack(f.note)})_` : ''}`;
}

/** A Slack Block Kit block (the subset used here). */
export type SlackBlock = Record<string, unknown>;

/** A Slack-compatible incoming-webhook message. */
export interface SlackWebhookBody {
  text: string;
  blocks: SlackBlock[];
}

/** The `json` format: the run's summary and manifest. */
export interface JsonWebhookBody {
  type: 'vir.run.delivered';
  version: 1;
  job: { id: string; title: string; kind: string };
  run: { id: string; date: string };
  status: DeliverySummary['status'];
  reasons: string[];
  headline: string | null;
  figures: DeliveryFigure[];
  links: { name: string; url: string }[];
  manifest: unknown;
}

function slackBody(summary: DeliverySummary): SlackWebhookBody {
  const title = escapeSlack(summary.jobTitle);
  const status = statusLine(summary);
  const blocks: SlackBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: cut(title, 150), emoji: false } },
    {
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: cut(
          `*Status:* ${summary.status === 'complete' ? ':white_check_mark:' : ':warning:'} ${escapeSlack(status)}`,
          3000,
        ),
      },
    },
  ];
  if (summary.headline) {
    blocks.push({
      type: 'section',
      text: { type: 'mrkdwn', text: cut(escapeSlack(summary.headline), 3000) },
    });
  }
  // Slack takes at most 10 fields a section, 2000 characters each.
  for (let i = 0; i < summary.figures.length; i += 10) {
    blocks.push({
      type: 'section',
      fields: summary.figures
        .slice(i, i + 10)
        .map((f) => ({ type: 'mrkdwn', text: cut(figureText(f), 2000) })),
    });
  }
  const links = (summary.links ?? [])
    .map((l) => {
      const url = slackUrl(l.url);
      return url === null ? null : `<${url}|${escapeSlack(l.name)}>`;
    })
    .filter((l): l is string => l !== null);
  if (links.length > 0) {
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: cut(links.join(' · '), 3000) } });
  }
  blocks.push({
    type: 'context',
    elements: [
      {
        type: 'mrkdwn',
        text: cut(
          `${escapeSlack(summary.kind)} · job \`${escapeSlack(summary.jobId)}\` · ${escapeSlack(summary.date)} · run \`${escapeSlack(summary.runId)}\``,
          3000,
        ),
      },
    ],
  });
  return {
    text: cut(`${title} (${escapeSlack(summary.date)}): ${escapeSlack(status)}`, 3000),
    blocks,
  };
}

/**
 * The message for a destination: Slack's `{ text, blocks }` (header with the job's title, the
 * status and why, the key figures as fields, the links as `<url|name>`, every string from the
 * service escaped for mrkdwn), or the JSON document `{ type: 'vir.run.delivered', version: 1,
 * job, run, status, reasons, figures, links, manifest }`.
 */
export function buildWebhookBody(
  dest: Pick<WebhookDestination, 'format'>,
  summary: DeliverySummary,
  manifest?: unknown,
): SlackWebhookBody | JsonWebhookBody {
  if (dest.format === 'slack') return slackBody(summary);
  return {
    type: 'vir.run.delivered',
    version: 1,
    job: { id: summary.jobId, title: summary.jobTitle, kind: summary.kind },
    run: { id: summary.runId, date: summary.date },
    status: summary.status,
    reasons: summary.reasons,
    headline: summary.headline ?? null,
    figures: summary.figures,
    links: summary.links ?? [],
    manifest: manifest ?? null,
  };
}
