/**
 * The market report with startups and investors named in every script (the fixture model, its
 * first country's names replaced): the PDF embeds the fallback fonts as subsets, the names come
 * back from its text, the pages render (VIR_SCRIPTS_OUT keeps them to look at).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { marketModelFixture } from '../../../jobs/market-report/fixtures/market-model.js';
import { renderMarketReport } from '../../../jobs/market-report/report/index.js';
import { checkScriptsPdf, SCRIPT_NAMES, scriptsOut, EVERY_SCRIPT_FONTS } from '../../helpers/scripts.js';

const dir = mkdtempSync(join(tmpdir(), 'market-scripts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('prints startups and investors named in every script, in tables and charts', async () => {
  const model = marketModelFixture();
  const first = model.countries[0]!;
  SCRIPT_NAMES.forEach((n, i) => {
    const startup = first.notable_startups[i];
    if (startup) startup.name = n.startup;
    for (const list of [first.most_active_investors, first.top_investors_by_score]) {
      const investor = list[i];
      if (investor) investor.name = n.investor;
    }
  });
  expect(first.notable_startups.length).toBeGreaterThanOrEqual(SCRIPT_NAMES.length);
  const result = await renderMarketReport(model, {
    outDir: dir,
    formats: ['pdf'],
    fileBase: 'scripts',
    creationDate: new Date('2025-07-01T06:00:00Z'),
  });
  const out = scriptsOut(dir, 'market');
  mkdirSync(out, { recursive: true });
  checkScriptsPdf(
    result.files.pdf!,
    EVERY_SCRIPT_FONTS,
    SCRIPT_NAMES.flatMap((n) => [n.startup, n.investor]),
    join(out, 'page'),
  );
}, 120_000);
