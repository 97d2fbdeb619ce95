/**
 * HTML for the portal's pages: a tagged template that escapes every value it is given (a value
 * from the service, a job file or Temporal can never open a tag), the page's layout (header,
 * navigation, main, footer) and the small pieces every page uses.
 *
 * @example
 * const row = html`<tr><th scope="row">${job.id}</th><td>${job.title}</td></tr>`;
 * reply.type('text/html').send(page({ title: 'Jobs', active: 'jobs', body: table('Jobs', ['Job', 'Title'], [row]) }).text);
 */
import { escapeHtml } from '../activities/delivery/email-body.js';

/** Text that is already HTML (made by {@link html} or {@link raw}): put in a page as it is. */
export class SafeHtml {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/** What a template takes: text (escaped), HTML made here, lists of them, or nothing. */
export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value instanceof SafeHtml) return value.text;
  if (value === null || value === undefined || value === false) return '';
  if (Array.isArray(value)) return (value as readonly HtmlValue[]).map(render).join('');
  return escapeHtml(String(value));
}

/** HTML from a template: every interpolated value escaped unless it is {@link SafeHtml}. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((v, i) => {
    out += render(v) + (strings[i + 1] ?? '');
  });
  return new SafeHtml(out);
}

/** Markup written here, not from data (an SVG the portal drew). Never pass it a value from elsewhere. */
export function raw(markup: string): SafeHtml {
  return new SafeHtml(markup);
}

/** A path of the portal with its segments encoded: `href('/runs', id)`. */
export function href(base: string, ...segments: string[]): string {
  return [base, ...segments.map(encodeURIComponent)].join('/');
}

/** The sections of the navigation. */
export type Section = 'jobs' | 'runs' | 'credits';

const NAV: [Section, string, string][] = [
  ['jobs', '/', 'Jobs'],
  ['runs', '/runs', 'Runs'],
  ['credits', '/credits', 'Credits'],
];

/** What a page is made of. */
export interface PageParts {
  title: string;
  active?: Section;
  body: SafeHtml;
  /** A line saying what an action did, at the top of the page. */
  notice?: string | null;
  /** Scripts the page needs (the live progress): paths under /static. */
  scripts?: string[];
}

/** A whole page: header with the navigation, the main part, a footer. */
export function page(parts: PageParts): SafeHtml {
  const nav = NAV.map(
    ([section, path, label]) =>
      html`<li>
        <a href="${path}" ${section === parts.active ? raw(' aria-current="page"') : ''}>${label}</a>
      </li>`,
  );
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${parts.title} - Venture Intelligence reports</title>
        <link rel="stylesheet" href="/static/portal.css" />
        <link rel="icon" href="data:," />
        ${(parts.scripts ?? []).map((s) => html`<script src="${s}" defer></script>`)}
      </head>
      <body>
        <a class="skip" href="#main">Skip to the content</a>
        <header class="site">
          <p class="brand"><a href="/">Venture Intelligence reports</a></p>
          <nav aria-label="Sections">
            <ul>
              ${nav}
            </ul>
          </nav>
        </header>
        <main id="main" tabindex="-1">
          <h1>${parts.title}</h1>
          ${parts.notice ? html`<p class="notice" role="status">${parts.notice}</p>` : ''} ${parts.body}
        </main>
        <footer class="site">
          <p>Runs, schedules and credits as Temporal and the account's ledger have them now.</p>
        </footer>
      </body>
    </html> `;
}

/** A column header: its text, or its text and `num` for a column of figures (aligned right). */
export type Header = string | { text: string; num: true };

function headerText(h: Header): string {
  return typeof h === 'string' ? h : h.text;
}

const CELL_OR_ROW = /<tr\b|<(td|th)\b([^>]*)>/g;

/**
 * The rows' cells, each given its column's header as `data-label` (which a narrow screen shows
 * before the cell's value) and an explicit ARIA role, so the table stays a table to a screen
 * reader when the style sheet lays its rows out as blocks. A `colspan` cell takes its columns.
 */
function labelCells(rows: string, labels: readonly string[]): string {
  let column = 0;
  return rows.replace(CELL_OR_ROW, (tag: string, cell: string | undefined, attrs: string | undefined) => {
    if (cell === undefined) {
      column = 0;
      return '<tr role="row"';
    }
    const label = labels[column] ?? '';
    const span = Number(/\bcolspan="(\d+)"/.exec(attrs ?? '')?.[1] ?? 1);
    column += span;
    const role = cell === 'th' ? 'rowheader' : 'cell';
    const named = label === '' || span > 1 ? '' : ` data-label="${escapeHtml(label)}"`;
    return `<${cell}${attrs ?? ''} role="${role}"${named}>`;
  });
}

/**
 * A table with a caption and column headers. On a wide screen it scrolls sideways if it must; on
 * a phone each row is a block of its own with every value under its column's name.
 */
export function table(caption: string, headers: Header[], rows: SafeHtml[], empty = 'None.'): SafeHtml {
  if (rows.length === 0) return html`<p class="empty">${caption}: ${empty}</p>`;
  const body = raw(labelCells(rows.map((r) => r.text).join(''), headers.map(headerText)));
  return html`<div class="scroll stack" role="region" aria-label="${caption}" tabindex="0">
    <table role="table">
      <caption>
        ${caption}
      </caption>
      <thead role="rowgroup">
        <tr role="row">
          ${headers.map((h) =>
            typeof h === 'string'
              ? html`<th scope="col" role="columnheader">${h}</th>`
              : html`<th scope="col" role="columnheader" class="num">${h.text}</th>`,
          )}
        </tr>
      </thead>
      <tbody role="rowgroup">
        ${body}
      </tbody>
    </table>
  </div>`;
}

/** A definition list of label and value pairs (a run's figures). */
export function facts(pairs: [string, HtmlValue][], id?: string): SafeHtml {
  return html`<dl class="facts" ${id ? html` id="${id}"` : ''}>
    ${pairs.map(
      ([label, value]) =>
        html`<div>
          <dt>${label}</dt>
          <dd>${value}</dd>
        </div>`,
    )}
  </dl>`;
}

/** A status as a badge: its words, and a class for its colour. */
export function statusBadge(status: string): SafeHtml {
  const s = status.toLowerCase().replace(/_/g, ' ');
  const tone = /failed|terminated|timed out|not delivered/.test(s)
    ? 'bad'
    : /running|partial|paused|cancel|not applied/.test(s)
      ? 'warn'
      : /^(completed|complete|delivered|already delivered|ok|active)$/.test(s)
        ? 'good'
        : 'plain';
  return html`<span class="badge ${tone}">${s}</span>`;
}

/** A form that POSTs an action with the CSRF field; `button` is its one submit button. */
export function actionForm(action: string, csrf: string, button: string, extra?: SafeHtml): SafeHtml {
  return html`<form method="post" action="${action}" class="action">
    <input type="hidden" name="csrf" value="${csrf}" />
    ${extra ?? ''}<button type="submit">${button}</button>
  </form>`;
}
