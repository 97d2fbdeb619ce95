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

/** How a native chart is drawn. */
export type NativeChartType =
  'bar' | 'horizontal_bar' | 'line' | 'combo' | 'pie' | 'doughnut' | 'stacked_bar' | 'stacked_horizontal_bar';

/** Rows `firstRow` to `lastRow` of column `col` (1-based) of the chart's sheet. */
export interface CellColumn {
  col: number;
  firstRow: number;
  lastRow: number;
}

/** One series: the cells it plots and the values in them. */
export interface NativeSeries {
  /** The legend name; `nameCell` (1-based) is the cell it is read from, when there is one. */
  name: string;
  nameCell?: { row: number; col: number };
  values: CellColumn;
  /** The values in `values`, cached for viewers that do not recalculate; null is no point. */
  cache: readonly (number | null)[];
  /** The number format of the values (the first series' is the value axis's). */
  formatCode?: string;
  /** In a combo: bars (default) or a line. */
  draw?: 'bar' | 'line';
  /** In a combo: on the second value axis, at the right. */
  secondary?: boolean;
}

/** A cell corner: column and row (0-based) and an offset into the cell in EMU. */
export interface AnchorCell {
  col: number;
  row: number;
  colOff?: number;
  rowOff?: number;
}

/** A chart on a sheet, its references on that sheet or on `dataSheet`. */
export interface NativeChart {
  /** The name of the sheet it is drawn on, as the workbook has it (any quotes, spaces and scripts). */
  sheet: string;
  /** The sheet of the cells it plots, when not `sheet`. */
  dataSheet?: string;
  type: NativeChartType;
  title: string;
  categories: CellColumn & { cache: readonly string[] };
  series: readonly NativeSeries[];
  /** The corners of the chart's frame: it moves with the cells, keeping its size. */
  anchor: { from: AnchorCell; to: AnchorCell };
  /** The frame's description (alternative text); the title by default. */
  alt?: string;
  /**
   * Whether it prints with the sheet (default true): `fPrintsWithSheet="0"` when false, so a
   * sheet that prints the chart's image can leave the editable chart off the page. The schema's
   * flag, which Excel reads; LibreOffice 7.4's PDF export was seen to print such a chart anyway.
   */
  print?: boolean;
}

const NS = {
  c: 'http://schemas.openxmlformats.org/drawingml/2006/chart',
  a: 'http://schemas.openxmlformats.org/drawingml/2006/main',
  r: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships',
  xdr: 'http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing',
  rels: 'http://schemas.openxmlformats.org/package/2006/relationships',
};
const REL = {
  drawing: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/drawing',
  chart: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/chart',
};
const CT = {
  drawing: 'application/vnd.openxmlformats-officedocument.drawing+xml',
  chart: 'application/vnd.openxmlformats-officedocument.drawingml.chart+xml',
};
/** The report palette (reports/charts' vega palette), as DrawingML colours. */
const COLORS = ['1F4E79', 'E08A1E', '2E8B57', '8E44AD', 'C0392B', '2E86C1', '7F8C8D', 'B7950B'];

/** Text for XML element content. */
function xmlText(text: string): string {
  return text.replace(/[<>&]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;' })[c] ?? c);
}

/** Text for XML content and double-quoted attribute values. */
export function xmlEscape(text: string): string {
  return text.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c] ?? c);
}

function xmlUnescape(text: string): string {
  return text.replace(
    /&(lt|gt|amp|quot|apos|#(\d+)|#x([0-9a-f]+));/gi,
    (m, name: string, dec?: string, hex?: string) => {
      if (dec) return String.fromCodePoint(Number(dec));
      if (hex) return String.fromCodePoint(parseInt(hex, 16));
      return { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }[name.toLowerCase()] ?? m;
    },
  );
}

/** The column letters of a 1-based column number: 1 → A, 28 → AB. */
export function columnLetters(col: number): string {
  let n = col;
  let out = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    out = String.fromCharCode(65 + r) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

/**
 * A sheet name as formulas write it: always quoted, a quote inside doubled.
 *
 * @example sheetRef("Investors' view") // "'Investors'' view'"
 */
export function sheetRef(sheet: string): string {
  return `'${sheet.replace(/'/g, "''")}'`;
}

/** An absolute reference to a column of cells: `'Sheet 1'!$B$2:$B$9` (one cell: `'Sheet 1'!$B$2`). */
export function rangeRef(sheet: string, range: CellColumn): string {
  const c = columnLetters(range.col);
  const first = `$${c}$${range.firstRow}`;
  return `${sheetRef(sheet)}!${first}${range.lastRow > range.firstRow ? `:$${c}$${range.lastRow}` : ''}`;
}

function numText(v: number): string {
  return Number.isFinite(v) ? String(v) : '0';
}

function strRef(f: string, values: readonly string[]): string {
  return (
    `<c:strRef><c:f>${xmlText(f)}</c:f><c:strCache><c:ptCount val="${values.length}"/>` +
    values.map((v, i) => `<c:pt idx="${i}"><c:v>${xmlText(v)}</c:v></c:pt>`).join('') +
    `</c:strCache></c:strRef>`
  );
}

function numRef(f: string, values: readonly (number | null)[], formatCode: string): string {
  return (
    `<c:numRef><c:f>${xmlText(f)}</c:f><c:numCache><c:formatCode>${xmlText(formatCode)}</c:formatCode>` +
    `<c:ptCount val="${values.length}"/>` +
    values
      .map((v, i) =>
        v === null || !Number.isFinite(v) ? '' : `<c:pt idx="${i}"><c:v>${numText(v)}</c:v></c:pt>`,
      )
      .join('') +
    `</c:numCache></c:numRef>`
  );
}

/** The sheet whose cells a chart plots. */
function dataSheet(chart: NativeChart): string {
  return chart.dataSheet ?? chart.sheet;
}

function seriesText(chart: NativeChart, s: NativeSeries): string {
  if (!s.nameCell) return `<c:tx><c:v>${xmlText(s.name)}</c:v></c:tx>`;
  const f = rangeRef(dataSheet(chart), {
    col: s.nameCell.col,
    firstRow: s.nameCell.row,
    lastRow: s.nameCell.row,
  });
  return `<c:tx>${strRef(f, [s.name])}</c:tx>`;
}

function solidFill(color: string): string {
  return `<a:solidFill><a:srgbClr val="${color}"/></a:solidFill>`;
}

/** One `<c:ser>`; `index` numbers it across the whole chart. */
function seriesXml(chart: NativeChart, s: NativeSeries, index: number, mark: 'bar' | 'line' | 'pie'): string {
  const color = COLORS[index % COLORS.length] ?? COLORS[0]!;
  const cat = strRef(rangeRef(dataSheet(chart), chart.categories), chart.categories.cache);
  const val = numRef(rangeRef(dataSheet(chart), s.values), s.cache, s.formatCode ?? 'General');
  const head = `<c:idx val="${index}"/><c:order val="${index}"/>${seriesText(chart, s)}`;
  if (mark === 'line')
    return (
      `<c:ser>${head}<c:spPr><a:ln w="28575" cap="rnd">${solidFill(color)}<a:round/></a:ln></c:spPr>` +
      `<c:marker><c:symbol val="circle"/><c:size val="5"/><c:spPr>${solidFill(color)}</c:spPr></c:marker>` +
      `<c:cat>${cat}</c:cat><c:val>${val}</c:val><c:smooth val="0"/></c:ser>`
    );
  if (mark === 'pie')
    return (
      `<c:ser>${head}<c:spPr><a:ln w="12700">${solidFill('FFFFFF')}</a:ln></c:spPr>` +
      `<c:cat>${cat}</c:cat><c:val>${val}</c:val></c:ser>`
    );
  return (
    `<c:ser>${head}<c:spPr>${solidFill(color)}</c:spPr><c:invertIfNegative val="0"/>` +
    `<c:cat>${cat}</c:cat><c:val>${val}</c:val></c:ser>`
  );
}

/** Axis ids: the primary pair, and the pair of the second value axis. */
const AX = { cat: 1001, val: 1002, cat2: 1003, val2: 1004 };

function catAx(
  id: number,
  cross: number,
  pos: 'b' | 'l',
  options: { reverse?: boolean; hidden?: boolean } = {},
): string {
  return (
    `<c:catAx><c:axId val="${id}"/><c:scaling><c:orientation val="${options.reverse ? 'maxMin' : 'minMax'}"/></c:scaling>` +
    `<c:delete val="${options.hidden ? 1 : 0}"/><c:axPos val="${pos}"/>` +
    `<c:numFmt formatCode="General" sourceLinked="1"/><c:majorTickMark val="none"/><c:minorTickMark val="none"/>` +
    `<c:tickLblPos val="nextTo"/><c:spPr><a:ln w="9525">${solidFill('BFBFBF')}</a:ln></c:spPr>` +
    `<c:crossAx val="${cross}"/><c:crosses val="autoZero"/><c:auto val="1"/><c:lblAlgn val="ctr"/>` +
    `<c:lblOffset val="100"/><c:tickLblSkip val="1"/><c:noMultiLvlLbl val="0"/></c:catAx>`
  );
}

function valAx(
  id: number,
  cross: number,
  pos: 'l' | 'b' | 'r',
  formatCode: string,
  options: { crossesMax?: boolean; gridlines?: boolean } = {},
): string {
  return (
    `<c:valAx><c:axId val="${id}"/><c:scaling><c:orientation val="minMax"/></c:scaling>` +
    `<c:delete val="0"/><c:axPos val="${pos}"/>` +
    (options.gridlines === false
      ? ''
      : `<c:majorGridlines><c:spPr><a:ln w="9525">${solidFill('E5E5E5')}</a:ln></c:spPr></c:majorGridlines>`) +
    `<c:numFmt formatCode="${xmlEscape(formatCode)}" sourceLinked="0"/><c:majorTickMark val="none"/>` +
    `<c:minorTickMark val="none"/><c:tickLblPos val="nextTo"/><c:spPr><a:ln><a:noFill/></a:ln></c:spPr>` +
    `<c:crossAx val="${cross}"/><c:crosses val="${options.crossesMax ? 'max' : 'autoZero'}"/>` +
    `<c:crossBetween val="between"/></c:valAx>`
  );
}

function barChart(
  chart: NativeChart,
  series: readonly NativeSeries[],
  first: number,
  options: { horizontal: boolean; stacked: boolean; axes: [number, number] },
): string {
  return (
    `<c:barChart><c:barDir val="${options.horizontal ? 'bar' : 'col'}"/>` +
    `<c:grouping val="${options.stacked ? 'stacked' : 'clustered'}"/><c:varyColors val="0"/>` +
    series.map((s, i) => seriesXml(chart, s, first + i, 'bar')).join('') +
    `<c:gapWidth val="${options.stacked ? 60 : 80}"/>` +
    (options.stacked ? '<c:overlap val="100"/>' : series.length > 1 ? '<c:overlap val="-10"/>' : '') +
    `<c:axId val="${options.axes[0]}"/><c:axId val="${options.axes[1]}"/></c:barChart>`
  );
}

function lineChart(
  chart: NativeChart,
  series: readonly NativeSeries[],
  first: number,
  axes: [number, number],
): string {
  return (
    `<c:lineChart><c:grouping val="standard"/><c:varyColors val="0"/>` +
    series.map((s, i) => seriesXml(chart, s, first + i, 'line')).join('') +
    `<c:marker val="1"/><c:axId val="${axes[0]}"/><c:axId val="${axes[1]}"/></c:lineChart>`
  );
}

const PIE_LABELS =
  '<c:dLbls><c:numFmt formatCode="0%" sourceLinked="0"/><c:spPr><a:noFill/><a:ln><a:noFill/></a:ln></c:spPr>' +
  '<c:showLegendKey val="0"/><c:showVal val="0"/><c:showCatName val="0"/><c:showSerName val="0"/>' +
  '<c:showPercent val="1"/><c:showBubbleSize val="0"/><c:showLeaderLines val="1"/></c:dLbls>';

/**
 * The value axis's number format for values formatted `formatCode`: dollar amounts read as
 * $16.0B, $500M, $20,000 on the axis (a cell's "$16,000.0M" is too long for a tick label).
 */
export function axisFormat(formatCode: string): string {
  if (/^\$#,##0(\.0+)?(,*)("[MKB]")?$/.test(formatCode))
    return '[>=1000000000]$#,##0.0,,,"B";[>=1000000]$#,##0,,"M";$#,##0';
  return formatCode;
}

/** The plot area of a chart and whether it has a legend. */
function plotArea(chart: NativeChart): { xml: string; legend: boolean } {
  const fmt = (s: NativeSeries | undefined): string => axisFormat(s?.formatCode ?? 'General');
  // A legend for two to eight series: more (one line a startup) would crowd out the plot.
  const many = chart.series.length > 1 && chart.series.length <= COLORS.length;
  switch (chart.type) {
    case 'pie':
    case 'doughnut': {
      const s = chart.series[0];
      const ser = s ? seriesXml(chart, s, 0, 'pie') : '';
      const body =
        chart.type === 'pie'
          ? `<c:pieChart><c:varyColors val="1"/>${ser}${PIE_LABELS}<c:firstSliceAng val="0"/></c:pieChart>`
          : `<c:doughnutChart><c:varyColors val="1"/>${ser}${PIE_LABELS}<c:firstSliceAng val="0"/>` +
            `<c:holeSize val="55"/></c:doughnutChart>`;
      return { xml: body, legend: true };
    }
    case 'line':
      return {
        xml:
          lineChart(chart, chart.series, 0, [AX.cat, AX.val]) +
          catAx(AX.cat, AX.val, 'b') +
          valAx(AX.val, AX.cat, 'l', fmt(chart.series[0])),
        legend: many,
      };
    case 'combo': {
      const bars = chart.series.filter((s) => (s.draw ?? 'bar') === 'bar');
      const lines = chart.series.filter((s) => s.draw === 'line');
      const primaryLines = lines.filter((s) => !s.secondary);
      const secondLines = lines.filter((s) => s.secondary);
      const secondBars = bars.filter((s) => s.secondary);
      const primaryBars = bars.filter((s) => !s.secondary);
      const primary: string[] = [];
      const secondary: string[] = [];
      let n = 0;
      if (primaryBars.length > 0) {
        primary.push(
          barChart(chart, primaryBars, n, { horizontal: false, stacked: false, axes: [AX.cat, AX.val] }),
        );
        n += primaryBars.length;
      }
      if (primaryLines.length > 0) {
        primary.push(lineChart(chart, primaryLines, n, [AX.cat, AX.val]));
        n += primaryLines.length;
      }
      if (secondBars.length > 0) {
        secondary.push(
          barChart(chart, secondBars, n, { horizontal: false, stacked: false, axes: [AX.cat2, AX.val2] }),
        );
        n += secondBars.length;
      }
      if (secondLines.length > 0) secondary.push(lineChart(chart, secondLines, n, [AX.cat2, AX.val2]));
      const firstPrimary = [...primaryBars, ...primaryLines][0];
      const firstSecondary = [...secondBars, ...secondLines][0];
      return {
        xml:
          primary.join('') +
          secondary.join('') +
          catAx(AX.cat, AX.val, 'b') +
          valAx(AX.val, AX.cat, 'l', fmt(firstPrimary)) +
          (secondary.length > 0
            ? catAx(AX.cat2, AX.val2, 'b', { hidden: true }) +
              valAx(AX.val2, AX.cat2, 'r', fmt(firstSecondary), { crossesMax: true, gridlines: false })
            : ''),
        legend: true,
      };
    }
    case 'horizontal_bar':
    case 'stacked_horizontal_bar':
      // Categories top to bottom in the table's order; the value axis at the bottom.
      return {
        xml:
          barChart(chart, chart.series, 0, {
            horizontal: true,
            stacked: chart.type === 'stacked_horizontal_bar',
            axes: [AX.cat, AX.val],
          }) +
          catAx(AX.cat, AX.val, 'l', { reverse: true }) +
          valAx(AX.val, AX.cat, 'b', fmt(chart.series[0]), { crossesMax: true }),
        legend: many,
      };
    case 'bar':
    case 'stacked_bar':
    default:
      return {
        xml:
          barChart(chart, chart.series, 0, {
            horizontal: false,
            stacked: chart.type === 'stacked_bar',
            axes: [AX.cat, AX.val],
          }) +
          catAx(AX.cat, AX.val, 'b') +
          valAx(AX.val, AX.cat, 'l', fmt(chart.series[0])),
        legend: many,
      };
  }
}

/** The chart part (`xl/charts/chartN.xml`) of `chart`. */
export function chartXml(chart: NativeChart): string {
  const { xml, legend } = plotArea(chart);
  const title =
    `<c:title><c:tx><c:rich><a:bodyPr/><a:lstStyle/><a:p><a:pPr><a:defRPr sz="1200" b="1"/></a:pPr>` +
    `<a:r><a:rPr lang="en-US" sz="1200" b="1"><a:solidFill><a:srgbClr val="1F4E79"/></a:solidFill></a:rPr>` +
    `<a:t>${xmlText(chart.title)}</a:t></a:r></a:p></c:rich></c:tx><c:overlay val="0"/></c:title>`;
  return (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
    `<c:chartSpace xmlns:c="${NS.c}" xmlns:a="${NS.a}" xmlns:r="${NS.r}">` +
    `<c:roundedCorners val="0"/><c:chart>${title}<c:autoTitleDeleted val="0"/>` +
    `<c:plotArea><c:layout/>${xml}</c:plotArea>` +
    (legend ? '<c:legend><c:legendPos val="b"/><c:overlay val="0"/></c:legend>' : '') +
    `<c:plotVisOnly val="1"/><c:dispBlanksAs val="gap"/></c:chart>` +
    `<c:spPr>${solidFill('FFFFFF')}<a:ln w="9525">${solidFill('D9D9D9')}</a:ln></c:spPr>` +
    `<c:txPr><a:bodyPr/><a:lstStyle/><a:p><a:pPr><a:defRPr sz="900"/></a:pPr><a:endParaRPr lang="en-US"/></a:p></c:txPr>` +
    `</c:chartSpace>`
  );
}

function anchorCell(tag: 'from' | 'to', c: AnchorCell): string {
  return (
    `<xdr:${tag}><xdr:col>${c.col}</xdr:col><xdr:colOff>${Math.round(c.colOff ?? 0)}</xdr:colOff>` +
    `<xdr:row>${c.row}</xdr:row><xdr:rowOff>${Math.round(c.rowOff ?? 0)}</xdr:rowOff></xdr:${tag}>`
  );
}

/**
 * The two-cell anchor of a chart frame in a drawing (prefixes xdr, a, c and r declared by the
 * drawing); `id` is unique in the drawing, `rId` the drawing's relationship to the chart part.
 */
export function frameXml(chart: NativeChart, id: number, rId: string): string {
  return (
    `<xdr:twoCellAnchor editAs="oneCell">${anchorCell('from', chart.anchor.from)}${anchorCell('to', chart.anchor.to)}` +
    `<xdr:graphicFrame macro=""><xdr:nvGraphicFramePr>` +
    `<xdr:cNvPr id="${id}" name="Chart ${id}" descr="${xmlEscape(chart.alt ?? chart.title)}"/>` +
    `<xdr:cNvGraphicFramePr/></xdr:nvGraphicFramePr>` +
    `<xdr:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/></xdr:xfrm>` +
    `<a:graphic><a:graphicData uri="${NS.c}"><c:chart r:id="${rId}"/></a:graphicData></a:graphic>` +
    `</xdr:graphicFrame><xdr:clientData${chart.print === false ? ' fPrintsWithSheet="0"' : ''}/></xdr:twoCellAnchor>`
  );
}

const EMPTY_DRAWING =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
  `<xdr:wsDr xmlns:xdr="${NS.xdr}" xmlns:a="${NS.a}" xmlns:r="${NS.r}" xmlns:c="${NS.c}"></xdr:wsDr>`;
const EMPTY_RELS =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
  `<Relationships xmlns="${NS.rels}"></Relationships>`;

interface Relationship {
  id: string;
  type: string;
  target: string;
}

function attr(tag: string, name: string): string | undefined {
  const m = new RegExp(`\\s${name.replace(':', '\\:')}\\s*=\\s*("([^"]*)"|'([^']*)')`).exec(tag);
  return m ? xmlUnescape(m[2] ?? m[3] ?? '') : undefined;
}

function readRels(xml: string): Relationship[] {
  return Array.from(xml.matchAll(/<Relationship\b[^>]*>/g), (m) => ({
    id: attr(m[0], 'Id') ?? '',
    type: attr(m[0], 'Type') ?? '',
    target: attr(m[0], 'Target') ?? '',
  }));
}

/** Adds a relationship to a .rels part and returns its new id. */
function addRel(xml: string, type: string, target: string): { xml: string; id: string } {
  const used = new Set(readRels(xml).map((r) => r.id));
  let n = used.size + 1;
  while (used.has(`rId${n}`)) n++;
  const id = `rId${n}`;
  const rel = `<Relationship Id="${id}" Type="${type}" Target="${xmlEscape(target)}"/>`;
  return { xml: xml.replace(/<\/Relationships>\s*$/, `${rel}</Relationships>`), id };
}

/** The package path a relationship target of `source` points at. */
function resolveTarget(source: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts = source.split('/').slice(0, -1);
  for (const p of target.split('/')) {
    if (p === '..') parts.pop();
    else if (p !== '.' && p !== '') parts.push(p);
  }
  return parts.join('/');
}

/** The .rels part of a part: `xl/worksheets/sheet1.xml` → `xl/worksheets/_rels/sheet1.xml.rels`. */
function relsPath(part: string): string {
  const i = part.lastIndexOf('/');
  return `${part.slice(0, i)}/_rels/${part.slice(i + 1)}.rels`;
}

/** `target` relative to the folder of `source` (both package paths). */
function relativeTarget(source: string, target: string): string {
  const from = source.split('/').slice(0, -1);
  const to = target.split('/');
  let k = 0;
  while (k < from.length && k < to.length - 1 && from[k] === to[k]) k++;
  return [...from.slice(k).map(() => '..'), ...to.slice(k)].join('/');
}

async function text(zip: JSZip, path: string): Promise<string | null> {
  const f = zip.file(path);
  return f ? f.async('string') : null;
}

/** Removes `editAs` from one-cell anchors (the schema gives it to two-cell anchors only). */
export function fixOneCellAnchors(drawingXml: string): string {
  return drawingXml.replace(/<((?:\w+:)?oneCellAnchor)\b([^>]*)>/g, (_m, tag: string, attrs: string) => {
    const rest = attrs.replace(/\s+editAs\s*=\s*("[^"]*"|'[^']*')/g, '');
    return `<${tag}${rest}>`;
  });
}

/** Worksheet children that come after `<drawing>` (ECMA-376 CT_Worksheet order). */
const AFTER_DRAWING = [
  'legacyDrawing',
  'legacyDrawingHF',
  'drawingHF',
  'picture',
  'oleObjects',
  'controls',
  'webPublishItems',
  'tableParts',
];

/** The sheet XML with `<drawing r:id>` where the schema puts it. */
function insertDrawingElement(sheetXml: string, rId: string): string {
  let xml = sheetXml;
  const root = /<worksheet\b[^>]*>/.exec(xml);
  if (root && !/\sxmlns:r\s*=/.test(root[0]))
    xml = xml.replace(root[0], root[0].replace(/>$/, ` xmlns:r="${NS.r}">`));
  const element = `<drawing r:id="${rId}"/>`;
  const start = Math.max(0, xml.indexOf('</sheetData>'));
  const at = AFTER_DRAWING.map((t) => {
    const m = new RegExp(`<${t}[\\s/>]`).exec(xml.slice(start));
    return m ? start + m.index : -1;
  }).filter((i) => i >= 0);
  let pos = at.length > 0 ? Math.min(...at) : -1;
  if (pos < 0) {
    // A worksheet-level extLst is its last child.
    const end = xml.lastIndexOf('</worksheet>');
    const ext = xml.lastIndexOf('<extLst');
    pos = ext > start && /<\/extLst>\s*$/.test(xml.slice(0, end)) ? ext : end;
  }
  return xml.slice(0, pos) + element + xml.slice(pos);
}

function addOverride(types: string, part: string, contentType: string): string {
  if (types.includes(`PartName="/${part}"`)) return types;
  return types.replace(
    /<\/Types>\s*$/,
    `<Override PartName="/${xmlEscape(part)}" ContentType="${contentType}"/></Types>`,
  );
}

/** Package paths of the sheets by name, from the workbook part and its relationships. */
async function sheetParts(zip: JSZip): Promise<Map<string, string>> {
  const wbXml = (await text(zip, 'xl/workbook.xml')) ?? '';
  const rels = readRels((await text(zip, 'xl/_rels/workbook.xml.rels')) ?? '');
  const out = new Map<string, string>();
  for (const m of wbXml.matchAll(/<sheet\b[^>]*>/g)) {
    const name = attr(m[0], 'name');
    const id = attr(m[0], 'r:id');
    const rel = rels.find((r) => r.id === id);
    if (name !== undefined && rel) out.set(name, resolveTarget('xl/workbook.xml', rel.target));
  }
  return out;
}

function nextFree(zip: JSZip, pattern: (n: number) => string): number {
  let n = 1;
  while (zip.file(pattern(n))) n++;
  return n;
}

/** The root start tag of a drawing with the chart and relationship namespaces declared. */
function withNamespaces(drawingXml: string): string {
  const root = /<(\w+:)?wsDr\b[^>]*>/.exec(drawingXml);
  if (!root) throw new Error('drawing part has no wsDr root');
  let tag = root[0];
  const prefix = root[1] ?? '';
  if (prefix !== 'xdr:' && !/\sxmlns:xdr\s*=/.test(tag)) tag = tag.replace(/>$/, ` xmlns:xdr="${NS.xdr}">`);
  for (const [p, uri] of [
    ['a', NS.a],
    ['r', NS.r],
    ['c', NS.c],
  ] as const)
    if (!new RegExp(`\\sxmlns:${p}\\s*=`).test(tag)) tag = tag.replace(/>$/, ` xmlns:${p}="${uri}">`);
  return drawingXml.replace(root[0], tag);
}

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
      const sheetRelsPath = relsPath(part);
      let sheetRels = (await text(zip, sheetRelsPath)) ?? EMPTY_RELS;
      const drawingRel = readRels(sheetRels).find((r) => r.type === REL.drawing);
      let drawingPath: string;
      if (drawingRel) drawingPath = resolveTarget(part, drawingRel.target);
      else {
        drawingPath = `xl/drawings/drawing${nextFree(zip, (n) => `xl/drawings/drawing${n}.xml`)}.xml`;
        zip.file(drawingPath, EMPTY_DRAWING);
        const added = addRel(sheetRels, REL.drawing, relativeTarget(part, drawingPath));
        sheetRels = added.xml;
        zip.file(sheetRelsPath, sheetRels);
        zip.file(part, insertDrawingElement((await text(zip, part)) ?? '', added.id));
        types = addOverride(types, drawingPath, CT.drawing);
      }
      let drawing = withNamespaces((await text(zip, drawingPath)) ?? EMPTY_DRAWING);
      const drawingRelsPath = relsPath(drawingPath);
      let drawingRels = (await text(zip, drawingRelsPath)) ?? EMPTY_RELS;
      let id = Math.max(
        1,
        ...Array.from(drawing.matchAll(/<(?:\w+:)?cNvPr\b[^>]*\sid="(\d+)"/g), (m) => Number(m[1])),
      );
      const frames: string[] = [];
      for (const c of own) {
        const chartPath = `xl/charts/chart${nextFree(zip, (n) => `xl/charts/chart${n}.xml`)}.xml`;
        zip.file(chartPath, chartXml(c));
        types = addOverride(types, chartPath, CT.chart);
        const rel = addRel(drawingRels, REL.chart, relativeTarget(drawingPath, chartPath));
        drawingRels = rel.xml;
        frames.push(frameXml(c, ++id, rel.id));
      }
      drawing = drawing.replace(
        /<\/((?:\w+:)?wsDr)>\s*$/,
        (_m, tag: string) => `${frames.join('')}</${tag}>`,
      );
      zip.file(drawingPath, drawing);
      zip.file(drawingRelsPath, drawingRels);
    }
    zip.file('[Content_Types].xml', types);
  }
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level: 6 } });
}
