/**
 * Pitch decks built at run time for the demo and the tests (no binary fixtures): a PDF with
 * pdfkit (one page per slide, one line of text a line of the slide) and a PPTX with jszip (the
 * OOXML parts PowerPoint opens: a slide master, a layout and a theme, and each slide's lines as
 * paragraphs of one text box, the `a:t` runs the service's reader takes), plus the slides of
 * invented companies (none is a real company) with the numbers a deck analysis reads: ARR,
 * growth, customers, the raise, the market size, margins, churn and the team.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import JSZip from 'jszip';
import PDFDocument from 'pdfkit';
import { EXAMPLE_DECKS, type ExampleDeck } from './deck-slides.js';

export {
  AUSCURA_SLIDES,
  EXAMPLE_DECKS,
  KELVINFORGE_SLIDES,
  LEDGERLY_SLIDES,
  PARTSBARN_SLIDES,
  SHIFTNOOK_SLIDES,
  SNACKR_SLIDES,
  type ExampleDeck,
} from './deck-slides.js';

/** The date every example file carries: the same slides make the same bytes (the same SHA-256). */
const FIXED_DATE = new Date('2026-01-01T00:00:00Z');

/** A PDF deck: one landscape page (16:9) per slide, the first line of each as its title. */
export async function buildDeckPdf(slides: string[][]): Promise<Buffer> {
  const doc = new PDFDocument({
    size: [960, 540],
    margin: 40,
    info: { Title: slides[0]?.[0] ?? 'Deck', CreationDate: FIXED_DATE },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  slides.forEach((lines, i) => {
    if (i > 0) doc.addPage();
    lines.forEach((line, j) =>
      doc
        .fontSize(j === 0 ? 28 : 16)
        .text(line)
        .moveDown(0.5),
    );
  });
  doc.end();
  return done;
}

const esc = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const NS = {
  p: 'http://schemas.openxmlformats.org/presentationml/2006/main',
  a: 'http://schemas.openxmlformats.org/drawingml/2006/main',
  r: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships',
  rel: 'http://schemas.openxmlformats.org/package/2006/relationships',
  ct: 'http://schemas.openxmlformats.org/package/2006/content-types',
};
const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
const ROOT_NS = `xmlns:a="${NS.a}" xmlns:r="${NS.r}" xmlns:p="${NS.p}"`;
const REL = (type: string) => `${NS.r}/${type}`;
const CT = 'application/vnd.openxmlformats-officedocument';

/** Relationships part: [id, type, target]. */
const rels = (items: [string, string, string][]) =>
  `${XML}<Relationships xmlns="${NS.rel}">${items
    .map(([id, type, target]) => `<Relationship Id="${id}" Type="${REL(type)}" Target="${target}"/>`)
    .join('')}</Relationships>`;

/** The group shape properties every shape tree starts with. */
const TREE_START =
  '<p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr>' +
  '<p:grpSpPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/><a:chOff x="0" y="0"/><a:chExt cx="0" cy="0"/></a:xfrm></p:grpSpPr>';

const COLOR_MAP =
  'bg1="lt1" tx1="dk1" bg2="lt2" tx2="dk2" accent1="accent1" accent2="accent2" accent3="accent3" accent4="accent4" accent5="accent5" accent6="accent6" hlink="hlink" folHlink="folHlink"';

/** A minimal theme: colours, fonts and the three effect styles PowerPoint requires. */
function themeXml(): string {
  const colors = [
    ['dk1', '<a:sysClr val="windowText" lastClr="000000"/>'],
    ['lt1', '<a:sysClr val="window" lastClr="FFFFFF"/>'],
    ['dk2', '<a:srgbClr val="1F2937"/>'],
    ['lt2', '<a:srgbClr val="F3F4F6"/>'],
    ['accent1', '<a:srgbClr val="2563EB"/>'],
    ['accent2', '<a:srgbClr val="16A34A"/>'],
    ['accent3', '<a:srgbClr val="F59E0B"/>'],
    ['accent4', '<a:srgbClr val="DC2626"/>'],
    ['accent5', '<a:srgbClr val="7C3AED"/>'],
    ['accent6', '<a:srgbClr val="0891B2"/>'],
    ['hlink', '<a:srgbClr val="2563EB"/>'],
    ['folHlink', '<a:srgbClr val="7C3AED"/>'],
  ]
    .map(([name, value]) => `<a:${name}>${value}</a:${name}>`)
    .join('');
  const font = '<a:latin typeface="Calibri"/><a:ea typeface=""/><a:cs typeface=""/>';
  const solid = '<a:solidFill><a:schemeClr val="phClr"/></a:solidFill>';
  const line = `<a:ln w="9525">${solid}</a:ln>`;
  return (
    `${XML}<a:theme xmlns:a="${NS.a}" name="Deck"><a:themeElements>` +
    `<a:clrScheme name="Deck">${colors}</a:clrScheme>` +
    `<a:fontScheme name="Deck"><a:majorFont>${font}</a:majorFont><a:minorFont>${font}</a:minorFont></a:fontScheme>` +
    `<a:fmtScheme name="Deck"><a:fillStyleLst>${solid}${solid}${solid}</a:fillStyleLst>` +
    `<a:lnStyleLst>${line}${line}${line}</a:lnStyleLst>` +
    '<a:effectStyleLst><a:effectStyle><a:effectLst/></a:effectStyle><a:effectStyle><a:effectLst/></a:effectStyle><a:effectStyle><a:effectLst/></a:effectStyle></a:effectStyleLst>' +
    `<a:bgFillStyleLst>${solid}${solid}${solid}</a:bgFillStyleLst></a:fmtScheme>` +
    '</a:themeElements></a:theme>'
  );
}

/** One text box holding a slide's lines, the first as a 32-point title. */
function slideXml(lines: string[]): string {
  const paras = lines
    .map(
      (l, i) =>
        `<a:p><a:r><a:rPr lang="en-US" sz="${i === 0 ? 3200 : 2000}"${i === 0 ? ' b="1"' : ''}/><a:t>${esc(l)}</a:t></a:r></a:p>`,
    )
    .join('');
  const box =
    '<p:sp><p:nvSpPr><p:cNvPr id="2" name="Text"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr>' +
    '<p:spPr><a:xfrm><a:off x="609600" y="457200"/><a:ext cx="10972800" cy="5943600"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr>' +
    `<p:txBody><a:bodyPr wrap="square"><a:normAutofit/></a:bodyPr><a:lstStyle/>${paras || '<a:p><a:endParaRPr lang="en-US"/></a:p>'}</p:txBody></p:sp>`;
  return `${XML}<p:sld ${ROOT_NS}><p:cSld><p:spTree>${TREE_START}${box}</p:spTree></p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sld>`;
}

/**
 * A PPTX deck: one slide per entry, each line a paragraph, with the parts PowerPoint needs to
 * open it (presentation, slide master, slide layout, theme, document properties).
 */
export async function buildDeckPptx(slides: string[][]): Promise<Buffer> {
  const zip = new JSZip();
  const n = slides.length;
  const slideIds = slides.map((_, i) => i + 1);
  zip.file(
    '[Content_Types].xml',
    `${XML}<Types xmlns="${NS.ct}"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>` +
      `<Override PartName="/ppt/presentation.xml" ContentType="${CT}.presentationml.presentation.main+xml"/>` +
      `<Override PartName="/ppt/slideMasters/slideMaster1.xml" ContentType="${CT}.presentationml.slideMaster+xml"/>` +
      `<Override PartName="/ppt/slideLayouts/slideLayout1.xml" ContentType="${CT}.presentationml.slideLayout+xml"/>` +
      `<Override PartName="/ppt/theme/theme1.xml" ContentType="${CT}.theme+xml"/>` +
      `<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>` +
      `<Override PartName="/docProps/app.xml" ContentType="${CT}.extended-properties+xml"/>` +
      slideIds
        .map(
          (i) =>
            `<Override PartName="/ppt/slides/slide${i}.xml" ContentType="${CT}.presentationml.slide+xml"/>`,
        )
        .join('') +
      '</Types>',
  );
  zip.file(
    '_rels/.rels',
    rels([
      ['rId1', 'officeDocument', 'ppt/presentation.xml'],
      ['rId2', 'extended-properties', 'docProps/app.xml'],
    ]).replace(
      '</Relationships>',
      '<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/></Relationships>',
    ),
  );
  const title = esc(slides[0]?.[0] ?? 'Deck');
  zip.file(
    'docProps/core.xml',
    `${XML}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>${title}</dc:title></cp:coreProperties>`,
  );
  zip.file(
    'docProps/app.xml',
    `${XML}<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"><Application>vir deck-triage examples</Application><Slides>${n}</Slides></Properties>`,
  );
  zip.file(
    'ppt/presentation.xml',
    `${XML}<p:presentation ${ROOT_NS}><p:sldMasterIdLst><p:sldMasterId id="2147483648" r:id="rId1"/></p:sldMasterIdLst>` +
      `<p:sldIdLst>${slideIds.map((i) => `<p:sldId id="${255 + i}" r:id="rId${i + 2}"/>`).join('')}</p:sldIdLst>` +
      '<p:sldSz cx="12192000" cy="6858000"/><p:notesSz cx="6858000" cy="9144000"/></p:presentation>',
  );
  zip.file(
    'ppt/_rels/presentation.xml.rels',
    rels([
      ['rId1', 'slideMaster', 'slideMasters/slideMaster1.xml'],
      ['rId2', 'theme', 'theme/theme1.xml'],
      ...slideIds.map((i): [string, string, string] => [`rId${i + 2}`, 'slide', `slides/slide${i}.xml`]),
    ]),
  );
  zip.file(
    'ppt/slideMasters/slideMaster1.xml',
    `${XML}<p:sldMaster ${ROOT_NS}><p:cSld><p:spTree>${TREE_START}</p:spTree></p:cSld><p:clrMap ${COLOR_MAP}/>` +
      '<p:sldLayoutIdLst><p:sldLayoutId id="2147483649" r:id="rId1"/></p:sldLayoutIdLst></p:sldMaster>',
  );
  zip.file(
    'ppt/slideMasters/_rels/slideMaster1.xml.rels',
    rels([
      ['rId1', 'slideLayout', '../slideLayouts/slideLayout1.xml'],
      ['rId2', 'theme', '../theme/theme1.xml'],
    ]),
  );
  zip.file(
    'ppt/slideLayouts/slideLayout1.xml',
    `${XML}<p:sldLayout ${ROOT_NS} type="blank" preserve="1"><p:cSld name="Blank"><p:spTree>${TREE_START}</p:spTree></p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sldLayout>`,
  );
  zip.file(
    'ppt/slideLayouts/_rels/slideLayout1.xml.rels',
    rels([['rId1', 'slideMaster', '../slideMasters/slideMaster1.xml']]),
  );
  zip.file('ppt/theme/theme1.xml', themeXml());
  slides.forEach((lines, i) => {
    zip.file(`ppt/slides/slide${i + 1}.xml`, slideXml(lines));
    zip.file(
      `ppt/slides/_rels/slide${i + 1}.xml.rels`,
      rels([['rId1', 'slideLayout', '../slideLayouts/slideLayout1.xml']]),
    );
  });
  for (const file of Object.values(zip.files)) file.date = FIXED_DATE;
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

/** An example deck's file, as its kind says (PDF or PPTX). */
export function buildExampleDeck(deck: ExampleDeck): Promise<Buffer> {
  return deck.kind === 'pdf' ? buildDeckPdf(deck.slides) : buildDeckPptx(deck.slides);
}

/**
 * Writes the example decks into `folder` (created if missing) under their file names, with a
 * `decks.yaml` sidecar naming each startup when `sidecar` is set; returns the files' paths.
 */
export async function writeExampleDecks(
  folder: string,
  decks: readonly ExampleDeck[] = EXAMPLE_DECKS,
  sidecar = true,
): Promise<string[]> {
  await mkdir(folder, { recursive: true });
  const paths: string[] = [];
  for (const deck of decks) {
    const path = join(folder, deck.file);
    await writeFile(path, await buildExampleDeck(deck));
    paths.push(path);
  }
  if (sidecar) {
    const lines = decks.map((d) => `${d.file}: ${JSON.stringify(d.startupName)}`);
    await writeFile(join(folder, 'decks.yaml'), `# file name: startup name\n${lines.join('\n')}\n`);
  }
  return paths;
}
