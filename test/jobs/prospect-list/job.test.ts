/** The prospect list's job schema: defaults, regions expanded, and every problem named by its field. */
import { expect, test } from 'vitest';
import { parseProspectListJob } from '../../../jobs/prospect-list/job.js';
import { JobFileError } from '../../../jobs/base.js';

const base = { id: 'agencies-dach', title: 'Agencies in DACH' };

test('a minimal job gets its defaults; a region becomes its countries', () => {
  const job = parseProspectListJob({
    ...base,
    briefs: [{ brief: 'We build data platforms for seed-stage fintechs' }],
    searches: [{ region: 'dach', sector: 'Finance & Blockchain', cap: 5000 }],
  });
  expect(job.kind).toBe('prospect-list');
  expect(job.briefs[0]!.limit).toBe(50);
  expect(job.searches[0]!.countries).toEqual(['Germany', 'Austria', 'Switzerland']);
  expect(job.searches[0]!.region).toBe('dach');
  expect(job).toMatchObject({
    enrich: 100,
    delivered: 'mark',
    crm: ['generic'],
    outputs: ['csv', 'xlsx', 'pdf'],
  });
});

function problem(input: Record<string, unknown>): string {
  try {
    parseProspectListJob({ ...base, ...input }, 'jobs.yaml');
  } catch (err) {
    expect(err).toBeInstanceOf(JobFileError);
    return (err as Error).message;
  }
  throw new Error('the job was accepted');
}

test.each([
  ['no brief nor search', {}, /briefs: needs at least one brief or one search/],
  [
    'a brief without text nor org',
    { briefs: [{ limit: 10 }] },
    /briefs\[0\]\.brief: needs a brief or an org_key/,
  ],
  [
    'a brief limit over 50',
    { briefs: [{ brief: 'x', limit: 51 }] },
    /briefs\[0\]\.limit: must be at most 50/,
  ],
  ['a cap over 100,000', { searches: [{ cap: 100_001 }] }, /searches\[0\]\.cap: must be at most 100000/],
  [
    'countries and a region',
    { searches: [{ countries: ['France'], region: 'dach' }] },
    /searches\[0\]\.countries: takes countries or a region/,
  ],
  [
    'an unknown sector',
    { searches: [{ sector: 'Fintech' }] },
    /searches\[0\]\.sector: must be one of "Artificial Intelligence & Data"/,
  ],
  [
    'an unknown CRM',
    { searches: [{}], crm: ['zoho'] },
    /crm\[0\]: must be one of hubspot, salesforce, pipedrive, attio, generic/,
  ],
  [
    'an unknown delivered rule',
    { searches: [{}], delivered: 'skip' },
    /delivered: must be "exclude" \(net new only\) or "mark"/,
  ],
  ['a huge enrich count', { searches: [{}], enrich: 2 ** 70 }, /enrich: must be at most 1000/],
])('%s is refused, naming the field', (_what, input, says) => {
  expect(problem(input)).toMatch(says);
});
