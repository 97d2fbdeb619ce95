/**
 * The job kinds the runner knows. The CLI, the schedules and the workers read this list and
 * name no kind: adding a kind is a folder under jobs/ and one line here.
 */
import type { AnyJobKind } from './kind.js';
import { deckTriageKind } from './deck-triage/index.js';
import { fundMatchKind } from './fund-match/index.js';
import { investorShortlistKind } from './investor-shortlist/index.js';
import { marketReportKind } from './market-report/index.js';
import { prospectListKind } from './prospect-list/index.js';
import { smokeKind } from './smoke/index.js';

export const JOB_KINDS = [
  deckTriageKind,
  fundMatchKind,
  investorShortlistKind,
  marketReportKind,
  prospectListKind,
  smokeKind,
] as const satisfies readonly AnyJobKind[];

/** The job `vir demo` runs from a fresh clone (the embedded default). */
export const DEMO_JOB = { file: 'jobs/market-report/examples/demo.yaml', id: 'demo-weekly' } as const;

/** A validated job of any registered kind. */
export type AnyJob = Parameters<(typeof JOB_KINDS)[number]['estimate']>[0];

/** The kind of this name, or undefined. */
export function findKind(kind: string): AnyJobKind | undefined {
  return JOB_KINDS.find((k) => k.kind === kind);
}

/** Workflow types of every kind (`vir runs` lists these). */
export const JOB_WORKFLOW_TYPES: readonly string[] = JOB_KINDS.map((k) => k.workflow.name);
