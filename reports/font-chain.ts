/**
 * The font fallback chain: DejaVu Sans first (Latin, Greek, Cyrillic and most symbols), then the
 * Noto fonts of Debian's `fonts-noto-core` and `fonts-noto-cjk` packages for the scripts DejaVu
 * lacks or draws only plainly: Arabic, Hebrew, Devanagari, Thai, and Chinese, Japanese and Korean
 * (one OpenType collection, a face per language). Text is split into runs, each drawn and
 * measured with one font; the PDF, the chart SVG and the PNG all use these runs.
 *
 * A Noto font that is not installed is left out of the chain: its script then prints as before
 * (names as their stand-ins, other text as `[…]`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as fontkit from 'fontkit';

/** The family name used in chart specs, SVG and the PDF. */
export const FONT_FAMILY = 'DejaVu Sans';
/** The pdfkit name of the bold face; svg-to-pdfkit looks bold text up as `<family>-Bold`. */
export const FONT_FAMILY_BOLD = 'DejaVu Sans-Bold';

const require = createRequire(import.meta.url);
const ttfDir = join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');

/** Absolute paths of the two TTF files. */
export const FONT_FILES = {
  regular: join(ttfDir, 'DejaVuSans.ttf'),
  bold: join(ttfDir, 'DejaVuSans-Bold.ttf'),
} as const;

/** Scripts a fallback font is made for; `cjk` covers Han, kana and Hangul. */
export type FallbackScript = 'arabic' | 'hebrew' | 'devanagari' | 'thai' | 'cjk';

/** Where Debian's packages put the Noto fonts; `VIR_FONT_DIRS` (colon-separated) adds folders searched first. */
function fontDirs(): string[] {
  const extra = (process.env.VIR_FONT_DIRS ?? '').split(':').filter(Boolean);
  return [...extra, '/usr/share/fonts/truetype/noto', '/usr/share/fonts/opentype/noto'];
}

interface FallbackSpec {
  family: string;
  script: FallbackScript;
  files: { regular: string; bold: string };
  /** The face to pick in a collection (.ttc), by PostScript name. */
  postscript?: { regular: string; bold: string };
}

/** The chain after DejaVu Sans, in order. The CJK faces share one collection file. */
const FALLBACKS: readonly FallbackSpec[] = [
  {
    family: 'Noto Sans Arabic',
    script: 'arabic',
    files: { regular: 'NotoSansArabic-Regular.ttf', bold: 'NotoSansArabic-Bold.ttf' },
  },
  {
    family: 'Noto Sans Hebrew',
    script: 'hebrew',
    files: { regular: 'NotoSansHebrew-Regular.ttf', bold: 'NotoSansHebrew-Bold.ttf' },
  },
  {
    family: 'Noto Sans Devanagari',
    script: 'devanagari',
    files: { regular: 'NotoSansDevanagari-Regular.ttf', bold: 'NotoSansDevanagari-Bold.ttf' },
  },
  {
    family: 'Noto Sans Thai',
    script: 'thai',
    files: { regular: 'NotoSansThai-Regular.ttf', bold: 'NotoSansThai-Bold.ttf' },
  },
  ...(['SC', 'JP', 'KR'] as const).map((lang): FallbackSpec => ({
    family: `Noto Sans CJK ${lang}`,
    script: 'cjk',
    files: { regular: 'NotoSansCJK-Regular.ttc', bold: 'NotoSansCJK-Bold.ttc' },
    postscript: {
      regular: `NotoSansCJK${lang.toLowerCase()}-Regular`,
      bold: `NotoSansCJK${lang.toLowerCase()}-Bold`,
    },
  })),
];

/** One face of the chain, loaded. */
export interface ChainFont {
  /** The name the face is registered under in pdfkit: the family, `-Bold` added for bold. */
  name: string;
  /** The family (SVG `font-family`, resvg; the weight is the element's `font-weight`). */
  family: string;
  bold: boolean;
  /** The file (a .ttc holds several faces). */
  file: string;
  /** The face in a collection, by PostScript name. */
  postscriptName?: string;
  /** null for DejaVu Sans, which is not a fallback. */
  script: FallbackScript | null;
  face: fontkit.Font;
  /** pdfkit's top-of-text offset for this face: ascent in em. */
  ascent: number;
}

const fileBytes = new Map<string, Buffer>();

/** A font file's bytes, read once. */
export function fontFileBytes(file: string): Buffer {
  let b = fileBytes.get(file);
  if (!b) {
    b = readFileSync(file);
    fileBytes.set(file, b);
  }
  return b;
}

function findFile(name: string): string | null {
  for (const dir of fontDirs()) {
    const p = join(dir, name);
    if (existsSync(p)) return p;
  }
  return null;
}

function load(
  name: string,
  family: string,
  file: string,
  bold: boolean,
  script: FallbackScript | null,
  postscriptName?: string,
): ChainFont {
  const face = fontkit.create(fontFileBytes(file), postscriptName);
  return {
    name,
    family,
    bold,
    file,
    ...(postscriptName ? { postscriptName } : {}),
    script,
    face,
    ascent: face.ascent / face.unitsPerEm,
  };
}

let chains: { regular: ChainFont[]; bold: ChainFont[] } | undefined;

/**
 * The chain of one weight: DejaVu Sans, then each installed Noto fallback. Loaded once.
 *
 * @example fontChain().map((f) => f.family) // ['DejaVu Sans', 'Noto Sans Arabic', …, 'Noto Sans CJK KR']
 */
export function fontChain(bold = false): readonly ChainFont[] {
  if (!chains) {
    const regular = [load(FONT_FAMILY, FONT_FAMILY, FONT_FILES.regular, false, null)];
    const boldChain = [load(FONT_FAMILY_BOLD, FONT_FAMILY, FONT_FILES.bold, true, null)];
    for (const spec of FALLBACKS) {
      const r = findFile(spec.files.regular);
      if (!r) continue;
      const b = findFile(spec.files.bold) ?? r;
      regular.push(load(spec.family, spec.family, r, false, spec.script, spec.postscript?.regular));
      boldChain.push(
        load(
          `${spec.family}-Bold`,
          spec.family,
          b,
          b !== r,
          spec.script,
          b !== r ? spec.postscript?.bold : spec.postscript?.regular,
        ),
      );
    }
    chains = { regular, bold: boldChain };
  }
  return bold ? chains.bold : chains.regular;
}

/** The primary face (DejaVu Sans) of a weight. */
export function primaryFont(bold = false): ChainFont {
  return fontChain(bold)[0] as ChainFont;
}

const SCRIPT_TESTS: readonly [FallbackScript, RegExp][] = [
  ['arabic', /\p{Script=Arabic}/u],
  ['hebrew', /\p{Script=Hebrew}/u],
  ['devanagari', /\p{Script=Devanagari}/u],
  ['thai', /\p{Script=Thai}/u],
  ['cjk', /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Bopomofo}]/u],
];
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
const HANGUL = /\p{Script=Hangul}/u;
const NEUTRAL = /[\p{Script=Common}\p{Script=Inherited}]/u;
const MARK = /\p{M}/u;
const RTL = /[\p{Script=Arabic}\p{Script=Hebrew}]/u;

function scriptOf(ch: string): FallbackScript | null {
  for (const [s, re] of SCRIPT_TESTS) if (re.test(ch)) return s;
  return null;
}

/** A stretch of text drawn with one font. */
export interface TextRun {
  text: string;
  font: ChainFont;
  /** Right-to-left (Arabic, Hebrew): fontkit lays the run out in visual order. */
  rtl: boolean;
}

const runCache = new Map<string, TextRun[]>();

function covers(font: ChainFont, ch: string): boolean {
  const cp = ch.codePointAt(0) ?? 0;
  return cp <= 0x1f || font.face.hasGlyphForCodePoint(cp);
}

/** The font of a character that belongs to a script (a strong character), or null for a neutral one. */
function strongFont(chain: readonly ChainFont[], ch: string): ChainFont | null {
  const script = scriptOf(ch);
  if (script) {
    // The font made for the script first (DejaVu has Arabic and Hebrew, but plainly drawn).
    const made = chain.find((f) => f.script === script && covers(f, ch));
    if (made) return made;
  }
  if (!script && NEUTRAL.test(ch)) return null;
  return chain.find((f) => covers(f, ch)) ?? (chain[0] as ChainFont);
}

/**
 * Splits `text` into runs of one font each: characters of a script DejaVu Sans lacks (or of
 * Arabic and Hebrew) go to the chain's font for the script; spaces, digits and punctuation
 * between two characters of one run stay in it; combining marks stay with their letter. A CJK
 * run uses the Japanese face when it holds kana, the Korean one with Hangul, else the Chinese.
 *
 * @example textRuns('Invests in 北京资本').map((r) => r.font.family) // ['DejaVu Sans', 'Noto Sans CJK SC']
 */
export function textRuns(text: string, bold = false): TextRun[] {
  const key = `${bold ? 'b' : 'r'}\u0000${text}`;
  const cached = runCache.get(key);
  if (cached) return cached;
  const chain = fontChain(bold);
  const primary = chain[0] as ChainFont;
  const chars = Array.from(text);
  const fonts: (ChainFont | null)[] = chars.map((ch) => strongFont(chain, ch));
  // Marks take their letter's font; other neutrals the font around them, else the first that has them.
  for (let i = 0; i < chars.length; i++) {
    if (fonts[i] !== null) continue;
    const ch = chars[i] as string;
    const prev = i > 0 ? fonts[i - 1] : null;
    if (MARK.test(ch) && prev && covers(prev, ch)) {
      fonts[i] = prev;
      continue;
    }
    let j = i + 1;
    while (j < chars.length && fonts[j] === null) j++;
    const next = j < chars.length ? fonts[j] : null;
    if (prev && prev === next && covers(prev, ch)) fonts[i] = prev;
    else if (covers(primary, ch)) fonts[i] = primary;
    else fonts[i] = chain.find((f) => covers(f, ch)) ?? primary;
  }
  const runs: TextRun[] = [];
  chars.forEach((ch, i) => {
    const font = fonts[i] ?? primary;
    const last = runs[runs.length - 1];
    const sameCjk = last && last.font.script === 'cjk' && font.script === 'cjk';
    if (last && (last.font === font || sameCjk)) last.text += ch;
    else runs.push({ text: ch, font, rtl: false });
  });
  for (const run of runs) {
    run.rtl = RTL.test(run.text);
    if (run.font.script === 'cjk') {
      const lang = KANA.test(run.text) ? 'JP' : HANGUL.test(run.text) ? 'KR' : 'SC';
      run.font =
        chain.find((f) => f.script === 'cjk' && f.name.startsWith(`Noto Sans CJK ${lang}`)) ?? run.font;
    }
  }
  if (runCache.size > 20_000) runCache.clear();
  runCache.set(key, runs);
  return runs;
}

/** True when `text` needs no font but DejaVu Sans (the common case: one run, drawn as before). */
export function primaryOnly(text: string, bold = false): boolean {
  // Printable ASCII, the common case, is all DejaVu Sans.
  if (/^[\x20-\x7e]*$/.test(text)) return true;
  const runs = textRuns(text, bold);
  return runs.length === 0 || (runs.length === 1 && runs[0]?.font.script === null);
}

/** True when some font of the chain has a glyph for every character of `text`. */
export function chainCovers(text: string): boolean {
  const chain = fontChain(false);
  for (const ch of text) if (!chain.some((f) => covers(f, ch))) return false;
  return true;
}

/** Width of a run in em (from fontkit's layout: kerning, shaping and all). */
export function runWidth(run: TextRun): number {
  return run.font.face.layout(run.text).advanceWidth / run.font.face.unitsPerEm;
}
