/** A job's delivery list: each kind validated by its own schema, problems at their full path, ids by position. */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DeliverySchema } from '../../config/destinations.js';
import { parseJobFile } from '../../jobs/files.js';

function problems(input: unknown): string[] {
  const parsed = DeliverySchema.safeParse(input);
  if (parsed.success) return [];
  return parsed.error.issues.map(
    (i) =>
      `${i.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('')}: ${i.message}`,
  );
}

describe('DeliverySchema', () => {
  it('reads the three kinds, with ids by position and defaults applied', () => {
    const list = DeliverySchema.parse([
      { email: { to: ['ann@example.com'] } },
      { webhook: { url: 'https://hooks.example.com/vir', format: 'slack' } },
      { s3: { bucket: 'vir-reports', prefix: 'weekly' } },
      { id: 'partners', email: { to: 'bob@example.com, cy@example.org' } },
      { email: { to: ['dee@example.com'] } },
    ]);
    expect(list.map((d) => [d.kind, d.id])).toEqual([
      ['email', 'email-1'],
      ['webhook', 'webhook-1'],
      ['s3', 's3-1'],
      ['email', 'partners'],
      ['email', 'email-3'],
    ]);
    const s3 = list[2]!;
    expect(s3.kind === 's3' && s3.s3).toMatchObject({ bucket: 'vir-reports', region: 'us-east-1' });
    const hook = list[1]!;
    expect(hook.kind === 'webhook' && hook.webhook).toMatchObject({ format: 'slack' });
    expect(hook.kind === 'webhook' && 'id' in hook.webhook).toBe(false);
  });

  it('names each problem at its path', () => {
    const found = problems([
      { email: { to: ['ann@example.com', 'bob@'] } },
      { webhook: { url: 'ftp://x' } },
      { s3: { bucket: 'Bad_Bucket' } },
      { fax: { number: '1' } },
      'email',
      { email: { to: ['a@example.com'] }, s3: { bucket: 'b-1' } },
      { id: 'x', email: { to: ['a@example.com'] } },
      { id: 'x', s3: { bucket: 'vir-reports' } },
    ]);
    expect(found.some((p) => p.startsWith('[0].email.to'))).toBe(true);
    expect(found.some((p) => p.startsWith('[1].webhook.url'))).toBe(true);
    expect(found.some((p) => p.startsWith('[2].s3.bucket'))).toBe(true);
    expect(found).toContain(
      '[3]: unknown destination kind "fax": must be one of { email: {...} }, { webhook: {...} } or { s3: {...} }',
    );
    expect(found.some((p) => p.startsWith('[4]: must be one of'))).toBe(true);
    expect(found).toContain('[5]: names 2 kinds (email, s3): one destination a list item');
    expect(found).toContain('[7].id: "x" is the id of another destination');
    expect(found).toHaveLength(7);
  });

  it('refuses a secret in a webhook destination, pointing to the environment', () => {
    const found = problems([{ webhook: { url: 'https://hooks.example.com/vir', secret: 'hunter2' } }]);
    expect(found.join('\n')).toMatch(/^\[0\]\.webhook\.secret: a secret never goes in the job file/);
  });

  it('is a list', () => {
    expect(problems({ email: { to: ['a@example.com'] } })[0]).toMatch(/must be a list of destinations/);
    expect(DeliverySchema.parse([])).toEqual([]);
  });
});

describe('the job files the docs show', () => {
  /** The YAML block that follows `heading` in a Markdown file. */
  function yamlAfter(path: string, heading: string): string {
    const text = readFileSync(join(import.meta.dirname, '../..', path), 'utf8');
    const from = text.indexOf(heading);
    expect(from, `${path}: ${heading}`).toBeGreaterThanOrEqual(0);
    const block = /```yaml\n([\s\S]*?)```/.exec(text.slice(from));
    return block![1]!;
  }

  it.each([
    ['README.md', '#### Delivery', ['email-1', 'webhook-1', 's3-1']],
    ['docs/delivery.md', '## In a job file', ['email-1', 'team-chat', 'webhook-2', 's3-1']],
  ])('%s (%s) parses as a job with its destinations', (path, heading, ids) => {
    const file = parseJobFile(yamlAfter(path, heading), path);
    const job = file.jobs[0]!;
    expect(job.delivery?.map((d) => d.id)).toEqual(ids);
  });

  it('a bad address in a job file names the job and the field', () => {
    const text = yamlAfter('README.md', '#### Delivery').replace('partners@fund.example', 'partners@');
    expect(() => parseJobFile(text, 'jobs.yaml')).toThrow(
      'jobs.yaml: job "weekly-dach": delivery[0].email.to[0]: "partners@" is not an email address',
    );
  });
});
