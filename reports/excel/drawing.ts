/**
 * PNG images on the sheets of exceljs's streaming writer, which has none (its README: "images
 * are not supported in streaming mode"; exceljs issues #322, #1709, PR #2201 never merged).
 *
 * What the in-memory writer does for an image, done here for a streamed sheet: the PNG as
 * workbook media (`addImage` exists on the writer), a drawing part with one anchor per image and
 * its relationships, a drawing relationship from the sheet, a `<drawing r:id>` element in the
 * sheet (written where `legacyDrawing` goes, after everything but comments, as the schema
 * orders it) and the drawing's content type. It reaches into four internals of exceljs 4.4's
 * stream writer (`zip`, `media`, the sheet's `_sheetRelsWriter` and `_writeLegacyData`); the
 * constructor checks they are there, so an exceljs that changed them fails loudly, not with a
 * silently broken file.
 *
 * Native charts go into the same drawings (`addChart`): a chart part each, a two-cell-anchored
 * frame after the pictures, their relationships and content type, written with the drawing.
 */
import type ExcelJS from 'exceljs';
import type { NativeChart } from './chart-model.js';
import { chartXml } from './chart-xml.js';
import { frameXml } from './drawing-frames.js';

const REL_DRAWING = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/drawing';
const REL_IMAGE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/image';
const REL_CHART = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/chart';
const CHART_TYPE = 'application/vnd.openxmlformats-officedocument.drawingml.chart+xml';
const DRAWING_TYPE = 'application/vnd.openxmlformats-officedocument.drawing+xml';
/** English Metric Units a screen pixel (96 dpi). */
const EMU_PER_PX = 9525;

interface WriterInternals {
  zip: { append(source: string | Buffer, data: { name: string }): unknown };
  media: { name: string }[];
}

interface SheetInternals {
  committed?: boolean;
  stream: { write(text: string): unknown };
  _sheetRelsWriter: { addRelationship(rel: { Type: string; Target: string }): string };
  _writeLegacyData: () => void;
}

/** One image of a drawing: where its top-left corner is (0-based cell) and its size in px. */
interface Anchor {
  media: string;
  col: number;
  row: number;
  width: number;
  height: number;
  alt: string;
}

interface Drawing {
  name: string;
  anchors: Anchor[];
  /** Native charts, with the name of their part (`chart3`). */
  charts: { chart: NativeChart; part: string }[];
}

function xmlEscape(text: string): string {
  return text.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c] ?? c);
}

/**
 * The drawing part: one one-cell anchor a picture, its size fixed in EMU, then a two-cell anchor
 * a native chart (relationships after the pictures').
 */
function drawingXml(anchors: readonly Anchor[], charts: Drawing['charts'] = []): string {
  const pics = anchors.map(
    (a, i) =>
      `<xdr:oneCellAnchor><xdr:from><xdr:col>${a.col}</xdr:col><xdr:colOff>0</xdr:colOff>` +
      `<xdr:row>${a.row}</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:from>` +
      `<xdr:ext cx="${Math.round(a.width * EMU_PER_PX)}" cy="${Math.round(a.height * EMU_PER_PX)}"/>` +
      `<xdr:pic><xdr:nvPicPr><xdr:cNvPr id="${i + 2}" name="Picture ${i + 1}" descr="${xmlEscape(a.alt)}"/>` +
      `<xdr:cNvPicPr><a:picLocks noChangeAspect="1"/></xdr:cNvPicPr></xdr:nvPicPr>` +
      `<xdr:blipFill><a:blip r:embed="rId${i + 1}"/><a:stretch><a:fillRect/></a:stretch></xdr:blipFill>` +
      `<xdr:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/></a:xfrm>` +
      `<a:prstGeom prst="rect"><a:avLst/></a:prstGeom></xdr:spPr></xdr:pic><xdr:clientData/></xdr:oneCellAnchor>`,
  );
  return (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
    '<xdr:wsDr xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing"' +
    ' xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"' +
    ' xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"' +
    ' xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart">' +
    pics.join('') +
    charts.map((c, i) => frameXml(c.chart, anchors.length + i + 2, `rId${anchors.length + i + 1}`)).join('') +
    '</xdr:wsDr>'
  );
}

/** The drawing's relationships: rId1... to the media files, in anchor order, then to the charts. */
function drawingRelsXml(anchors: readonly Anchor[], charts: Drawing['charts'] = []): string {
  return (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
    anchors
      .map((a, i) => `<Relationship Id="rId${i + 1}" Type="${REL_IMAGE}" Target="../media/${a.media}"/>`)
      .join('') +
    charts
      .map(
        (c, i) =>
          `<Relationship Id="rId${anchors.length + i + 1}" Type="${REL_CHART}" Target="../charts/${c.part}.xml"/>`,
      )
      .join('') +
    '</Relationships>'
  );
}

/** Images on the sheets of one exceljs stream writer. */
export class StreamDrawings {
  private readonly writer: WriterInternals;
  private readonly drawings = new Map<ExcelJS.Worksheet, Drawing>();
  private written = false;
  private chartCount = 0;

  constructor(private readonly wb: ExcelJS.stream.xlsx.WorkbookWriter) {
    const w = wb as unknown as Partial<WriterInternals>;
    if (typeof w.zip?.append !== 'function' || !Array.isArray(w.media))
      throw new Error('exceljs stream writer: no zip or media (internals changed); images cannot be added');
    this.writer = w as WriterInternals;
  }

  /**
   * Anchors a PNG with its top-left corner at (row, col) (1-based) at `size` px on screen.
   * The sheet must not be committed yet.
   */
  add(
    ws: ExcelJS.Worksheet,
    png: Buffer,
    at: { row: number; col: number },
    size: { width: number; height: number },
    alt: string,
  ): void {
    const sheet = ws as unknown as Partial<SheetInternals>;
    if (sheet.committed) throw new Error(`images go on sheet "${ws.name}" before it is committed`);
    if (this.written) throw new Error('images go on sheets before the workbook is committed');
    const id = this.wb.addImage({ buffer: png as unknown as ExcelJS.Buffer, extension: 'png' });
    const media = this.writer.media[id]?.name;
    if (!media) throw new Error('exceljs stream writer: the image was not added to the media');
    this.drawingOf(ws).anchors.push({ media, col: at.col - 1, row: at.row - 1, ...size, alt });
  }

  /**
   * A native chart on `ws` (its `sheet` is `ws`'s name; its data may be on a sheet added later).
   * The sheet must not be committed yet.
   */
  addChart(ws: ExcelJS.Worksheet, chart: NativeChart): void {
    const sheet = ws as unknown as Partial<SheetInternals>;
    if (sheet.committed) throw new Error(`charts go on sheet "${ws.name}" before it is committed`);
    if (this.written) throw new Error('charts go on sheets before the workbook is committed');
    this.drawingOf(ws).charts.push({ chart, part: `chart${++this.chartCount}` });
  }

  /** The drawing of a sheet, created (and linked from the sheet) on first use. */
  private drawingOf(ws: ExcelJS.Worksheet): Drawing {
    let drawing = this.drawings.get(ws);
    if (!drawing) {
      drawing = { name: `drawing${this.drawings.size + 1}`, anchors: [], charts: [] };
      this.attach(ws as unknown as Partial<SheetInternals>, drawing.name);
      this.drawings.set(ws, drawing);
    }
    return drawing;
  }

  /** The images of `ws` so far: top-left cell (1-based) and size in pixels. */
  anchorsOf(ws: ExcelJS.Worksheet): { row: number; col: number; width: number; height: number }[] {
    return (this.drawings.get(ws)?.anchors ?? []).map((a) => ({
      row: a.row + 1,
      col: a.col + 1,
      width: a.width,
      height: a.height,
    }));
  }

  /** Links the sheet to its drawing part and writes `<drawing>` into the sheet at commit. */
  private attach(sheet: Partial<SheetInternals>, name: string): void {
    const legacy = sheet._writeLegacyData;
    const rels = sheet._sheetRelsWriter;
    if (typeof legacy !== 'function' || typeof rels?.addRelationship !== 'function' || !sheet.stream)
      throw new Error('exceljs stream writer: sheet internals changed; images cannot be added');
    const rId = rels.addRelationship({ Type: REL_DRAWING, Target: `../drawings/${name}.xml` });
    const stream = sheet.stream;
    sheet._writeLegacyData = () => {
      stream.write(`<drawing r:id="${rId}"/>`);
      legacy.call(sheet);
    };
  }

  /** Writes the drawing parts and declares their content type. Call once, before the workbook's commit. */
  writeParts(): void {
    if (this.written) return;
    this.written = true;
    if (this.drawings.size === 0) return;
    const { zip } = this.writer;
    const overrides: string[] = [];
    for (const d of this.drawings.values()) {
      zip.append(drawingXml(d.anchors, d.charts), { name: `xl/drawings/${d.name}.xml` });
      zip.append(drawingRelsXml(d.anchors, d.charts), { name: `xl/drawings/_rels/${d.name}.xml.rels` });
      overrides.push(`<Override PartName="/xl/drawings/${d.name}.xml" ContentType="${DRAWING_TYPE}"/>`);
      for (const c of d.charts) {
        zip.append(chartXml(c.chart), { name: `xl/charts/${c.part}.xml` });
        overrides.push(`<Override PartName="/xl/charts/${c.part}.xml" ContentType="${CHART_TYPE}"/>`);
      }
    }
    // The writer builds [Content_Types].xml without drawings: add them as it is appended.
    const append = zip.append.bind(zip);
    zip.append = (source, data) =>
      data.name === '[Content_Types].xml' && typeof source === 'string'
        ? append(source.replace('</Types>', `${overrides.join('')}</Types>`), data)
        : append(source, data);
  }
}
