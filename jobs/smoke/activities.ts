/** The smoke job's one activity: the JSON summary of what the run fetched. */
import { join } from 'node:path';
import { absentFields, readRecord } from '../../api/read.js';
import { recordKey } from '../../api/read-keys.js';
import { readPage } from '../../api/read-page.js';
import { readProfile } from '../../api/read-profiles.js';
import { STARTUP_FIELDS } from '../../api/read-records.js';
import { runOpening } from '../../activities/run.js';
import { renderInto } from '../../activities/render-files.js';
import type { RenderOutput, StoreRef, StoredCall } from '../../shared/types.js';
import { writeJsonAtomic } from '../../lib/files.js';
import { formatInt } from '../../reports/format.js';
import type { KindActivityDeps } from '../kind.js';
import type { SmokeJob } from './job.js';

export interface SmokeSummaryInput {
  /** The run's output folder (`prepareOutputFolder`, the job's destination checked). */
  outDir: string;
  job: Pick<SmokeJob, 'id' | 'country'>;
  pages: StoreRef[];
  total: number | null;
  profile: StoreRef | null;
  date: string;
}

export function createSmokeActivities(deps: KindActivityDeps) {
  const { store } = deps;
  return {
    /**
     * Writes `<job>-<date>.json`: how many startups were paged, the first keys, the profile read.
     * Returns the same in key figures and a headline, for the messages that deliver the run.
     */
    async writeSmokeSummary(input: SmokeSummaryInput): Promise<RenderOutput> {
      const keys: string[] = [];
      const notProvided: string[] = [];
      for (const ref of input.pages) {
        const page = await store.getJson<StoredCall<'search_startups'>>(ref);
        for (const item of readPage('search_startups', page.result.data).items) {
          const key = recordKey('search_startups', item);
          if (key !== null) keys.push(key);
        }
      }
      if (input.total === null) notProvided.push('total of the search (paged until a short page)');
      const call = input.profile ? await store.getJson<StoredCall<'get_startup'>>(input.profile) : null;
      const profile = call ? readProfile('startup', call.result.data) : null;
      if (call && profile === null) notProvided.push('startup profile');
      if (profile)
        for (const f of absentFields([profile], STARTUP_FIELDS)) notProvided.push(`startup profile: ${f}`);
      const distinct = new Set(keys).size;
      const figures = [
        { label: 'Startups paged', value: formatInt(keys.length), note: `${formatInt(distinct)} distinct` },
        {
          label: 'Search total',
          value: formatInt(input.total),
          note: input.total === null ? 'not given by the service' : 'matching startups',
        },
        { label: 'Pages read', value: formatInt(input.pages.length) },
        { label: 'Profile read', value: profile ? 'Yes' : 'No' },
      ];
      const headline =
        `Smoke run for ${input.job.country}: ${formatInt(keys.length)} startups paged ` +
        `(${formatInt(distinct)} distinct) in ${formatInt(input.pages.length)} ` +
        `${input.pages.length === 1 ? 'page' : 'pages'}${profile ? ', one profile read' : ''}.`;
      return renderInto(deps, input, async ({ outDir, fileBase }) => {
        const path = join(outDir, `${fileBase}.json`);
        await writeJsonAtomic(
          path,
          {
            country: input.job.country,
            total: input.total,
            paged: keys.length,
            distinct,
            firstKeys: keys.slice(0, 10),
            firstProfile: profile ? readRecord(profile, STARTUP_FIELDS) : null,
            notProvided,
          },
          true,
        );
        return {
          files: { json: path },
          charts: 0,
          pages: null,
          notProvided,
          ...runOpening(figures, headline),
        };
      });
    },
  };
}

export type SmokeActivities = ReturnType<typeof createSmokeActivities>;
