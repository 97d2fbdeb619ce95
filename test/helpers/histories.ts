/**
 * Workflow histories of job runs: fetched from the server, saved as frozen fixtures, read back
 * for replay tests. Frozen histories are never re-recorded: `freezeHistories` refuses to
 * overwrite, and `FROZEN.sha256` pins every frozen file's content.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Client } from '@temporalio/client';
import proto, { type temporal } from '@temporalio/proto';
import { safeFileName } from '../../lib/names.js';
import { pageSearchWorkflow } from '../../workflows/paging.js';

/** The frozen histories: one folder per recorded set, `<date>-<label>`. */
export const FROZEN_DIR = fileURLToPath(new URL('../fixtures/frozen-histories', import.meta.url));
/** `sha256  <set>/<file>` for every frozen file. */
export const FROZEN_SUMS = join(FROZEN_DIR, 'FROZEN.sha256');

export interface RecordedHistory {
  workflowId: string;
  history: temporal.api.history.v1.IHistory;
}

/** Histories of a run and of all its children's runs (continue-as-new included). */
export async function runHistories(client: Client, workflowId: string): Promise<RecordedHistory[]> {
  const out: RecordedHistory[] = [];
  const query = `WorkflowId = '${workflowId}' OR WorkflowType = '${pageSearchWorkflow.name}'`;
  for await (const wf of client.workflow.list({ query })) {
    if (wf.workflowId !== workflowId && !wf.workflowId.startsWith(`${workflowId}/`)) continue;
    const history = await client.workflow.getHandle(wf.workflowId, wf.runId).fetchHistory();
    out.push({ workflowId: wf.workflowId, history });
  }
  return out;
}

const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');

/** The frozen sets (folders), sorted. */
export function frozenSets(): string[] {
  return readdirSync(FROZEN_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
}

/** The pinned checksums: `<set>/<file>` → sha256. */
export function frozenSums(): Map<string, string> {
  const sums = new Map<string, string>();
  for (const line of readFileSync(FROZEN_SUMS, 'utf8').split('\n')) {
    const m = /^([0-9a-f]{64}) {2}(.+)$/.exec(line.trim());
    if (m) sums.set(m[2]!, m[1]!);
  }
  return sums;
}

/** Every frozen file as `<set>/<file>` with the sha256 of its content now. */
export function frozenFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const set of frozenSets()) {
    for (const f of readdirSync(join(FROZEN_DIR, set))
      .filter((n) => n.endsWith('.json'))
      .sort()) {
      files.set(`${set}/${f}`, sha256(readFileSync(join(FROZEN_DIR, set, f))));
    }
  }
  return files;
}

/**
 * Saves histories as a new frozen set `<date>-<label>` and pins their checksums. Refuses when
 * the set exists: a frozen history is never recorded again.
 */
export function freezeHistories(label: string, histories: RecordedHistory[], date = new Date()): string {
  const set = `${date.toISOString().slice(0, 10)}-${safeFileName(label)}`;
  const dir = join(FROZEN_DIR, set);
  if (existsSync(dir)) throw new Error(`frozen set ${set} exists: frozen histories are never re-recorded`);
  mkdirSync(dir, { recursive: true });
  const lines: string[] = [];
  histories.forEach((h, i) => {
    const name = `${String(i).padStart(3, '0')}-${safeFileName(h.workflowId, 200, 'run')}.json`;
    // The proto's own JSON form (enum names, base64 bytes), read back by History.fromObject.
    const text = JSON.stringify({ workflowId: h.workflowId, history: h.history });
    writeFileSync(join(dir, name), text);
    lines.push(`${sha256(text)}  ${set}/${name}`);
  });
  writeFileSync(FROZEN_SUMS, `${readFileSync(FROZEN_SUMS, 'utf8').trimEnd()}\n${lines.join('\n')}\n`);
  return set;
}

/** The workflow type a history ran (from its first event), or null when it does not say. */
export function workflowTypeOf(h: RecordedHistory): string | null {
  return h.history.events?.[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name ?? null;
}

/** Reads the histories of one frozen set. */
export function loadHistories(set: string): RecordedHistory[] {
  const dir = join(FROZEN_DIR, set);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const saved = JSON.parse(readFileSync(join(dir, f), 'utf8')) as { workflowId: string; history: object };
      return {
        workflowId: saved.workflowId,
        history: proto.temporal.api.history.v1.History.fromObject(saved.history),
      };
    });
}
