/**
 * The runs (`GET /runs?job=&kind=&status=`): newest first, the rows `vir runs list` lists,
 * filtered by job, kind and status; and a run's page (`GET /runs/:id`): its phase and live
 * progress while it runs, its calls and failed requests, credits against its budget, why it is
 * partial, its deliveries per destination and its files, as `vir runs show` reads them.
 */
import type { FastifyInstance } from 'fastify';
import { listRuns, runManifestPath, showRun, type RunDetails, type RunRow } from '../../cli/commands/runs.js';
import { JOB_KINDS } from '../../jobs/registry.js';
import { formatDuration } from '../../reports/format.js';
import type { RunDelivery } from '../../shared/delivery.js';
import { describeAttempts, describePhase, failedAttempts } from '../../workflows/progress.js';
import { facts, href, html, statusBadge, table, type SafeHtml } from '../html.js';
import { formatUtc } from '../format.js';
import { kindOfType, loadPortalJobs } from '../jobs-data.js';
import type { RunFiles } from '../run-files.js';
import { noticeOf, sendCliError, sendPage, type PortalDeps } from '../deps.js';

/** Temporal's execution statuses a run may have. */
export const RUN_STATUSES = [
  'RUNNING',
  'COMPLETED',
  'FAILED',
  'CANCELLED',
  'TERMINATED',
  'TIMED_OUT',
] as const;

/** Runs the list shows unless `limit` says otherwise (at most {@link MAX_LIMIT}). */
export const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 500;
/** Runs read to filter by kind or status before the limit. */
const FILTER_SCAN = 2000;

/** The kinds that have an interactive report (`/runs/:id/report`). */
const INTERACTIVE_KINDS = new Set(['market-report', 'fund-match']);

/** The filters of the runs page, from its query: anything unknown is no filter. */
export function runFilters(query: Record<string, unknown>): {
  job?: string;
  kind?: string;
  status?: string;
  limit: number;
} {
  const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
  const job = text(query.job);
  const kind = text(query.kind);
  const status = text(query.status)?.toUpperCase();
  const limitText = text(query.limit);
  const limit =
    limitText && /^\d+$/.test(limitText)
      ? Math.min(MAX_LIMIT, Math.max(1, Number(limitText)))
      : DEFAULT_LIMIT;
  return {
    ...(job && /^[a-z0-9][a-z0-9-]{0,62}$/.test(job) ? { job } : {}),
    ...(kind && JOB_KINDS.some((k) => k.kind === kind) ? { kind } : {}),
    ...(status && (RUN_STATUSES as readonly string[]).includes(status) ? { status } : {}),
    limit,
  };
}

/** The rows of the runs page: `vir runs list`'s rows (newest first), then the kind and status filters. */
export async function portalRuns(
  deps: PortalDeps,
  filters: ReturnType<typeof runFilters>,
): Promise<RunRow[]> {
  const filtered = filters.kind !== undefined || filters.status !== undefined;
  const rows = await listRuns(deps.ctx, {
    ...(filters.job ? { job: filters.job } : {}),
    limit: filtered ? FILTER_SCAN : filters.limit,
  });
  return rows
    .filter((r) => filters.kind === undefined || kindOfType(r.type) === filters.kind)
    .filter((r) => filters.status === undefined || r.status === filters.status)
    .slice(0, filters.limit);
}

function select(
  name: string,
  label: string,
  options: string[],
  chosen: string | undefined,
  any: string,
): SafeHtml {
  return html`<div>
    <label for="f-${name}">${label}</label
    ><select id="f-${name}" name="${name}">
      <option value="">${any}</option>
      ${options.map((o) => html`<option value="${o}" ${o === chosen ? html` selected` : ''}>${o.toLowerCase() === o ? o : o.toLowerCase().replace(/_/g, ' ')}</option>`)}
    </select>
  </div>`;
}

function runRow(r: RunRow): SafeHtml {
  return html`<tr>
    <th scope="row"><a href="${href('/runs', r.workflowId)}">${r.workflowId}</a></th>
    <td>${r.jobId ?? '-'}</td>
    <td>${kindOfType(r.type) ?? r.type}</td>
    <td>${statusBadge(r.status)}</td>
    <td>${r.trigger ?? '-'}${r.scheduledBy ? html`<br /><span class="note">${r.scheduledBy}</span>` : ''}</td>
    <td>${formatUtc(r.startTime)}</td>
    <td>${formatUtc(r.closeTime)}</td>
  </tr>`;
}

/** The live part of a running run: each figure where the script writes it, readable without it. */
function progressSection(id: string, d: RunDetails): SafeHtml {
  const p = d.progress;
  const field = (name: string, value: string) => html`<span data-field="${name}">${value}</span>`;
  return html`<section aria-labelledby="progress-heading" data-events="${href('/runs', id, 'events')}">
    <h2 id="progress-heading">Progress</h2>
    <p data-field="live" aria-live="polite" class="note">
      ${p ? 'As the run reported it when this page was made; it updates as the run goes.' : (d.progressError ?? 'No progress yet.')}
    </p>
    ${p ? html`<progress max="${Math.max(1, p.callsPlanned)}" value="${p.callsMade}" aria-label="Calls made of those planned">${p.callsMade} of ${p.callsPlanned}</progress>` : ''}
    ${facts([
      ['Phase', field('phase', p ? describePhase(p) : '-')],
      ['Calls', field('calls', p ? `${p.callsMade} of ${p.callsPlanned}` : '-')],
      ['Pages', field('pages', p ? String(p.pages) : '-')],
      ['Records', field('records', p ? String(p.records) : '-')],
      ['Failed requests', field('failed', p ? String(failedAttempts(p.attempts)) : '-')],
      ['Credits', field('credits', p ? `${p.creditsSpent} of ${p.creditsBudget}` : '-')],
      ['Time left', field('eta', p?.etaSeconds != null ? `${p.etaSeconds} s` : '-')],
    ])}
  </section>`;
}

/** What a finished run did: calls and requests, credits against its budget, why it is partial. */
function resultSection(d: RunDetails, files: RunFiles | null): SafeHtml {
  const r = d.result as (Record<string, unknown> & { partial?: unknown; reasons?: unknown }) | null;
  if (!r) return html``;
  const num = (v: unknown) => (typeof v === 'number' ? String(v) : '-');
  const attempts = files?.manifest.calls?.attempts;
  const reasons = Array.isArray(r.reasons) ? r.reasons.filter((x): x is string => typeof x === 'string') : [];
  return html`<h2>Result</h2>
    ${facts(
      [
        ['Outcome', statusBadge(r.partial ? 'partial' : 'complete')],
        ['Calls', num(r.callsMade)],
        ['Requests sent', attempts ? String(attempts.attempted) : '-'],
        ['Failed requests', attempts ? String(attempts.failed) : '-'],
        ['Pages', num(r.pages)],
        ['Records', num(r.records)],
        ['Credits spent', `${num(r.creditsSpent)} of ${num(r.creditsBudget)} budgeted`],
      ],
      'result',
    )}
    ${
      reasons.length > 0
        ? html`<h3>Why the run is partial</h3>
            <ul class="lines">
              ${reasons.map((x) => html`<li>${x}</li>`)}
            </ul>`
        : ''
    }`;
}

function deliverySection(id: string, d: RunDetails): SafeHtml {
  const delivery = d.redelivery ?? (d.result?.delivery as RunDelivery | undefined);
  if (!delivery) return html``;
  const rows = delivery.outcomes.map(
    (o) =>
      html`<tr>
        <th scope="row">${o.destination}</th>
        <td>${o.kind}</td>
        <td>${statusBadge(o.already ? 'already delivered' : o.ok ? 'ok' : 'failed')}</td>
        <td>${o.detail}</td>
        <td>${formatUtc(o.deliveredAt ?? null)}</td>
      </tr>`,
  );
  const failed = delivery.outcomes.some((o) => !o.ok);
  return html`<h2>Delivery</h2>
    <p>
      ${statusBadge(delivery.status)}${delivery.reason ? html` <span class="note">${delivery.reason}</span>` : ''}${d.redelivery ? html` <span class="note">(after a redelivery)</span>` : ''}
    </p>
    ${table('Deliveries per destination', ['Destination', 'Kind', 'Outcome', 'Detail', 'Delivered'], rows)}
    ${failed && d.status === 'COMPLETED' ? html`<p><a class="button secondary" href="${href('/runs', id, 'redeliver')}">Redeliver to those that did not get it…</a></p>` : ''}`;
}

function filesSection(
  id: string,
  d: RunDetails,
  files: RunFiles | null,
  filesError: string | null,
  interactive: boolean,
): SafeHtml {
  const kind = kindOfType(d.type);
  const report =
    interactive && d.status === 'COMPLETED' && kind !== null && INTERACTIVE_KINDS.has(kind)
      ? html`<p><a class="button" href="${href('/runs', id, 'report')}">Open the interactive report</a></p>`
      : '';
  if (filesError)
    return html`<h2>Files</h2>
      ${report}
      <p class="problem">The run's files cannot be read: ${filesError}</p>`;
  if (!files)
    return report
      ? html`<h2>Files</h2>
          ${report}`
      : html``;
  const rows = files.files.map((f) => {
    const url = href('/runs', id, 'files', String(f.index));
    return html`<tr>
      <th scope="row"><a href="${url}">${f.name}</a></th>
      <td>${fileTypeText(f.name)}</td>
      <td>
        ${f.disposition === 'inline' ? html`<a href="${url}">Open</a>` : html`<a href="${url}" download>Download</a>`}
      </td>
    </tr>`;
  });
  return html`<h2>Files</h2>
    ${report}${table("The run's files", ['File', 'Type', ''], rows, 'none.')}`;
}

/** What a file is, in words a reader knows: `PDF`, `Excel workbook`, `CSV`, `JSON`. */
function fileTypeText(name: string): string {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? '';
  const words: Record<string, string> = { pdf: 'PDF', xlsx: 'Excel workbook', csv: 'CSV', json: 'JSON' };
  return words[ext] ?? (ext ? ext.toUpperCase() : 'file');
}

/** Registers the runs list and the run page. */
export function registerRunPages(app: FastifyInstance, deps: PortalDeps): void {
  const { ctx } = deps;

  app.get('/runs', async (request, reply) => {
    const filters = runFilters(request.query as Record<string, unknown>);
    const [rows, loaded] = await Promise.all([
      portalRuns(deps, filters),
      loadPortalJobs(await deps.jobFiles()),
    ]);
    const jobIds = [
      ...new Set([...loaded.jobs.map((j) => j.job.id), ...(filters.job ? [filters.job] : [])]),
    ].sort();
    const body = html`<form method="get" action="/runs" class="filters" aria-label="Filter the runs">
        ${select('job', 'Job', jobIds, filters.job, 'every job')}
        ${select(
          'kind',
          'Kind',
          JOB_KINDS.map((k) => k.kind),
          filters.kind,
          'every kind',
        )}
        ${select('status', 'Status', [...RUN_STATUSES], filters.status, 'every status')}
        <div>
          <label for="f-limit">At most</label
          ><input
            id="f-limit"
            name="limit"
            type="number"
            min="1"
            max="${MAX_LIMIT}"
            value="${filters.limit}"
          />
        </div>
        <button type="submit">Show</button>
      </form>
      ${table('Runs, newest first', ['Run', 'Job', 'Kind', 'Status', 'Trigger', 'Started', 'Closed'], rows.map(runRow), 'no runs.')}`;
    return sendPage(reply, { title: 'Runs', active: 'runs', body });
  });

  app.get<{ Params: { id: string } }>('/runs/:id', async (request, reply) => {
    const id = request.params.id;
    // `/runs/` with no id names no run.
    if (id.trim() === '') return reply.code(404).send('No such run');
    let d: RunDetails;
    try {
      d = await showRun(ctx, id, { queryTimeoutMs: 3000 });
    } catch (err) {
      return sendCliError(reply, err, 'No such run');
    }
    const manifestPath = runManifestPath(d);
    let files: RunFiles | null = null;
    let filesError: string | null = null;
    if (manifestPath) {
      try {
        files = await deps.store.runFiles(manifestPath);
      } catch (err) {
        filesError = (err as Error).message.split('\n')[0] ?? 'unknown error';
      }
    }
    const running = d.status === 'RUNNING';
    const body = html`${facts(
        [
          ['Status', statusBadge(d.status)],
          [
            'Job',
            d.jobId ? html`<a href="${`/runs?job=${encodeURIComponent(d.jobId)}`}">${d.jobId}</a>` : '-',
          ],
          ['Kind', kindOfType(d.type) ?? d.type],
          ['Trigger', `${d.trigger ?? '-'}${d.scheduledBy ? ` (schedule ${d.scheduledBy})` : ''}`],
          ['Started', formatUtc(d.startTime)],
          ['Closed', formatUtc(d.closeTime)],
          ['Run time', d.closeTime ? formatDuration(d.closeTime.getTime() - d.startTime.getTime()) : '-'],
        ],
        'run',
      )}
      ${running ? progressSection(id, d) : ''}
      ${running ? html`<p><a class="button secondary" href="${href('/runs', id, 'cancel')}">Cancel the run…</a></p>` : ''}
      ${d.progress && running ? html`<p class="note">Requests so far: ${describeAttempts(d.progress.attempts)}</p>` : ''}
      ${
        d.failure
          ? html`<h2>Why it failed</h2>
              <p class="problem">${d.failure}</p>`
          : ''
      }
      ${resultSection(d, files)} ${deliverySection(id, d)}
      ${filesSection(id, d, files, filesError, deps.interactiveReport)}
      <p><a href="/runs">All runs</a></p>`;
    return sendPage(reply, {
      title: `Run ${id}`,
      active: 'runs',
      body,
      notice: noticeOf(request),
      scripts: running ? ['/static/live.js'] : [],
    });
  });
}
