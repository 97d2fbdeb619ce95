/**
 * Recording workflow histories of a job run (the run and every run of its paging children),
 * as fixtures for replay tests.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@temporalio/client';
import proto, { type temporal } from '@temporalio/proto';

export interface RecordedHistory {
  workflowId: string;
  history: temporal.api.history.v1.IHistory;
}

/** Histories of a run and of all its children's runs (continue-as-new included). */
export async function runHistories(client: Client, workflowId: string): Promise<RecordedHistory[]> {
  const out: RecordedHistory[] = [];
  const query = `WorkflowId = '${workflowId}' OR WorkflowType = 'pageSearchWorkflow'`;
  for await (const wf of client.workflow.list({ query })) {
    if (wf.workflowId !== workflowId && !wf.workflowId.startsWith(`${workflowId}/`)) continue;
    const history = await client.workflow.getHandle(wf.workflowId, wf.runId).fetchHistory();
    out.push({ workflowId: wf.workflowId, history });
  }
  return out;
}

/** Writes histories as JSON files (one per run) into a folder. */
export function saveHistories(dir: string, histories: RecordedHistory[]): void {
  mkdirSync(dir, { recursive: true });
  histories.forEach((h, i) => {
    const name = `${String(i).padStart(3, '0')}-${h.workflowId.replace(/[^A-Za-z0-9._-]+/g, '_')}.json`;
    // The proto's own JSON form (enum names, base64 bytes), read back by History.fromObject.
    writeFileSync(join(dir, name), JSON.stringify({ workflowId: h.workflowId, history: h.history }));
  });
}

/** Reads the histories saved in a folder. */
export function loadHistories(dir: string): RecordedHistory[] {
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
