/**
 * `renderMarketReport`: the weekly market report model → PDF and/or workbook files.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { safeFileName } from '../../../lib/names.js';
import { planCharts, renderCharts } from './charts.js';
import type { MarketReportModel, RenderMarketReportOptions, RenderMarketReportResult } from './model.js';
import { buildMarketPdf } from './pdf.js';
import { buildMarketWorkbook } from './workbook.js';

/**
 * Renders the market report. Charts are rendered once (SVG for the PDF, PNG for the workbook).
 * File names come from `fileBase` through `safeFileName`, whatever it contains.
 *
 * @example
 * const { files } = await renderMarketReport(model, { outDir: '.data/out', formats: ['pdf', 'xlsx'], fileBase: 'weekly-dach' });
 */
export async function renderMarketReport(
  model: MarketReportModel,
  options: RenderMarketReportOptions,
): Promise<RenderMarketReportResult> {
  const formats = new Set(options.formats);
  const base = safeFileName(options.fileBase);
  await mkdir(options.outDir, { recursive: true });
  const planned = planCharts(model);
  const charts = await renderCharts(planned);
  const result: RenderMarketReportResult = { files: {}, charts: charts.size };
  const created = options.creationDate ?? new Date(model.generatedAt);
  if (formats.has('pdf')) {
    const { pdf } = buildMarketPdf(model, charts, planned, {
      creationDate: Number.isNaN(created.getTime()) ? new Date() : created,
      links: options.links ?? null,
      ...(options.runKey ? { runKey: options.runKey } : {}),
    });
    const path = join(options.outDir, `${base}.pdf`);
    result.pages = await pdf.writeTo(path);
    result.files.pdf = path;
  }
  if (formats.has('xlsx')) {
    const { book } = buildMarketWorkbook(model, charts, planned, {
      created: Number.isNaN(created.getTime()) ? new Date() : created,
      links: options.links ?? null,
      chartImages: model.job.chartImages ?? false,
      ...(options.runKey ? { runKey: options.runKey } : {}),
    });
    const path = join(options.outDir, `${base}.xlsx`);
    await book.writeTo(path);
    result.files.xlsx = path;
    result.urlsLeftOut = book.urls.leftOut;
  }
  return result;
}
