/**
 * Native, editable Excel charts and image anchors every reader keeps, written into a saved
 * .xlsx package (exceljs writes no charts).
 *
 * `finishPackage(xlsx, charts)` opens the package with jszip and:
 * - adds each chart as a DrawingML chart part (`xl/charts/chartN.xml`) whose series reference
 *   the cells of a table (`'Sheet name'!$B$2:$B$9`), on its own sheet or another, with the values cached so
 *   a viewer that does not recalculate shows them; a `graphicFrame` in the sheet's drawing
 *   (created when the sheet has none) anchors it between two cells; relationships and content
 *   types follow;
 * - rewrites the one-cell anchors of pictures without `editAs`: exceljs writes
 *   `<xdr:oneCellAnchor editAs="oneCell">`, an attribute the schema only gives two-cell anchors;
 *   openpyxl then refuses the whole drawing (it sees no images and drops them on saving).
 *
 * Chart types: bar (vertical), horizontal bar, line, combo (bars and lines, lines on a second
 * value axis at the right when asked), pie, doughnut and stacked bar (vertical or horizontal).
 *
 * @example
 * const out = await finishPackage(await wb.xlsx.writeBuffer(), [
 *   {
 *     sheet: "Investors' view",
 *     type: 'bar',
 *     title: 'Deals by year',
 *     categories: { col: 1, firstRow: 2, lastRow: 6, cache: ['2021', '2022', '2023', '2024', '2025'] },
 *     series: [{ name: 'Deals', nameCell: { row: 1, col: 2 }, values: { col: 2, firstRow: 2, lastRow: 6 }, cache: [3, 5, 8, 13, 21] }],
 *     anchor: { from: { col: 4, row: 1 }, to: { col: 12, row: 18 } },
 *   },
 * ]);
 */
import JSZip from 'jszip';
import { dataSheet } from './chart-model.js';
import type { NativeChart } from './chart-model.js';
import { chartXml } from './chart-xml.js';
import { EMPTY_DRAWING, frameXml, fixOneCellAnchors, withNamespaces } from './drawing-frames.js';
import { CT, REL } from './ooxml.js';
import {
  addOverride,
  addRel,
  EMPTY_RELS,
  insertDrawingElement,
  nextFree,
  readRels,
  relativeTarget,
  relsPath,
  resolveTarget,
  sheetParts,
  text,
} from './package-parts.js';

/** Checks a chart before it is written: its sheet exists, its ranges and caches agree. */
function check(chart: NativeChart, sheets: Map<string, string>): void {
  const where = `chart "${chart.title}" on sheet "${chart.sheet}"`;
  if (!sheets.has(chart.sheet)) throw new Error(`${where}: the workbook has no such sheet`);
  if (!sheets.has(dataSheet(chart)))
    throw new Error(`${where}: the workbook has no sheet "${dataSheet(chart)}" for its data`);
  if (chart.series.length === 0) throw new Error(`${where}: no series`);
  const n = chart.categories.lastRow - chart.categories.firstRow + 1;
  if (n < 1 || chart.categories.cache.length !== n)
    throw new Error(`${where}: ${chart.categories.cache.length} category values for ${n} cells`);
  for (const s of chart.series) {
    const k = s.values.lastRow - s.values.firstRow + 1;
    if (k !== n || s.cache.length !== n)
      throw new Error(
        `${where}: series "${s.name}" has ${s.cache.length} values in ${k} cells for ${n} categories`,
      );
  }
}

/**
 * Finishes a saved .xlsx package: the native `charts` added (see the module's description) and
 * every one-cell anchor made one that openpyxl reads. Returns the new package.
 */
export async function finishPackage(
  xlsx: Buffer | Uint8Array | ArrayBuffer,
  charts: readonly NativeChart[],
): Promise<Buffer> {
  const zip = await JSZip.loadAsync(xlsx);
  const drawingPaths = Object.keys(zip.files).filter((p) => /^xl\/drawings\/[^/]+\.xml$/.test(p));
  for (const p of drawingPaths) {
    const xml = await text(zip, p);
    if (xml !== null && /oneCellAnchor\b[^>]*editAs/.test(xml)) zip.file(p, fixOneCellAnchors(xml));
  }
  if (charts.length > 0) {
    const sheets = await sheetParts(zip);
    for (const c of charts) check(c, sheets);
    let types = (await text(zip, '[Content_Types].xml')) ?? '';
    for (const [sheet, part] of sheets) {
      const own = charts.filter((c) => c.sheet === sheet);
      if (own.length === 0) continue;
      const drawing = await sheetDrawing(zip, part, types);
      types = await addCharts(zip, drawing.path, own, drawing.types);
    }
    zip.file('[Content_Types].xml', types);
  }
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level: 6 } });
}

/**
 * The drawing part of the sheet at `part`: the one it has, else a new empty one with the
 * sheet's relationship to it, its `<drawing>` element and its content type. Returns the
 * drawing's path and the content types.
 */
async function sheetDrawing(
  zip: JSZip,
  part: string,
  types: string,
): Promise<{ path: string; types: string }> {
  const sheetRelsPath = relsPath(part);
  const sheetRels = (await text(zip, sheetRelsPath)) ?? EMPTY_RELS;
  const drawingRel = readRels(sheetRels).find((r) => r.type === REL.drawing);
  if (drawingRel) return { path: resolveTarget(part, drawingRel.target), types };
  const drawingPath = `xl/drawings/drawing${nextFree(zip, (n) => `xl/drawings/drawing${n}.xml`)}.xml`;
  zip.file(drawingPath, EMPTY_DRAWING);
  const added = addRel(sheetRels, REL.drawing, relativeTarget(part, drawingPath));
  zip.file(sheetRelsPath, added.xml);
  zip.file(part, insertDrawingElement((await text(zip, part)) ?? '', added.id));
  return { path: drawingPath, types: addOverride(types, drawingPath, CT.drawing) };
}

/**
 * Adds `charts` to the drawing at `drawingPath`: a chart part each with its content type, the
 * drawing's relationship to it and a frame after the drawing's anchors. Returns the content types.
 */
async function addCharts(
  zip: JSZip,
  drawingPath: string,
  charts: readonly NativeChart[],
  contentTypes: string,
): Promise<string> {
  let types = contentTypes;
  const drawing = withNamespaces((await text(zip, drawingPath)) ?? EMPTY_DRAWING);
  const drawingRelsPath = relsPath(drawingPath);
  let drawingRels = (await text(zip, drawingRelsPath)) ?? EMPTY_RELS;
  let id = Math.max(
    1,
    ...Array.from(drawing.matchAll(/<(?:\w+:)?cNvPr\b[^>]*\sid="(\d+)"/g), (m) => Number(m[1])),
  );
  const frames: string[] = [];
  for (const c of charts) {
    const chartPath = `xl/charts/chart${nextFree(zip, (n) => `xl/charts/chart${n}.xml`)}.xml`;
    zip.file(chartPath, chartXml(c));
    types = addOverride(types, chartPath, CT.chart);
    const rel = addRel(drawingRels, REL.chart, relativeTarget(drawingPath, chartPath));
    drawingRels = rel.xml;
    frames.push(frameXml(c, ++id, rel.id));
  }
  zip.file(
    drawingPath,
    drawing.replace(/<\/((?:\w+:)?wsDr)>\s*$/, (_m, tag: string) => `${frames.join('')}</${tag}>`),
  );
  zip.file(drawingRelsPath, drawingRels);
  return types;
}
