/**
 * Names in every script a report must print, and checks of a PDF that holds them: the fallback
 * fonts embedded as subsets (pdffonts), the left-to-right names back from its text (pdftotext),
 * its pages as PNG (pdftoppm) to look at.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';

/** A startup and an investor name per script, and the font family the startup's name is drawn in. */
export const SCRIPT_NAMES = [
  { script: 'Chinese', startup: '北京智能科技', investor: '上海资本', font: 'Noto Sans CJK SC' },
  { script: 'Japanese', startup: '東京テクノロジー', investor: 'さくらキャピタル', font: 'Noto Sans CJK JP' },
  { script: 'Korean', startup: '서울벤처스', investor: '한빛 투자', font: 'Noto Sans CJK KR' },
  { script: 'Arabic', startup: 'شركة الأفق', investor: 'صندوق الخليج', font: 'Noto Sans Arabic' },
  { script: 'Hebrew', startup: 'אור טכנולוגיות', investor: 'קרן אלון', font: 'Noto Sans Hebrew' },
  { script: 'Hindi', startup: 'नवाचार टेक', investor: 'भारत वेंचर', font: 'Noto Sans Devanagari' },
  { script: 'Thai', startup: 'ไทยดิจิทัล', investor: 'กองทุนกรุงเทพ', font: 'Noto Sans Thai' },
  { script: 'Greek', startup: 'Αθηνά Τεχνολογίες', investor: 'Όλυμπος Κεφάλαια', font: 'DejaVu Sans' },
  { script: 'Cyrillic', startup: 'Северный Код', investor: 'Волга Венчурс', font: 'DejaVu Sans' },
] as const;

/** Hebrew and Arabic letters: drawn in visual order, so text extraction gives their words in reverse order. */
const RTL = /[\u0590-\u08ff]/;
const DEVANAGARI = /[\u0900-\u097f]/;

/** The fonts a report naming every script of SCRIPT_NAMES embeds (as subsets). */
export const EVERY_SCRIPT_FONTS = [
  'DejaVuSans',
  'NotoSansCJKsc-Regular',
  'NotoSansCJKjp-Regular',
  'NotoSansCJKkr-Regular',
  'NotoSansArabic-Regular',
  'NotoSansHebrew-Regular',
  'NotoSansDevanagari-Regular',
  'NotoSansThai-Regular',
];

/**
 * Checks a PDF that prints SCRIPT_NAMES: each face in `faces` embedded as a subset, every
 * left-to-right name in its text, the letters of the right-to-left ones. Renders its pages to
 * `<pngBase>-N.png` (and copies it to `<pngBase>.pdf`) when `pngBase` is given. Returns the text.
 */
export function checkScriptsPdf(
  path: string,
  faces: readonly string[],
  names: readonly string[],
  pngBase?: string,
): string {
  const fonts = execFileSync('pdffonts', [path], { encoding: 'utf8' });
  for (const face of faces)
    // Embedded ("emb" yes) and subset ("sub" yes), under a subset tag: ABCDEF+Name.
    expect(fonts, face).toMatch(new RegExp(`[A-Z]{6}\\+${face}\\s.*\\byes\\s+yes\\s`));
  const text = execFileSync('pdftotext', ['-raw', path, '-'], { encoding: 'utf8' }).normalize('NFC');
  // Devanagari's reph (र् over the next letter) and the i-sign (ि before its letter) are drawn
  // out of their letters' order, and pdftotext gives them in drawn order: such a word counts when
  // some word of the text has the same letters.
  const sorted = (w: string): string => [...w].sort().join('');
  const words = new Set(text.split(/\s+/).map(sorted));
  for (const name of names) {
    if (DEVANAGARI.test(name))
      for (const word of name.split(' ')) expect(words.has(sorted(word)), `${name}: ${word}`).toBe(true);
    else if (!RTL.test(name)) expect(text, name).toContain(name);
    // Right-to-left names are drawn in visual order: pdftotext gives each word back, the words of
    // a name in reverse order. A word with Arabic's lam-alef ligature comes back with the two
    // letters swapped (one glyph for both), so it is left out.
    else
      for (const word of name.split(' '))
        if (!/\u0644[\u0622\u0623\u0625\u0627]/.test(word)) expect(text, name).toContain(word);
  }
  if (pngBase) {
    copyFileSync(path, `${pngBase}.pdf`);
    execFileSync('pdftoppm', ['-png', '-r', '80', path, pngBase]);
  }
  return text;
}

/** Where a test keeps the pages it renders: VIR_SCRIPTS_OUT when set (to look at them), else `dir`. */
export function scriptsOut(dir: string, name: string): string {
  return join(process.env.VIR_SCRIPTS_OUT ?? dir, name);
}
