/**
 * The investor shortlist's readers on the sandbox's real answers over HTTP (find_investors and
 * get_investor), and its plan (the free plan's one run said).
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { parseInvestorShortlistJob } from '../../../jobs/investor-shortlist/job.js';
import {
  companyParams,
  planInvestorShortlist,
  shortlistPlanLines,
} from '../../../jobs/investor-shortlist/plan.js';
import {
  chartsOf,
  enrichInvestor,
  readInvestorList,
  readPartner,
} from '../../../jobs/investor-shortlist/read.js';
import type { RunningSandbox } from '../../../sandbox/index.js';
import { callSandbox, KEYS, startTestSandbox } from '../../helpers/sandbox.js';

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimitPerMinute: 10_000 });
});

afterAll(async () => {
  await sandbox?.close();
});

const job = parseInvestorShortlistJob({
  id: 'raises',
  kind: 'investor-shortlist',
  title: 'Raises',
  companies: [
    {
      name: 'Stackwise',
      description: 'Infrastructure-as-code automation for platform teams.',
      sector: 'Software & Developer Tools',
      raising_stage: 'series-a',
      limit: 10,
    },
    { name: 'Lexi', description: 'AI tools for lawyers.', limit: 20 },
  ],
  enrich: 3,
  budget: { credits: 3 },
});

test("a company's investors, enriched from their profiles, with the service's charts", async () => {
  const r = await callSandbox(sandbox, 'find_investors', {
    key: KEYS.startup,
    params: companyParams(job.companies[0]!),
  });
  expect(r.status, r.text).toBe(200);
  const list = readInvestorList(r.body.data);
  expect(list.readAs).not.toBeNull();
  expect(list.rows).toHaveLength(10);
  expect(
    list.rows.every((row, i) => row.rank === i + 1 && typeof row.fitPct === 'number' && row.why.length > 0),
  ).toBe(true);
  expect(chartsOf(r.body.charts).map((c) => c.type)).toContain('combo');
  const top = list.rows[0]!;
  const p = await callSandbox(sandbox, 'get_investor', { key: KEYS.startup, params: { key: top.key } });
  const enriched = enrichInvestor(top, p.body.data);
  expect(enriched.enriched).toBe(true);
  expect(enriched.thesis).not.toBeNull();
  expect(enriched.recentPortfolio.length).toBeGreaterThan(0);
  expect(enriched.checkMaxUsd).toBeGreaterThanOrEqual(enriched.checkMinUsd ?? 0);
  // The partner and the website are the profile's own.
  const investor = (
    p.body.data as { investor: { website: string | null; team: { name: string; role: string }[] } }
  ).investor;
  const partner = investor.team.find((m) => /partner/i.test(m.role)) ?? investor.team[0]!;
  expect(enriched.partner).toEqual({ name: partner.name, role: partner.role });
  expect(enriched.website).toBe(investor.website);
});

test('a partner is read from a team however the service shapes it', () => {
  const team = (t: unknown) => readPartner({ team: t });
  expect(
    team([
      { name: 'Ana Ruiz', role: 'Principal' },
      { name: 'Jon Lee', role: 'General Partner' },
    ]),
  ).toEqual({
    name: 'Jon Lee',
    role: 'General Partner',
  });
  expect(team([{ full_name: 'Ana Ruiz', title: 'Associate' }])).toEqual({
    name: 'Ana Ruiz',
    role: 'Associate',
  });
  expect(team(['Ana Ruiz', 'Jon Lee'])).toEqual({ name: 'Ana Ruiz', role: null });
  expect(readPartner({ people: [{ name: 'Mia Chen', position: 'Partner' }] })).toEqual({
    name: 'Mia Chen',
    role: 'Partner',
  });
  expect(team([])).toBeNull();
  expect(team('nobody')).toBeNull();
  expect(readPartner({})).toBeNull();
});

test('the plan: a company a call, the budget, the free plan said; a free plan asks the top 5', () => {
  expect(planInvestorShortlist(job)).toMatchObject({
    maxCalls: 10,
    paidCalls: 2,
    creditsNeeded: 6,
    paidCallsInBudget: 1,
  });
  const lines = shortlistPlanLines(job, { perMinute: 60, perDay: 5000 }).join('\n');
  expect(lines).toContain('the budget of 3 pays for 1 of 2 companies');
  expect(lines).toContain('on a free plan: the service allows one find_investors run with the top 5');
  expect(companyParams(job.companies[1]!, true)).toEqual({ description: 'AI tools for lawyers.', limit: 5 });
});
