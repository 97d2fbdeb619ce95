/**
 * Reads a tagged PDF's structure tree back without veraPDF: a small reader of the PDF objects
 * pdfkit writes (a classic xref table, dictionaries in plain text; only streams are compressed,
 * and no structure object is a stream). Gives the catalog's /Lang, the structure elements as a
 * tree (type, /Alt, attributes, marked-content count, page, children) and the link annotations
 * with their pages.
 */
import { readFileSync } from 'node:fs';

export class PdfName {
  constructor(readonly name: string) {}
}
export class PdfRef {
  constructor(readonly num: number) {}
}
export type PdfValue = number | boolean | null | string | PdfName | PdfRef | PdfValue[] | PdfDict;
export interface PdfDict {
  [key: string]: PdfValue;
}

const DELIMITERS = '()<>[]{}/% \t\r\n\f\0';

/** Decodes a PDF text string's bytes (latin1 characters): UTF-16BE with its BOM, else as is. */
function textString(bytes: string): string {
  if (bytes.startsWith('\xfe\xff')) {
    let out = '';
    for (let i = 2; i + 1 < bytes.length; i += 2)
      out += String.fromCharCode((bytes.charCodeAt(i) << 8) | bytes.charCodeAt(i + 1));
    return out;
  }
  return bytes;
}

/** A reader of PDF values from `src` (the file as latin1) at `pos`. */
class Lexer {
  constructor(
    private readonly src: string,
    public pos: number,
  ) {}

  private skip(): void {
    for (;;) {
      const c = this.src[this.pos];
      if (c === '%') while (this.pos < this.src.length && this.src[this.pos] !== '\n') this.pos++;
      else if (c !== undefined && ' \t\r\n\f\0'.includes(c)) this.pos++;
      else return;
    }
  }

  private word(): string {
    const start = this.pos;
    while (this.pos < this.src.length && !DELIMITERS.includes(this.src[this.pos] as string)) this.pos++;
    return this.src.slice(start, this.pos);
  }

  value(): PdfValue {
    this.skip();
    const s = this.src;
    if (s.startsWith('<<', this.pos)) {
      this.pos += 2;
      const dict: PdfDict = {};
      for (;;) {
        this.skip();
        if (s.startsWith('>>', this.pos)) {
          this.pos += 2;
          return dict;
        }
        const key = this.value();
        if (!(key instanceof PdfName)) throw new Error(`dictionary key expected at ${this.pos}`);
        dict[key.name] = this.value();
      }
    }
    const c = s[this.pos];
    if (c === '[') {
      this.pos++;
      const items: PdfValue[] = [];
      for (;;) {
        this.skip();
        if (s[this.pos] === ']') {
          this.pos++;
          return items;
        }
        items.push(this.value());
      }
    }
    if (c === '<') {
      const end = s.indexOf('>', this.pos);
      const hex = s.slice(this.pos + 1, end).replace(/\s+/g, '');
      this.pos = end + 1;
      let bytes = '';
      for (let i = 0; i < hex.length; i += 2)
        bytes += String.fromCharCode(parseInt(hex.slice(i, i + 2).padEnd(2, '0'), 16));
      return textString(bytes);
    }
    if (c === '(') return this.literal();
    if (c === '/') {
      this.pos++;
      return new PdfName(
        this.word().replace(/#([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
      );
    }
    const w = this.word();
    if (w === 'true' || w === 'false') return w === 'true';
    if (w === 'null') return null;
    const n = Number(w);
    if (w === '' || Number.isNaN(n)) throw new Error(`unexpected "${w || c}" at ${this.pos}`);
    // "12 0 R": a reference.
    const m = /^\s+(\d+)\s+R(?=[\s/<>[\]()]|$)/.exec(s.slice(this.pos, this.pos + 24));
    if (Number.isInteger(n) && m) {
      this.pos += m[0].length;
      return new PdfRef(n);
    }
    return n;
  }

  private literal(): string {
    const s = this.src;
    this.pos++;
    let depth = 1;
    let out = '';
    const escapes: Record<string, string> = {
      n: '\n',
      r: '\r',
      t: '\t',
      b: '\b',
      f: '\f',
      '(': '(',
      ')': ')',
      '\\': '\\',
    };
    while (this.pos < s.length) {
      const c = s[this.pos++] as string;
      if (c === '\\') {
        const e = s[this.pos++] as string;
        if (e in escapes) out += escapes[e];
        else if (/[0-7]/.test(e)) {
          let oct = e;
          while (oct.length < 3 && /[0-7]/.test(s[this.pos] ?? '')) oct += s[this.pos++];
          out += String.fromCharCode(parseInt(oct, 8) & 0xff);
        } else if (e === '\r') {
          if (s[this.pos] === '\n') this.pos++;
        } else if (e !== '\n') out += e;
      } else if (c === '(') {
        depth++;
        out += c;
      } else if (c === ')') {
        if (--depth === 0) break;
        out += c;
      } else out += c;
    }
    return textString(out);
  }
}

/** The objects of a PDF written with a classic xref table (as pdfkit writes them). */
export class PdfFile {
  private readonly src: string;
  private readonly offsets = new Map<number, number>();
  private readonly cache = new Map<number, PdfValue>();
  readonly trailer: PdfDict;

  constructor(path: string) {
    this.src = readFileSync(path).toString('latin1');
    const startxref = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(this.src)?.[1]);
    if (!Number.isInteger(startxref) || !this.src.startsWith('xref', startxref))
      throw new Error(`${path}: no classic xref table`);
    const lines = this.src.slice(startxref, this.src.indexOf('trailer', startxref)).split(/\r?\n/);
    let num = 0;
    for (const line of lines.slice(1)) {
      const sub = /^(\d+) (\d+)\s*$/.exec(line);
      if (sub) {
        num = Number(sub[1]);
        continue;
      }
      const entry = /^(\d{10}) (\d{5}) ([nf])/.exec(line);
      if (!entry) continue;
      if (entry[3] === 'n') this.offsets.set(num, Number(entry[1]));
      num++;
    }
    const t = new Lexer(this.src, this.src.indexOf('trailer', startxref) + 'trailer'.length).value();
    this.trailer = t as PdfDict;
  }

  /** Object `num`'s value (its dictionary; a stream's dictionary without the data). */
  object(num: number): PdfValue {
    if (this.cache.has(num)) return this.cache.get(num) as PdfValue;
    const at = this.offsets.get(num);
    if (at === undefined) throw new Error(`no object ${num}`);
    const head = /^\d+\s+\d+\s+obj/.exec(this.src.slice(at, at + 32));
    if (!head) throw new Error(`object ${num}: no "obj" at ${at}`);
    const v = new Lexer(this.src, at + head[0].length).value();
    this.cache.set(num, v);
    return v;
  }

  /** `v` with a reference followed. */
  resolve(v: PdfValue | undefined): PdfValue | undefined {
    return v instanceof PdfRef ? this.object(v.num) : v;
  }

  dict(v: PdfValue | undefined): PdfDict | undefined {
    const r = this.resolve(v);
    return r &&
      typeof r === 'object' &&
      !Array.isArray(r) &&
      !(r instanceof PdfName) &&
      !(r instanceof PdfRef)
      ? r
      : undefined;
  }

  get catalog(): PdfDict {
    const root = this.dict(this.trailer['Root']);
    if (!root) throw new Error('no catalog');
    return root;
  }
}

/** A structure element as read back. */
export interface StructNode {
  type: string;
  alt: string | null;
  /** The attribute dictionary (/A), names as strings. */
  attributes: Record<string, string | number>;
  /** Marked-content sequences (MCIDs and MCRs) it holds directly. */
  content: number;
  /** Annotations (OBJR) it holds directly. */
  annotations: PdfDict[];
  /** The page (1-based) its /Pg names, or null. */
  page: number | null;
  children: StructNode[];
}

/** What a reader finds in a tagged PDF: its language, its structure tree, its links. */
export interface PdfStructure {
  lang: string | null;
  marked: boolean;
  displayDocTitle: boolean;
  hasOutline: boolean;
  /** The structure tree's root elements (a Document). */
  roots: StructNode[];
  /** Every link annotation of every page. */
  links: PdfDict[];
  /** The same link annotations with the page (1-based) each is on and its /URI action's target. */
  pageLinks: { page: number; link: PdfDict; uri: string | null }[];
}

function plain(v: PdfValue | undefined): string | number {
  if (v instanceof PdfName) return v.name;
  if (typeof v === 'number' || typeof v === 'string') return v;
  return JSON.stringify(v) ?? 'undefined';
}

/** Reads the structure of the tagged PDF at `path`. */
export function readPdfStructure(path: string): PdfStructure {
  const pdf = new PdfFile(path);
  const cat = pdf.catalog;
  // The page tree first: a structure element's /Pg is a reference to one of its leaves.
  const pageOf = new Map<number, number>();
  const links: PdfDict[] = [];
  const pageLinks: { page: number; link: PdfDict; uri: string | null }[] = [];
  const pages = (ref: PdfValue | undefined): void => {
    const d = pdf.dict(ref);
    if (!d) return;
    const kids = pdf.resolve(d['Kids']);
    if (Array.isArray(kids)) {
      for (const kid of kids) pages(kid);
      return;
    }
    const page = pageOf.size + 1;
    if (ref instanceof PdfRef) pageOf.set(ref.num, page);
    const annots = pdf.resolve(d['Annots']);
    if (Array.isArray(annots))
      for (const a of annots) {
        const ad = pdf.dict(a);
        if (ad && ad['Subtype'] instanceof PdfName && ad['Subtype'].name === 'Link') {
          links.push(ad);
          const uri = pdf.dict(ad['A'])?.['URI'];
          pageLinks.push({ page, link: ad, uri: typeof uri === 'string' ? uri : null });
        }
      }
  };
  pages(cat['Pages']);
  const node = (d: PdfDict): StructNode => {
    const kids = pdf.resolve(d['K']);
    const list = Array.isArray(kids) ? kids : kids === undefined || kids === null ? [] : [kids];
    const pg = d['Pg'];
    const out: StructNode = {
      type: plain(d['S']) as string,
      alt: typeof d['Alt'] === 'string' ? d['Alt'] : null,
      attributes: {},
      content: 0,
      annotations: [],
      page: pg instanceof PdfRef ? (pageOf.get(pg.num) ?? null) : null,
      children: [],
    };
    const a = pdf.dict(d['A']);
    if (a) for (const [k, v] of Object.entries(a)) out.attributes[k] = plain(v);
    for (const k of list) {
      if (typeof k === 'number') out.content++;
      else {
        const kd = pdf.dict(k);
        if (!kd) continue;
        const type = kd['Type'] instanceof PdfName ? kd['Type'].name : null;
        if (type === 'MCR') out.content++;
        else if (type === 'OBJR') out.annotations.push(pdf.dict(kd['Obj']) ?? {});
        else out.children.push(node(kd));
      }
    }
    return out;
  };
  const root = pdf.dict(cat['StructTreeRoot']);
  const k = root ? pdf.resolve(root['K']) : undefined;
  const roots = (Array.isArray(k) ? k : k ? [k] : []).map((r) => node(pdf.dict(r) ?? {}));
  const mark = pdf.dict(cat['MarkInfo']);
  const prefs = pdf.dict(cat['ViewerPreferences']);
  return {
    lang: typeof cat['Lang'] === 'string' ? cat['Lang'] : null,
    marked: mark?.['Marked'] === true,
    displayDocTitle: prefs?.['DisplayDocTitle'] === true,
    hasOutline: pdf.dict(cat['Outlines']) !== undefined,
    roots,
    links,
    pageLinks,
  };
}

/** Every element of the tree, depth first in reading order. */
export function structNodes(roots: readonly StructNode[]): StructNode[] {
  return roots.flatMap((n) => [n, ...structNodes(n.children)]);
}
