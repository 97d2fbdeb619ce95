/** What the OOXML part writers share: namespaces, relationship and content types, XML text escaping. */

/** XML namespaces: chart, DrawingML, relationships, spreadsheet drawing, package relationships. */
export const NS = {
  c: 'http://schemas.openxmlformats.org/drawingml/2006/chart',
  a: 'http://schemas.openxmlformats.org/drawingml/2006/main',
  r: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships',
  xdr: 'http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing',
  rels: 'http://schemas.openxmlformats.org/package/2006/relationships',
};
/** Relationship types. */
export const REL = {
  drawing: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/drawing',
  chart: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/chart',
};
/** Content types of the parts added. */
export const CT = {
  drawing: 'application/vnd.openxmlformats-officedocument.drawing+xml',
  chart: 'application/vnd.openxmlformats-officedocument.drawingml.chart+xml',
};

/** Text for XML element content. */
export function xmlText(text: string): string {
  return text.replace(/[<>&]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;' })[c] ?? c);
}

/** Text for XML content and double-quoted attribute values. */
export function xmlEscape(text: string): string {
  return text.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c] ?? c);
}

/** XML text with its entities and character references replaced by the characters. */
export function xmlUnescape(text: string): string {
  return text.replace(
    /&(lt|gt|amp|quot|apos|#(\d+)|#x([0-9a-f]+));/gi,
    (m, name: string, dec?: string, hex?: string) => {
      if (dec) return String.fromCodePoint(Number(dec));
      if (hex) return String.fromCodePoint(parseInt(hex, 16));
      return { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }[name.toLowerCase()] ?? m;
    },
  );
}
