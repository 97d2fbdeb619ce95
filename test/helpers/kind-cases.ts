/**
 * Each registered job kind's part of the workflow-decision tests on the time-skipping server,
 * in the kind's own test folder (`test/jobs/<kind>/kind-case.ts`, exporting `kindCase`): its
 * activities as stubs answering plausibly, which every stub worker registers
 * (test/helpers/stub-activities.ts), and the checks of its own decisions, which
 * test/workflows/skipping/kind-registry.test.ts makes beside the ones every kind gets. The kinds
 * come from the registry (jobs/registry.ts): neither file names one. `kindParts` loads a kind's
 * other parts the same way (the service variants', test/helpers/variant-cases.ts).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { WorkflowFailedError } from '@temporalio/client';
import { JOB_KINDS, type AnyJob } from '../../jobs/registry.js';
import type { JobRunResult } from '../../workflows/engine.js';
import type { StubFn, StubKit, StubOptions } from './stub-activities.js';

/** A job of any kind, its fields read freely by the checks. */
export type Job = AnyJob & Record<string, any>;

/** A kind's part of the tests every kind gets. */
export interface KindCase {
  /** The kind's own activities (`kind.activities`), as stubs answering plausibly. */
  activities: Record<string, StubFn>;
  /** Which of the kind's example files, by its name (default the first). */
  example?: string;
  stubs?: StubOptions;
  /** The kind's phases after `starting`, in order (`?`: no activity need start in it). */
  phases: string[];
  /** The snapshot its build made (under the run's key), which the manifest commits; null: none. */
  snapshot: string | null;
  /** The kind's own decisions. */
  check(kit: StubKit, result: JobRunResult & Record<string, any>, job: Job): void;
  /** A budget too small for every paid call: the job changed, and what the run must say. */
  short?: {
    job(job: Job): Job;
    stubs?: StubOptions;
    check(kit: StubKit, outcome: { result?: JobRunResult; error?: WorkflowFailedError }, job: Job): void;
  };
}

/** The operations the run called, in order. */
export const ops = (kit: StubKit) => kit.operations();

/** The parameters of each call of one operation, in order. */
export const paramsOf = (kit: StubKit, operation: string) =>
  kit
    .calls()
    .filter((c) => c.operation === operation)
    .map((c) => c.input.params as Record<string, any>);

/** The stored names of each call of one operation, in order. */
export const namesOf = (kit: StubKit, operation: string) =>
  kit
    .calls()
    .filter((c) => c.operation === operation)
    .map((c) => c.input.name as string);

/** Where the run stored the call of this name. */
export const refOf = (kit: StubKit, name: string) => `${kit.calls()[0]!.input.runKey}/${name}.json`;

/** The file of a kind's part `part` of the tests every kind gets, from the repository root. */
export function kindCaseFile(kind: string, part = 'kind-case'): string {
  return `test/jobs/${kind}/${part}.ts`;
}

/**
 * The part `part` of every registered kind that has it (`test/jobs/<kind>/<part>.ts`, its export
 * `name`), by kind. A kind without the file is left out: the test that needs it names it.
 */
export async function kindParts<T>(part: string, name: string): Promise<Map<string, T>> {
  const parts = new Map<string, T>();
  for (const { kind } of JOB_KINDS) {
    const file = new URL(`../jobs/${kind}/${part}.ts`, import.meta.url);
    if (!existsSync(fileURLToPath(file))) continue;
    const mod = (await import(file.href)) as Record<string, T | undefined>;
    const value = mod[name];
    if (value === undefined) throw new Error(`${kindCaseFile(kind, part)} exports no ${name}`);
    parts.set(kind, value);
  }
  return parts;
}

let loading: Promise<Map<string, KindCase>> | null = null;

/** The case of every registered kind that has its file, by kind (loaded once). */
export function kindCases(): Promise<Map<string, KindCase>> {
  loading ??= kindParts<KindCase>('kind-case', 'kindCase');
  return loading;
}

/** Every registered kind's activities as stubs (those of kinds with a case). */
export async function kindActivityStubs(): Promise<Record<string, StubFn>> {
  const stubs: Record<string, StubFn> = {};
  for (const [kind, c] of await kindCases()) {
    for (const [name, fn] of Object.entries(c.activities)) {
      if (name in stubs) throw new Error(`stub activity ${name} of ${kind} is also another kind's`);
      stubs[name] = fn;
    }
  }
  return stubs;
}
