/**
 * Native charts in a sheet's drawing part: the chart frame anchored between two cells, the
 * drawing's root with the namespaces the frames use, and one-cell anchors fixed for openpyxl.
 */
import type { AnchorCell, NativeChart } from './chart-model.js';
import { NS, xmlEscape } from './ooxml.js';

/** One corner of an anchor, `from` or `to`: column, row and their offsets in EMU. */
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

/** A drawing part with no anchors, for a sheet that has none. */
export const EMPTY_DRAWING =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
  `<xdr:wsDr xmlns:xdr="${NS.xdr}" xmlns:a="${NS.a}" xmlns:r="${NS.r}" xmlns:c="${NS.c}"></xdr:wsDr>`;

/** Removes `editAs` from one-cell anchors (the schema gives it to two-cell anchors only). */
export function fixOneCellAnchors(drawingXml: string): string {
  return drawingXml.replace(/<((?:\w+:)?oneCellAnchor)\b([^>]*)>/g, (_m, tag: string, attrs: string) => {
    const rest = attrs.replace(/\s+editAs\s*=\s*("[^"]*"|'[^']*')/g, '');
    return `<${tag}${rest}>`;
  });
}

/** The root start tag of a drawing with the chart and relationship namespaces declared. */
export function withNamespaces(drawingXml: string): string {
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
