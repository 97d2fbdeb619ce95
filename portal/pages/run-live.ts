/**
 * A run's live progress as server-sent events (`GET /runs/:id/events`): while the run runs, a
 * `progress` event each time its progress query (workflows/progress.ts, what `vir runs follow`
 * reads) answers something new; when it has ended, one `done` event with its status, and the
 * stream ends.
 */
import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { WorkflowNotFoundError } from '@temporalio/client';
import type { FastifyInstance } from 'fastify';
import { describePhase, failedAttempts, progressQuery, type RunProgress } from '../../workflows/progress.js';
import { sendProblem, type PortalDeps } from '../deps.js';

/** What a `progress` event carries. */
export interface LiveProgress {
  phase: string;
  callsMade: number;
  callsPlanned: number;
  pages: number;
  records: number;
  failedRequests: number;
  creditsSpent: number;
  creditsBudget: number;
  etaSeconds: number | null;
  partial: boolean;
  reasons: string[];
}

/** What a `done` event carries. */
export interface LiveDone {
  status: string;
  closeTime: string | null;
}

function liveOf(p: RunProgress): LiveProgress {
  return {
    phase: describePhase(p),
    callsMade: p.callsMade,
    callsPlanned: p.callsPlanned,
    pages: p.pages,
    records: p.records,
    failedRequests: failedAttempts(p.attempts),
    creditsSpent: p.creditsSpent,
    creditsBudget: p.creditsBudget,
    etaSeconds: p.etaSeconds,
    partial: p.partial,
    reasons: p.reasons,
  };
}

/** Writes one event. */
function send(res: ServerResponse, event: string, data: unknown): void {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

/** Seconds without news after which a comment keeps the connection open through proxies. */
const KEEP_ALIVE_MS = 15_000;

/** Registers the events of a run. */
export function registerRunLive(app: FastifyInstance, deps: PortalDeps): void {
  app.get<{ Params: { id: string } }>('/runs/:id/events', async (request, reply) => {
    const client = await deps.ctx.temporal();
    const handle = client.workflow.getHandle(request.params.id);
    try {
      await handle.describe();
    } catch (err) {
      if (err instanceof WorkflowNotFoundError)
        return sendProblem(reply, 404, 'No such run', `No run "${request.params.id}".`);
      throw err;
    }
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-content-type-options': 'nosniff',
      'x-accel-buffering': 'no',
    });
    res.write('retry: 3000\n\n');
    deps.streams.add(res);
    const stop = new AbortController();
    res.once('close', () => stop.abort());
    let last = '';
    let quietSince = Date.now();
    try {
      while (!stop.signal.aborted) {
        const desc = await handle.describe().catch(() => null);
        if (desc && desc.status.name !== 'RUNNING') {
          const done: LiveDone = {
            status: desc.status.name,
            closeTime: desc.closeTime?.toISOString() ?? null,
          };
          send(res, 'done', done);
          break;
        }
        // Before the run's first workflow task, and while a worker is away, the query does not answer.
        const progress = await handle.query(progressQuery).catch(() => null);
        const text = progress ? JSON.stringify(liveOf(progress)) : '';
        if (progress && text !== last) {
          res.write(`event: progress\ndata: ${text}\n\n`);
          last = text;
          quietSince = Date.now();
        } else if (Date.now() - quietSince > KEEP_ALIVE_MS) {
          res.write(': still running\n\n');
          quietSince = Date.now();
        }
        await sleep(deps.liveIntervalMs, undefined, { signal: stop.signal }).catch(() => undefined);
      }
    } finally {
      deps.streams.delete(res);
      res.end();
    }
  });
}
