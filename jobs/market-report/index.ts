/**
 * The weekly market report as a job kind: country overviews, paged investor and startup
 * searches, enrichment, data-agent questions, comparison with the previous run; a workbook and
 * a PDF with charts.
 */
import { fileURLToPath } from 'node:url';
import { defineJobKind } from '../kind.js';
import { createMarketReportActivities } from './activities.js';
import {
  MARKET_REPORT_KIND,
  MarketReportJobSchema,
  normaliseMarketReportJob,
  type MarketReportJob,
} from './job.js';
import { planMarketReport } from './plan.js';
import { marketReportWorkflow } from './workflow.js';

export const marketReportKind = defineJobKind<MarketReportJob>({
  kind: MARKET_REPORT_KIND,
  description: 'weekly market report per country or region: a workbook and a PDF with charts',
  schema: MarketReportJobSchema,
  normalise: normaliseMarketReportJob,
  workflow: marketReportWorkflow,
  workflowsPath: fileURLToPath(new URL('./workflow.ts', import.meta.url)),
  idPrefix: 'market-report',
  estimate: planMarketReport,
  scope: (job) => `${job.countries.length} ${job.countries.length === 1 ? 'country' : 'countries'}`,
  // A region's countries are the runner's own list; they are checked against the service too.
  countries: (job) =>
    job.countries.map((country, i) => ({ field: job.region ? 'region' : `countries[${i}]`, country })),
  activities: createMarketReportActivities,
  examples: [
    'jobs/market-report/examples/weekly-market.yaml',
    'jobs/market-report/examples/demo.yaml',
    'jobs/market-report/examples/delivered.yaml',
  ],
});

export { parseMarketReportJob, MarketReportJobSchema, MARKET_REPORT_KIND } from './job.js';
export type { MarketReportJob } from './job.js';
export { expandQuestions, pagingStreams, planMarketReport } from './plan.js';
export { marketReportWorkflow } from './workflow.js';
export type { MarketReportInput, MarketReportResult } from './workflow.js';
export { createMarketReportActivities } from './activities.js';
export type { MarketReportActivities } from './activities.js';
