import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceChartGroup, serviceChartId } from '../../../jobs/market-report/report/charts.js';
import { LocalStore } from '../../../activities/store.js';
import { createMarketReportActivities } from '../../../jobs/market-report/activities.js';
import {
  openingFigures,
  openingHeadline,
  planCharts,
  renderMarketReport,
} from '../../../jobs/market-report/report/index.js';
import type {
  MarketReportModel,
  RenderMarketReportResult,
} from '../../../jobs/market-report/report/index.js';
import {
  MALICIOUS_STARTUP,
  PREFIXED_INVESTORS,
  UNICODE_INVESTORS,
  marketModelFixture,
} from '../../../jobs/market-report/fixtures/market-model.js';
import { asFigures, expectHeadline, withKeyFigures } from '../../helpers/opening.js';

const dir = mkdtempSync(join(tmpdir(), 'market-report-'));
let model: MarketReportModel;
let result: RenderMarketReportResult;
let text: string;
const wb = new ExcelJS.Workbook();

/** The text of a cell: a string, or a hyperlink's text. */
function cellText(v: ExcelJS.CellValue): string {
  if (typeof v === 'string' || typeof v === 'number') return String(v);
  if (v && typeof v === 'object' && 'text' in v) return String(v.text);
  return '';
}

function normalise(s: string): string {
  return s.replace(/\s+/g, ' ');
}

let pageTexts: string[] = [];

/** The text of each page of the rendered PDF (pdftotext ends each page with a form feed). */
function pages(): string[] {
  return pageTexts;
}

beforeAll(async () => {
  model = marketModelFixture();
  result = await renderMarketReport(model, {
    outDir: dir,
    formats: ['pdf', 'xlsx'],
    fileBase: '../Weekly: Europe/«β» ',
    creationDate: new Date('2025-07-01T06:00:00Z'),
  });
  const layout = execFileSync('pdftotext', ['-layout', result.files.pdf!, '-'], { encoding: 'utf8' });
  text = normalise(layout);
  pageTexts = layout.split('\f').slice(0, -1);
  await wb.xlsx.readFile(result.files.xlsx!);
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('renderMarketReport files', () => {
  it('writes both files under outDir with safe names and reports charts and pages', () => {
    expect(basename(result.files.pdf!)).toBe('Weekly-Europe.pdf');
    expect(basename(result.files.xlsx!)).toBe('Weekly-Europe.xlsx');
    expect(existsSync(result.files.pdf!)).toBe(true);
    const planned = planCharts(model);
    expect(result.charts).toBe(planned.length);
    // Every chart the service returned is planned once; the report's own charts come on top
    // only where they show something the service's do not.
    const serviceCharts =
      model.countries.reduce((n, c) => n + c.charts.length, 0) +
      model.answers.reduce((n, a) => n + (a.charts?.length ?? 0), 0);
    expect(serviceCharts).toBe(11);
    expect(new Set(planned.map((p) => p.id)).size).toBe(planned.length);
    // One chart of a subsection's data: each service chart is drawn, or the report's own chart
    // of the same subsection is (never both, never neither); charts of other data are all drawn.
    model.countries.forEach((c, i) =>
      c.charts.forEach((spec, j) => {
        const group = serviceChartGroup(spec);
        const theirs = planned.some((p) => p.id === serviceChartId(i, j));
        const own = group !== 'other' && planned.some((p) => p.id === `c${i}-${group}`);
        expect(theirs !== own, `${c.country} chart ${j} (${group})`).toBe(true);
      }),
    );
    // 3 countries × 4 own (by year, stages, sectors, investors) + the United Kingdom's chart of
    // other data + 2 answer charts + 2 comparison charts.
    expect(result.charts).toBe(17);
    const info = execFileSync('pdfinfo', [result.files.pdf!], { encoding: 'utf8' });
    expect(Number(/Pages:\s+(\d+)/.exec(info)?.[1])).toBe(result.pages);
    expect(info).toMatch(/Title:\s+Weekly European Venture Market/);
    expect(info).toMatch(/CreationDate:.*2025/);
  });

  it('renders only the formats asked for', async () => {
    const only = await renderMarketReport(model, {
      outDir: join(dir, 'only'),
      formats: ['xlsx'],
      fileBase: '',
    });
    expect(only.files.pdf).toBeUndefined();
    expect(basename(only.files.xlsx!)).toBe('report.xlsx');
  });
});

describe('market report PDF', () => {
  it('has the cover, contents with page numbers, and every section heading', () => {
    for (const s of [
      'VENTURE MARKET REPORT',
      'Weekly European Venture Market',
      'Germany · France · United Kingdom',
      'Data as of 30 Jun 2025',
      'Week: 24–30 Jun 2025',
    ]) {
      expect(text).toContain(s);
    }
    expect(text).toMatch(/Contents Executive summary [. ]*3/);
    for (const h of [
      'Executive summary',
      'Deals and capital by year',
      'Stage mix',
      'Top sectors',
      'Most active investors',
      'Top investors by score',
      'Top investors by investments, all time',
      'Notable startups',
      'Investor profiles',
      'Other charts from the service',
      'Data agent answers',
      '1. Which sectors raised the most capital in Germany in 2024',
      'Question as asked: “Which sectors raised the most capital in Germany in 2024?”',
      'Not asked: credit budget reached (2 of 2 credits spent)',
      'Cross-country comparison',
      'Methodology',
      'Operations called',
      'What is partial and why',
    ]) {
      expect(text).toContain(h);
    }
    expect(text).not.toContain('Charts from the service ');
  });

  it('has no blank page: every page carries text beyond its footer', () => {
    expect(result.pages).toBeGreaterThan(5);
    expect(pages()).toHaveLength(result.pages!);
    for (let p = 1; p <= result.pages!; p++) {
      const page = pages()[p - 1]!;
      const body = page
        .split('\n')
        .filter((l) => !/Page \d+ of \d+/.test(l))
        .join(' ')
        .replace(/\s+/g, ' ')
        .trim();
      expect(body.length, `page ${p}`).toBeGreaterThan(150);
    }
  });

  it('lays the three-country fixture out densely (it took 28 pages before the layout work)', () => {
    expect(result.pages).toBeLessThanOrEqual(20);
  });

  it('links each country view under the country heading, on the page where its section starts', () => {
    const raw = readFileSync(result.files.pdf!, 'latin1');
    for (const c of model.countries) {
      const url = `https://app.venture-intel.example/countries/${c.country === 'United Kingdom' ? 'united-kingdom' : c.country.toLowerCase()}`;
      expect(raw).toContain(`/URI (${url})`);
      const page = pages().find((t) => t.includes(`Interactive country view: ${url}`));
      expect(page, c.country).toBeDefined();
      // The heading, the link and the first subsection share the page, in that order.
      const n = normalise(page!);
      expect(n.indexOf(c.country)).toBeLessThan(n.indexOf('Interactive country view'));
      expect(n.indexOf('Interactive country view')).toBeLessThan(n.indexOf('Deals and capital by year'));
    }
  });

  it('draws one chart of each subsection’s data, in the subsection it belongs to', () => {
    const count = (s: string): number => text.split(s).length - 1;
    // The report's own chart of each subsection, labelled as its table, once per country.
    for (const c of model.countries) {
      expect(count(`${c.country}: deals and capital by year`), c.country).toBe(1);
      expect(count(`${c.country}: share of deals by stage`), c.country).toBe(1);
      expect(count(`${c.country}: top sectors by capital`), c.country).toBe(1);
      expect(count(`${c.country}: most active investors`), c.country).toBe(1);
    }
    // The service's charts of the same data are not drawn a second time.
    for (const c of model.countries) expect(count(`${c.country}: venture activity since 2020`)).toBe(0);
    expect(count('Stage mix, last three years')).toBe(0);
    expect(count('Top sectors by deals')).toBe(0);
    // A service chart of other data is drawn, once.
    expect(count('An unknown chart type from the service')).toBe(1);
    // In order within Germany's section: by year, stages, sectors, investors.
    const de = text.slice(
      text.indexOf('Interactive country view: https://app.venture-intel.example/countries/germany'),
      text.indexOf('Interactive country view: https://app.venture-intel.example/countries/france'),
    );
    const order = [
      'Deals and capital by year',
      'Germany: deals and capital by year',
      'Stage mix',
      'Germany: share of deals by stage',
      'Top sectors',
      'Germany: top sectors by capital',
      'Most active investors',
      'Germany: most active investors',
      'Top investors by score',
    ];
    let at = -1;
    for (const s of order) {
      const next = de.indexOf(s, at + 1);
      expect(next, s).toBeGreaterThan(at);
      at = next;
    }
    // The unknown chart comes last in its country's section.
    const uk = text.slice(
      text.indexOf('Interactive country view: https://app.venture-intel.example/countries/united-kingdom'),
      text.indexOf('Data agent answers Questions'),
    );
    expect(uk.indexOf('Other charts from the service')).toBeGreaterThan(uk.indexOf('Notable startups'));
  });

  it('prints the executive summary in prose with numbers, the week first, and the changes since the previous run', () => {
    // The week leads: the fixture's weeks summed (14 + 9 + 21 rounds; $212.4M + $96.3M + $402.0M)
    // against the previous run's week (11 + 12 + 19; $148.0M + $133.5M + $287.6M).
    expect(text).toContain(
      'In the week to 30 Jun 2025 the service added 44 rounds worth $710.7M across Germany, France and United Kingdom, against 42 rounds and $569.1M the previous week',
    );
    expect(text).toContain('The week by country: rounds added since 24 Jun 2025');
    expect(text).toMatch(/Germany 14 11 12\.5 \+27\.3% 212\.4 148\.0 171\.3/);
    expect(text).toMatch(/All countries 44 42 41\.5 \+4\.8% 710\.7 569\.1 591\.2/);
    expect(text).toMatch(/Helio Grid United Kingdom Series C 120\.0 26 Jun 2025 Index Ventures/);
    // Then the year to date, against the same period of the year before (312 + 306 + 483 deals).
    expect(text).toMatch(
      /Across Germany, France and United Kingdom, 1,101 rounds raised \$13\.0B in 2025 YTD \(to 30 Jun 2025/,
    );
    expect(text).toContain(
      'Since the previous run on 24 Jun 2025: 2 startups and 2 investors entered the lists',
    );
    expect(text).toContain(`Startups new to the notable lists (2): ${MALICIOUS_STARTUP}, Dust (France).`);
    expect(text).toContain('Investors new to the top lists (2): @Home Angels,');
    expect(text).toContain('+12.2%');
  });

  it('prints the methodology figures', () => {
    expect(text).toMatch(/API CALLS MADE CREDITS SPENT RUN TIME STATUS 16 2 of 2 1m 23s Partial/);
    expect(text).toContain('credit budget reached: 1 of 3 data agent questions not asked');
    expect(text).toMatch(/country_overview\s+3\s+0/);
    expect(text).toMatch(/ask\s+2\s+2/);
    expect(text).toContain('Data as of 30 Jun 2025. Venture data is revised');
  });

  it('prints the malicious name literally, as inert text', () => {
    expect(text).toContain(MALICIOUS_STARTUP);
    const raw = readFileSync(result.files.pdf!, 'latin1');
    // No JavaScript or launch actions; the only links are the service's urls and internal ones.
    expect(raw).not.toMatch(/\/JavaScript|\/JS\s|\/Launch/);
    expect(raw).not.toContain('(http://x)');
  });

  it('embeds DejaVu Sans, and Noto Sans CJK for the Chinese investor, all as subsets', () => {
    const fonts = execFileSync('pdffonts', [result.files.pdf!], { encoding: 'utf8' })
      .split('\n')
      .slice(2)
      .filter(Boolean);
    expect(fonts.length).toBeGreaterThan(0);
    for (const l of fonts) {
      expect(l).toMatch(/DejaVuSans|NotoSansCJKsc/);
      expect(l).toMatch(/\byes\s+yes\b/); // embedded, subset
    }
    expect(fonts.some((l) => l.includes('DejaVuSans-Bold'))).toBe(true);
    // 北京资本 (UNICODE_INVESTORS) is drawn with the fallback chain's Chinese face.
    expect(fonts.some((l) => l.includes('NotoSansCJKsc-Regular'))).toBe(true);
  });

  it('has PDF bookmarks for the sections', () => {
    const raw = readFileSync(result.files.pdf!, 'latin1');
    expect(raw).toContain('/Outlines');
    expect(raw).toMatch(/\/Count [1-9]/);
  });
});

describe('the render activity: the key figures and the headline the report opens with', () => {
  const store = new LocalStore(join(dir, 'store'));
  const acts = createMarketReportActivities({ store, reportsDir: join(dir, 'reports') });
  const render = async (outputs: ('pdf' | 'xlsx')[]) =>
    acts.renderMarketReport({
      modelRef: await store.putJson('run-1', 'report/model', model),
      job: { id: 'weekly-europe', outputs },
      date: '2025-07-01',
      workflowId: `market-${outputs.join('-')}`,
    });

  it('returns the tiles the PDF opened with, and the summary’s first sentence as the headline', async () => {
    const { result: out, drawn } = await withKeyFigures(() => render(['pdf']));
    expect(out.files.pdf).toBeDefined();
    // The first key figures the PDF drew are the executive summary's tiles.
    expect(drawn[0]).toEqual(openingFigures(model));
    expect(out.figures).toEqual(asFigures(drawn[0]!));
    // The week first (the fixture's weeks summed, against the previous run's), then the year to date.
    expect(out.figures?.slice(0, 2)).toEqual([
      { label: 'Deals this week', value: '44', note: '+4.8% vs previous week' },
      { label: 'Capital this week', value: '$710.7M', note: '+24.9% vs previous week' },
    ]);
    expect(out.figures?.map((f) => f.label)).toEqual([
      'Deals this week',
      'Capital this week',
      'Deals 2025 YTD',
      'Capital 2025 YTD',
      'New startups',
      'New top investors',
      'Agent answers',
    ]);
    expectHeadline(out.headline);
    expect(out.headline).toBe(openingHeadline(model));
    expect(out.headline).toMatch(/^In the week to 30 Jun 2025 the service added 44 rounds worth \$710\.7M/);
    // The PDF prints the same sentence under the tiles.
    expect(text).toContain(out.headline!);
  });

  it('returns them when the job asks no PDF', async () => {
    const { result: out, drawn } = await withKeyFigures(() => render(['xlsx']));
    expect(out.files.pdf).toBeUndefined();
    expect(drawn).toEqual([]);
    expect(out.figures).toEqual(asFigures(openingFigures(model)));
    expect(out.headline).toBe(openingHeadline(model));
  });
});

describe('market report workbook', () => {
  const FORMULA_START = /^[=+\-@\t\r\n]/;

  it('has the summary, country, data and methodology sheets', () => {
    const names = wb.worksheets.map((w) => w.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'Summary',
        'Germany',
        'France',
        'United Kingdom',
        'New since last run',
        'Investors',
        'Active investors',
        'Startups',
        'Rounds by year',
        'Agent answers',
        'Answer 1',
        'Answer 2',
        'Methodology',
      ]),
    );
    // The names new since the previous run, which the PDF summarises and refers to the workbook for.
    const fresh = wb.getWorksheet('New since last run')!;
    expect(fresh.rowCount).toBe(
      1 + model.comparison.newStartups.length + model.comparison.newTopInvestors.length,
    );
    expect(cellText(fresh.getRow(2).getCell(2).value)).toBe(`'${MALICIOUS_STARTUP}`);
    for (const n of names) expect(n.length).toBeLessThanOrEqual(31);
  });

  it('writes data sheets as tables with a frozen header and filter buttons', async () => {
    for (const [sheet, table] of [
      ['Investors', 'Investors'],
      ['Startups', 'Startups'],
      ['Rounds by year', 'RoundsByYear'],
      ['Agent answers', 'AgentAnswers'],
    ] as const) {
      const ws = wb.getWorksheet(sheet)!;
      expect(Object.keys((ws as unknown as { tables: Record<string, unknown> }).tables)).toContain(table);
      expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
      const header = ws.getRow(1).values as unknown[];
      for (const h of header.filter(Boolean)) expect(String(h)).not.toMatch(/[\t\r\n]/);
    }
    const zip = await JSZip.loadAsync(readFileSync(result.files.xlsx!));
    const tables = Object.keys(zip.files).filter((f) => /^xl\/tables\/table\d+\.xml$/.test(f));
    expect(tables.length).toBeGreaterThanOrEqual(10);
    for (const f of tables) {
      const xml = await zip.file(f)!.async('string');
      expect(xml).toContain('<autoFilter');
      expect(xml).toMatch(/name="[A-Za-z_][A-Za-z0-9_.]*"/);
    }
  });

  it('places native charts only by default, and each chart as a PNG too with chartImages', async () => {
    const zip = await JSZip.loadAsync(readFileSync(result.files.xlsx!));
    const media = Object.keys(zip.files).filter((f) => f.startsWith('xl/media/') && f.endsWith('.png'));
    expect(media).toEqual([]);
    for (const ws of wb.worksheets) expect(ws.getImages(), ws.name).toEqual([]);
    const native = Object.keys(zip.files).filter((f) => /^xl\/charts\/chart\d+\.xml$/.test(f));
    expect(native.length).toBeGreaterThanOrEqual(12);

    const pictured = await renderMarketReport(
      { ...model, job: { ...model.job, chartImages: true } },
      { outDir: join(dir, 'pictures'), formats: ['xlsx'], fileBase: 'pictures' },
    );
    const zip2 = await JSZip.loadAsync(readFileSync(pictured.files.xlsx!));
    const media2 = Object.keys(zip2.files).filter((f) => f.startsWith('xl/media/') && f.endsWith('.png'));
    expect(media2.length).toBe(pictured.charts);
    const png = await zip2.file(media2[0]!)!.async('nodebuffer');
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    // The native charts stay beside the pictures.
    expect(Object.keys(zip2.files).filter((f) => /^xl\/charts\/chart\d+\.xml$/.test(f))).toHaveLength(
      native.length,
    );
  });

  it('has no formula cells and no service text that starts like a formula', () => {
    let checked = 0;
    for (const ws of wb.worksheets) {
      ws.eachRow({ includeEmpty: false }, (row) => {
        row.eachCell({ includeEmpty: false }, (cell) => {
          const v = cell.value;
          checked++;
          expect(cell.type).not.toBe(ExcelJS.ValueType.Formula);
          if (v && typeof v === 'object' && ('formula' in v || 'sharedFormula' in v))
            throw new Error(`formula in ${ws.name}!${cell.address}`);
          const t =
            typeof v === 'string' ? v : v && typeof v === 'object' && 'text' in v ? String(v.text) : null;
          if (t !== null) expect(t, `${ws.name}!${cell.address}`).not.toMatch(FORMULA_START);
        });
      });
    }
    expect(checked).toBeGreaterThan(500);
  });

  it('renders a model without sources (stored before they were kept): the Sources sheet says why', () => {
    expect(model.sources).toBeUndefined();
    expect(wb.worksheets.at(-1)?.name).toBe('Sources');
    expect(cellText(wb.getWorksheet('Sources')!.getCell('A1').value)).toMatch(/^This run was made before/);
    expect(cellText(wb.getWorksheet('Investors')!.getRow(1).getCell(12).value)).toBe('Source');
    expect(wb.getWorksheet('Investors')!.getRow(2).getCell(12).value ?? null).toBeNull();
    expect(text).toContain('Report chart from country_overview by_year');
  });

  it('keeps the awkward names, neutralised, and unicode intact', () => {
    const startups = wb.getWorksheet('Startups')!;
    const names: string[] = [];
    startups.getColumn(2).eachCell((c) => names.push(cellText(c.value)));
    expect(names).toContain(`'${MALICIOUS_STARTUP}`);
    const investors: string[] = [];
    wb.getWorksheet('Investors')!
      .getColumn(4)
      .eachCell((c) => investors.push(cellText(c.value)));
    for (const n of PREFIXED_INVESTORS) expect(investors).toContain(`'${n}`);
    for (const n of UNICODE_INVESTORS) expect(investors).toContain(n);
  });

  it('writes numbers as numbers with number formats', () => {
    const ws = wb.getWorksheet('Rounds by year')!;
    const row = ws.getRow(2);
    // The year is a label, so that the year in progress reads "2025 YTD" as in the PDF.
    expect(row.getCell(2).value).toBe('2020');
    const years: unknown[] = [];
    ws.eachRow((r, i) => (i > 1 ? years.push(r.getCell(2).value) : undefined));
    expect(years).toContain('2025 YTD');
    expect(years).not.toContain('2025');
    expect(typeof row.getCell(4).value).toBe('number'); // deals
    // Capital holds US dollars, shown in the PDF's unit, named in the header.
    expect(typeof row.getCell(6).value).toBe('number');
    expect(ws.getRow(1).getCell(6).value).toBe('Capital ($B)');
    expect(row.getCell(6).numFmt).toBe('#,##0.0,,,');
    const yoy = ws.getRow(3).getCell(5);
    expect(typeof yoy.value).toBe('number');
    expect(yoy.numFmt).toBe('0.0%');
  });

  it('links names to the service urls, http(s) only', () => {
    let links = 0;
    for (const ws of wb.worksheets) {
      ws.eachRow((r) =>
        r.eachCell((c) => {
          const v = c.value;
          if (v && typeof v === 'object' && 'hyperlink' in v) {
            links++;
            expect(String(v.hyperlink)).toMatch(/^https?:\/\//);
            expect(String(v.text)).not.toMatch(FORMULA_START);
          }
        }),
      );
    }
    expect(links).toBeGreaterThan(100);
    const first = wb.getWorksheet('Investors')!.getRow(2).getCell(4).value as {
      text: string;
      hyperlink: string;
    };
    expect(first.hyperlink).toBe('https://app.venture-intel.example/investors/earlybird-venture-capital');
  });
});
