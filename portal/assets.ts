/**
 * The interactive report's static files, served by the portal itself at fixed routes (no CDN):
 * the browser builds of vega, vega-lite and vega-embed from node_modules, vega's CSP-safe
 * expression interpreter, the script that embeds a page's charts, its stylesheet, and the DejaVu
 * Sans fonts the PDF's charts are drawn with.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerBase,
} from 'fastify';
import { FONT_FILES } from '../reports/fonts.js';
import { REPORT_CHARTS_JS, REPORT_CSS } from './report-assets.js';

const require = createRequire(import.meta.url);

/** A browser build in a package's folder beside its main module (`vega` -> build/vega.min.js). */
function packageFile(pkg: string, file: string): string {
  return join(dirname(require.resolve(pkg)), file);
}

/**
 * vega-interpreter is published as an ES module that imports three helpers from vega-util; the
 * browser build of vega exports the same three. Served as a classic script that reads them from
 * the `vega` global and sets `window.vegaInterpreter`, so charts draw without `eval` (a page
 * under a Content-Security-Policy without 'unsafe-eval').
 */
export function interpreterScript(source: string): string {
  const head = /^import \{([^}]*)\} from 'vega-util';\s*$/m;
  const tail = /^export \{ expression as expressionInterpreter \};\s*$/m;
  if (!head.test(source) || !tail.test(source))
    throw new Error('vega-interpreter: its build no longer has the import and export this file rewrites');
  const names = (head.exec(source)?.[1] ?? '').trim();
  const body = source.replace(head, '').replace(tail, '');
  return `(function (vega) {\n'use strict';\nconst { ${names} } = vega;\n${body}\nwindow.vegaInterpreter = { expressionInterpreter: expression };\n})(window.vega);\n`;
}

/** One asset: its route, content type and bytes (read once, when the routes are registered). */
interface Asset {
  path: string;
  type: string;
  load: () => string | Buffer;
}

const JS = 'text/javascript; charset=utf-8';

/** The assets and where each comes from. */
export const ASSETS: readonly Asset[] = [
  { path: '/assets/vega.min.js', type: JS, load: () => readFileSync(packageFile('vega', 'vega.min.js')) },
  {
    path: '/assets/vega-lite.min.js',
    type: JS,
    load: () => readFileSync(packageFile('vega-lite', 'vega-lite.min.js')),
  },
  {
    path: '/assets/vega-embed.min.js',
    type: JS,
    load: () => readFileSync(packageFile('vega-embed', 'vega-embed.min.js')),
  },
  {
    path: '/assets/vega-interpreter.js',
    type: JS,
    load: () => interpreterScript(readFileSync(require.resolve('vega-interpreter'), 'utf8')),
  },
  { path: '/assets/report-charts.js', type: JS, load: () => REPORT_CHARTS_JS },
  { path: '/assets/report.css', type: 'text/css; charset=utf-8', load: () => REPORT_CSS },
  { path: '/assets/DejaVuSans.ttf', type: 'font/ttf', load: () => readFileSync(FONT_FILES.regular) },
  { path: '/assets/DejaVuSans-Bold.ttf', type: 'font/ttf', load: () => readFileSync(FONT_FILES.bold) },
];

/**
 * Registers the assets' GET routes on the portal (each a fixed path under /assets/, cached for
 * a day by the browser). Every file is found when this is called: a missing package fails the
 * portal's start, not a reader's page.
 *
 * @example registerAssetRoutes(app); // GET /assets/vega-embed.min.js
 */
export function registerAssetRoutes<Server extends RawServerBase, Logger extends FastifyBaseLogger>(
  app: FastifyInstance<
    Server,
    RawRequestDefaultExpression<Server>,
    RawReplyDefaultExpression<Server>,
    Logger
  >,
): void {
  for (const asset of ASSETS) {
    const body = asset.load();
    app.get(asset.path, async (_request, reply) =>
      reply.header('content-type', asset.type).header('cache-control', 'public, max-age=86400').send(body),
    );
  }
}
