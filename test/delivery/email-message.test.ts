/**
 * The run's email against a real SMTP server (smtp-server on port 0, with AUTH): what arrives is
 * read back with mailparser and compared with the files on disk, byte for byte; the Message-ID,
 * the escaping, the size limit, the CSV zip.
 */
import { randomBytes } from 'node:crypto';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { base64Size, runMessageId } from '../../activities/delivery/index.js';
import { csvBytes, PDF, summary, useSmtpBed, USER, XLSX } from '../helpers/email-delivery.js';

const bed = useSmtpBed();

describe('email delivery over SMTP', () => {
  it('sends the PDF, workbook and CSV attached, byte for byte, with the subject, recipients, Message-ID and key figures', async () => {
    const pdf = bed.writeFile('weekly-dach-2026-11-23.pdf', randomBytes(48_000), PDF);
    const xlsx = bed.writeFile('weekly-dach-2026-11-23.xlsx', randomBytes(31_000), XLSX);
    const csv = bed.writeFile('weekly-dach-2026-11-23.csv', csvBytes(200), 'text/csv');
    const { email, outcome } = await bed.send(
      {
        to: ['ann@example.com', 'Bob@example.com'],
        cc: 'carol@example.net',
        subject: '[{job}] {title} - {date} ({status})',
      },
      [pdf, xlsx, csv],
    );

    expect(bed.smtp.messages).toHaveLength(1);
    const got = bed.smtp.messages[0]!;
    expect(got.user).toBe(USER);
    expect(got.parsed.subject).toBe('[weekly-dach] Weekly DACH market report - 2026-11-23 (complete)');
    const to = Array.isArray(got.parsed.to) ? got.parsed.to : [got.parsed.to];
    expect(to.flatMap((a) => a?.value.map((v) => v.address))).toEqual(['ann@example.com', 'Bob@example.com']);
    const cc = Array.isArray(got.parsed.cc) ? got.parsed.cc : [got.parsed.cc];
    expect(cc.flatMap((a) => a?.value.map((v) => v.address))).toEqual(['carol@example.net']);
    expect(got.envelope.to.sort()).toEqual(
      ['Bob@example.com', 'ann@example.com', 'carol@example.net'].sort(),
    );

    // Message-ID: derived from the run and the recipients, on the From domain.
    const expectedId = runMessageId(
      'weekly-dach/2026-11-23T06:00:00Z',
      ['ann@example.com', 'bob@example.com', 'carol@example.net'],
      'reports.example.org',
    );
    expect(expectedId).toMatch(/^<vir\.[0-9a-f]{16}\.[0-9a-f]{12}@reports\.example\.org>$/);
    expect(got.parsed.messageId).toBe(expectedId);
    expect(outcome.messageId).toBe(expectedId);
    expect(got.parsed.headers.get('x-vir-run')).toBe('weekly-dach/2026-11-23T06:00:00Z');
    expect(got.parsed.headers.get('auto-submitted')).toBe('auto-generated');

    // Attachments: the files' own bytes.
    expect(got.parsed.attachments.map((a) => a.filename)).toEqual([pdf.name, xlsx.name, csv.name]);
    for (const [i, f] of [pdf, xlsx, csv].entries()) {
      const att = got.parsed.attachments[i]!;
      expect(att.contentType).toBe(f.contentType);
      expect(att.content.equals(await import('node:fs/promises').then((m) => m.readFile(f.path)))).toBe(true);
    }
    expect(email.plan.files).toBe('attached');
    expect(email.plan.encodedBytes).toBe(
      base64Size(pdf.bytes) + base64Size(xlsx.bytes) + base64Size(csv.bytes),
    );

    // Bodies: the status and the key figures in both.
    const text = got.parsed.text ?? '';
    const html = typeof got.parsed.html === 'string' ? got.parsed.html : '';
    for (const body of [text, html]) {
      expect(body).toContain('Startups tracked');
      expect(body).toContain('1,284');
      expect(body).toContain('€412.5m');
      expect(body).toContain('+37 since last week');
      expect(body).toContain('Complete');
      expect(body).toContain(pdf.name);
    }

    expect(outcome).toMatchObject({ kind: 'email', ok: true, attempts: 1, rejected: [] });
    expect(outcome.accepted.sort()).toEqual(
      ['Bob@example.com', 'ann@example.com', 'carol@example.net'].sort(),
    );
    expect(outcome.detail).toBe('sent to 3 recipients, 3 files attached');
  });

  it('derives the same Message-ID for the same run and recipients, another for another list or run', async () => {
    const files = [bed.writeFile('id.pdf', randomBytes(1000), PDF)];
    await bed.send({ to: ['ann@example.com', 'bob@example.com'] }, files);
    await bed.send({ to: ['BOB@example.com', 'ann@example.com'] }, files);
    await bed.send({ to: ['ann@example.com'] }, files);
    await bed.send(
      { to: ['ann@example.com'] },
      files,
      summary({ runId: 'weekly-dach/2026-11-30T06:00:00Z' }),
    );
    const ids = bed.smtp.messages.map((m) => m.parsed.messageId);
    expect(ids[0]).toBe(ids[1]);
    expect(new Set(ids).size).toBe(3);
    // The run part is the same for one run, whoever receives it.
    expect(ids[2]!.split('.')[1]).toBe(ids[0]!.split('.')[1]);
  });

  it('escapes every string from the service in the HTML (formula-like title, <script> in a figure)', async () => {
    const s = summary({
      jobTitle: '=HYPERLINK("http://evil.example/x","Click") <b>bold</b>',
      status: 'partial',
      reasons: ['countries "AT" & "CH" <failed>'],
      figures: [{ label: '<script>alert(1)</script>', value: '=1+1', note: "it's <i>" }],
      headline: '<img src=x onerror=alert(1)>',
    });
    await bed.send({ to: 'ann@example.com', subject: '{title}' }, [], s);
    const got = bed.smtp.messages[0]!;
    const html = typeof got.parsed.html === 'string' ? got.parsed.html : '';
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<b>bold');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('"http://evil.example/x"');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain(
      '=HYPERLINK(&quot;http://evil.example/x&quot;,&quot;Click&quot;) &lt;b&gt;bold&lt;/b&gt;',
    );
    expect(html).toContain('Partial: countries &quot;AT&quot; &amp; &quot;CH&quot; &lt;failed&gt;');
    // The text body says it as it is; the subject is the title, on one line.
    expect(got.parsed.text).toContain('<script>alert(1)</script>: =1+1');
    expect(got.parsed.subject).toBe('=HYPERLINK("http://evil.example/x","Click") <b>bold</b>');
  });

  it('over the size limit: no attachments, the note in both bodies; with links given, the links', async () => {
    // 420 KB + 400 KB raw: about 1.1 MB after base64, over a 1 MB limit.
    const files = [
      bed.writeFile('big.pdf', randomBytes(420_000), PDF),
      bed.writeFile('big.xlsx', randomBytes(400_000), XLSX),
    ];
    const { email, outcome } = await bed.send({ to: 'ann@example.com', sizeLimitMb: 1 }, files);
    expect(email.plan.files).toBe('note');
    let got = bed.smtp.messages[0]!;
    expect(got.parsed.attachments).toHaveLength(0);
    const note =
      "The files are too large to attach (1.1 MB, the limit is 1.0 MB); they are in the run's report folder (job weekly-dach, 2026-11-23).";
    expect(got.parsed.text).toContain(note);
    expect(got.parsed.html).toContain(note.replace("'", '&#39;'));
    expect(outcome.detail).toBe('sent to 1 recipient, files neither attached nor linked');

    const links = [
      { name: 'big.pdf', url: 'https://bucket.example/big.pdf?X-Amz-Signature=abc&X-Amz-Expires=604800' },
      { name: 'big.xlsx', url: 'javascript:alert(1)' },
    ];
    await bed.send({ to: 'ann@example.com', sizeLimitMb: 1 }, files, summary(), links);
    got = bed.smtp.messages[1]!;
    expect(got.parsed.attachments).toHaveLength(0);
    expect(got.parsed.text).toContain(
      '- big.pdf: https://bucket.example/big.pdf?X-Amz-Signature=abc&X-Amz-Expires=604800',
    );
    expect(got.parsed.text).toContain('fetch them from the links below');
    expect(got.parsed.html).toContain(
      '<a href="https://bucket.example/big.pdf?X-Amz-Signature=abc&amp;X-Amz-Expires=604800">big.pdf</a>',
    );
    // A link that is not http(s) is shown, never made an anchor.
    expect(got.parsed.html).not.toContain('href="javascript:');

    // Under the same limit with a larger one: attached.
    await bed.send({ to: 'ann@example.com', sizeLimitMb: 2 }, files);
    expect(bed.smtp.messages[2]!.parsed.attachments).toHaveLength(2);
  });

  it('zipCsv: the CSV files travel in one zip whose entries are the files', async () => {
    const pdf = bed.writeFile('prospects-2026-11-23.pdf', randomBytes(5000), PDF);
    const a = bed.writeFile('prospects-de.csv', csvBytes(300), 'text/csv');
    const b = bed.writeFile('prospects-at.csv', csvBytes(150), 'text/csv; charset=utf-8');
    await bed.send(
      { to: 'sales@example.com', zipCsv: true },
      [pdf, a, b],
      summary({ jobId: 'prospects-dach', kind: 'prospect-list' }),
    );
    const got = bed.smtp.messages[0]!;
    expect(got.parsed.attachments.map((x) => x.filename)).toEqual([
      pdf.name,
      'prospects-dach-2026-11-23-csv.zip',
    ]);
    const zipAtt = got.parsed.attachments[1]!;
    expect(zipAtt.contentType).toBe('application/zip');
    const zip = await JSZip.loadAsync(zipAtt.content);
    expect(Object.keys(zip.files).sort()).toEqual([a.name, b.name].sort());
    const fs = await import('node:fs/promises');
    for (const f of [a, b]) {
      const entry = await zip.file(f.name)!.async('nodebuffer');
      expect(entry.equals(await fs.readFile(f.path))).toBe(true);
    }
    expect(got.parsed.text).toContain('the CSV files are in prospects-dach-2026-11-23-csv.zip');
  });
});
