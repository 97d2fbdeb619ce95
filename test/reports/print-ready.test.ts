/**
 * Every job kind's workbook, rendered from its test fixture (no Temporal), printed by
 * LibreOffice headless to PDF: the page count stays within a bound stated per workbook, and no
 * chart, picture or native chart, is split across pages (the prospect list's native charts also
 * by each chart's title and labels on one page). `VIR_KEEP_PRINT=<dir>` keeps the
 * workbooks and PDFs there (to look at them: `pdftoppm -png -r 50 <pdf> <prefix>`).
 *
 * The split checks: LibreOffice draws a drawing object on every page it overlaps, clipped to the
 * page's body. A picture cut by a page edge is so listed on two pages by `pdfimages -list`: each
 * picture placed must show up exactly once. A native chart (the default: pictures only with a
 * kind's `chartImages` option) is drawn as vectors and text, and its text stays in the file where
 * the clip hides it: the part of a cut chart below the page's body prints words below the bottom
 * margin (`pdftotext -bbox`), where nothing but the footer may be. The same checks on workbooks
 * whose page breaks are taken out (the placement broken on purpose) find splits of both kinds, so
 * each check can fail.
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
 * A copy of `xlsx` with a page break put inside its first picture (three rows under its top): the
 * placement broken on purpose for a workbook whose breaks keep every chart whole.
 */
async function withBreakInPicture(xlsx: string, to: string): Promise<string> {
  const zip = await JSZip.loadAsync(readFileSync(xlsx));
  for (const name of Object.keys(zip.files).filter((f) => /^xl\/worksheets\/sheet\d+\.xml$/.test(f))) {
    const rels = zip.file(name.replace('worksheets/', 'worksheets/_rels/') + '.rels');
    const drawing = rels && /Target="\.\.\/drawings\/(drawing\d+\.xml)"/.exec(await rels.async('string'));
    if (!drawing) continue;
    const anchors = (await zip.file(`xl/drawings/${drawing[1]!}`)!.async('string')).split(
      /<\/xdr:\w+Anchor>/,
    );
    const pic = anchors.find((a) => a.includes('<xdr:pic>'));
    if (!pic) continue;
    const top = Number(/<xdr:from>.*?<xdr:row>(\d+)<\/xdr:row>/s.exec(pic)![1]);
    const breaks = `<rowBreaks count="1" manualBreakCount="1"><brk id="${top + 3}" max="16383" man="1"/></rowBreaks>`;
    const xml = (await zip.file(name)!.async('string')).replace(/<rowBreaks[^>]*>.*?<\/rowBreaks>/s, '');
    zip.file(name, xml.replace(/<drawing /, `${breaks}<drawing `));
    break;
  }
  writeFileSync(to, await zip.generateAsync({ type: 'nodebuffer' }));
  return to;
}

/** Bottom margins (points) and the words of the headers and footers of a workbook's sheets. */
async function printFrame(xlsx: string): Promise<{ bottom: number; frameWords: Set<string> }> {
  const zip = await JSZip.loadAsync(readFileSync(xlsx));
  const names = [
    ...(await zip.file('xl/workbook.xml')!.async('string')).matchAll(/<sheet [^>]*name="([^"]*)"/g),
  ].map((m) => m[1]!);
  let bottom = Infinity;
  const frameWords = new Set<string>();
  for (const name of Object.keys(zip.files).filter((f) => /^xl\/worksheets\/sheet\d+\.xml$/.test(f))) {
    const xml = await zip.file(name)!.async('string');
    const margin = /<pageMargins[^>]*\bbottom="([\d.]+)"/.exec(xml);
    bottom = Math.min(bottom, margin ? Number(margin[1]) * 72 : 0.75 * 72);
    for (const m of xml.matchAll(/<(?:odd|even|first)(?:Header|Footer)>([^<]*)</g)) {
      const text = m[1]!
        .replace(/&amp;/g, '&')
        .replace(/&A/g, ` ${names.join(' ')} `)
        .replace(/&"[^"]*"|&\d+|&[A-Z]/g, ' ');
      for (const w of text.split(/\s+/)) if (w) frameWords.add(w);
    }
  }
  return { bottom, frameWords };
}

/**
 * Words a printout draws below a page's body other than its footer's (page numbers included): the
 * lower part of a native chart cut by the page's edge, drawn clipped on the page it starts on.
 */
async function wordsBelowBody(pdf: string, xlsx: string): Promise<string[]> {
  const { bottom, frameWords } = await printFrame(xlsx);
  const html = execFileSync('pdftotext', ['-bbox', pdf, '-'], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const out: string[] = [];
  html
    .split('<page ')
    .slice(1)
    .forEach((page, i) => {
      const height = Number(/height="([\d.]+)"/.exec(page)![1]);
      for (const m of page.matchAll(/<word [^>]*yMax="([\d.-]+)">([^<]*)<\/word>/g)) {
        const word = m[2]!;
        if (Number(m[1]) > height - bottom + 1 && !frameWords.has(word) && !/^\d+$/.test(word))
          out.push(`page ${i + 1}: ${word}`);
      }
    });
  return out;
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
const books: Record<string, { path: string; maxPages: number; why: string; legible?: string }> = {};

/** The median height (points) of the words on the printed pages of a sheet (named in its header). */
function printedWordHeight(pdf: string, sheet: string): number {
  const html = execFileSync('pdftotext', ['-bbox', pdf, '-'], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const heights: number[] = [];
  for (const page of html.split('<page ').slice(1)) {
    const words = [...page.matchAll(/yMin="([\d.-]+)" xMax="[\d.-]+" yMax="([\d.-]+)">([^<]*)</g)];
    // The sheet's name is the header's last word, top right.
    if (!words.slice(0, 12).some((w) => w[3] === sheet)) continue;
    for (const w of words) heights.push(Number(w[2]) - Number(w[1]));
  }
  heights.sort((a, b) => a - b);
  return heights[Math.floor(heights.length / 2)] ?? 0;
}
/** The kinds whose charts are native alone by default, written again with `chartImages`. */
const pictures: Record<string, string> = {};

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
  // The same report with pictures asked for (chartImages): each native chart beside its picture.
  const withPictures = await renderMarketReport(
    { ...market, job: { ...market.job, chartImages: true } },
    { outDir: dir, formats: ['xlsx'], fileBase: 'market-pictures', creationDate: created },
  );
  pictures.market = withPictures.files.xlsx!;
  const digest = fundDigests().third;
  const fundPath = join(dir, 'fund.xlsx');
  const fundCharts = await renderFundCharts(digest);
  await writeFundWorkbook(digest, fundPath, fundCharts, { created });
  pictures.fund = join(dir, 'fund-pictures.xlsx');
  await writeFundWorkbook(digest, pictures.fund, fundCharts, { created, chartImages: true });
  books.fund = {
    path: fundPath,
    maxPages: 3 + 3 + 3 + 1,
    why: 'Summary at most 3 pages (figures and conflicts beside four charts one under the other); Batch at most 3 (30 startups, reasons and notes wrapped, only the 9 columns a partner reads, so at a legible size); Match history, Watchlist, Dropped, Chart data one page each. Before: 14 pages',
    legible: 'Batch',
  };
  const report = shortlistReport();
  const shortPath = join(dir, 'shortlist.xlsx');
  await writeShortlistWorkbook(report, shortPath, await renderShortlistCharts(report), { created });
  books.shortlist = {
    path: shortPath,
    maxPages: 1 + 3 * report.companies.length + 3,
    why: `Summary 1 page; each of the ${report.companies.length} company sheets at most 3 (its investors with every reason whole, rows grown to them, then the service's charts under them); Shared investors 1; Run 1; Chart data 1 (the native charts' data). Before: 16 pages`,
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
    maxPages: 3 + 2 + 3 + 1 + 2,
    why: 'Summary at most 3 pages (the five native charts one under the other beside the figures); Chart data 2; 60 prospects, the 10 columns a person reads at 7 pt or more, rows grown to their reasons: at most 3; 30 suppressed: 1; Sources (77 stored answers, one a row) 2. Before: 23 pages',
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
      const cut = await wordsBelowBody(pdf, book.path);
      writeFileSync(
        join(dir, `${kind}.print.json`),
        JSON.stringify({ pages, maxPages: book.maxPages, why: book.why, images, perPage, cut }, null, 1),
      );
      expect(pages, book.why).toBeLessThanOrEqual(book.maxPages);
      // Every image once: a split image is drawn on two pages.
      expect(shown).toBe(images);
      // No native chart cut: nothing but the footer below a page's body.
      expect(cut).toEqual([]);
      // A list sheet printed at a size a person reads: words at least 7 pt tall (a line of 8 pt
      // text is about 9 pt from its top to its bottom in pdftotext's boxes).
      if (book.legible) expect(printedWordHeight(pdf, book.legible), book.legible).toBeGreaterThanOrEqual(7);
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
    // and cut a chart somewhere: pictures (the prospect list's last summary chart, at least) and
    // native charts (the fund digest's last summary chart, at least).
    let pictureSplits = 0;
    let nativeCuts = 0;
    const printed = {
      ...Object.fromEntries(Object.entries(books).map(([k, b]) => [k, b.path])),
      ...Object.fromEntries(Object.entries(pictures).map(([k, p]) => [`${k}-pictures`, p])),
    };
    for (const [kind, path] of Object.entries(printed)) {
      const broken = await withoutBreaks(path, join(dir, `${kind}-no-breaks.xlsx`));
      const pdf = sofficeConvert(soffice, broken, 'pdf', dir);
      pictureSplits += imagesPerPage(pdf).reduce((a, b) => a + b, 0) - (await workbookImages(broken));
      nativeCuts += (await wordsBelowBody(pdf, broken)).length;
    }
    expect(pictureSplits + nativeCuts, 'charts split').toBeGreaterThan(0);
    expect(nativeCuts, 'native charts cut').toBeGreaterThan(0);
    // The picture check alone: the pictures kept whole by their breaks (no kind's LibreOffice
    // print cuts one without them any more), then a break put inside one.
    let cutPictures = 0;
    for (const [kind, path] of Object.entries(pictures)) {
      const broken = await withBreakInPicture(path, join(dir, `${kind}-break-in-picture.xlsx`));
      const pdf = sofficeConvert(soffice, broken, 'pdf', dir);
      cutPictures += imagesPerPage(pdf).reduce((a, b) => a + b, 0) - (await workbookImages(broken));
    }
    expect(cutPictures, 'pictures split').toBeGreaterThan(0);
  }, 360_000);

  it('a native chart alone sits where its picture would be; with pictures, beside it, as tall', async () => {
    /** Top rows of the native charts and of the pictures, per drawing part. */
    const anchorRows = async (xlsx: string) => {
      const zip = await JSZip.loadAsync(readFileSync(xlsx));
      const out: Record<string, { charts: number[]; pics: number[] }> = {};
      for (const name of Object.keys(zip.files).filter((f) => /^xl\/drawings\/drawing\d+\.xml$/.test(f))) {
        const xml = await zip.file(name)!.async('string');
        const anchors = xml.split(/<\/xdr:(?:oneCellAnchor|twoCellAnchor)>/).slice(0, -1);
        const top = (a: string) => Number(/<xdr:from>.*?<xdr:row>(\d+)<\/xdr:row>/s.exec(a)![1]);
        out[name] = {
          charts: anchors.filter((a) => a.includes('<xdr:graphicFrame')).map(top),
          pics: anchors.filter((a) => a.includes('<xdr:pic>')).map(top),
        };
      }
      return out;
    };
    // The kinds with native charts alone by default: each chart in the rows its picture takes
    // when pictures are asked for (so the same breaks keep it whole); a picture only for a chart
    // with no native form.
    const sorted = (xs: number[]) => [...xs].sort((x, y) => x - y);
    for (const kind of Object.keys(pictures)) {
      const alone = await anchorRows(books[kind]!.path);
      const withPics = await anchorRows(pictures[kind]!);
      expect(Object.keys(alone), kind).toEqual(Object.keys(withPics));
      let native = 0;
      for (const [name, d] of Object.entries(alone)) {
        native += d.charts.length;
        expect(sorted([...d.charts, ...d.pics]), `${kind} ${name}`).toEqual(sorted(withPics[name]!.pics));
        expect(d.charts.length, `${kind} ${name}`).toBe(withPics[name]!.charts.length);
      }
      expect(native, kind).toBeGreaterThan(0);
    }
    // Every workbook with pictures (the kinds above with chartImages, and any kind that places
    // pictures by default): each native chart beside its picture, so the picture check covers it.
    const pictured = {
      ...Object.fromEntries(Object.entries(pictures).map(([k, p]) => [`${k} (chartImages)`, p])),
      ...Object.fromEntries(
        Object.entries(books)
          .filter(([k]) => !(k in pictures))
          .map(([k, b]) => [k, b.path]),
      ),
    };
    for (const [kind, path] of Object.entries(pictured)) {
      if ((await workbookImages(path)) === 0) continue;
      const zip = await JSZip.loadAsync(readFileSync(path));
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
