/**
 * The interactive report page's own script and stylesheet, served by `registerAssetRoutes` as
 * /assets/report-charts.js and /assets/report.css (files of the portal, so that the page has no
 * inline script or style).
 */

/**
 * Embeds every chart of the page: each `[data-chart]` figure names the `<script
 * type="application/json">` holding its Vega-Lite spec; vega-embed draws it as SVG into the
 * figure's `.chart-view`. With vega's interpreter loaded, expressions are interpreted (no eval).
 * A drawn figure gets `chart-ready`; one that failed `chart-failed` and its data table open.
 * Charts are drawn once the page's DejaVu Sans is loaded (Vega measures labels with it).
 */
export const REPORT_CHARTS_JS = `(function () {
  'use strict';
  if (typeof window.vegaEmbed !== 'function') return;
  var options = {
    renderer: 'svg',
    actions: false,
    defaultStyle: false,
    // Values on hover; the tooltip's look is in report.css (no inline style under the page's CSP).
    tooltip: { disableDefaultStyle: true },
    config: { mark: { tooltip: true } }
  };
  if (window.vegaInterpreter) {
    options.ast = true;
    options.expr = window.vegaInterpreter.expressionInterpreter;
  }
  // A chart much wider than its place keeps three quarters of its size and scrolls sideways.
  function fit(view) {
    var svg = view.querySelector('svg');
    if (!svg) return;
    var natural = Number(svg.getAttribute('width')) || 0;
    var room = view.clientWidth;
    if (natural > 0 && room > 0 && natural * 0.75 > room) {
      view.classList.add('scroll');
      svg.style.width = Math.round(natural * 0.75) + 'px';
    }
  }
  function embed(figure) {
    var source = document.getElementById(figure.getAttribute('data-chart'));
    var view = figure.querySelector('.chart-view');
    if (!source || !view) return;
    var spec;
    try {
      spec = JSON.parse(source.textContent);
    } catch (e) {
      figure.classList.add('chart-failed');
      return;
    }
    view.textContent = '';
    window.vegaEmbed(view, spec, options).then(
      function () {
        fit(view);
        figure.classList.add('chart-ready');
      },
      function (error) {
        figure.classList.add('chart-failed');
        figure.setAttribute('data-error', String((error && error.message) || error));
        view.textContent = 'The chart could not be drawn; its data is in the table below.';
        var details = figure.querySelector('details');
        if (details) details.open = true;
      }
    );
  }
  function all() {
    Array.prototype.forEach.call(document.querySelectorAll('[data-chart]'), embed);
  }
  // Vega measures labels with the page's font: DejaVu Sans, as in the PDF, once it is loaded.
  var fonts = document.fonts;
  if (fonts && fonts.load) {
    Promise.all([fonts.load('10px "DejaVu Sans"'), fonts.load('bold 10px "DejaVu Sans"')]).then(all, all);
  } else {
    all();
  }
})();
`;

/** The page's look: the PDF's typeface and colours, tables that scroll on a phone, charts that shrink to fit. */
export const REPORT_CSS = `@font-face { font-family: 'DejaVu Sans'; src: url('/assets/DejaVuSans.ttf') format('truetype'); font-weight: normal; }
@font-face { font-family: 'DejaVu Sans'; src: url('/assets/DejaVuSans-Bold.ttf') format('truetype'); font-weight: bold; }
:root { --ink: #1f2933; --muted: #5b6470; --rule: #d9dee4; --accent: #1f5f8b; --up: #1e7d4f; --down: #b03a2e; --tint: #f4f6f8; }
* { box-sizing: border-box; }
body.interactive-report { margin: 0; font-family: 'DejaVu Sans', Verdana, sans-serif; color: var(--ink); background: #fff; font-size: 15px; line-height: 1.45; }
.report-head, main { max-width: 1120px; margin: 0 auto; padding: 0 20px; }
.report-head { padding-top: 24px; padding-bottom: 8px; border-bottom: 1px solid var(--rule); }
h1 { font-size: 1.7rem; margin: 0 0 4px; line-height: 1.2; overflow-wrap: anywhere; }
h2 { font-size: 1.3rem; margin: 32px 0 8px; padding-bottom: 4px; border-bottom: 2px solid var(--accent); overflow-wrap: anywhere; }
h3 { font-size: 1.05rem; margin: 22px 0 6px; overflow-wrap: anywhere; }
p { margin: 6px 0 10px; overflow-wrap: anywhere; }
a { color: var(--accent); }
.subtitle { color: var(--muted); font-size: 0.9rem; }
.headline { font-size: 1.05rem; font-weight: bold; margin: 12px 0; }
.report-links { display: flex; flex-wrap: wrap; gap: 12px; font-size: 0.9rem; margin: 4px 0 8px; }
.figures { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 8px; margin: 12px 0 16px; }
.figure { background: var(--tint); border-radius: 4px; padding: 10px 12px; margin: 0; }
.figure dt { font-size: 0.78rem; color: var(--muted); }
.figure dd { margin: 0; }
.figure .value { font-size: 1.35rem; font-weight: bold; }
.figure .note { font-size: 0.78rem; color: var(--muted); }
.figure .note.up { color: var(--up); }
.figure .note.down { color: var(--down); }
.table-wrap { overflow-x: auto; margin: 8px 0 14px; -webkit-overflow-scrolling: touch; }
table { border-collapse: collapse; width: 100%; font-size: 0.85rem; }
caption { text-align: left; font-weight: bold; padding: 4px 0; }
th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid var(--rule); vertical-align: top; }
th { background: var(--tint); font-weight: bold; }
td { overflow-wrap: break-word; }
.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
th.num { white-space: normal; }
.empty { color: var(--muted); font-style: italic; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 420px), 1fr)); gap: 16px 24px; margin: 10px 0 18px; }
.chart { margin: 0; min-width: 0; }
.chart.full { grid-column: 1 / -1; }
.chart-title { font-weight: bold; font-size: 0.92rem; margin-bottom: 4px; }
.chart-view { max-width: 100%; overflow: hidden; }
.chart-view.scroll { overflow-x: auto; -webkit-overflow-scrolling: touch; }
.chart-view.scroll svg { max-width: none; }
.chart.chart-ready .chart-title { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
.pair { display: grid; grid-template-columns: minmax(0, 1fr); gap: 0 24px; align-items: start; }
.pair .charts { grid-template-columns: minmax(0, 1fr); margin-top: 8px; }
@media (min-width: 900px) { .pair { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); } }
.chart-view .vega-embed { display: block; max-width: 100%; }
.chart-view svg { display: block; max-width: 100%; height: auto; }
.chart-wait { color: var(--muted); font-size: 0.85rem; }
.chart-data summary { cursor: pointer; color: var(--accent); font-size: 0.85rem; margin: 4px 0; }
.source { color: var(--muted); font-size: 0.78rem; margin-top: 2px; }
.conflict { border-left: 4px solid var(--down); background: #fbeeee; padding: 8px 12px; }
#vg-tooltip-element { visibility: hidden; padding: 8px; position: fixed; z-index: 1000; font-size: 12px; border-radius: 3px; background: #fff; border: 1px solid var(--rule); box-shadow: 2px 2px 4px rgba(0, 0, 0, 0.1); white-space: pre-line; }
#vg-tooltip-element.visible { visibility: visible; }
#vg-tooltip-element table { width: auto; font-size: 12px; }
#vg-tooltip-element td { border: 0; padding: 1px 4px; min-width: 0; }
@media (max-width: 600px) {
  body.interactive-report { font-size: 14px; }
  .report-head, main { padding: 0 12px; }
  .report-head { padding-top: 16px; }
  h1 { font-size: 1.35rem; }
  th, td { padding: 5px 6px; }
  .figures { grid-template-columns: repeat(2, minmax(0, 1fr)); }
  .figure .value { font-size: 1.15rem; }
}
@media print { .chart-data, .report-links { display: none; } }
`;
