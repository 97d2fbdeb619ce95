/**
 * Renders the fixture market report to .data/preview/ (PDF, workbook, and each PDF page as PNG
 * when poppler's pdftoppm is installed) so anyone can look at it:
 *
 *   npx tsx reports/preview.ts [outDir]
 */
import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { marketModelFixture } from '../test/fixtures/market-model.js';
import { renderMarketReport } from './market/index.js';

const run = promisify(execFile);

async function main(): Promise<void> {
  const outDir = resolve(process.argv[2] ?? '.data/preview');
  await mkdir(outDir, { recursive: true });
  const started = Date.now();
  const result = await renderMarketReport(marketModelFixture(), { outDir, formats: ['pdf', 'xlsx'], fileBase: 'market-report-preview' });
  console.log(`rendered ${result.charts} charts, ${result.pages ?? 0} pages in ${Date.now() - started} ms`);
  console.log(`pdf:  ${result.files.pdf ?? '-'}`);
  console.log(`xlsx: ${result.files.xlsx ?? '-'}`);
  if (result.files.pdf) {
    try {
      await run('pdftoppm', ['-png', '-r', '60', result.files.pdf, resolve(outDir, 'page')]);
      console.log(`pages: ${resolve(outDir, 'page-*.png')}`);
    } catch {
      console.log('pdftoppm not found (poppler-utils): page images skipped');
    }
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
