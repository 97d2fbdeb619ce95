/**
 * How find_investors reads the startup it matches: from the database by website, from the
 * words of an unknown website's host name plus any description, from a description alone, or
 * from the parameters; raising_stage, sector, subsectors and tags override what was read.
 */
import type { ParamsOut, RaisingStage } from '../../api/index.js';
import { SandboxError } from '../types.js';
import {
  canonicalSubsector,
  canonicalTag,
  classifyText,
  sectorOfSubsector,
  sectorOfTag,
  subsectorsOfTag,
  VOCABULARY,
} from './classify.js';
import { countryInText } from './geo.js';
import type { Snapshot, StartupRecord } from './snapshot.js';
import { nextRaisingStage } from './stages.js';
import { hostWords, normaliseDomain, titleCase } from './text.js';

/** The startup as find_investors read it (data.startup). */
export interface StartupProfile {
  source: 'database' | 'website' | 'description' | 'parameters';
  name?: string;
  key?: string;
  domain?: string;
  sector: string;
  subsectors: string[];
  tags: string[];
  /** The stage being raised. */
  stage: RaisingStage;
  /** The latest stage reached (database startups). */
  current_stage?: string;
  country?: string;
  /** Parameters that replaced what was read, e.g. ['sector', 'raising_stage']. */
  overrides: string[];
  /** Words that decided the reading of a website or description. */
  matched_keywords?: string[];
}

/** A profile plus the database record when the startup is known. */
export interface ReadStartup {
  profile: StartupProfile;
  record?: StartupRecord;
}

const STAGE_IN_TEXT: [RegExp, RaisingStage][] = [
  [/\bpre[- ]?seed\b/i, 'pre-seed'],
  [/\bseries[- ]a\b/i, 'series-a'],
  [/\bseries[- ]b\b/i, 'series-b'],
  [/\bseries[- ][c-h]\b|\bgrowth round\b/i, 'series-c-plus'],
  [/\bseed\b/i, 'seed'],
];

function stageInText(text: string): RaisingStage | null {
  for (const [re, stage] of STAGE_IN_TEXT) if (re.test(text)) return stage;
  return null;
}

function findByWebsite(snap: Snapshot, domain: string): StartupRecord | undefined {
  const exact = snap.startupsByDomain.get(domain);
  if (exact) return exact;
  // A sub-domain (app.payflow.io) or a website stored with a path.
  const parts = domain.split('.');
  for (let i = 1; i < parts.length - 1; i++) {
    const hit = snap.startupsByDomain.get(parts.slice(i).join('.'));
    if (hit) return hit;
  }
  return undefined;
}

/**
 * Reads the startup of a find_investors call. Throws 400 invalid_input when nothing usable was
 * given, or when neither the website nor the description says what the startup does.
 *
 * @example
 * readStartup(snap, { website: 'https://payflow.io', limit: 20 }).profile.source // 'database' when payflow.io is known
 */
export function readStartup(snap: Snapshot, params: ParamsOut<'find_investors'>): ReadStartup {
  const { website, description, sector, subsectors, tags, raising_stage } = params;
  if (!website && !description && !sector && !subsectors?.length && !tags?.length) {
    throw new SandboxError(
      400,
      'invalid_input',
      'find_investors needs to know the startup: give its website (preferred), a description (1 to 3 sentences of what it does), or a sector with optional subsectors and tags',
    );
  }

  let profile: StartupProfile | undefined;
  let record: StartupRecord | undefined;
  const domain = website ? normaliseDomain(website) : undefined;
  if (website && !domain) {
    throw new SandboxError(
      400,
      'invalid_input',
      `find_investors: website '${website.slice(0, 80)}' has no host name; give e.g. https://example.com`,
    );
  }

  if (domain) {
    record = findByWebsite(snap, domain);
    if (record) {
      profile = {
        source: 'database',
        name: record.name,
        key: record.key,
        domain: record.domain,
        sector: record.sector,
        subsectors: record.subsector ? [record.subsector] : [],
        tags: [...record.tags],
        stage: nextRaisingStage(record.stage),
        current_stage: record.stage,
        country: record.hq_country,
        overrides: [],
      };
    }
  }

  if (!profile && (domain || description)) {
    const host = domain ? hostWords(domain, VOCABULARY) : [];
    const text = [host.join(' '), description ?? ''].join('. ');
    const read = classifyText(text, { hostWords: host });
    const country = description ? countryInText(description) : null;
    const label = domain?.split('.')[0];
    if (read.sector || sector || subsectors?.length || tags?.length) {
      profile = {
        source: domain ? 'website' : 'description',
        ...(label ? { name: titleCase(label), domain } : {}),
        sector: read.sector ?? '',
        subsectors: read.subsectors,
        tags: read.tags,
        stage: (description ? stageInText(description) : null) ?? 'seed',
        ...(country ? { country } : {}),
        overrides: [],
        matched_keywords: read.matched,
      };
    } else if (domain) {
      throw new SandboxError(
        400,
        'invalid_input',
        `find_investors could not tell what ${domain} does: it is not in the database and its name names no market; add a description (1 to 3 sentences) or a sector`,
      );
    } else {
      throw new SandboxError(
        400,
        'invalid_input',
        'find_investors could not read a market from the description; describe what the startup does and for whom (1 to 3 sentences), or give a sector',
      );
    }
  }

  if (!profile) {
    profile = { source: 'parameters', sector: '', subsectors: [], tags: [], stage: 'seed', overrides: [] };
  }

  // Overrides.
  if (raising_stage) {
    if (raising_stage !== profile.stage || profile.source !== 'parameters')
      profile.overrides.push('raising_stage');
    profile.stage = raising_stage;
  }
  if (sector) {
    if (profile.source !== 'parameters') profile.overrides.push('sector');
    if (sector !== profile.sector) {
      profile.subsectors = profile.subsectors.filter((s) => sectorOfSubsector(s) === sector);
      profile.tags = profile.tags.filter((t) => sectorOfTag(t) === sector || sectorOfTag(t) === null);
    }
    profile.sector = sector;
  }
  if (subsectors?.length) {
    if (profile.source !== 'parameters') profile.overrides.push('subsectors');
    profile.subsectors = [...new Set(subsectors.map(canonicalSubsector))];
  }
  if (tags?.length) {
    if (profile.source !== 'parameters') profile.overrides.push('tags');
    profile.tags = [...new Set(tags.map(canonicalTag))];
  }
  if (!profile.sector) {
    const fromSub = profile.subsectors.map(sectorOfSubsector).find((s) => s !== null);
    const fromTag = profile.tags.map(sectorOfTag).find((s) => s !== null);
    profile.sector = fromSub ?? fromTag ?? '';
    if (profile.subsectors.length === 0) {
      profile.subsectors = [...new Set(profile.tags.flatMap(subsectorsOfTag))].slice(0, 3);
    }
  }
  if (!profile.sector) {
    throw new SandboxError(
      400,
      'invalid_input',
      'find_investors could not place the startup in a sector from the given subsectors or tags; give sector (one of the 8 sectors) or a description',
    );
  }
  if (params.investor_countries?.length) profile.overrides.push('investor_countries');
  else if (params.investor_region) profile.overrides.push('investor_region');
  return record ? { profile, record } : { profile };
}
