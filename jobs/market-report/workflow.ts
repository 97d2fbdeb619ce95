/**
 * The weekly market report job: country overviews, paged investor and startup searches,
 * enrichment of the top records, data-agent questions within the credit budget, comparison
 * with the previous run, then one workbook and one PDF. The engine (workflows/engine.ts) keeps
 * the books; this workflow decides what to call.
 *
 * Runs in flight replay through this code: the order of its commands is frozen (see the
 * README's "Changing a workflow safely"); a change of its commands goes behind `patched()`.
 */
import { proxyActivities } from '@temporalio/workflow';
import { slugId } from '../../lib/names.js';
import { JOB_ACTIVITY_OPTIONS } from '../../workflows/calls.js';
import {
  jobRunOptions,
  startRun,
  type JobRunInput,
  type Run,
  type JobRunResult,
} from '../../workflows/engine.js';
import type { MarketReportActivities } from './activities.js';
import type { MarketReportJob } from './job.js';
import { expandQuestions, pagingStreams, planMarketReport } from './plan.js';
import type { AnswerRef, CountryRefs } from './types.js';
import type { PagingResult } from '../../workflows/pager.js';

export type MarketReportInput = JobRunInput<MarketReportJob>;
export type MarketReportResult = JobRunResult & { files: { xlsx?: string; pdf?: string } };

const report = proxyActivities<MarketReportActivities>(JOB_ACTIVITY_OPTIONS);

export async function marketReportWorkflow(input: MarketReportInput): Promise<MarketReportResult> {
  const { job } = input;
  const run = startRun(jobRunOptions(input, planMarketReport(job).maxCalls));
  return run.guard(() => reportMarkets(input, run));
}

/** The run of a market report, its books kept by `run`. */
async function reportMarkets(input: MarketReportInput, run: Run): Promise<MarketReportResult> {
  const { job } = input;
  const questions = expandQuestions(job);

  // 1. The account: plan and balance bound what the run may spend.
  await run.checkAccount();

  // 2. Per country: overview and paged searches (children page and continue as new).
  run.phase('paging');
  /** Each country's searches whose top records are enriched. */
  const ranked = new Map<string, { investors: PagingResult; startups: PagingResult }>();
  const countries: CountryRefs[] = await Promise.all(
    job.countries.map(async (country): Promise<CountryRefs> => {
      const cs = slugId(country);
      const overviewP = run.tryCall(
        'country_overview',
        { country },
        `overview/${cs}`,
        `country_overview ${country}`,
      );
      const [scoreStream, investmentsStream, startupStream] = pagingStreams(job, country);
      const [overview, byScore, byInvestments, startups] = await Promise.all([
        overviewP,
        run.page(scoreStream, country),
        run.page(investmentsStream, country),
        run.page(startupStream, country),
      ]);
      ranked.set(country, { investors: byScore, startups });
      return {
        country,
        overview: overview?.ref ?? null,
        investorsByScore: byScore.refs,
        investorsByInvestments: byInvestments.refs,
        startups: startups.refs,
        investorProfiles: [],
        startupProfiles: [],
        investorsTotal: byScore.total,
        startupsTotal: startups.total,
        investorsCapped: byScore.capped || byInvestments.capped,
        startupsCapped: startups.capped,
      };
    }),
  );

  // 3. Enrichment of the top investors and startups.
  run.phase('enriching');
  await Promise.all(
    countries.map(async (c) => {
      const cs = slugId(c.country);
      const searches = ranked.get(c.country)!;
      const [topInvestors, topStartups] = await Promise.all([
        run.topKeys(searches.investors, job.enrich.investors),
        run.topKeys(searches.startups, job.enrich.startups),
      ]);
      const inv = await Promise.all(
        topInvestors.map((key, i) =>
          run.tryCall('get_investor', { key }, `profiles/investor-${cs}-${i}`, `get_investor ${key}`),
        ),
      );
      const st = await Promise.all(
        topStartups.map((key, i) =>
          run.tryCall('get_startup', { key }, `profiles/startup-${cs}-${i}`, `get_startup ${key}`),
        ),
      );
      c.investorProfiles = inv.flatMap((o) => (o ? [o.ref] : []));
      c.startupProfiles = st.flatMap((o) => (o ? [o.ref] : []));
    }),
  );

  // 4. Questions for the data agent, in the job's order, within the credit budget.
  run.phase('asking');
  const answers: AnswerRef[] = questions.map((q) => ({ ...q, ref: null, skipped: null, charged: 0 }));
  const answerCall = (i: number) => `answers/q-${String(i).padStart(3, '0')}`;
  const asks = answers.map((a, i) =>
    run.paidCall('ask', { query: a.question }, answerCall(i), `ask "${a.question}"`),
  );
  asks.forEach((ask, i) => {
    if (ask.refused !== null) answers[i]!.skipped = `not asked: ${ask.refused}`;
  });
  const skippedCount = answers.filter((a) => a.skipped).length;
  if (skippedCount > 0) {
    run.partial(
      `${skippedCount} of ${answers.length} data-agent questions skipped: credit budget of ${job.budget.credits} credits`,
    );
  }
  await Promise.all(
    asks.map(async (ask, i) => {
      if (ask.refused !== null) return;
      const a = answers[i]!;
      const out = await ask.result;
      // What the question cost: every attempt's charge, an answer lost after the charge included
      // (its repeat can be free), so the credits table agrees with the account's balance.
      a.charged = run.paidCredits(answerCall(i));
      if (out) {
        a.ref = out.ref;
        if (out.mapped === false) {
          // What the service charged says whether it was free, not whether it was answered.
          const cost =
            out.charged === 0
              ? 'not charged'
              : `charged ${out.charged} credit${out.charged === 1 ? '' : 's'}`;
          a.skipped = `the data agent could not answer this question (${cost})`;
        }
      } else {
        a.skipped = 'the call failed (see methodology)';
      }
    }),
  );

  // 5. Model (with the comparison to the previous run), render, manifest.
  run.phase('building');
  // The run time the methodology states, and the manifest's, end here: every call is made.
  run.stopClock();
  const built = await report.buildMarketModel({
    runKey: run.runKey,
    job,
    countries,
    answers,
    stats: run.stats(),
  });
  return run.renderAndFinish({
    job,
    snapshotRef: built.snapshotRef,
    render: () =>
      report.renderMarketReport({
        modelRef: built.modelRef,
        job: { id: job.id, destination: job.destination, outputs: job.outputs },
        date: run.date,
        workflowId: run.workflowId,
      }),
  });
}
