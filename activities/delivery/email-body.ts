/**
 * The bodies of the run's email: a short plain text and an HTML version with the status, the key
 * figures and the files (attached, linked, or a note saying where they are). Every string from
 * the service or the job is made one line, and escaped in the HTML.
 */
import { MB } from '../../config/destinations.js';
import type { DeliveryFile, DeliverySummary } from '../../shared/delivery.js';

/** What both bodies say. */
export interface EmailBodyContent {
  summary: DeliverySummary;
  files: readonly DeliveryFile[];
  /** How the files travel: on the message, as links in the body, or neither (a note says why). */
  mode: 'attached' | 'linked' | 'note';
  links: { name: string; url: string }[];
  note: string | null;
  /** The zip the attached CSV files are in; null when there is none. */
  zipName: string | null;
  /** The run's page in the report portal (VIR_PORTAL_URL); null or absent: no link. */
  portalLink?: string | null;
}

/** `34.2 MB` (decimal megabytes, as the limit), `812 KB`, `95 bytes`. */
export function formatSize(bytes: number): string {
  if (bytes >= MB) return `${(bytes / MB).toFixed(1)} MB`;
  if (bytes >= 1000) return `${Math.round(bytes / 1000)} KB`;
  return `${bytes} bytes`;
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for HTML element content and quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/** Only http(s) links become anchors; anything else is shown as text. */
function safeUrl(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : null;
  } catch {
    return null;
  }
}

/** One line of plain text from data: no line breaks or control characters. */
export function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
}

function statusLineOf(summary: DeliverySummary): string {
  return summary.status === 'complete'
    ? 'Complete.'
    : `Partial${summary.reasons.length > 0 ? `: ${summary.reasons.map(oneLine).join('; ')}` : '.'}`;
}

function fileLinesOf(files: readonly DeliveryFile[]): string[] {
  return files.map((f) => `${oneLine(f.name)} (${formatSize(f.bytes)})`);
}

/** The text body. */
export function textBody(c: EmailBodyContent): string {
  const { summary, files, mode } = c;
  const text: string[] = [oneLine(summary.jobTitle), `${summary.date} - ${statusLineOf(summary)}`, ''];
  if (summary.headline) text.push(oneLine(summary.headline), '');
  if (summary.figures.length > 0) {
    text.push('Key figures');
    for (const f of summary.figures)
      text.push(`- ${oneLine(f.label)}: ${oneLine(f.value)}${f.note ? ` (${oneLine(f.note)})` : ''}`);
    text.push('');
  }
  if (files.length > 0) {
    text.push(mode === 'attached' ? 'Attached' : 'Files');
    for (const line of fileLinesOf(files)) text.push(`- ${line}`);
    if (c.zipName !== null) text.push(`(the CSV files are in ${c.zipName})`);
    text.push('');
  }
  if (c.note) text.push(c.note, '');
  if (mode === 'linked') {
    text.push('Links');
    for (const l of c.links) text.push(`- ${oneLine(l.name)}: ${oneLine(l.url)}`);
    text.push('');
  }
  if (c.portalLink) text.push(`The run in the report portal: ${oneLine(c.portalLink)}`, '');
  text.push(`Run ${oneLine(summary.runId)} of job ${oneLine(summary.jobId)} (${oneLine(summary.kind)}).`);
  return text.join('\n');
}

/** The HTML body: every string escaped. */
export function htmlBody(c: EmailBodyContent): string {
  const { summary, files, mode } = c;
  const e = (s: string) => escapeHtml(oneLine(s));
  const html: string[] = [
    '<!doctype html><html><head><meta charset="utf-8"></head>',
    '<body style="font-family: Arial, sans-serif; font-size: 14px; color: #222">',
    `<h2 style="margin: 0 0 4px">${e(summary.jobTitle)}</h2>`,
    `<p style="margin: 0 0 12px">${e(summary.date)} &middot; <strong>${e(statusLineOf(summary))}</strong></p>`,
  ];
  if (summary.headline) html.push(`<p>${e(summary.headline)}</p>`);
  if (summary.figures.length > 0) {
    html.push('<table cellpadding="4" style="border-collapse: collapse">');
    for (const f of summary.figures)
      html.push(
        `<tr><td>${e(f.label)}</td><td style="text-align: right"><strong>${e(f.value)}</strong></td><td style="color: #666">${f.note ? e(f.note) : ''}</td></tr>`,
      );
    html.push('</table>');
  }
  if (files.length > 0) {
    html.push(`<p style="margin: 12px 0 4px">${mode === 'attached' ? 'Attached' : 'Files'}:</p><ul>`);
    for (const line of fileLinesOf(files)) html.push(`<li>${e(line)}</li>`);
    html.push('</ul>');
    if (c.zipName !== null) html.push(`<p>The CSV files are in ${e(c.zipName)}.</p>`);
  }
  if (c.note) html.push(`<p>${e(c.note)}</p>`);
  if (mode === 'linked') {
    html.push('<ul>');
    for (const l of c.links) {
      const href = safeUrl(l.url);
      html.push(
        href === null
          ? `<li>${e(l.name)}: ${e(l.url)}</li>`
          : `<li><a href="${escapeHtml(href)}">${e(l.name)}</a></li>`,
      );
    }
    html.push('</ul>');
  }
  const portal = c.portalLink ? safeUrl(c.portalLink) : null;
  if (portal) html.push(`<p><a href="${escapeHtml(portal)}">Open the run in the report portal</a></p>`);
  html.push(
    `<p style="color: #888; font-size: 12px">Run ${e(summary.runId)} of job ${e(summary.jobId)} (${e(summary.kind)}).</p>`,
    '</body></html>',
  );
  return html.join('\n');
}
