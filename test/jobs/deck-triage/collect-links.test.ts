/**
 * The pure parts of the deck collection: the links refused before a run (each family with its
 * reason, and links that are fine), what the first bytes say a file is, the startup's name from
 * a file name, and the `decks.yaml` sidecar (a malformed one names the file and the line).
 */
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import {
  DeckSidecarError,
  parseDeckSidecar,
  sha256Hex,
  sniffDeck,
  startupNameFromFile,
} from '../../../jobs/deck-triage/deck-files.js';
import { checkDeckLink, deckLinkLabel } from '../../../jobs/deck-triage/deck-links.js';
import { buildDeckPdf, buildDeckPptx, EXAMPLE_DECKS } from '../../../jobs/deck-triage/examples/decks.js';

describe('checkDeckLink', () => {
  it.each([
    'https://files.example.com/decks/ledgerly-seed.pdf',
    'https://files.example.com/decks/Ledgerly%20Seed.PPTX',
    'https://cdn.example.com/download?id=42', // no extension: the bytes are checked when fetched
    'https://www.dropbox.com/s/abc123/deck.pdf?dl=1',
    'https://www.dropbox.com/scl/fi/abc/deck.pdf?rlkey=x&raw=1',
    'https://dl.dropboxusercontent.com/s/abc123/deck.pdf',
    'https://drive.google.com/uc?export=download&id=abc',
    'https://bucket.s3.eu-central-1.amazonaws.com/in/deck.pdf?X-Amz-Signature=abc',
    '  https://files.example.com/deck.pdf  ',
  ])('allows %s', (url) => {
    expect(checkDeckLink(url)).toBeNull();
  });

  it.each([
    ['not a url', /^the link is not a URL: give a direct https link/],
    [
      'http://files.example.com/deck.pdf',
      /^the link is http, not https: the service fetches decks over https only/,
    ],
    ['ftp://files.example.com/deck.pdf', /^the link is a ftp: link, not a web address/],
    ['https://ann:secret@files.example.com/deck.pdf', /holds a user name or password/],
    [
      'https://docs.google.com/presentation/d/1AbC/edit#slide=id.p',
      /^the link opens a Google Slides page, a viewer, not the file: in Slides, File > Download > PDF/,
    ],
    ['https://docs.google.com/presentation/d/1AbC/export/pdf', /opens a Google Slides page/],
    ['https://docs.google.com/document/d/1AbC/edit', /opens a Google Docs page, a viewer, not the file/],
    ['https://drive.google.com/file/d/1AbC/view?usp=sharing', /opens a Google Drive page, a viewer/],
    ['https://drive.google.com/open?id=1AbC', /opens a Google Drive page/],
    ['https://docsend.com/view/abc123', /opens a DocSend page, a viewer, not the file: DocSend shows decks/],
    ['https://acme.docsend.com/view/abc123', /opens a DocSend page/],
    ['https://docsend.dropbox.com/view/abc123', /opens a DocSend page/],
    [
      'https://www.dropbox.com/s/abc123/deck.pdf?dl=0',
      /^the link opens a Dropbox page \(dl=0 opens the preview\), a viewer, not the file: .*end it with dl=1/,
    ],
    ['https://www.dropbox.com/s/abc123/deck.pdf', /opens a Dropbox page, a viewer.*dl=1/],
    ['https://www.dropbox.com/scl/fi/abc/deck.pdf?rlkey=x&dl=0', /opens a Dropbox page \(dl=0/],
    ['https://www.slideshare.net/acme/seed-deck', /opens a SlideShare page/],
    ['https://pitch.com/v/acme-seed-abc', /opens a Pitch presentation page/],
    ['https://www.canva.com/design/abc/view', /opens a Canva page/],
    ['https://acme.notion.site/Deck-abc', /opens a Notion page/],
    ['https://onedrive.live.com/view.aspx?resid=abc', /opens a OneDrive viewer page/],
    ['https://1drv.ms/p/s!abc', /opens a OneDrive share page/],
    ['https://acme.sharepoint.com/:p:/g/abc', /opens a SharePoint share page.*download=1/],
    ['https://files.example.com/deck.html', /^the link points to a web page \(\.html\), not the file/],
    ['https://files.example.com/deck.key', /a Keynote file \(\.key\): export it as PDF or PPTX/],
    ['https://files.example.com/deck.ppt', /an old PowerPoint file \(\.ppt\)/],
    ['https://files.example.com/deck.docx', /a Word document \(\.docx\), not a deck/],
    [
      'https://files.example.com/deck.mp4',
      /^the link points to a \.mp4 file: the service reads PDF and PPTX decks only/,
    ],
    ['https://files.example.com/deck%E0%A4%A.pdf', /broken percent-escape/],
  ])('refuses %s', (url, reason) => {
    expect(checkDeckLink(url)).toMatch(reason);
  });

  it('labels a link without its query or fragment (a token never enters a report)', () => {
    expect(deckLinkLabel('https://files.example.com/a/deck.pdf?token=secret#p2')).toBe(
      'https://files.example.com/a/deck.pdf',
    );
  });
});

describe('sniffDeck', () => {
  it('tells a PDF and a PPTX from their bytes, and says what other files are', async () => {
    expect(await sniffDeck(await buildDeckPdf([['Acme']]))).toEqual({ kind: 'pdf' });
    expect(await sniffDeck(await buildDeckPptx([['Acme']]))).toEqual({ kind: 'pptx' });
    const docx = new JSZip();
    docx.file('word/document.xml', '<w:document/>');
    expect(await sniffDeck(await docx.generateAsync({ type: 'nodebuffer' }))).toEqual({
      kind: null,
      is: 'a Word document (DOCX)',
    });
    const zip = new JSZip();
    zip.file('readme.txt', 'hello');
    expect(await sniffDeck(await zip.generateAsync({ type: 'nodebuffer' }))).toMatchObject({
      is: 'a ZIP archive without PowerPoint slides',
    });
    expect(await sniffDeck(Buffer.from('PK\u0003\u0004 broken'))).toMatchObject({
      is: 'a damaged ZIP archive',
    });
    expect(await sniffDeck(Buffer.from('  <!DOCTYPE html><html><body>Deck</body></html>'))).toMatchObject({
      is: 'a web page (HTML)',
    });
    expect(await sniffDeck(Buffer.alloc(0))).toMatchObject({ is: 'an empty file' });
    expect(await sniffDeck(Buffer.from('just text'))).toMatchObject({ is: 'neither a PDF nor a PPTX file' });
  });

  it('the example decks are the same bytes every time they are built (the same SHA-256)', async () => {
    const { buildExampleDeck } = await import('../../../jobs/deck-triage/examples/decks.js');
    expect(EXAMPLE_DECKS.length).toBeGreaterThanOrEqual(6);
    for (const deck of EXAMPLE_DECKS.slice(0, 2)) {
      const [a, b] = await Promise.all([buildExampleDeck(deck), buildExampleDeck(deck)]);
      expect(sha256Hex(a)).toBe(sha256Hex(b));
      expect((await sniffDeck(a)).kind).toBe(deck.kind);
    }
  });
});

describe('startupNameFromFile', () => {
  it.each([
    ['ledgerly-seed-deck.pdf', 'Ledgerly'],
    ['Shiftnook Series A Deck.pdf', 'Shiftnook'],
    ['kelvinforge_investor_presentation.pptx', 'Kelvinforge'],
    ['auscura-health-seed.pdf', 'Auscura Health'],
    ['Open_Ledger Pitch Deck v3 (2026).pptx', 'Open Ledger'],
    ['DeepSeaAI-final-v2.PDF', 'DeepSeaAI'],
    ['pitch-deck-final.pdf', null],
    ['2026-03-01.pdf', null],
  ])('%s → %s', (file, name) => {
    expect(startupNameFromFile(file)).toBe(name);
  });
});

describe('parseDeckSidecar', () => {
  it('maps file names to startup names', () => {
    const text = '# names\nledgerly-seed-deck.pdf: Ledgerly\n"snackr pitch.pptx": Snackr Inc.\n';
    expect(parseDeckSidecar(text, 'inbox/decks.yaml')).toEqual({
      'ledgerly-seed-deck.pdf': 'Ledgerly',
      'snackr pitch.pptx': 'Snackr Inc.',
    });
    expect(parseDeckSidecar('', 'inbox/decks.yaml')).toEqual({});
    expect(parseDeckSidecar('# nothing yet\n', 'inbox/decks.yaml')).toEqual({});
  });

  it.each([
    ['a.pdf: Acme\nb.pdf: [Beta\n', 2, /not valid YAML/],
    ['a.pdf: Acme\nb.pdf:\n  - Beta\n', 2, /the startup name of "b.pdf" is not a name/],
    ['a.pdf: Acme\na.pdf: Again\n', 2, /not valid YAML: Map keys must be unique/],
    ['- a.pdf\n- b.pdf\n', 1, /not a mapping/],
    ['a.pdf: Acme\nb.pdf: ""\n', 2, /must be 1 to 200 characters/],
  ])('refuses %j at line %i', (text, line, detail) => {
    let err: unknown;
    try {
      parseDeckSidecar(text, '/srv/inbox/decks.yaml');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DeckSidecarError);
    const e = err as DeckSidecarError;
    expect(e.line).toBe(line);
    expect(e.detail).toMatch(detail);
    expect(e.message).toMatch(new RegExp(`^/srv/inbox/decks\\.yaml, line ${line}: `));
    expect(e.nonRetryable).toBe(true);
  });
});
