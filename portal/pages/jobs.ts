/**
 * The jobs page (`GET /`): every job of the job files with its kind, schedule in words, next
 * run (in its time zone), whether it is paused, its last run and the credits it spent this
 * month; the schedules no job file names; and a job's plan (`GET /jobs/:id/plan`) with the form
 * that starts a run of it now (`POST /jobs/:id/run`, as `vir run` starts one).
 */
import type { FastifyInstance } from 'fastify';
import { planLines } from '../../cli/commands/run.js';
import type { ScheduleRow } from '../../cli/commands/schedules.js';
import { refuseBadJobs } from '../../cli/job-checks.js';
import { lookAheadLines } from '../../cli/look-ahead.js';
import { startJobRun } from '../../cli/run-job.js';
import { serviceLimits } from '../../cli/service-limits.js';
import { actionForm, facts, href, html, statusBadge, table, type SafeHtml } from '../html.js';
import { formatIn, formatUtc, scheduleInWords } from '../format.js';
import { jobsOverview, locatePortalJob, type JobsOverview, type PortalJob } from '../jobs-data.js';
import { noticeOf, seeOther, sendCliError, sendPage, sendProblem, type PortalDeps } from '../deps.js';

/** The schedule's state and next run, as Temporal has them (the job file's words beside them). */
function scheduleCells(pj: PortalJob, row: ScheduleRow | undefined): SafeHtml[] {
  const schedule = pj.job.schedule;
  if (!schedule || pj.scheduleId === null)
    return [html`<td>none: run by hand</td>`, html`<td>-</td>`, html`<td>-</td>`];
  const words = html`<td>${scheduleInWords(schedule)}</td>`;
  if (!row) {
    return [
      words,
      html`<td class="note">not applied: <code>vir schedules apply ${pj.file}</code></td>`,
      html`<td>${statusBadge('not applied')}</td>`,
    ];
  }
  const next = row.paused
    ? html`<span class="note">none while paused</span>`
    : row.nextRun
      ? formatIn(row.nextRun, schedule.timezone)
      : '-';
  const toggle = row.paused ? 'resume' : 'pause';
  const link = html` <a href="${href('/schedules', row.scheduleId, toggle)}"
    >${row.paused ? 'Resume…' : 'Pause…'}</a
  >`;
  return [
    words,
    html`<td>${next}</td>`,
    html`<td>${statusBadge(row.paused ? 'paused' : 'active')}${link}</td>`,
  ];
}

function creditsCell(overview: JobsOverview, jobId: string): SafeHtml {
  const ledger = overview.ledger;
  if ('view' in ledger && ledger.error === null) {
    return html`<td class="num">${ledger.view?.spent.month.byJob[jobId] ?? 0}</td>`;
  }
  return html`<td class="num note">unknown</td>`;
}

function jobRows(overview: JobsOverview): SafeHtml[] {
  const byId = new Map(overview.schedules.map((s) => [s.scheduleId, s]));
  return overview.jobs.map((pj) => {
    const last = overview.lastRuns.get(pj.job.id);
    const row = pj.scheduleId === null ? undefined : byId.get(pj.scheduleId);
    return html`<tr>
      <th scope="row">
        <a href="${href('/jobs', pj.job.id, 'plan')}">${pj.job.id}</a><br /><span class="note"
          >${pj.job.title}</span
        >
      </th>
      <td>${pj.job.kind}</td>
      ${scheduleCells(pj, row)}
      <td>
        ${last ? html`<a href="${href('/runs', last.workflowId)}">${statusBadge(last.status)}</a> <span class="note">${formatUtc(last.startTime)}</span>` : html`<span class="note">no run yet</span>`}
      </td>
      ${creditsCell(overview, pj.job.id)}
      <td><a class="button secondary" href="${href('/jobs', pj.job.id, 'plan')}">Plan and run…</a></td>
    </tr>`;
  });
}

function otherSchedules(overview: JobsOverview): SafeHtml {
  const known = new Set(overview.jobs.map((j) => j.scheduleId));
  const rows = overview.schedules
    .filter((s) => !known.has(s.scheduleId))
    .map(
      (s) =>
        html`<tr>
          <th scope="row">${s.scheduleId}</th>
          <td>${s.workflowType ?? '-'}</td>
          <td>${s.managedBy ? `vir, group ${s.group ?? '-'}` : 'not managed by vir'}</td>
          <td>${s.paused ? html`<span class="note">none while paused</span>` : formatUtc(s.nextRun)}</td>
          <td>
            ${statusBadge(s.paused ? 'paused' : 'active')}
            <a href="${href('/schedules', s.scheduleId, s.paused ? 'resume' : 'pause')}"
              >${s.paused ? 'Resume…' : 'Pause…'}</a
            >
          </td>
        </tr>`,
    );
  return table(
    'Schedules in Temporal that no job file here names',
    ['Schedule', 'Workflow', 'Managed', 'Next run', 'State'],
    rows,
    'none.',
  );
}

function ledgerNote(overview: JobsOverview): SafeHtml {
  const ledger = overview.ledger;
  if ('view' in ledger && ledger.error === null) return html``;
  return html`<p class="note">
    Credits this month are unknown: the account's ledger cannot be read (${ledger.error}).
  </p>`;
}

/** Registers the jobs page, the plan page and the run action. */
export function registerJobPages(app: FastifyInstance, deps: PortalDeps): void {
  const { ctx } = deps;

  app.get('/', async (request, reply) => {
    const overview = await jobsOverview(ctx, await deps.jobFiles());
    const problems = overview.problems.map((p) => html`<li><strong>${p.file}</strong>: ${p.message}</li>`);
    const body = html`${table(
        'Jobs of the job files',
        [
          'Job',
          'Kind',
          'Schedule',
          'Next run',
          'State',
          'Last run',
          { text: 'Credits this month', num: true },
          'Run',
        ],
        jobRows(overview),
        'no job files found (config/jobs/*.yaml).',
      )}
      ${ledgerNote(overview)}
      ${
        problems.length > 0
          ? html`<h2>Job files that could not be read</h2>
              <ul class="problem">
                ${problems}
              </ul>`
          : ''
      }
      <h2>Other schedules</h2>
      ${otherSchedules(overview)}`;
    return sendPage(reply, { title: 'Jobs', active: 'jobs', body, notice: noticeOf(request) });
  });

  app.get<{ Params: { id: string } }>('/jobs/:id/plan', async (request, reply) => {
    const found = await locatePortalJob(request.params.id, await deps.jobFiles());
    if (!found)
      return sendProblem(reply, 404, 'No such job', `No job "${request.params.id}" in the job files.`);
    const settings = ctx.settings();
    const limits = await serviceLimits(settings);
    const lines = planLines(found.job, found.file, limits);
    let ahead: string[];
    try {
      ahead = await lookAheadLines(found.job, settings, ctx.env);
    } catch (err) {
      ahead = [`look ahead: ${(err as Error).message}`];
    }
    const action = href('/jobs', found.job.id, 'run');
    const body = html`${facts([
        ['Job', found.job.id],
        ['Title', found.job.title],
        ['Kind', found.job.kind],
        ['Job file', found.file],
        ['Schedule', found.job.schedule ? scheduleInWords(found.job.schedule) : 'none: run by hand'],
      ])}
      <h2 id="plan-heading">What a run does</h2>
      <pre class="plan" aria-labelledby="plan-heading">${[...lines, ...ahead].join('\n')}</pre>
      <h2>Run it now</h2>
      <p>A run starts at once, as <code>vir run ${found.job.id}</code> starts it; its page follows it.</p>
      ${actionForm(action, request.portalCsrf, 'Run now')}
      <p><a href="/">Back to the jobs</a></p>`;
    return sendPage(reply, { title: `Plan of ${found.job.id}`, active: 'jobs', body });
  });

  app.post<{ Params: { id: string } }>('/jobs/:id/run', async (request, reply) => {
    const found = await locatePortalJob(request.params.id, await deps.jobFiles());
    if (!found)
      return sendProblem(reply, 404, 'No such job', `No job "${request.params.id}" in the job files.`);
    try {
      await refuseBadJobs(ctx, [found.job], found.file);
    } catch (err) {
      return sendCliError(reply, err, `${found.job.id} was not started`);
    }
    const handle = await startJobRun(await ctx.temporal(), ctx.settings(), found.job);
    ctx.logger().info({ workflowId: handle.workflowId, job: found.job.id }, 'run started from the portal');
    return seeOther(reply, `${href('/runs', handle.workflowId)}?notice=started`);
  });
}
