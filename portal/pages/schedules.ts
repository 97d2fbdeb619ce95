/**
 * Pausing and resuming a schedule: a page that asks to confirm (`GET /schedules/:id/pause`,
 * `…/resume`) and the action it posts (`POST`), made by `vir schedules pause|unpause`'s own
 * functions.
 */
import { ScheduleNotFoundError } from '@temporalio/client';
import type { FastifyInstance } from 'fastify';
import { pauseSchedule, unpauseSchedule } from '../../cli/commands/schedules.js';
import { actionForm, facts, href, html, statusBadge } from '../html.js';
import { formatUtc } from '../format.js';
import { seeOther, sendCliError, sendPage, sendProblem, type PortalDeps } from '../deps.js';

const ACTIONS = {
  pause: { verb: 'Pause', done: 'paused', note: 'paused in the portal', run: pauseSchedule },
  resume: { verb: 'Resume', done: 'resumed', note: 'resumed in the portal', run: unpauseSchedule },
} as const;

type Action = keyof typeof ACTIONS;

/** Registers the confirmation pages and the actions. */
export function registerSchedulePages(app: FastifyInstance, deps: PortalDeps): void {
  const { ctx } = deps;

  for (const action of Object.keys(ACTIONS) as Action[]) {
    const a = ACTIONS[action];

    app.get<{ Params: { id: string } }>(`/schedules/:id/${action}`, async (request, reply) => {
      const id = request.params.id;
      const client = await ctx.temporal();
      let desc;
      try {
        desc = await client.schedule.getHandle(id).describe();
      } catch (err) {
        if (err instanceof ScheduleNotFoundError)
          return sendProblem(reply, 404, 'No such schedule', `No schedule "${id}".`);
        throw err;
      }
      const body = html`${facts([
          ['Schedule', id],
          ['State', statusBadge(desc.state.paused ? 'paused' : 'active')],
          [
            'Next run',
            desc.state.paused ? 'none while paused' : formatUtc(desc.info.nextActionTimes[0] ?? null),
          ],
          ['Runs so far', String(desc.info.numActionsTaken)],
        ])}
        <p>
          ${action === 'pause' ? 'While paused, the schedule starts no run; runs going on now go on.' : 'The schedule starts its runs again from its next time.'}
        </p>
        ${actionForm(href('/schedules', id, action), request.portalCsrf, `${a.verb} the schedule`)}
        <p><a href="/">Back to the jobs</a></p>`;
      return sendPage(reply, { title: `${a.verb} schedule ${id}?`, active: 'jobs', body });
    });

    app.post<{ Params: { id: string } }>(`/schedules/:id/${action}`, async (request, reply) => {
      try {
        await a.run(ctx, request.params.id, a.note);
      } catch (err) {
        return sendCliError(reply, err, `The schedule was not ${a.done}`);
      }
      ctx.logger().info({ scheduleId: request.params.id }, `schedule ${a.done} from the portal`);
      return seeOther(reply, `/?notice=${a.done}`);
    });
  }
}
