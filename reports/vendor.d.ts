/**
 * Minimal type declarations for the two dependencies that ship none (fontkit, svg-to-pdfkit),
 * limited to what reports/ uses.
 */
declare module 'fontkit' {
  export interface Path {
    scale(scaleX: number, scaleY?: number): Path;
    translate(x: number, y: number): Path;
    toSVG(): string;
  }
  export interface Glyph {
    id: number;
    advanceWidth: number;
    codePoints: number[];
    path: Path;
  }
  export interface GlyphRun {
    glyphs: Glyph[];
    positions: { xAdvance: number; yAdvance: number; xOffset: number; yOffset: number }[];
    advanceWidth: number;
  }
  export interface Font {
    unitsPerEm: number;
    familyName: string;
    ascent: number;
    descent: number;
    hasGlyphForCodePoint(codePoint: number): boolean;
    glyphForCodePoint(codePoint: number): Glyph;
    layout(text: string, features?: string[] | Record<string, boolean>): GlyphRun;
  }
  export function create(buffer: Uint8Array, postscriptName?: string): Font;
}

declare module 'svg-to-pdfkit' {
  interface SvgToPdfOptions {
    width?: number;
    height?: number;
    preserveAspectRatio?: string;
    assumePt?: boolean;
    precision?: number;
    fontCallback?: (
      family: string,
      bold: boolean,
      italic: boolean,
      fontOptions: { fauxItalic: boolean; fauxBold: boolean },
    ) => string;
    warningCallback?: (message: string) => void;
  }
  function SVGtoPDF(
    doc: PDFKit.PDFDocument,
    svg: string,
    x: number,
    y: number,
    options?: SvgToPdfOptions,
  ): void;
  export default SVGtoPDF;
}
