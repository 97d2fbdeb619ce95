/**
 * Renders a market report to a folder (PDF, workbook, and each PDF page as PNG when poppler's
 * pdftoppm is installed) so anyone can look at it:
 *
 *   npx tsx reports/preview.ts [outDir]                       the fixture model
 *   npx tsx reports/preview.ts --model <model.json> [outDir]  a stored run's report model
 *
 * A stored run's model is `.data/store/runs/<workflow id>/report/model.json`.
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile, readdir, rm } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { promisify } from 'node:util';
import { marketModelFixture } from './fixtures/market-model.js';
import { renderMarketReport } from './report/index.js';
import type { MarketReportModel } from './report/index.js';

const run = promisify(execFile);

/** Reads `--model <file>` and an optional output folder from the command line. */
function parseArgs(argv: string[]): { model: string | null; outDir: string } {
  let model: string | null = null;
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? '';
    if (a === '--model') model = argv[++i] ?? null;
    else if (a.startsWith('--model=')) model = a.slice('--model='.length);
    else rest.push(a);
  }
  return { model, outDir: resolve(rest[0] ?? '.data/preview') };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const model: MarketReportModel = args.model
    ? (JSON.parse(await readFile(args.model, 'utf8')) as MarketReportModel)
    : marketModelFixture();
  // A stored run's folder is named after its workflow id, e.g. market-report-demo-weekly-20261121-234849.
  const fileBase = args.model ? basename(resolve(args.model, '../..')) : 'market-report-preview';
  await mkdir(args.outDir, { recursive: true });
  const started = Date.now();
  const result = await renderMarketReport(model, { outDir: args.outDir, formats: ['pdf', 'xlsx'], fileBase });
  console.log(`rendered ${result.charts} charts, ${result.pages ?? 0} pages in ${Date.now() - started} ms`);
  console.log(`pdf:  ${result.files.pdf ?? '-'}`);
  console.log(`xlsx: ${result.files.xlsx ?? '-'}`);
  if (result.files.pdf) {
    // Old page images would mix with the new ones when the page count shrinks.
    for (const f of await readdir(args.outDir))
      if (/^page-\d+\.png$/.test(f)) await rm(resolve(args.outDir, f));
    try {
      await run('pdftoppm', ['-png', '-r', '60', result.files.pdf, resolve(args.outDir, 'page')]);
      console.log(`pages: ${resolve(args.outDir, 'page-*.png')}`);
    } catch {
      console.log('pdftoppm not found (poppler-utils): page images skipped');
    }
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
