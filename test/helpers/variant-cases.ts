/**
 * Each registered kind's part of test/jobs/service-variants.test.ts, in the kind's own test
 * folder (`test/jobs/<kind>/variant-case.ts`, exporting `variantCase`): its example job made
 * smaller, what a run of it gave that must not depend on how the service reads the spec, and
 * how a run through a variant must compare with the plain run. The test names no kind.
 */
import type { JobRunResult } from '../../workflows/engine.js';
import { kindParts } from './kind-cases.js';
import type { ReportDigest } from './report-digest.js';
import type { ServiceVariant } from './service-variants.js';

/** What the comparisons read of a run's manifest. */
export interface Manifest {
  status: string;
  notProvided: string[];
  startedAt: string;
  charts: number;
  calls: { total: number; byOperation: Record<string, number> };
}

/** What a run of a kind gave, reduced to what must not depend on how the service reads the spec. */
export interface Outcome {
  manifest: Manifest;
  /** The kind's figures (the report model, the summary), masked for run ids and times. */
  figures: Record<string, unknown>;
  /** What a person reads (PDF text and workbook cells), when the kind writes a report. */
  digest: ReportDigest | null;
}

/** One finished run, as a kind's case reads it. */
export interface RunRead {
  result: JobRunResult;
  manifest: Manifest;
  /** The run's folder in the store (`<store>/runs/<workflow id>`). */
  runDir: string;
  /** The figures with the run's ids and times masked. */
  mask: (v: unknown) => Record<string, unknown>;
  /** The account's balance before the run, and now, as the service keeps it. */
  balanceBefore: number;
  balance: () => number;
}

/** A kind's part of the service variants' test. */
export interface VariantCase {
  /**
   * Makes the kind's example job (its demo when it has one, as the job file holds it) smaller,
   * in place: shorter lists, fewer records, enrichments and pages (still more than one page where
   * the service pages), and only the files the comparison reads. Every field a variant changes is
   * still read.
   */
  smaller?(job: Record<string, unknown>): void;
  /** What the run gave that must not depend on how the service reads the spec. */
  outcome(run: RunRead): Promise<Omit<Outcome, 'manifest'>> | Omit<Outcome, 'manifest'>;
  /** Expects the run through `v` to give what the plain run gave, except what `v` changed. */
  compare(plain: Outcome, got: Outcome, v: ServiceVariant): void;
}

/** The case of every registered kind that has its file, by kind. */
export function variantCases(): Promise<Map<string, VariantCase>> {
  return kindParts<VariantCase>('variant-case', 'variantCase');
}
