/**
 * PDF/UA-1 checks with veraPDF: runs the checker jar that scripts/build-verapdf.sh builds from
 * tools/verapdf (veraPDF's validation library, the PDF/UA-1 profile) and reads its JSON lines.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The checker jar, built by scripts/build-verapdf.sh (run by scripts/setup.sh). */
export const VERAPDF_JAR = fileURLToPath(new URL('../../.tools/verapdf/vir-verapdf.jar', import.meta.url));

/** One failed rule of the PDF/UA-1 profile, with how many of its checks failed. */
export interface VeraFailure {
  /** Clause of ISO 14289-1 (e.g. "7.1", "7.18.1", "7.21.4.1"). */
  clause: string;
  /** Test number within the clause (veraPDF's rule id is clause + test). */
  test: number;
  /** The rule's text. */
  description: string | null;
  /** The first failure's message, with its arguments filled in. */
  message: string | null;
  /** Failed checks of this rule. */
  count: number;
  /** Where the first failure is, in veraPDF's object path (e.g. root/document[0]/pages[0]/...). */
  sample: string | null;
}

/** The checker's verdict on one file. */
export interface VeraReport {
  file: string;
  compliant: boolean;
  flavour: 'ua1';
  failures: VeraFailure[];
  /** Set when the file could not be read or parsed (then compliant is false and failures empty). */
  error?: string;
}

/** "7.1-3": a failure's rule in one short string, for assertions and messages. */
export function ruleKey(f: Pick<VeraFailure, 'clause' | 'test'>): string {
  return `${f.clause}-${f.test}`;
}

/** The failures in one line each, for an assertion's message. */
export function describeFailures(report: VeraReport): string {
  if (report.error) return `${report.file}: ${report.error}`;
  return report.failures
    .map((f) => `${ruleKey(f)} x${f.count}: ${f.message ?? f.description ?? ''} @ ${f.sample ?? ''}`)
    .join('\n');
}

/**
 * Validates each file against PDF/UA-1, one JVM for all of them. Resolves with one report per path
 * in the same order; rejects when the jar is missing or the checker fails other than by finding a
 * file non-compliant (exit 1) or unreadable (exit 2 with that file's `error`).
 */
export async function validatePdfUa(paths: string[]): Promise<VeraReport[]> {
  if (paths.length === 0) return [];
  if (!existsSync(VERAPDF_JAR)) {
    throw new Error(
      `veraPDF checker not built: ${VERAPDF_JAR} is missing (run scripts/setup.sh, or scripts/build-verapdf.sh)`,
    );
  }
  const args = [
    // A short-lived check on a small machine: one GC thread, no JIT tiers beyond C1, a deep
    // stack for veraPDF's recursive structure-tree rules.
    '-Xss8m',
    '-XX:+UseSerialGC',
    '-XX:TieredStopAtLevel=1',
    '-Xshare:auto',
    '-Djava.awt.headless=true',
    '-jar',
    VERAPDF_JAR,
    ...paths,
  ];
  const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>(
    (resolve, reject) => {
      execFile(
        'java',
        args,
        { timeout: 180_000, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' },
        (err, stdout, stderr) => {
          if (err && typeof err.code !== 'number') {
            reject(
              new Error(
                err.code === 'ENOENT'
                  ? 'java not found: the veraPDF checker needs Java 17 or newer (run scripts/setup.sh)'
                  : `veraPDF checker failed: ${err.message}${err.killed ? ' (timed out)' : ''}\n${stderr}`,
              ),
            );
            return;
          }
          resolve({ code: err ? (err.code as number) : 0, stdout, stderr });
        },
      );
    },
  );
  const reports = stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as VeraReport);
  if (code > 2 || reports.length !== paths.length) {
    throw new Error(
      `veraPDF checker exited ${code} with ${reports.length} of ${paths.length} reports\n${stderr}`,
    );
  }
  return reports;
}
