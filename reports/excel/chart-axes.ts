/** The axes of a native chart: category and value axes, and the value axis's number format. */
import type { NativeSeries } from './chart-model.js';
import { solidFill } from './chart-series.js';
import { xmlEscape } from './ooxml.js';

/** Axis ids: the primary pair, and the pair of the second value axis. */
export const AX = { cat: 1001, val: 1002, cat2: 1003, val2: 1004 };

/** A category axis at `pos`, crossing axis `cross`: reversed (top to bottom) or hidden when asked. */
export function catAx(
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

/** A value axis at `pos` in `formatCode`, crossing axis `cross`: at its maximum, without gridlines when asked. */
export function valAx(
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

/**
 * The value axis's number format for values formatted `formatCode`: dollar amounts read as
 * $16.0B, $500M, $20,000 on the axis (a cell's "$16,000.0M" is too long for a tick label).
 */
export function axisFormat(formatCode: string): string {
  if (/^\$#,##0(\.0+)?(,*)("[MKB]")?$/.test(formatCode))
    return '[>=1000000000]$#,##0.0,,,"B";[>=1000000]$#,##0,,"M";$#,##0';
  return formatCode;
}

/** The value axis's number format for a series (the first of the axis): see `axisFormat`. */
export function seriesAxisFormat(s: NativeSeries | undefined): string {
  return axisFormat(s?.formatCode ?? 'General');
}
