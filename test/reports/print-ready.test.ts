/**
 * Every job kind's workbook, rendered from its test fixture (no Temporal), printed by
 * LibreOffice headless to PDF: the page count stays within a bound stated per workbook, and no
 * chart image is split across pages (the prospect list's native charts, which have no picture:
 * each chart's title and labels on one page). `VIR_KEEP_PRINT=<dir>` keeps the workbooks and PDFs there
 * (to look at them: `pdftoppm -png -r 50 <pdf> <prefix>`).
 *
 * The split check: LibreOffice draws an image on every page it overlaps (clipped to each), so a
 * chart cut by a page edge is listed on two pages by `pdfimages -list`. Each image placed must
 * show up exactly once (a native chart sits beside the image of the same chart, as tall, so it
 * is cut where its image is). The same check on workbooks whose page breaks are taken out (the
 * placement broken on purpose) finds splits, so the check can fail.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderFundCharts, writeFundWorkbook } from '../../jobs/fund-match/report/index.js';
import { renderShortlistCharts, writeShortlistWorkbook } from '../../jobs/investor-shortlist/report/index.js';
import { marketModelFixture } from '../../jobs/market-report/fixtures/market-model.js';
import { renderMarketReport } from '../../jobs/market-report/report/index.js';
import { planProspectCharts, writeProspectWorkbook } from '../../jobs/prospect-list/report/index.js';
import { fundDigests } from '../jobs/fund-match/report/fixture.js';
import { shortlistReport } from '../jobs/investor-shortlist/report/fixture.js';
import { prospectRows, prospectSummary, suppressedRows } from '../jobs/prospect-list/report/fixture.js';
import { openWorkbook, pdfPages, sofficeConvert, sofficePath } from '../helpers/reports.js';

const keep = process.env.VIR_KEEP_PRINT;
const dir = keep ?? mkdtempSync(join(tmpdir(), 'print-ready-'));
mkdirSync(dir, { recursive: true });
afterAll(() => {
  if (!keep) rmSync(dir, { recursive: true, force: true });
});

/** Images (not masks) per page of a PDF, from `pdfimages -list`. */
function imagesPerPage(pdf: string): number[] {
  const out = execFileSync('pdfimages', ['-list', pdf], { encoding: 'utf8' });
  const pages = new Array<number>(pdfPages(pdf) + 1).fill(0);
  for (const line of out.split('\n').slice(2)) {
    const [page, , type] = line.trim().split(/\s+/);
    if (page && type === 'image') pages[Number(page)] = (pages[Number(page)] ?? 0) + 1;
  }
  return pages.slice(1);
}

/** Images in the workbook package (one picture element each). */
async function workbookImages(xlsx: string): Promise<number> {
  const zip = await JSZip.loadAsync(readFileSync(xlsx));
  let n = 0;
  for (const name of Object.keys(zip.files).filter((f) => /^xl\/drawings\/drawing\d+\.xml$/.test(f)))
    n += ((await zip.file(name)!.async('string')).match(/<xdr:pic>/g) ?? []).length;
  return n;
}

/** A copy of `xlsx` with its manual page breaks taken out: the placement without its breaks. */
async function withoutBreaks(xlsx: string, to: string): Promise<string> {
  const zip = await JSZip.loadAsync(readFileSync(xlsx));
  for (const name of Object.keys(zip.files).filter((f) => /^xl\/worksheets\/sheet\d+\.xml$/.test(f))) {
    const xml = await zip.file(name)!.async('string');
    zip.file(name, xml.replace(/<rowBreaks[^>]*>.*?<\/rowBreaks>/s, ''));
  }
  writeFileSync(to, await zip.generateAsync({ type: 'nodebuffer' }));
  return to;
}

/**
 * The native charts of a sheet cut by a page edge, from LibreOffice's PDF. LibreOffice draws a
 * chart on every page it overlaps, clipped to each, and its text stays in the page's text: a
 * chart cut by a page edge has its last category label on two pages (and its title on the
 * first only). A chart is whole when its title and its last label are on one page of the sheet
 * and on no other (LibreOffice prints the sheet's name in each page's header; it wraps long
 * labels, so white space is taken out). Returns the titles of the charts not whole.
 */
function splitNativeCharts(
  pdf: string,
  sheet: string,
  charts: readonly { title: string; labels: readonly string[] }[],
): string[] {
  const squeeze = (t: string) => t.replace(/\s+/g, '');
  const pages = execFileSync('pdftotext', ['-raw', pdf, '-'], { encoding: 'utf8' })
    .split('\f')
    .filter((t) => new RegExp(`\\b${sheet}\\b`).test(t.split('\n').slice(0, 2).join(' ')))
    .map(squeeze);
  return charts
    .filter((c) => {
      const title = squeeze(c.title);
      const last = squeeze(c.labels.at(-1) ?? '');
      const on = pages.flatMap((t, i) => (t.includes(title) || t.includes(last) ? [i] : []));
      return on.length !== 1 || !pages[on[0]!]!.includes(title) || !pages[on[0]!]!.includes(last);
    })
    .map((c) => c.title);
}

/** The prospect list's drawn charts: their titles and category labels. */
let prospectCharts: { title: string; labels: string[] }[] = [];

/** The workbook of each kind, rendered from its fixture, and the page bound it must print within. */
const books: Record<string, { path: string; maxPages: number; why: string }> = {};

beforeAll(async () => {
  const created = new Date('2026-11-23T06:00:00Z');
  const market = marketModelFixture();
  const m = await renderMarketReport(market, {
    outDir: dir,
    formats: ['xlsx'],
    fileBase: 'market',
    creationDate: created,
  });
  const sheets = (await openWorkbook(m.files.xlsx!)).worksheets.length;
  const n = market.countries.length;
  books.market = {
    path: m.files.xlsx!,
    maxPages: 2 + 3 * n + (sheets - 1 - n),
    why:
      `Summary at most 2 pages (highlights, key figures, comparison; its two charts); each of the ${n} ` +
      'country sheets at most 3 (tables on the left, five or six charts on the right: about two page ' +
      'heights at the fit-to-width scale, a break before a chart that would be cut); every other sheet ' +
      `(${sheets - 1 - n}: data tables of at most 60 rows, answers, methodology) one page. Before this ` +
      'change the same workbook printed on 54 pages (81 for the run in the issue)',
  };
  const digest = fundDigests().third;
  const fundPath = join(dir, 'fund.xlsx');
  await writeFundWorkbook(digest, fundPath, await renderFundCharts(digest), { created });
  books.fund = {
    path: fundPath,
    maxPages: 3 + 2 + 3,
    why: 'Summary at most 3 pages (figures and conflicts beside four charts one under the other); Batch at most 2 (30 startups, reasons and notes wrapped); Match history, Watchlist, Dropped one page each. Before: 14 pages',
  };
  const report = shortlistReport();
  const shortPath = join(dir, 'shortlist.xlsx');
  await writeShortlistWorkbook(report, shortPath, await renderShortlistCharts(report), { created });
  books.shortlist = {
    path: shortPath,
    maxPages: 1 + 2 * report.companies.length + 1,
    why: `Summary 1 page; each of the ${report.companies.length} company sheets at most 2 (its investors, then the service's charts under them); Shared investors 1. Before: 16 pages`,
  };
  const prospectPath = join(dir, 'prospects.xlsx');
  prospectCharts = planProspectCharts(prospectSummary({ listed: 60 })).flatMap((c) =>
    c.spec ? [{ title: c.title, labels: (c.spec.data as { label: string }[]).map((d) => d.label) }] : [],
  );
  await writeProspectWorkbook(
    prospectSummary({ listed: 60 }),
    prospectRows(60),
    suppressedRows(30),
    prospectPath,
    undefined,
    { created },
  );
  books.prospects = {
    path: prospectPath,
    maxPages: 3 + 2 + 3 + 1,
    why: 'Summary at most 3 pages (the five native charts one under the other beside the figures); Chart data 2; 60 prospects, the 10 columns a person reads at 7 pt or more, rows grown to their reasons: at most 3; 30 suppressed: 1. Before: 23 pages',
  };
}, 240_000);

describe('workbooks printed by LibreOffice', () => {
  const soffice = sofficePath();
  for (const kind of ['market', 'fund', 'shortlist', 'prospects']) {
    it(`${kind}: within its page bound, no chart split across pages`, async () => {
      const book = books[kind]!;
      const pdf = sofficeConvert(soffice, book.path, 'pdf', dir);
      const pages = pdfPages(pdf);
      const images = await workbookImages(book.path);
      const perPage = imagesPerPage(pdf);
      const shown = perPage.reduce((a, b) => a + b, 0);
      writeFileSync(
        join(dir, `${kind}.print.json`),
        JSON.stringify({ pages, maxPages: book.maxPages, why: book.why, images, perPage }, null, 1),
      );
      expect(pages, book.why).toBeLessThanOrEqual(book.maxPages);
      // Every image once: a split image is drawn on two pages.
      expect(shown).toBe(images);
      // The prospect list's charts are native alone: each whole on one page.
      if (kind === 'prospects') expect(splitNativeCharts(pdf, 'Summary', prospectCharts)).toEqual([]);
    }, 180_000);
  }

  it('prospects: the native-chart check finds a split chart when the page breaks are taken out', async () => {
    const broken = await withoutBreaks(books.prospects!.path, join(dir, 'prospects-native-no-breaks.xlsx'));
    const pdf = sofficeConvert(soffice, broken, 'pdf', join(dir, 'native'));
    expect(splitNativeCharts(pdf, 'Summary', prospectCharts).length).toBeGreaterThan(0);
  }, 180_000);

  it('the check fails when the page breaks are taken out (every kind)', async () => {
    // Without the breaks each reader places its own; LibreOffice's fall lower than Excel's rule
    // and cut a chart somewhere (the prospect list's last summary chart, at least).
    let splits = 0;
    for (const kind of ['market', 'fund', 'shortlist', 'prospects']) {
      const broken = await withoutBreaks(books[kind]!.path, join(dir, `${kind}-no-breaks.xlsx`));
      const pdf = sofficeConvert(soffice, broken, 'pdf', dir);
      splits += imagesPerPage(pdf).reduce((a, b) => a + b, 0) - (await workbookImages(broken));
    }
    expect(splits).toBeGreaterThan(0);
  }, 360_000);

  it('every native chart starts in the row of a chart image (beside it, as tall), so the split check covers it too', async () => {
    // The prospect list draws its charts native alone (no pictures): its own check above.
    for (const kind of ['market', 'fund', 'shortlist']) {
      const zip = await JSZip.loadAsync(readFileSync(books[kind]!.path));
      let charts = 0;
      for (const name of Object.keys(zip.files).filter((f) => /^xl\/drawings\/drawing\d+\.xml$/.test(f))) {
        const xml = await zip.file(name)!.async('string');
        const anchors = xml.split(/<\/xdr:(?:oneCellAnchor|twoCellAnchor)>/).slice(0, -1);
        const top = (a: string) => Number(/<xdr:from>.*?<xdr:row>(\d+)<\/xdr:row>/s.exec(a)![1]);
        const pics = anchors.filter((a) => a.includes('<xdr:pic>')).map(top);
        for (const frame of anchors.filter((a) => a.includes('<xdr:graphicFrame'))) {
          charts++;
          // Beside an image of the same chart: the same top row and the same height.
          expect(pics, `${kind} ${name}: chart at row ${top(frame)}`).toContain(top(frame));
        }
      }
      expect(charts, kind).toBeGreaterThan(0);
    }
  });
});
