/** The fund-match job: defaults, bounds, and every problem named by its field. */
import { expect, test } from 'vitest';
import { JobFileError } from '../../../jobs/base.js';
import { parseFundMatchJob } from '../../../jobs/fund-match/job.js';

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
