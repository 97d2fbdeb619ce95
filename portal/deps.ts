/**
 * What every page of the portal works with (one long-lived CLI context: its settings and its
 * Temporal client; the job files; the store) and how a page, an error or a redirect is sent.
 */
import type { ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CliError } from '../cli/errors.js';
import type { CliContext } from '../cli/context.js';
import { html, page, type PageParts } from './html.js';
import type { PortalStore } from './run-files.js';

/** The portal's dependencies, given to each page module. */
export interface PortalDeps {
  ctx: CliContext;
  /** The job files the portal reads (`vir run`'s, and any it was given). */
  jobFiles(): Promise<string[]>;
  store: PortalStore;
  /** How often the live progress asks the run (ms). */
  liveIntervalMs: number;
  /** Open live-progress streams, ended when the portal closes. */
  streams: Set<ServerResponse>;
  /** Whether the interactive report of a run (`/runs/:id/report`) is served. */
  interactiveReport: boolean;
}

/** Sends a page. */
export function sendPage(reply: FastifyReply, parts: PageParts, status = 200): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').send(page(parts).text);
}

/** Sends a page saying what went wrong (the message is escaped like every value). */
export function sendProblem(
  reply: FastifyReply,
  status: number,
  title: string,
  message: string,
): FastifyReply {
  return sendPage(
    reply,
    {
      title,
      body: html`<p class="problem" role="alert">${message}</p>
        <p><a href="/">Back to the jobs</a></p>`,
    },
    status,
  );
}

/** A redirect after an action (303: the browser GETs the page it names). */
export function seeOther(reply: FastifyReply, to: string): FastifyReply {
  return reply.redirect(to, 303);
}

/** A CliError (a state the user can fix: no such run, a run not completed) as a 4xx page; anything else is thrown on. */
export function sendCliError(reply: FastifyReply, err: unknown, title: string): FastifyReply {
  if (err instanceof CliError) {
    const status = /^no (run|job|schedule|running run)\b/.test(err.message) ? 404 : 409;
    return sendProblem(reply, status, title, err.message);
  }
  throw err;
}

/** The fixed notices an action's redirect may ask a page to show (`?notice=started`). */
const NOTICES: Record<string, string> = {
  started: 'The run started. Its progress shows below.',
  cancelled: 'Cancellation requested: the run stops at its next step.',
  redelivered: 'Redelivered to the destinations that had not received the run.',
  paused: 'The schedule is paused.',
  resumed: 'The schedule runs again.',
};

/** The notice a page shows for `?notice=` (only the fixed ones; anything else shows nothing). */
export function noticeOf(request: FastifyRequest): string | null {
  const key = (request.query as Record<string, unknown> | undefined)?.notice;
  return typeof key === 'string' && Object.hasOwn(NOTICES, key) ? NOTICES[key]! : null;
}
