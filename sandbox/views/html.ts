/**
 * Small HTML building blocks of the sandbox's views: escaping, the page layout, tables, bars
 * and links. Everything that comes from data goes through esc().
 */

/** Escapes text for HTML element content and quoted attribute values. */
export function esc(value: unknown): string {
  const text =
    typeof value === 'string' ? value : value === null || value === undefined ? '' : JSON.stringify(value);
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Marks a string as already-safe HTML (built from esc()'d parts). */
export interface Html {
  readonly html: string;
}

/** Wraps trusted HTML. */
export function raw(html: string): Html {
  return { html };
}

/** HTML of a value: Html passes through, anything else is escaped. */
export function h(value: unknown): string {
  return typeof value === 'object' && value !== null && 'html' in value ? (value as Html).html : esc(value);
}

/** A link; only http(s) and site-relative targets become links, anything else stays text. */
export function link(href: string | null | undefined, text: unknown): Html {
  if (!href || !/^(https?:\/\/|\/)/i.test(href)) return raw(esc(text));
  return raw(`<a href="${esc(href)}">${esc(text)}</a>`);
}

export interface Column<T> {
  label: string;
  cell: (row: T) => unknown;
  /** Right-aligned numeric column. */
  num?: boolean;
}

/** A table of rows; an empty list gives a short note instead. */
export function table<T>(columns: Column<T>[], rows: readonly T[], empty = 'Nothing to show.'): Html {
  if (rows.length === 0) return raw(`<p class="muted">${esc(empty)}</p>`);
  const head = columns.map((c) => `<th${c.num ? ' class="num"' : ''}>${esc(c.label)}</th>`).join('');
  const body = rows
    .map(
      (row) =>
        `<tr>${columns.map((c) => `<td${c.num ? ' class="num"' : ''}>${h(c.cell(row))}</td>`).join('')}</tr>`,
    )
    .join('\n');
  return raw(`<table><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`);
}

/** A horizontal bar showing `value` relative to `max`, with its label. */
export function bar(value: number, max: number, label: string): Html {
  const width = max > 0 ? Math.max(0, Math.min(100, (value / max) * 100)) : 0;
  return raw(`<span class="bar"><span style="width:${width.toFixed(1)}%"></span></span> ${esc(label)}`);
}

/** A definition list of label/value pairs (values may be Html). */
export function facts(pairs: [string, unknown][]): Html {
  const items = pairs
    .filter(([, v]) => v !== undefined && v !== null && v !== '')
    .map(([k, v]) => `<dt>${esc(k)}</dt><dd>${h(v)}</dd>`)
    .join('');
  return raw(`<dl>${items}</dl>`);
}

/** A section with a heading. */
export function section(title: string, ...content: (Html | string)[]): Html {
  return raw(`<section><h2>${esc(title)}</h2>${content.map(h).join('\n')}</section>`);
}

const STYLE = `
body{font-family:"DejaVu Sans",system-ui,sans-serif;margin:0;color:#1d2733;background:#f6f7f9;line-height:1.45}
header{background:#1d3557;color:#fff;padding:.6rem 1.5rem}header a{color:#fff;margin-right:1rem;text-decoration:none}
main{max-width:1100px;margin:1.5rem auto;padding:0 1.5rem}
h1{font-size:1.6rem;margin:.2rem 0 .4rem}h2{font-size:1.15rem;margin:1.6rem 0 .5rem;border-bottom:1px solid #d5dae1}
.summary{font-size:1.05rem;background:#fff;border-left:4px solid #457b9d;padding:.6rem .9rem}
table{border-collapse:collapse;width:100%;background:#fff;font-size:.9rem}
th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #e3e7ec;vertical-align:top}
th{background:#eef1f5}.num{text-align:right;white-space:nowrap}
dl{display:grid;grid-template-columns:max-content auto;gap:.2rem 1rem}dt{color:#5a6776}dd{margin:0}
.bar{display:inline-block;width:120px;height:.7rem;background:#e3e7ec;vertical-align:middle}
.bar span{display:block;height:100%;background:#457b9d}
.muted{color:#5a6776}pre{background:#fff;padding:.8rem;overflow:auto;font-size:.8rem;border:1px solid #e3e7ec}
nav.pages a{margin-right:1rem}
`;

/** The whole page. */
export function page(title: string, ...content: (Html | string)[]): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} · Venture Intelligence sandbox</title><style>${STYLE}</style></head>
<body><header><strong>Venture Intelligence</strong> sandbox &nbsp;
<a href="/view/search_investors">Investors</a><a href="/view/search_startups">Startups</a><a href="/openapi.json">OpenAPI</a></header>
<main><h1>${esc(title)}</h1>
${content.map(h).join('\n')}
</main></body></html>
`;
}

/** A paragraph of text (escaped), optionally with a class. */
export function para(text: unknown, className?: string): Html {
  return raw(`<p${className ? ` class="${esc(className)}"` : ''}>${esc(text)}</p>`);
}
