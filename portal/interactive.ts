/**
 * The interactive HTML report of a run (`GET /runs/:id/report`): the market report and the fund
 * digest as a page with charts drawn in the browser by vega-embed from the same Vega-Lite specs
 * the PDF renders, so that a link in an email lands on something better than an attachment.
 * The page reads without JavaScript too: every chart's data is a table under it.
 */
import { runDocumentRef, type Store } from '../activities/store.js';
import type { FundDigest } from '../jobs/fund-match/digest.js';
import { FUND_MATCH_KIND } from '../jobs/fund-match/job.js';
import type { MarketReportModel } from '../jobs/market-report/report/model.js';
import { MARKET_REPORT_KIND } from '../jobs/market-report/job.js';
import type { ServiceLinks } from '../reports/links.js';
import type { StoreRef } from '../shared/types.js';
import { fundDigestParts } from './interactive-fund.js';
import { page, type PageParts } from './interactive-html.js';
import { marketReportParts } from './interactive-market.js';

export { fundPageCharts } from './interactive-fund.js';
export { marketPageCharts } from './interactive-market.js';
export { chartDataTable, esc, scriptJson, specElementId, type PageChart } from './interactive-html.js';

/** What the page needs of a run's manifest (the manifest.json beside its files). */
export interface InteractiveManifest {
  workflowId?: string;
  job?: { id?: string; title?: string; kind?: string };
  status?: string;
  files?: unknown;
}

export interface InteractiveReportInput {
  store: Store;
  manifest: InteractiveManifest;
  /** The run's key (its workflow id): where its report model is in the store. */
  runKey: string;
  /** The service's address and the one readers reach (links to the service's views). */
  serviceLinks?: ServiceLinks | null;
  /** Links under the title (the run's page, its PDF); default: back to `/runs/<runKey>`. */
  links?: { text: string; href: string }[];
}

/** The kinds with an interactive page, and the store document of their report model. */
export const INTERACTIVE_MODELS: Readonly<Record<string, string>> = {
  [MARKET_REPORT_KIND]: 'report/model',
  [FUND_MATCH_KIND]: 'digest/model',
};

/** The store reference of a run's report model, or null when its kind has no interactive page. */
export function interactiveModelRef(kind: string | undefined, runKey: string): StoreRef | null {
  const name = kind ? INTERACTIVE_MODELS[kind] : undefined;
  return name ? runDocumentRef(runKey, name) : null;
}

/** Whether a run of `kind` opens as an interactive page. */
export const hasInteractiveReport = (kind: string | undefined): boolean =>
  kind !== undefined && Object.hasOwn(INTERACTIVE_MODELS, kind);

/**
 * The parts of the page of a run of `kind` from its stored model (null: no page for the kind).
 * Reads the model from the store: a run whose model is gone throws the store's
 * `StoreObjectMissingError` (code `store_object_missing`).
 */
export async function interactiveParts(input: InteractiveReportInput): Promise<PageParts | null> {
  const kind = input.manifest.job?.kind;
  const ref = interactiveModelRef(kind, input.runKey);
  if (ref === null) return null;
  const links = input.serviceLinks ?? null;
  if (kind === MARKET_REPORT_KIND)
    return marketReportParts(await input.store.getJson<MarketReportModel>(ref), links);
  return fundDigestParts(await input.store.getJson<FundDigest>(ref), links);
}

/**
 * Renders the interactive report of a run as a whole HTML page: its title, key figures, tables
 * (every text escaped), and each chart as a `<div>` vega-embed draws from its Vega-Lite spec (in a
 * `<script type="application/json">`), its data in a table beside it. Scripts come from the
 * portal's /assets/ routes (`registerAssetRoutes`), never a CDN. Null when the run's kind has no
 * interactive page.
 *
 * @example
 * const html = await renderInteractiveReport({ store, manifest, runKey: manifest.workflowId });
 * if (html === null) return reply.code(404).send();
 */
export async function renderInteractiveReport(input: InteractiveReportInput): Promise<string | null> {
  const parts = await interactiveParts(input);
  if (parts === null) return null;
  const links = input.links ?? [
    { text: 'Back to the run', href: `/runs/${encodeURIComponent(input.runKey)}` },
  ];
  return page({ ...parts, links });
}
