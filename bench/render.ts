/**
 * Render time and peak memory of a report: the renderer (charts rendered once, shared by the
 * PDF and the workbook) against a naive baseline (one render call per output, so every
 * chart is drawn again for each file).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderMarketReport } from '../jobs/market-report/report/index.js';
import type { MarketReportModel } from '../jobs/market-report/report/model.js';

export interface RenderFigures {
  ms: number;
  /** Peak resident memory above the level before the render, in MiB. */
  peakMiB: number;
  pages: number | null;
  charts: number;
}

function gc(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

async function measure(fn: () => Promise<{ pages: number | null; charts: number }>): Promise<RenderFigures> {
  gc();
  await new Promise((r) => setTimeout(r, 50));
  const base = process.memoryUsage().rss;
  let peak = base;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  const started = performance.now();
  try {
    const r = await fn();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { ms: performance.now() - started, peakMiB: (peak - base) / 1024 / 1024, ...r };
  } finally {
    clearInterval(timer);
  }
}

export async function benchRender(
  model: MarketReportModel,
): Promise<{ ours: RenderFigures; naive: RenderFigures }> {
  const dir = mkdtempSync(join(tmpdir(), 'vir-bench-render-'));
  try {
    // Warm-up (fonts, vega modules) so neither side pays the first-load cost.
    await renderMarketReport(
      { ...model, countries: model.countries.slice(0, 1), answers: [] },
      { outDir: join(dir, 'warm'), formats: ['pdf'], fileBase: 'warm' },
    );
    const naive = await measure(async () => {
      const pdf = await renderMarketReport(model, {
        outDir: join(dir, 'naive'),
        formats: ['pdf'],
        fileBase: 'report',
      });
      const xlsx = await renderMarketReport(model, {
        outDir: join(dir, 'naive'),
        formats: ['xlsx'],
        fileBase: 'report',
      });
      return { pages: pdf.pages ?? null, charts: pdf.charts + xlsx.charts };
    });
    const ours = await measure(async () => {
      const r = await renderMarketReport(model, {
        outDir: join(dir, 'ours'),
        formats: ['pdf', 'xlsx'],
        fileBase: 'report',
      });
      return { pages: r.pages ?? null, charts: r.charts };
    });
    return { ours, naive };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
