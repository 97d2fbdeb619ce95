/**
 * The CRM profiles of a prospect list's CSV: for each CRM, the column names its import of
 * companies maps (name, domain or website, city, country, industry, description), our fields
 * as custom columns after them, whether its importer needs a byte-order mark to read UTF-8, and
 * the most rows one file may have. The facts and their sources are in docs/research/crm-import.md;
 * the README's "CRM profiles" section sums them up.
 */
import type { CsvColumn } from '../../reports/csv.js';
import { stageLabel } from '../../reports/editorial.js';
import { readerUrl, type ServiceLinks } from '../../reports/links.js';
import { industryFor } from './industries.js';
import type { CrmProfile } from './job.js';
import { closedStatus } from './rules.js';
import type { ProspectRow } from './types.js';

/** How one CRM's import takes a CSV of companies. */
export interface CrmProfileSpec {
  profile: CrmProfile;
  /** The CRM's name as its users know it. */
  label: string;
  columns: readonly CsvColumn<ProspectRow>[];
  /** Write a UTF-8 byte-order mark (the reader takes UTF-8 only with one). */
  bom: boolean;
  /** Most data rows one file may have (the importer's limit); larger lists are split into numbered files. */
  rowLimit: number;
}

type Col = CsvColumn<ProspectRow>;
const col = (header: string, kind: Col['kind'], value: Col['value']): Col => ({ header, kind, value });

/** The location as one text: `Berlin, Germany`. */
const place = (r: ProspectRow) => [r.city, r.country].filter((p) => p !== null).join(', ') || null;
/**
 * The reasons, or `not scored` where no brief scored the row (fit and momentum stay blank there:
 * a CRM's number field takes no text).
 */
const whyOf = (r: ProspectRow) => (r.fitPct === null ? 'not scored' : r.why);

/** A stage in words for a CRM's users (`Series A`); null stays empty. */
const stageWords = (stage: string | null) => (stage === null ? null : stageLabel(stage));

/** `Closed` or `Acquired` when the job kept such a company (`keepClosed`); empty otherwise. */
export const closedFlag = (r: Pick<ProspectRow, 'status'>): string | null => {
  const gone = closedStatus(r.status);
  return gone === null ? null : gone === 'closed' ? 'Closed' : 'Acquired';
};

/**
 * Our fields, as custom columns after each CRM's own (headers in the CRM's style). The service
 * profile link goes through `readerUrl`: left empty when the service's address is loopback or
 * private (a reader elsewhere could not open it), rewritten to its public address when one is set.
 */
function ourColumns(style: (words: string) => string, links: ServiceLinks | undefined): Col[] {
  return [
    col(style('Funding stage'), 'text', (r) => stageWords(r.stage)),
    col(style('Subsector'), 'text', (r) => r.subsector),
    col(style('Status'), 'text', (r) => r.status),
    col(style('Closed or acquired'), 'text', closedFlag),
    col(style('Total raised USD'), 'number', (r) => r.totalRaisedUsd),
    col(style('Last round date'), 'date', (r) => r.lastRoundDate),
    col(style('Last round stage'), 'text', (r) => stageWords(r.lastRoundStage)),
    col(style('Last round USD'), 'number', (r) => r.lastRoundAmountUsd),
    col(style('Fit pct'), 'number', (r) => r.fitPct),
    col(style('Momentum'), 'number', (r) => r.momentum),
    col(style('Why'), 'list', whyOf),
    col(style('Founders'), 'list', (r) => r.founders),
    col(style('Investors'), 'list', (r) => r.investors),
    col(style('Founded year'), 'number', (r) => r.foundedYear),
    col(style('Prospect rank'), 'number', (r) => r.rank),
    col(style('Prospect source'), 'list', (r) => r.sources),
    col(style('Delivered before'), 'date', (r) => r.deliveredOn),
    col(style('Service profile'), 'url', (r) => readerUrl(r.profileUrl, links)),
    col(style('Service key'), 'text', (r) => r.key),
  ];
}

const titleCase = (words: string) => words.replace(/\b\p{Ll}/gu, (c) => c.toUpperCase());
const snakeCase = (words: string) => words.toLowerCase().replace(/\s+/g, '_');

/**
 * Each profile's columns and conventions.
 *
 * - HubSpot: the company properties' labels (`Company name`, `Company domain name`, which HubSpot
 *   deduplicates companies by); UTF-8 without a BOM; 1,048,576 rows a file (paid plans).
 * - Salesforce: the Data Import Wizard's Account labels (`Account Name`, `Website`, `Billing
 *   City`...); no BOM (Salesforce tools are reported to choke on one); 50,000 records an import.
 * - Pipedrive: `Organization` (mapped to Organization - Name), `Website`, `Address`; 50,000 rows
 *   a file.
 * - Attio: the Companies object's attributes (`Name`, `Domains`, `Description`, `Primary
 *   location`); `Domains` is what Attio deduplicates by; 50,000 rows (no limit found).
 * - Generic: snake_case headers for spreadsheets and scripts, with a BOM so a spreadsheet opened
 *   by double-click reads UTF-8; one file.
 *
 * Industry: HubSpot's and Salesforce's Industry fields take only their own pick-list values, so
 * their `Industry` column holds the closest value of that list (industries.ts) and the service's
 * sector goes into a `Startup sector` custom column beside it. Pipedrive, Attio and the generic
 * profile have no fixed Industry list: the sector is in a `Startup sector` column (a custom field
 * there), never in a field whose options the CRM fixes.
 */
export function crmProfileSpecs(links?: ServiceLinks): Record<CrmProfile, CrmProfileSpec> {
  return {
    hubspot: {
      profile: 'hubspot',
      label: 'HubSpot',
      bom: false,
      rowLimit: 1_048_576,
      columns: [
        col('Company name', 'text', (r) => r.name),
        col('Company domain name', 'text', (r) => r.domain),
        col('Website URL', 'url', (r) => r.website),
        col('City', 'text', (r) => r.city),
        col('Country/Region', 'text', (r) => r.country),
        col('Industry', 'text', (r) => industryFor('hubspot', r.sector)),
        col('Description', 'text', (r) => r.description),
        col('Startup sector', 'text', (r) => r.sector),
        ...ourColumns((w) => w, links),
      ],
    },
    salesforce: {
      profile: 'salesforce',
      label: 'Salesforce',
      bom: false,
      rowLimit: 50_000,
      columns: [
        col('Account Name', 'text', (r) => r.name),
        col('Website', 'url', (r) => r.website ?? r.domain),
        col('Billing City', 'text', (r) => r.city),
        col('Billing Country', 'text', (r) => r.country),
        col('Industry', 'text', (r) => industryFor('salesforce', r.sector)),
        col('Description', 'text', (r) => r.description),
        col('Domain', 'text', (r) => r.domain),
        col('Startup Sector', 'text', (r) => r.sector),
        ...ourColumns(titleCase, links),
      ],
    },
    pipedrive: {
      profile: 'pipedrive',
      label: 'Pipedrive',
      bom: false,
      rowLimit: 50_000,
      columns: [
        col('Organization', 'text', (r) => r.name),
        col('Website', 'url', (r) => r.website ?? r.domain),
        col('Address', 'text', place),
        col('City', 'text', (r) => r.city),
        col('Country', 'text', (r) => r.country),
        col('Startup sector', 'text', (r) => r.sector),
        col('Description', 'text', (r) => r.description),
        col('Domain', 'text', (r) => r.domain),
        ...ourColumns((w) => w, links),
      ],
    },
    attio: {
      profile: 'attio',
      label: 'Attio',
      bom: false,
      rowLimit: 50_000,
      columns: [
        col('Name', 'text', (r) => r.name),
        col('Domains', 'text', (r) => r.domain),
        col('Description', 'text', (r) => r.description),
        col('Startup sector', 'text', (r) => r.sector),
        col('Primary location', 'text', place),
        col('City', 'text', (r) => r.city),
        col('Country', 'text', (r) => r.country),
        col('Website', 'url', (r) => r.website),
        ...ourColumns((w) => w, links),
      ],
    },
    generic: {
      profile: 'generic',
      label: 'generic',
      bom: true,
      rowLimit: 1_000_000,
      columns: [
        col('name', 'text', (r) => r.name),
        col('domain', 'text', (r) => r.domain),
        col('website', 'url', (r) => r.website),
        col('city', 'text', (r) => r.city),
        col('country', 'text', (r) => r.country),
        col('startup_sector', 'text', (r) => r.sector),
        col('description', 'text', (r) => r.description),
        ...ourColumns(snakeCase, links),
      ],
    },
  };
}

/**
 * Each profile's columns when no service links are known (unit tests): service profile links at
 * a loopback or private address are left out, public ones kept.
 */
export const CRM_PROFILE_SPECS: Record<CrmProfile, CrmProfileSpec> = crmProfileSpecs();
