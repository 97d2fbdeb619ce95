/**
 * The portal's few static files: its style sheet (the reports' colours and their DejaVu Sans,
 * on a phone a table's rows are blocks, each value beside its column's name), the fonts, and the
 * one script: the live progress of a running run (server-sent events). Every page reads without
 * the script.
 */
import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { FONT_FILES } from '../reports/fonts.js';
import { COLORS } from '../reports/pdf/theme.js';

/** The style sheet. */
export const PORTAL_CSS = `
@font-face { font-family: "DejaVu Sans"; src: url("/static/fonts/DejaVuSans.ttf") format("truetype"); font-weight: 400; font-display: swap; }
@font-face { font-family: "DejaVu Sans"; src: url("/static/fonts/DejaVuSans-Bold.ttf") format("truetype"); font-weight: 700; font-display: swap; }
:root { --ink: ${COLORS.ink}; --muted: ${COLORS.muted}; --accent: ${COLORS.accent}; --rule: ${COLORS.rule};
  --tile: ${COLORS.tile}; --zebra: ${COLORS.zebra}; --up: ${COLORS.up}; --down: ${COLORS.down}; --warn: #8a5a00; }
* { box-sizing: border-box; }
html { font-family: "DejaVu Sans", Verdana, system-ui, sans-serif; font-size: 15px; line-height: 1.45; color: var(--ink); background: #fff; }
body { margin: 0; }
a { color: var(--accent); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, [tabindex]:focus-visible { outline: 3px solid #e08a1e; outline-offset: 2px; }
.skip { position: absolute; left: -999px; top: 0; background: #fff; padding: 0.5rem; }
.skip:focus { left: 0.5rem; z-index: 2; }
header.site { background: var(--accent); color: #fff; padding: 0.6rem 1rem; display: flex; flex-wrap: wrap; gap: 0.5rem 1.5rem; align-items: center; }
header.site a { color: #fff; text-decoration: none; }
.brand { margin: 0; font-weight: 700; }
nav ul { list-style: none; display: flex; gap: 1rem; margin: 0; padding: 0; flex-wrap: wrap; }
nav a[aria-current="page"] { text-decoration: underline; text-underline-offset: 4px; font-weight: 700; }
main { padding: 1rem; max-width: 72rem; margin: 0 auto; }
main:focus { outline: none; }
h1 { font-size: 1.5rem; margin: 0.5rem 0 1rem; color: var(--accent); overflow-wrap: anywhere; }
h2 { font-size: 1.15rem; margin: 1.5rem 0 0.5rem; color: var(--accent); }
footer.site { color: var(--muted); font-size: 0.85rem; padding: 1rem; border-top: 1px solid var(--rule); }
.scroll { overflow-x: auto; margin: 0 0 1rem; border: 1px solid var(--rule); }
table { border-collapse: collapse; width: 100%; min-width: 36rem; }
caption { text-align: left; font-weight: 700; padding: 0.4rem 0.5rem; color: var(--muted); }
th, td { text-align: left; padding: 0.4rem 0.5rem; border-top: 1px solid var(--rule); vertical-align: top; }
thead th { background: var(--tile); border-top: 0; }
tbody tr:nth-child(even) { background: var(--zebra); }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
th .note { font-weight: 400; }
.facts { display: grid; grid-template-columns: repeat(auto-fill, minmax(11rem, 1fr)); gap: 0.5rem; margin: 0 0 1rem; }
.facts div { background: var(--tile); padding: 0.5rem 0.6rem; }
.facts dt { color: var(--muted); font-size: 0.85rem; }
.facts dd { margin: 0; font-weight: 700; overflow-wrap: anywhere; }
.badge { display: inline-block; padding: 0 0.4rem; border-radius: 3px; font-size: 0.85rem; border: 1px solid currentColor; white-space: nowrap; }
.badge.good { color: var(--up); } .badge.bad { color: var(--down); } .badge.warn { color: var(--warn); } .badge.plain { color: var(--muted); }
.notice { background: #e8f3ea; border-left: 4px solid var(--up); padding: 0.5rem 0.75rem; }
.problem { background: #fdecea; border-left: 4px solid var(--down); padding: 0.5rem 0.75rem; }
.empty, .note { color: var(--muted); }
form.action, form.filters, form.login { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: end; margin: 0.5rem 0 1rem; }
form.filters div, form.login { display: flex; flex-direction: column; gap: 0.2rem; }
form.login { max-width: 22rem; align-items: stretch; }
label { font-weight: 700; font-size: 0.9rem; }
input, select, button { font: inherit; padding: 0.35rem 0.5rem; min-height: 2.25rem; }
button, .button { background: var(--accent); color: #fff; border: 0; border-radius: 3px; cursor: pointer; text-decoration: none; display: inline-block; padding: 0.4rem 0.8rem; white-space: nowrap; }
.button.secondary, button.secondary { background: #fff; color: var(--accent); border: 1px solid var(--accent); }
button.danger { background: var(--down); }
pre.plan { background: var(--tile); padding: 0.75rem; overflow-x: auto; white-space: pre-wrap; }
progress { width: 100%; height: 1rem; }
.chart { max-width: 48rem; margin: 0 0 1rem; }
.chart svg { width: 100%; height: auto; }
.chart.bars { max-width: 30rem; }
ul.lines { padding-left: 1.2rem; }
@media (max-width: 40rem) { html { font-size: 14px; } main { padding: 0.75rem; } }
@media (max-width: 40rem) {
  .scroll.stack { overflow-x: visible; border: 0; }
  .stack table { min-width: 0; }
  .stack table, .stack caption, .stack tbody, .stack tbody tr, .stack tbody td, .stack tbody th { display: block; }
  .stack caption { padding: 0 0 0.4rem; }
  .stack thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
  .stack tbody tr { border: 1px solid var(--rule); margin: 0 0 0.6rem; padding: 0.3rem 0; background: #fff; }
  .stack tbody tr:nth-child(even) { background: #fff; }
  .stack tbody td, .stack tbody th { border: 0; padding: 0.15rem 0.6rem; overflow-wrap: anywhere; }
  .stack tbody th { font-size: 1.05rem; }
  .stack td.num, .stack th.num { text-align: left; }
  .stack [data-label] { display: flow-root; padding-left: 8.4rem; }
  .stack [data-label]::before { content: attr(data-label); float: left; width: 7.4rem; margin-left: -7.8rem; color: var(--muted); font-size: 0.9rem; overflow-wrap: anywhere; }
}
`;

/**
 * The live progress of a run's page: reads the run's events (`data-events` on the section) and
 * writes each figure into its `data-field` element; when the run ends, the page is loaded again
 * to show its result and files.
 */
export const LIVE_JS = `"use strict";
(function () {
  var section = document.querySelector("[data-events]");
  if (!section || !window.EventSource) return;
  var source = new EventSource(section.getAttribute("data-events"));
  function set(name, text) {
    var el = section.querySelector('[data-field="' + name + '"]');
    if (el) el.textContent = text;
  }
  source.addEventListener("progress", function (event) {
    var p = JSON.parse(event.data);
    set("phase", p.phase);
    set("calls", p.callsMade + " of " + p.callsPlanned);
    set("pages", String(p.pages));
    set("records", String(p.records));
    set("failed", String(p.failedRequests));
    set("credits", p.creditsSpent + " of " + p.creditsBudget);
    set("eta", p.etaSeconds === null ? "-" : p.etaSeconds + " s");
    var bar = section.querySelector("progress");
    if (bar) { bar.max = Math.max(1, p.callsPlanned); bar.value = p.callsMade; }
  });
  source.addEventListener("done", function (event) {
    source.close();
    var d = JSON.parse(event.data);
    set("live", "The run ended: " + d.status.toLowerCase() + ". Loading its result.");
    // The run page again, without the notice that it started (?notice=started).
    window.setTimeout(function () { window.location.replace(window.location.pathname); }, 800);
  });
})();
`;

/** Serves the style sheet, the script and the fonts (fixed files: no path comes from a request). */
export function registerStatic(app: FastifyInstance): void {
  app.get('/static/portal.css', async (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(PORTAL_CSS),
  );
  app.get('/static/live.js', async (_request, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(LIVE_JS),
  );
  const fonts: Record<string, string> = {
    'DejaVuSans.ttf': FONT_FILES.regular,
    'DejaVuSans-Bold.ttf': FONT_FILES.bold,
  };
  app.get<{ Params: { name: string } }>('/static/fonts/:name', async (request, reply) => {
    const path = fonts[request.params.name];
    if (path === undefined || !Object.hasOwn(fonts, request.params.name)) return reply.callNotFound();
    return reply
      .type('font/ttf')
      .header('cache-control', 'public, max-age=86400')
      .send(await readFile(path));
  });
}
