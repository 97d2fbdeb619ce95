/**
 * Reads a plain-language find_customers brief ("seed-stage fintech startups in the Nordics
 * that just raised") into sectors, tags, stages and regions.
 */
import type { RaisingStage, Sector } from '../../api/index.js';
import { classifyText } from './classify.js';
import { countriesInText } from './geo.js';

/** What a brief says; empty lists mean it says nothing about that. */
export interface BriefReading {
  sectors: Sector[];
  tags: string[];
  stages: RaisingStage[];
  /** Region and country names, as expandPlaces reads them. */
  regions: string[];
  /** Whether the brief asks for startups that raised recently. */
  recent_raise: boolean;
}

const STAGE_PATTERNS: [RegExp, RaisingStage[]][] = [
  [/\bpre[- ]?seed\b/i, ['pre-seed']],
  [/(?<!pre[- ]?)\bseed\b/i, ['seed']],
  [/\bseries[- ]a\b/i, ['series-a']],
  [/\bseries[- ]b\b/i, ['series-b']],
  [/\bseries[- ][c-h]\b|\bgrowth[- ]stage\b|\blate[- ]stage\b|\bscale-?ups?\b/i, ['series-c-plus']],
  [/\bearly[- ]stage\b/i, ['pre-seed', 'seed', 'series-a']],
];

const REGION_WORDS: [RegExp, string][] = [
  [/\bdach\b/i, 'dach'],
  [/\bnordics?\b|\bscandinavia\b/i, 'nordics'],
  [/\bcee\b|\bcentral and eastern europe\b|\beastern europe\b/i, 'cee'],
  [/\beurope(an)?\b/i, 'europe'],
  [/\bEU\b/, 'eu'],
  [/\bnorth america\b|\bn\.? america\b/i, 'north america'],
  [/\bUS\b|\bU\.S\.(A\.)?/, 'us'],
  [/\bUK\b|\bU\.K\.\b/, 'uk'],
  [/\bapac\b|\basia[- ]pacific\b/i, 'apac'],
  [/\basia(n)?\b/i, 'asia'],
  [/\blatam\b|\blatin america\b/i, 'latam'],
  [/\bmena\b|\bmiddle east\b/i, 'mena'],
  [/\bafrica(n)?\b/i, 'africa'],
];

/**
 * Reads a brief. Sectors: every sector scoring at least half of the best (by taxonomy
 * keywords and everyday names such as "fintech"); regions: region words (DACH, Nordics,
 * Europe, US...) and named countries or cities.
 *
 * @example
 * readBrief('Seed fintech startups in the Nordics').sectors // ['Finance & Blockchain']
 */
export function readBrief(brief: string): BriefReading {
  const c = classifyText(brief);
  const top = c.sectorScores[0]?.[1] ?? 0;
  const sectors = c.sectorScores.filter(([, n]) => n >= Math.max(2, top / 2)).map(([s]) => s);
  const stages = new Set<RaisingStage>();
  for (const [re, list] of STAGE_PATTERNS) if (re.test(brief)) for (const s of list) stages.add(s);
  const regions: string[] = [];
  let rest = brief;
  for (const [re, region] of REGION_WORDS) {
    if (re.test(rest)) {
      regions.push(region);
      rest = rest.replace(new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`), ' ');
    }
  }
  for (const country of countriesInText(rest)) regions.push(country);
  const recent =
    /\b(just|recently|newly)\s+(raised|funded|closed)\b|\bfresh(ly)?\s+(funded|round|capital)\b|\bjust closed\b/i.test(
      brief,
    );
  return {
    sectors: sectors.length > 0 ? sectors : [],
    tags: sectors.length > 0 ? c.tags.filter((t) => c.matched.includes(t)) : [],
    stages: [...stages],
    regions,
    recent_raise: recent,
  };
}
