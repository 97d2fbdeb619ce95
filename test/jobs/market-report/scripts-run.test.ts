/**
 * A market report run over the sandbox's countries whose leaders have names in other scripts
 * (sandbox/data/script-names.ts): the PDF prints them (fallback fonts embedded as subsets, the
 * names back from its text) and the workbook holds them. VIR_SCRIPTS_OUT keeps the pages (as PNG:
 * rendered only then).
 */
import { mkdirSync } from 'node:fs';
import { expect, test } from 'vitest';
import ExcelJS from 'exceljs';
import { followRun, startJobRun } from '../../../cli/run-job.js';
import { parseMarketReportJob } from '../../../jobs/market-report/index.js';
import { SCRIPT_NAMES } from '../../../sandbox/data/script-names.js';
import { checkScriptsPdf, scriptsOut, EVERY_SCRIPT_FONTS } from '../../helpers/scripts.js';
import { fixedDateBed, QUIET, type RunnerHarness } from '../../helpers/runner.js';

let h: RunnerHarness;

fixedDateBed('scripts-run', (r) => (h = r));

test("a run over the countries of every script prints their leaders' names", async () => {
  const job = parseMarketReportJob({
    id: 'every-script',
    title: 'Every script',
    countries: SCRIPT_NAMES.map((e) => e.country),
    top: { investors: 5, startups: 5 },
    paging: { maxInvestorsPerCountry: 50, maxStartupsPerCountry: 50 },
    enrich: { investors: 0, startups: 0 },
    budget: { credits: 0 },
    destination: `${h.dir}/reports`,
  });
  const result = await followRun(await startJobRun(h.client, h.settings, job), QUIET);
  const leaders = SCRIPT_NAMES.flatMap((e) => [e.startups[0]!, e.investors[0]!]);
  // The pages as PNG only when someone will look at them (VIR_SCRIPTS_OUT): rendering every page
  // in nine scripts' fonts took a fifth of the test; the checks read the PDF's fonts and text.
  let pngBase: string | undefined;
  if (process.env.VIR_SCRIPTS_OUT) {
    const out = scriptsOut(h.dir, 'run');
    mkdirSync(out, { recursive: true });
    pngBase = `${out}/page`;
  }
  checkScriptsPdf(result.files.pdf!, EVERY_SCRIPT_FONTS, leaders, pngBase);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(result.files.xlsx!);
  const cells: string[] = [];
  wb.eachSheet((ws) =>
    ws.eachRow((row) =>
      row.eachCell((c) => {
        const v = c.value;
        if (typeof v === 'string') cells.push(v);
        else if (v && typeof v === 'object' && 'text' in v && typeof v.text === 'string') cells.push(v.text);
      }),
    ),
  );
  for (const name of leaders) expect(cells, name).toContain(name);
  // The run of nine countries (37 calls, ~30 s loaded), its rendering and the PDF's checks.
}, 180_000);
