/**
 * LibreOffice conversions at the cost of one start: each LibreOffice process costs seconds
 * before it converts anything, so a test file converts every file it needs in one
 * `soffice --convert-to` (several files to one format), and starts the conversions it needs in
 * other formats at the same time, each with its own profile.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { sofficePath } from './reports.js';

const run = promisify(execFile);

/**
 * Converts every one of `files` to `to` (`pdf`, `xlsx`, ...) into `outDir` with one LibreOffice
 * process (a fresh profile of its own) and resolves with the new files' paths, in the order of
 * `files`. Their base names must differ (they land in one folder); `infilter` sets the import
 * (CSV files: CSV_UTF8_IMPORT of reports.ts).
 *
 * @example
 * const [a, b] = await sofficeConvertMany([list, print], 'pdf', join(dir, 'lo'));
 */
export async function sofficeConvertMany(
  files: readonly string[],
  to: string,
  outDir: string,
  infilter?: string,
): Promise<string[]> {
  const outputs = files.map((f) =>
    join(outDir, basename(f).replace(/\.[^.]+$/, `.${to.split(':')[0] ?? to}`)),
  );
  if (new Set(outputs).size !== outputs.length)
    throw new Error(`sofficeConvertMany: two files would both become ${outputs.join(', ')}`);
  const profile = mkdtempSync(join(tmpdir(), 'lo-profile-'));
  try {
    await run(
      sofficePath(),
      [
        `-env:UserInstallation=file://${profile}`,
        '--headless',
        ...(infilter ? [`--infilter=${infilter}`] : []),
        '--convert-to',
        to,
        '--outdir',
        outDir,
        ...files,
      ],
      // LibreOffice's start and the conversions on a busy machine.
      { encoding: 'utf8', timeout: 120_000 },
    );
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
  return outputs;
}
