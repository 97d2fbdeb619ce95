/**
 * The interactive report page of a real market report run (embedded Temporal, real workers, the
 * fixed-date sandbox over HTTP) and of a fund digest: every chart in the page is the Vega-Lite spec
 * the PDF's renderer is given (equal as JSON, and drawing the same SVG as the PDF's chart), each
 * with its data as a table; the service's text is escaped wherever it lands (tables, JSON specs);
 * the assets are served from node_modules and vega's interpreter loads as a classic script.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { LocalStore, runDocumentRef, type Store } from '../../activities/store.js';
import { followRun, startJobRun } from '../../cli/run-job.js';
import { renderFundCharts } from '../../jobs/fund-match/report/index.js';
import { parseMarketReportJob } from '../../jobs/market-report/index.js';
import { planCharts, renderCharts, type MarketReportModel } from '../../jobs/market-report/report/index.js';
import { ASSETS, registerAssetRoutes } from '../../portal/assets.js';
import { renderInteractiveReport, type InteractiveManifest } from '../../portal/interactive.js';
import { renderVegaLite, toVegaLite } from '../../reports/charts/index.js';
import { storeOf } from '../../runtime/workers.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { fundDigests } from '../jobs/fund-match/report/fixture.js';
import { QUIET, startRunner, type RunnerHarness } from '../helpers/runner.js';
import { startFixedDateSandbox } from '../helpers/sandbox.js';

/** A startup whose name and sector are markup: a page that does not escape them runs the script. */
const EVIL = '</script><script>alert("vir")</script><img src=x onerror=alert(1)> & Co';
const EVIL_SECTOR = '<b>Fin</b>tech';

let sandbox: RunningSandbox;
let h: RunnerHarness;
let store: Store;
let manifest: InteractiveManifest & { charts: number; workflowId: string };
let model: MarketReportModel;
let html: string;

/** The page's chart specs by chart id, parsed from their `<script type="application/json">`. */
function pageSpecs(page: string): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const m of page.matchAll(/<script type="application\/json" id="spec-([^"]+)">([^<]*)<\/script>/g))
    out.set(m[1] ?? '', JSON.parse(m[2] ?? 'null'));
  return out;
}

/** Every `<script` tag of the page. */
const scriptTags = (page: string) => [...page.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);

beforeAll(async () => {
  sandbox = await startFixedDateSandbox();
  // The largest round in Germany this week: in the week's rounds, the answers and their charts.
  sandbox.insertStartup({ name: EVIL, hq_country: 'Germany', sector: EVIL_SECTOR, description: EVIL }, [
    { amount_usd: 9_000_000_000, stage: 'growth' },
  ]);
  h = await startRunner({ baseUrl: sandbox.url, apiKey: 'vis_live_sandbox_vc', name: 'interactive' });
  const job = parseMarketReportJob({
    id: 'interactive',
    title: 'Interactive <check> report',
    countries: ['Germany', 'Israel'],
    top: { investors: 5, startups: 5 },
    paging: { maxInvestorsPerCountry: 250, maxStartupsPerCountry: 150 },
    enrich: { investors: 1, startups: 1 },
    questions: ['largest rounds of the last 7 days in {country}', 'which countries raised the most in 2025'],
    budget: { credits: 2 },
    destination: `${h.dir}/reports`,
  });
  const result = await followRun(await startJobRun(h.client, h.settings, job), QUIET);
  manifest = JSON.parse(readFileSync(result.manifestPath, 'utf8')) as typeof manifest;
  store = storeOf(h.settings);
  model = await store.getJson<MarketReportModel>(runDocumentRef(manifest.workflowId, 'report/model'));
  html = (await renderInteractiveReport({ store, manifest, runKey: manifest.workflowId })) ?? '';
});

afterAll(async () => {
  await h?.close();
  await sandbox?.close();
});

describe('the market report page of a run', () => {
  test('embeds every chart the PDF draws, each the Vega-Lite spec its renderer was given', async () => {
    const specs = pageSpecs(html);
    const planned = planCharts(model);
    // As many charts as the run rendered for its PDF (the manifest's count), in the PDF's order.
    expect(specs.size).toBe(manifest.charts);
    expect([...specs.keys()]).toEqual(planned.map((p) => p.id));
    // What the PDF draws: renderMarketReport's own renderCharts over the same plan.
    const rendered = await renderCharts(planned);
    for (const p of planned) {
      const spec = specs.get(p.id);
      expect(spec, p.id).toEqual(JSON.parse(JSON.stringify(toVegaLite(p.spec, p.layout))));
      const drawn = await renderVegaLite(spec as Parameters<typeof renderVegaLite>[0]);
      expect(drawn.svg, `${p.id} draws the PDF's SVG`).toBe(rendered.get(p.id)?.svg);
    }
  });

  test('reads without JavaScript: the title, key figures, tables and each chart with its data', () => {
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('<h1>Interactive &lt;check&gt; report</h1>');
    expect(html).toContain('Deals this week');
    expect(html).toContain('<h2>Germany</h2>');
    expect(html).toContain('Deals and capital by year');
    expect(html).toContain('<h2>Data agent answers</h2>');
    const figures = html.match(/<figure class="chart /g) ?? [];
    const tables =
      html.match(
        /<details class="chart-data"><summary>Data of the chart<\/summary><div class="table-wrap"><table>/g,
      ) ?? [];
    expect(figures.length).toBe(manifest.charts);
    expect(tables.length).toBe(figures.length);
  });

  test('escapes the service text in tables and in the JSON specs; scripts only from /assets/', () => {
    expect(html).not.toContain(EVIL);
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<b>Fin');
    // Printed as text in a table.
    expect(html).toContain('&lt;/script&gt;&lt;script&gt;alert(&quot;vir&quot;)&lt;/script&gt;');
    // In a chart spec too, with no '<' left in the element: the JSON still reads back the name.
    const asJson = JSON.stringify(EVIL).slice(1, -1);
    const withName = [...pageSpecs(html).values()].filter((s) => JSON.stringify(s).includes(asJson));
    expect(withName.length).toBeGreaterThan(0);
    const srcs = scriptTags(html).filter((t) => !t.startsWith('<script type="application/json"'));
    expect(srcs).toEqual([
      '<script src="/assets/vega.min.js">',
      '<script src="/assets/vega-lite.min.js">',
      '<script src="/assets/vega-embed.min.js">',
      '<script src="/assets/vega-interpreter.js">',
      '<script src="/assets/report-charts.js">',
    ]);
    expect(scriptTags(html).length).toBe(srcs.length + pageSpecs(html).size);
  });

  test('no page for a kind without one', async () => {
    const other = { ...manifest, job: { ...manifest.job, kind: 'prospect-list' } };
    expect(await renderInteractiveReport({ store, manifest: other, runKey: manifest.workflowId })).toBeNull();
  });
});

describe('the fund digest page', () => {
  test('embeds the digest charts the PDF draws, the trend with its own colours', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vir-interactive-'));
    try {
      const local = new LocalStore(dir);
      const digest = fundDigests().second;
      await local.putJson('fund-run', 'digest/model', digest);
      const page = await renderInteractiveReport({
        store: local,
        manifest: { workflowId: 'fund-run', job: { id: 'fund', kind: 'fund-match' } },
        runKey: 'fund-run',
      });
      const specs = pageSpecs(page ?? '');
      const charts = (await renderFundCharts(digest)).filter((c) => c.rendered !== null);
      expect([...specs.keys()]).toEqual(charts.map((c) => `fund-${c.id}`));
      for (const c of charts) {
        const drawn = await renderVegaLite(specs.get(`fund-${c.id}`) as Parameters<typeof renderVegaLite>[0]);
        expect(drawn.svg, c.id).toBe(c.rendered?.svg);
      }
      expect(page).toContain('New matches');
      expect(page).not.toContain('<script>alert');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the assets', () => {
  test('serves vega, vega-lite, vega-embed and the page script from the portal, vega-interpreter as a classic script', async () => {
    const app = Fastify();
    registerAssetRoutes(app);
    try {
      for (const a of ASSETS) {
        const res = await app.inject({ method: 'GET', url: a.path });
        expect(res.statusCode, a.path).toBe(200);
        expect(res.headers['content-type']).toBe(a.type);
        expect(res.rawPayload.length, a.path).toBeGreaterThan(500);
      }
      const vega = (await app.inject({ method: 'GET', url: '/assets/vega.min.js' })).body;
      const interpreter = (await app.inject({ method: 'GET', url: '/assets/vega-interpreter.js' })).body;
      const global: Record<string, unknown> = {
        setTimeout,
        clearTimeout,
        setInterval,
        clearInterval,
        console,
      };
      runInNewContext(`var window = globalThis, self = globalThis;\n${vega}\n${interpreter}`, global);
      const loaded = global.vegaInterpreter as { expressionInterpreter?: unknown } | undefined;
      expect(typeof loaded?.expressionInterpreter).toBe('object');
    } finally {
      await app.close();
    }
  });
});
