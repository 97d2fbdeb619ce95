/**
 * The interactive report of a completed market report or fund digest run (`GET /runs/:id/report`),
 * made by portal/interactive.ts from the model the run kept in the store, and the static files
 * its charts need (`/assets/…`, portal/assets.ts).
 */
import type { FastifyInstance } from 'fastify';
import { manifestPlace, StoreObjectMissingError } from '../../activities/store.js';
import { showRun } from '../../cli/commands/runs.js';
import { registerAssetRoutes } from '../assets.js';
import { href } from '../html.js';
import { renderInteractiveReport, type InteractiveManifest } from '../interactive.js';
import { sendCliError, sendProblem, type PortalDeps } from '../deps.js';

/**
 * The report page's policy: scripts and styles only from the portal (vega draws without eval,
 * through its interpreter; the page's styles are in /assets/report.css).
 */
const REPORT_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Registers the interactive report and its assets. */
export function registerReportPage(app: FastifyInstance, deps: PortalDeps): void {
  registerAssetRoutes(app);

  app.get<{ Params: { id: string } }>('/runs/:id/report', async (request, reply) => {
    const id = request.params.id;
    let d;
    try {
      d = await showRun(deps.ctx, id, { queryTimeoutMs: 1000 });
    } catch (err) {
      return sendCliError(reply, err, 'No such run');
    }
    const manifestPath = typeof d.result?.manifestPath === 'string' ? d.result.manifestPath : null;
    if (d.status !== 'COMPLETED' || manifestPath === null)
      return sendProblem(
        reply,
        404,
        'No report yet',
        `Run "${id}" is ${d.status.toLowerCase()}: only a completed run has a report.`,
      );
    const store = deps.store.store;
    const settings = deps.ctx.settings();
    let page: string | null;
    try {
      const manifest = await manifestPlace(store, manifestPath).read<InteractiveManifest>();
      const files = await deps.store.runFiles(manifestPath);
      const pdf = files.files.find((f) => f.disposition === 'inline');
      page = await renderInteractiveReport({
        store,
        manifest,
        runKey: id,
        serviceLinks: { baseUrl: settings.visBaseUrl, publicUrl: settings.visPublicUrl },
        links: [
          { text: 'Back to the run', href: href('/runs', id) },
          ...(pdf ? [{ text: 'The PDF', href: href('/runs', id, 'files', String(pdf.index)) }] : []),
        ],
      });
    } catch (err) {
      if (err instanceof StoreObjectMissingError || (err as NodeJS.ErrnoException).code === 'ENOENT')
        return sendProblem(
          reply,
          404,
          'No report',
          `The store no longer holds what run "${id}" kept for its report.`,
        );
      throw err;
    }
    if (page === null)
      return sendProblem(
        reply,
        404,
        'No interactive report',
        `Runs of this kind have no interactive report.`,
      );
    return reply.type('text/html; charset=utf-8').header('content-security-policy', REPORT_CSP).send(page);
  });
}
