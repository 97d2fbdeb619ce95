/**
 * Progress of a run, kept by the workflow and answered by the `progress` query.
 */
import { defineQuery, defineSignal } from '@temporalio/workflow';

export interface RunProgress {
  phase:
    | 'starting'
    | 'overview'
    | 'paging'
    | 'enriching'
    | 'asking'
    | 'building'
    | 'rendering'
    | 'done'
    | 'failed';
  callsMade: number;
  callsPlanned: number;
  pages: number;
  records: number;
  creditsSpent: number;
  creditsBudget: number;
  etaSeconds: number | null;
  partial: boolean;
  reasons: string[];
  /** Set while the run waits for the daily rate limit to reset (ISO time). */
  waitingUntil: string | null;
  startedAt: string;
}

/** Reported by a paging child workflow after each page. */
export interface PageDone {
  label: string;
  records: number;
  total: number | null;
  /** Calls this page needed (1). */
  calls: number;
  /** When the child learns the real number of pages, how many it plans in all. */
  plannedPages: number;
}

export const progressQuery = defineQuery<RunProgress>('progress');
export const pageDoneSignal = defineSignal<[PageDone]>('pageDone');

/** Seconds left at the observed pace, or null before anything was measured. */
export function estimateEta(p: RunProgress, nowMs: number): number | null {
  const elapsed = (nowMs - Date.parse(p.startedAt)) / 1000;
  if (p.callsMade === 0 || elapsed <= 0) return null;
  const left = Math.max(0, p.callsPlanned - p.callsMade);
  return Math.round((elapsed / p.callsMade) * left);
}
