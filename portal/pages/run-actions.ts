/**
 * What can be done to a run, each confirmed on a page of its own first, each by the CLI's own
 * function: cancel a running run (`vir runs cancel`), deliver a completed run again to the
 * destinations that did not get it (`vir runs redeliver`); and its files, each by its index in
 * the run's manifest (`GET /runs/:id/files/<index>`): a PDF opens in the browser, the other
 * files download under their real names.
 */
import type { FastifyInstance } from 'fastify';
import { StoreObjectMissingError } from '../../activities/store.js';
import { cancelRun, redeliverRun, runManifestPath, showRun } from '../../cli/commands/runs.js';
import { actionForm, facts, href, html, statusBadge } from '../html.js';
import { formatUtc } from '../format.js';
import { contentDisposition } from '../security.js';
import { seeOther, sendCliError, sendPage, sendProblem, type PortalDeps } from '../deps.js';

/** Whether an error says a file or a store object is not there. */
function isMissing(err: unknown): boolean {
  return err instanceof StoreObjectMissingError || (err as NodeJS.ErrnoException).code === 'ENOENT';
}

const CONFIRM = {
  cancel: {
    title: 'Cancel run',
    says: 'The run stops at its next step; what it has written so far stays, and it writes no report.',
    button: 'Cancel the run',
    when: 'RUNNING',
    run: cancelRun,
    done: 'cancelled',
    refused: 'The run was not cancelled',
    logged: 'cancel requested from the portal',
  },
  redeliver: {
    title: 'Redeliver run',
    says: "The run's files go again to each destination of its job that has not received them; those that have get nothing.",
    button: 'Redeliver',
    when: 'COMPLETED',
    run: redeliverRun,
    done: 'redelivered',
    refused: 'The run was not redelivered',
    logged: 'redelivered from the portal',
  },
} as const;

/** Registers the confirmation pages, the actions and the files. */
export function registerRunActions(app: FastifyInstance, deps: PortalDeps): void {
  const { ctx } = deps;

  for (const action of ['cancel', 'redeliver'] as const) {
    const c = CONFIRM[action];
    app.get<{ Params: { id: string } }>(`/runs/:id/${action}`, async (request, reply) => {
      const id = request.params.id;
      let d;
      try {
        d = await showRun(ctx, id, { queryTimeoutMs: 1000 });
      } catch (err) {
        return sendCliError(reply, err, 'No such run');
      }
      const body = html`${facts([
          ['Run', id],
          ['Status', statusBadge(d.status)],
          ['Job', d.jobId ?? '-'],
          ['Started', formatUtc(d.startTime)],
        ])}
        <p>${c.says}</p>
        ${d.status === c.when ? actionForm(href('/runs', id, action), request.portalCsrf, c.button) : html`<p class="problem">Only a ${c.when.toLowerCase()} run can be ${c.done}.</p>`}
        <p><a href="${href('/runs', id)}">Back to the run</a></p>`;
      return sendPage(reply, { title: `${c.title} ${id}?`, active: 'runs', body });
    });

    // The action itself: the CLI's function, then back to the run's page saying what was done.
    app.post<{ Params: { id: string } }>(`/runs/:id/${action}`, async (request, reply) => {
      try {
        await c.run(ctx, request.params.id);
      } catch (err) {
        return sendCliError(reply, err, c.refused);
      }
      ctx.logger().info({ workflowId: request.params.id }, c.logged);
      return seeOther(reply, `${href('/runs', request.params.id)}?notice=${c.done}`);
    });
  }

  app.get<{ Params: { id: string; index: string } }>('/runs/:id/files/:index', async (request, reply) => {
    const { id, index } = request.params;
    const notFound = () => sendProblem(reply, 404, 'No such file', `Run "${id}" has no file ${index}.`);
    // An index into the run's own manifest, nothing else: no path, no name, no other run's file.
    if (!/^\d{1,4}$/.test(index)) return notFound();
    let d;
    try {
      d = await showRun(ctx, id, { queryTimeoutMs: 1000 });
    } catch (err) {
      return sendCliError(reply, err, 'No such run');
    }
    const manifestPath = runManifestPath(d);
    if (!manifestPath) return notFound();
    let opened;
    try {
      opened = await (await deps.store.runFiles(manifestPath)).open(Number(index));
    } catch (err) {
      // The manifest or the file is gone (a folder removed, a store emptied).
      if (isMissing(err)) return notFound();
      throw err;
    }
    if (!opened) return notFound();
    return reply
      .type(opened.file.contentType)
      .header('content-length', String(opened.size))
      .header('content-disposition', contentDisposition(opened.file.disposition, opened.file.name))
      .header('cache-control', 'private, no-store')
      .send(opened.stream);
  });
}
