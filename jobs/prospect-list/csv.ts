/**
 * A prospect list as CSV for its CRM profiles: each profile's columns, its byte-order mark rule
 * and its row limit (numbered files beyond it), all written as a stream in one pass.
 */
import { CsvFilesWriter, type CsvFilesWritten } from '../../reports/csv.js';
import type { CrmProfile } from './job.js';
import type { ServiceLinks } from '../../reports/links.js';
import { crmProfileSpecs } from './profiles.js';
import type { ProspectRow } from './types.js';

/**
 * Writes `<fileBase>-<profile>.csv` (or `-001.csv`, `-002.csv`... past the profile's row limit)
 * for each profile, in one pass over the rows (the list read once). `links` are the service's
 * addresses (`deps.serviceLinks`): the service profile column keeps a link a reader can open.
 *
 * @example
 * const written = await writeProspectCsvs(rows, ['hubspot', 'salesforce'], outDir, 'prospects-2026-11-23');
 * written.salesforce.files; // ['.../prospects-2026-11-23-salesforce.csv']
 */
export async function writeProspectCsvs(
  rows: Iterable<ProspectRow> | AsyncIterable<ProspectRow>,
  profiles: readonly CrmProfile[],
  outDir: string,
  fileBase: string,
  links?: ServiceLinks,
): Promise<Partial<Record<CrmProfile, CsvFilesWritten>>> {
  const specs = crmProfileSpecs(links);
  const writers = profiles.map((profile) => {
    const spec = specs[profile];
    return [
      profile,
      new CsvFilesWriter(spec.columns, {
        dir: outDir,
        base: `${fileBase}-${profile}`,
        bom: spec.bom,
        rowLimit: spec.rowLimit,
      }),
    ] as const;
  });
  for await (const row of rows as AsyncIterable<ProspectRow>) {
    for (const [, writer] of writers) await writer.write(row);
  }
  const out: Partial<Record<CrmProfile, CsvFilesWritten>> = {};
  for (const [profile, writer] of writers) out[profile] = await writer.close();
  return out;
}
