/** The fund-match job: defaults, bounds, and every problem named by its field. */
import { expect, test } from 'vitest';
import { describeEstimate } from '../../../cli/run-job.js';
import { JobFileError } from '../../../jobs/base.js';
import { parseFundMatchJob } from '../../../jobs/fund-match/job.js';
import { planFundMatch, profilesToRead } from '../../../jobs/fund-match/plan.js';

const base = { id: 'weekly-matches', kind: 'fund-match', title: 'Weekly matches' };

function problem(over: Record<string, unknown>): JobFileError {
  try {
    parseFundMatchJob({ ...base, ...over }, 'jobs.yaml');
  } catch (err) {
    if (err instanceof JobFileError) return err;
    throw err;
  }
  throw new Error('the job was accepted');
}

test('a minimal job gets its defaults: 30 a batch, a watchlist of 200, every new match enriched, a digest every run', () => {
  const job = parseFundMatchJob(base);
  expect(job).toMatchObject({
    limit: 30,
    watchlist: 200,
    enrichNew: 30,
    digestWhenQuiet: true,
    outputs: ['pdf', 'xlsx'],
  });
});

test('a batch over 30, a watchlist over 1000, a bad flag and an unknown field are refused, naming the field', () => {
  expect(problem({ limit: 31 }).message).toMatch(/job "weekly-matches": limit: must be at most 30/);
  expect(problem({ watchlist: 5000 }).message).toMatch(/watchlist: must be at most 1000/);
  expect(problem({ digestWhenQuiet: 'yes' }).message).toMatch(/digestWhenQuiet: must be true or false/);
  expect(problem({ thesis: 'ai' }).message).toMatch(/unknown field "thesis"/);
});

test('the plan: one paid batch, a profile of every startup of the batch and of the followed past matches', () => {
  const job = parseFundMatchJob({ ...base, limit: 20, watchlist: 50, budget: { credits: 3 } });
  expect(planFundMatch(job)).toMatchObject({
    maxCalls: 72,
    paidCalls: 1,
    creditsNeeded: 3,
    paidCallsInBudget: 1,
  });
  expect(planFundMatch({ ...job, budget: { credits: 2 } }).paidCallsInBudget).toBe(0);
  const tracked = [
    { key: 'old', lastSeenRun: 1 },
    { key: 'b', lastSeenRun: 3 },
    { key: 'a', lastSeenRun: 3 },
    { key: 'in', lastSeenRun: 3 },
    { key: 'mid', lastSeenRun: 2 },
  ];
  expect(profilesToRead(['in', 'new'], tracked, 3)).toEqual(['in', 'new', 'a', 'b', 'mid']);
  expect(profilesToRead(['in'], tracked, 0)).toEqual(['in']);
});

test('the estimate before a run counts one batch in the singular', () => {
  const job = parseFundMatchJob({ ...base, budget: { credits: 3 } });
  const lines = describeEstimate(job, { rateLimitPerMinute: 60, rateLimitPerDay: 5000 });
  expect(lines).toContain('estimate: 1 batch, 3 credits of the budget of 3');
});
