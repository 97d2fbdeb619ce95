/** The market report's title as the PDF and the workbook print it. */
import type { MarketReportModel } from './model.js';

/** Title of the report as printed. */
export function reportTitle(model: MarketReportModel): string {
  return model.job.title.trim() || 'Weekly market report';
}
