/**
 * The webhook's message against a real receiver on 127.0.0.1 (port 0): both formats, and its
 * signature as a receiver checks it.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import {
  buildWebhookBody,
  parseWebhookDestination,
  postWebhook,
  verifyWebhookSignature,
  webhookIdempotencyKey,
} from '../../activities/delivery/index.js';
import { header, SECRET, summary, useWebhookBed, verifies } from '../helpers/webhook-delivery.js';

const bed = useWebhookBed();

describe('the message and its signature', () => {
  test('JSON: the receiver verifies it; another secret, a changed body or an old timestamp fail', async () => {
    const hook = await bed.start();
    const dest = parseWebhookDestination({ url: hook.url });
    expect(dest.format).toBe('json');
    const manifest = { files: [{ name: 'weekly-dach-2026-11-23.pdf', bytes: 1234 }] };
    const result = await postWebhook(dest, buildWebhookBody(dest, summary, manifest), {
      secret: SECRET,
      idempotencyKey: webhookIdempotencyKey(summary.runId, 'webhook-1'),
      dispatcher: bed.agent,
    });
    expect(result).toMatchObject({ ok: true, status: 200 });
    expect(Date.parse(result.deliveredAt)).toBeGreaterThan(Date.now() - 10_000);

    const [r] = hook.requests;
    expect(r!.method).toBe('POST');
    expect(header(r!, 'content-type')).toBe('application/json; charset=utf-8');
    expect(header(r!, 'user-agent')).toMatch(/^venture-intelligence-runner\//);
    expect(header(r!, 'x-vir-signature')).toMatch(/^v1=[0-9a-f]{64}$/);
    expect(verifies(r!)).toBe(true);
    expect(verifies(r!, 'another-secret-of-the-same-size')).toBe(false);
    expect(verifies(r!, SECRET, r!.body.replace('partial', 'complete'))).toBe(false);
    expect(verifies(r!, SECRET, r!.body, r!.at + 301_000)).toBe(false);
    expect(verifies(r!, SECRET, r!.body, r!.at + 299_000)).toBe(true);
    // The documented scheme, computed here without the module: v1=HMAC-SHA256("<timestamp>.<body>").
    const ts = header(r!, 'x-vir-timestamp')!;
    expect(Math.abs(Number(ts) - r!.at / 1000)).toBeLessThan(5);
    expect(header(r!, 'x-vir-signature')).toBe(
      `v1=${createHmac('sha256', SECRET).update(`${ts}.${r!.body}`).digest('hex')}`,
    );
    // A replay with a fresh timestamp and the captured signature fails.
    expect(
      verifyWebhookSignature(SECRET, String(Number(ts) + 60), r!.body, header(r!, 'x-vir-signature'), {
        now: r!.at + 60_000,
      }),
    ).toBe(false);

    const body = JSON.parse(r!.body) as Record<string, unknown>;
    expect(body).toEqual({
      type: 'vir.run.delivered',
      version: 1,
      job: { id: 'weekly-dach', title: summary.jobTitle, kind: 'market-report' },
      run: { id: 'weekly-dach-2026-11-23', date: '2026-11-23' },
      status: 'partial',
      reasons: summary.reasons,
      headline: summary.headline,
      figures: summary.figures,
      links: summary.links,
      manifest,
    });
  });

  test('Slack: header, status and why, figures as fields, links as <url|name>, everything escaped', async () => {
    const hook = await bed.start();
    const dest = parseWebhookDestination({ url: hook.url, format: 'slack' });
    await postWebhook(dest, buildWebhookBody(dest, summary), {
      secret: SECRET,
      idempotencyKey: 'k-slack',
      dispatcher: bed.agent,
    });
    const [r] = hook.requests;
    expect(verifies(r!)).toBe(true);
    // Nothing the service or the job file wrote reaches Slack unescaped.
    expect(r!.body).not.toContain('<script>');
    expect(r!.body).not.toContain('<!channel>');
    expect(r!.body).not.toContain('javascript:');
    const body = JSON.parse(r!.body) as { text: string; blocks: Record<string, unknown>[] };
    const title = 'Weekly DACH &lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;!channel&gt;';
    expect(body.text).toBe(
      `${title} (2026-11-23): partial: Austria: 2 pages could not be read; budget reached after 480 credits`,
    );
    expect(body.blocks[0]).toEqual({
      type: 'header',
      text: { type: 'plain_text', text: title, emoji: false },
    });
    expect(body.blocks[1]).toEqual({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: '*Status:* :warning: partial: Austria: 2 pages could not be read; budget reached after 480 credits',
      },
    });
    expect(body.blocks[3]).toEqual({
      type: 'section',
      fields: [
        { type: 'mrkdwn', text: '*Investors*\n1,204' },
        { type: 'mrkdwn', text: '*New this week*\n37 _(vs 29 &lt;last week&gt;)_' },
      ],
    });
    expect(body.blocks[4]).toEqual({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: '<https://store.example.com/r/w.pdf?X-Amz-Expires=3600&amp;a=1|weekly-dach-2026-11-23.pdf>',
      },
    });
    expect(JSON.stringify(body.blocks.at(-1))).toContain('weekly-dach-2026-11-23');
  });

  test('a complete run says complete, without reasons', () => {
    const dest = parseWebhookDestination({ url: 'https://hooks.example.com/x', format: 'slack' });
    const body = buildWebhookBody(dest, { ...summary, status: 'complete', reasons: [] }) as {
      text: string;
    };
    expect(body.text).toMatch(/: complete$/);
  });
});
