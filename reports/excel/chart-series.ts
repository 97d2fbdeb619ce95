/**
 * The series of a native chart's XML: the category and value cells referenced with their values
 * cached, the name from its cell, the colour from the report palette.
 */
import { dataSheet } from './chart-model.js';
import type { NativeChart, NativeSeries } from './chart-model.js';
import { rangeRef } from './cell-refs.js';
import { xmlText } from './ooxml.js';

/** The report palette (reports/charts' vega palette), as DrawingML colours. */
export const COLORS = ['1F4E79', 'E08A1E', '2E8B57', '8E44AD', 'C0392B', '2E86C1', '7F8C8D', 'B7950B'];

/** A number as the cache writes it; a value that is not finite as 0. */
function numText(v: number): string {
  return Number.isFinite(v) ? String(v) : '0';
}

/** A reference to text cells, `f`, with their `values` cached. */
function strRef(f: string, values: readonly string[]): string {
  return (
    `<c:strRef><c:f>${xmlText(f)}</c:f><c:strCache><c:ptCount val="${values.length}"/>` +
    values.map((v, i) => `<c:pt idx="${i}"><c:v>${xmlText(v)}</c:v></c:pt>`).join('') +
    `</c:strCache></c:strRef>`
  );
}

/** A reference to number cells, `f`, with their `values` cached in `formatCode` (null: no point). */
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

/** The series' name: its cell referenced, or the text itself. */
function seriesText(chart: NativeChart, s: NativeSeries): string {
  if (!s.nameCell) return `<c:tx><c:v>${xmlText(s.name)}</c:v></c:tx>`;
  const f = rangeRef(dataSheet(chart), {
    col: s.nameCell.col,
    firstRow: s.nameCell.row,
    lastRow: s.nameCell.row,
  });
  return `<c:tx>${strRef(f, [s.name])}</c:tx>`;
}

/** A solid fill of `color` (RRGGBB). */
export function solidFill(color: string): string {
  return `<a:solidFill><a:srgbClr val="${color}"/></a:solidFill>`;
}

/** One `<c:ser>`; `index` numbers it across the whole chart. */
export function seriesXml(
  chart: NativeChart,
  s: NativeSeries,
  index: number,
  mark: 'bar' | 'line' | 'pie',
): string {
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
