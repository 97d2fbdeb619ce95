import { expect, test } from 'vitest';
import { parseMarketReportJob } from '../../../jobs/market-report/index.js';
import { describeEstimate } from '../../../cli/run-job.js';
import { expandQuestions, planMarketReport } from '../../../jobs/market-report/plan.js';

const job = parseMarketReportJob({
  id: 'plan',
  title: 'Plan',
  countries: ['Germany', 'France'],
  paging: { maxInvestorsPerCountry: 250, maxStartupsPerCountry: 100 },
  enrich: { investors: 2, startups: 1 },
  questions: ['largest rounds of the last 7 days in {country}', 'top countries in 2025'],
  budget: { credits: 2 },
});

test('questions with {country} expand once per country, in order', () => {
  expect(expandQuestions(job)).toEqual([
    { question: 'largest rounds of the last 7 days in Germany', country: 'Germany' },
    { question: 'largest rounds of the last 7 days in France', country: 'France' },
    { question: 'top countries in 2025', country: null },
  ]);
});

test('the plan bounds the calls and the credits', () => {
  // my_account + per country (overview + 2 x 3 investor pages + 1 startup page + 3 profiles) + 3 asks
  expect(planMarketReport(job)).toEqual({
    maxCalls: 1 + 2 * 11 + 3,
    paidCalls: 3,
    paidCallsInBudget: 2,
    creditsNeeded: 3,
    paidCallNoun: ['question', 'questions'],
  });
});

test('the estimate says what the budget and the limits imply', () => {
  const lines = describeEstimate(job, { rateLimitPerMinute: 60, rateLimitPerDay: 20 });
  expect(lines[0]).toBe('estimate: at most 26 calls, about <1 min at 60 calls/min');
  expect(lines[1]).toMatch(/pays for 2 of 3 questions; the rest will be skipped/);
  expect(lines[2]).toMatch(/more calls than the daily limit of 20/);
  expect(
    describeEstimate({ ...job, questions: [] }, { rateLimitPerMinute: 60, rateLimitPerDay: 5000 }),
  ).toHaveLength(1);
});
