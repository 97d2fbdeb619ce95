/**
 * The investor shortlist: its job (every problem named by its field), the investors marked new
 * since the last run, and the investors who fit several companies.
 */
import { expect, test } from 'vitest';
import { JobFileError } from '../../../jobs/base.js';
import {
  markNew,
  nextShortlist,
  sharedInvestors,
  type ShortlistInvestor,
} from '../../../jobs/investor-shortlist/changes.js';
import { parseInvestorShortlistJob } from '../../../jobs/investor-shortlist/job.js';

const base = {
  id: 'portfolio-raises',
  kind: 'investor-shortlist',
  title: 'Investors for the portfolio',
  companies: [{ name: 'Acme', website: 'https://acme.io', raising_stage: 'seed' }],
};

function problem(over: Record<string, unknown>): string {
  try {
    parseInvestorShortlistJob({ ...base, ...over }, 'jobs.yaml');
  } catch (err) {
    if (err instanceof JobFileError) return err.message;
    throw err;
  }
  throw new Error('the job was accepted');
}

test('a minimal job gets its defaults', () => {
  const job = parseInvestorShortlistJob(base);
  expect(job.companies[0]).toMatchObject({ name: 'Acme', limit: 20 });
  expect(job).toMatchObject({ enrich: 5, outputs: ['pdf', 'xlsx'] });
});

test('bad companies are refused, naming the field', () => {
  expect(problem({ companies: [] })).toMatch(/companies: must list at least one company/);
  expect(problem({ companies: [{ name: 'Acme' }] })).toMatch(
    /companies\[0\]\.website: needs a website or a description/,
  );
  expect(problem({ companies: [{ name: 'Acme', description: 'One. Two. Three. Four.' }] })).toMatch(
    /companies\[0\]\.description: must be 1 to 3 sentences/,
  );
  expect(problem({ companies: [{ name: 'Acme', website: 'a.io', raising_stage: 'series-d' }] })).toMatch(
    /companies\[0\]\.raising_stage: must be one of pre-seed, seed, series-a, series-b, series-c-plus/,
  );
  expect(problem({ companies: [{ name: 'Acme', website: 'a.io', limit: 51 }] })).toMatch(
    /companies\[0\]\.limit: must be at most 50/,
  );
  expect(
    problem({
      companies: [
        { name: 'Acme', website: 'a.io' },
        { name: 'ACME', website: 'b.io' },
      ],
    }),
  ).toMatch(/companies: two companies have the same name/);
});

const inv = (key: string, fit: number): ShortlistInvestor => ({ key, name: key.toUpperCase(), fitPct: fit });

test('investors new since the last run are marked; the first run and a new company are the baseline', () => {
  const lists1 = new Map([['Acme', [inv('a', 90), inv('b', 80)]]]);
  expect(markNew(null, 'Acme', lists1.get('Acme')!).map((i) => i.isNew)).toEqual([false, false]);
  const snap = nextShortlist(null, 'job', '2026-11-16', lists1);
  expect(markNew(snap, 'Acme', [inv('b', 85), inv('c', 70)]).map((i) => [i.key, i.isNew])).toEqual([
    ['b', false],
    ['c', true],
  ]);
  expect(markNew(snap, 'Bolt', [inv('c', 70)]).map((i) => i.isNew)).toEqual([false]);
  const next = nextShortlist(snap, 'job', '2026-11-23', new Map([['Acme', [inv('c', 70)]]]));
  expect(next.companies.Acme).toEqual({ a: '2026-11-16', b: '2026-11-16', c: '2026-11-23' });
});

test('investors who fit several companies, most companies first, then best fit', () => {
  const shared = sharedInvestors(
    new Map([
      ['Acme', [inv('a', 90), inv('b', 80), inv('c', 60)]],
      ['Bolt', [inv('b', 85), inv('c', 75)]],
      ['Crux', [inv('c', 50), inv('d', 99)]],
    ]),
  );
  expect(shared.map((s) => [s.key, s.companies, s.bestFit])).toEqual([
    ['c', ['Acme', 'Bolt', 'Crux'], 75],
    ['b', ['Acme', 'Bolt'], 85],
  ]);
});
