/**
 * The parts of a saved .xlsx package read and edited with jszip: relationships, content type
 * overrides, the sheets by name, and a sheet's `<drawing>` element where the schema puts it.
 */
import type JSZip from 'jszip';
import { NS, xmlEscape, xmlUnescape } from './ooxml.js';

/** A relationships part with no relationships. */
export const EMPTY_RELS =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
  `<Relationships xmlns="${NS.rels}"></Relationships>`;

/** One relationship of a .rels part. */
export interface Relationship {
  id: string;
  type: string;
  target: string;
}

/** The value of attribute `name` in a start tag, unescaped; undefined when it has none. */
function attr(tag: string, name: string): string | undefined {
  const m = new RegExp(`\\s${name.replace(':', '\\:')}\\s*=\\s*("([^"]*)"|'([^']*)')`).exec(tag);
  return m ? xmlUnescape(m[2] ?? m[3] ?? '') : undefined;
}

/** The relationships of a .rels part. */
export function readRels(xml: string): Relationship[] {
  return Array.from(xml.matchAll(/<Relationship\b[^>]*>/g), (m) => ({
    id: attr(m[0], 'Id') ?? '',
    type: attr(m[0], 'Type') ?? '',
    target: attr(m[0], 'Target') ?? '',
  }));
}

/** Adds a relationship to a .rels part and returns its new id. */
export function addRel(xml: string, type: string, target: string): { xml: string; id: string } {
  const used = new Set(readRels(xml).map((r) => r.id));
  let n = used.size + 1;
  while (used.has(`rId${n}`)) n++;
  const id = `rId${n}`;
  const rel = `<Relationship Id="${id}" Type="${type}" Target="${xmlEscape(target)}"/>`;
  return { xml: xml.replace(/<\/Relationships>\s*$/, `${rel}</Relationships>`), id };
}

/** The package path a relationship target of `source` points at. */
export function resolveTarget(source: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts = source.split('/').slice(0, -1);
  for (const p of target.split('/')) {
    if (p === '..') parts.pop();
    else if (p !== '.' && p !== '') parts.push(p);
  }
  return parts.join('/');
}

/** The .rels part of a part: `xl/worksheets/sheet1.xml` → `xl/worksheets/_rels/sheet1.xml.rels`. */
export function relsPath(part: string): string {
  const i = part.lastIndexOf('/');
  return `${part.slice(0, i)}/_rels/${part.slice(i + 1)}.rels`;
}

/** `target` relative to the folder of `source` (both package paths). */
export function relativeTarget(source: string, target: string): string {
  const from = source.split('/').slice(0, -1);
  const to = target.split('/');
  let k = 0;
  while (k < from.length && k < to.length - 1 && from[k] === to[k]) k++;
  return [...from.slice(k).map(() => '..'), ...to.slice(k)].join('/');
}

/** A part of the package as text; null when there is no such part. */
export async function text(zip: JSZip, path: string): Promise<string | null> {
  const f = zip.file(path);
  return f ? f.async('string') : null;
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
export function insertDrawingElement(sheetXml: string, rId: string): string {
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

/** The content types with an override for `part`, unless it has one. */
export function addOverride(types: string, part: string, contentType: string): string {
  if (types.includes(`PartName="/${part}"`)) return types;
  return types.replace(
    /<\/Types>\s*$/,
    `<Override PartName="/${xmlEscape(part)}" ContentType="${contentType}"/></Types>`,
  );
}

/** Package paths of the sheets by name, from the workbook part and its relationships. */
export async function sheetParts(zip: JSZip): Promise<Map<string, string>> {
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

/** The first n from 1 on for which there is no part `pattern(n)`. */
export function nextFree(zip: JSZip, pattern: (n: number) => string): number {
  let n = 1;
  while (zip.file(pattern(n))) n++;
  return n;
}
