/**
 * A prospect list as CSV for one CRM profile: the profile's columns, its byte-order mark rule
 * and its row limit (numbered files beyond it), written as a stream.
 */
import { writeCsvFiles, type CsvFilesWritten } from '../../reports/csv.js';
import type { CrmProfile } from './job.js';
import { CRM_PROFILE_SPECS } from './profiles.js';
import type { ProspectRow } from './types.js';

/**
 * Writes `<fileBase>-<profile>.csv` (or `-001.csv`, `-002.csv`... past the profile's row limit).
 *
 * @example
 * await writeProspectCsv(rows, 'salesforce', outDir, 'prospects-2026-11-23');
 */
export function writeProspectCsv(
  rows: Iterable<ProspectRow> | AsyncIterable<ProspectRow>,
  profile: CrmProfile,
  outDir: string,
  fileBase: string,
  rowLimit?: number,
): Promise<CsvFilesWritten> {
  const spec = CRM_PROFILE_SPECS[profile];
  return writeCsvFiles(rows, spec.columns, {
    dir: outDir,
    base: `${fileBase}-${profile}`,
    bom: spec.bom,
    rowLimit: rowLimit ?? spec.rowLimit,
  });
}
