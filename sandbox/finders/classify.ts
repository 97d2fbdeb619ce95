/**
 * Reads a startup's market from text: the 8 sectors, their subsectors and tags of the sandbox
 * taxonomy, by keyword and tag phrases found in a description or in a website's host words.
 */
import { SECTORS, type Sector } from '../../api/index.js';
import { SECTOR_WORDS } from '../data/names.js';
import { SUBSECTORS, TAXONOMY } from '../data/taxonomy.js';
import { words } from './text.js';

/** What the text says about the market. */
export interface Classification {
  sector: Sector | null;
  subsectors: string[];
  tags: string[];
  /** Phrases that decided it (for data.startup and the summary). */
  matched: string[];
  /** Score of the chosen sector (0 when nothing matched). */
  strength: number;
  /** Every sector with a positive score, best first. */
  sectorScores: [Sector, number][];
}

/** A crude singular: "payments" → "payment", "companies" → "company" (both sides of a match use it). */
function stem(w: string): string {
  if (w.length > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (w.length > 3 && w.endsWith('s') && !/(ss|us|is)$/.test(w)) return w.slice(0, -1);
  return w;
}

/** Lower-case, space-separated, singular form of a text for phrase matching (hyphens become spaces). */
function flat(text: string): string {
  return ` ${words(text)
    .filter((w) => !w.includes('-'))
    .map(stem)
    .join(' ')} `;
}

/** A text split into what it is (weight 1) and who it is for ("… for online marketplaces", weight 0.5). */
interface Haystack {
  main: string;
  audience: string;
}

function haystack(text: string): Haystack {
  const main: string[] = [];
  const audience: string[] = [];
  for (const sentence of text.split(/[.;!?\n]+/)) {
    const m = /\bfor\b/i.exec(sentence);
    if (m && m.index > 0) {
      main.push(sentence.slice(0, m.index));
      audience.push(sentence.slice(m.index));
    } else {
      main.push(sentence);
    }
  }
  return { main: flat(main.join(' . ')), audience: flat(audience.join(' . ')) };
}

/** Weight of a phrase in a text: 1 in what it is, 0.5 only in who it is for, 0 absent. */
function weightOf(h: Haystack, phrase: string): number {
  const p = flat(phrase).trim();
  if (p.length === 0) return 0;
  if (h.main.includes(` ${p} `)) return 1;
  if (h.audience.includes(` ${p} `)) return 0.5;
  return 0;
}

/** Name words of each sector ("pay", "ledger", "health"), used only for host words of a website. */
const NAME_WORDS: Map<string, Sector> = new Map(
  SECTORS.flatMap((sector) =>
    (SECTOR_WORDS[sector] ?? []).map((w): [string, Sector] => [w.toLowerCase(), sector]),
  ).filter(([w]) => w.length >= 3 && w !== 'labs' && w !== 'works' && w !== 'systems' && w !== 'life'),
);

/** Everyday names of the sectors ("fintech", "climate tech") that briefs and descriptions use. */
const SECTOR_ALIASES: [string, Sector][] = [
  ['fintech', 'Finance & Blockchain'],
  ['insurtech', 'Finance & Blockchain'],
  ['crypto', 'Finance & Blockchain'],
  ['web3', 'Finance & Blockchain'],
  ['healthtech', 'Healthcare & Life Sciences'],
  ['medtech', 'Healthcare & Life Sciences'],
  ['biotech', 'Healthcare & Life Sciences'],
  ['digital health', 'Healthcare & Life Sciences'],
  ['climate tech', 'Energy, Environment & Mobility'],
  ['climatetech', 'Energy, Environment & Mobility'],
  ['cleantech', 'Energy, Environment & Mobility'],
  ['mobility', 'Energy, Environment & Mobility'],
  ['devtools', 'Software & Developer Tools'],
  ['developer tools', 'Software & Developer Tools'],
  ['saas', 'Software & Developer Tools'],
  ['b2b software', 'Software & Developer Tools'],
  ['martech', 'Commerce & Marketing'],
  ['ecommerce', 'Commerce & Marketing'],
  ['e commerce', 'Commerce & Marketing'],
  ['retail tech', 'Commerce & Marketing'],
  ['consumer', 'Consumer, Lifestyle & Services'],
  ['hardware', 'Industry & Hardware'],
  ['robotics', 'Industry & Hardware'],
  ['deep tech', 'Industry & Hardware'],
  ['deeptech', 'Industry & Hardware'],
  ['industrial', 'Industry & Hardware'],
  ['genai', 'Artificial Intelligence & Data'],
  ['ai startups', 'Artificial Intelligence & Data'],
];

/** Every word the taxonomy knows, for splitting run-together host names ("onyxpay" → "pay"). */
export const VOCABULARY: readonly string[] = [
  ...new Set([
    ...NAME_WORDS.keys(),
    ...SUBSECTORS.flatMap((s) => [...s.keywords, ...s.tags.flatMap((t) => t.split('-'))]),
    ...SECTORS.flatMap((s) => TAXONOMY[s].keywords),
  ]),
].filter((w) => w.length >= 3 && !w.includes(' '));

/**
 * Classifies a text onto the taxonomy: each subsector scores 2 per keyword and 2 per tag phrase
 * found, each sector 1 per sector keyword; the best sector wins, its matched subsectors follow
 * by score, tags are those found plus the top subsector's tags (at most 6).
 *
 * @example
 * classifyText('We build payment APIs and card issuing for marketplaces').sector // 'Finance & Blockchain'
 */
export function classifyText(text: string, opts: { hostWords?: readonly string[] } = {}): Classification {
  const hay = haystack(text);
  const sectorScore = new Map<Sector, number>();
  const subScore = new Map<string, number>();
  const foundTags = new Set<string>();
  const matched = new Set<string>();
  const add = (s: Sector, n: number) => sectorScore.set(s, (sectorScore.get(s) ?? 0) + n);

  for (const [alias, sector] of SECTOR_ALIASES) {
    const w = weightOf(hay, alias);
    if (w > 0) {
      add(sector, 2 * w);
      matched.add(alias);
    }
  }
  for (const sector of SECTORS) {
    for (const kw of TAXONOMY[sector].keywords) {
      const w = weightOf(hay, kw);
      if (w > 0) {
        add(sector, w);
        matched.add(kw);
      }
    }
  }
  for (const sub of SUBSECTORS) {
    // Each distinct phrase counts once per subsector (a keyword that is also a tag or the name).
    const phrases = new Map<string, number>();
    const hit = (phrase: string, weight: number) => {
      const key = flat(phrase).trim();
      const w = weightOf(hay, phrase) * weight;
      if (w > (phrases.get(key) ?? 0)) phrases.set(key, w);
      return w > 0;
    };
    for (const kw of sub.keywords) if (hit(kw, 2)) matched.add(kw);
    for (const tag of sub.tags) {
      if (hit(tag.replace(/-/g, ' '), 2)) {
        foundTags.add(tag);
        matched.add(tag);
      }
    }
    hit(sub.name, 2);
    const score = [...phrases.values()].reduce((a, b) => a + b, 0);
    if (score > 0) {
      subScore.set(`${sub.sector}|${sub.name}`, score);
      add(sub.sector, score);
    }
  }
  for (const w of opts.hostWords ?? []) {
    const sector = NAME_WORDS.get(w);
    if (sector) {
      add(sector, 1);
      matched.add(w);
    }
  }

  let best: Sector | null = null;
  let bestScore = 0;
  for (const sector of SECTORS) {
    const s = sectorScore.get(sector) ?? 0;
    if (s > bestScore) {
      best = sector;
      bestScore = s;
    }
  }
  const sectorScores = SECTORS.map((sec): [Sector, number] => [sec, sectorScore.get(sec) ?? 0])
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1]);
  if (!best) return { sector: null, subsectors: [], tags: [], matched: [], strength: 0, sectorScores };

  const subs = TAXONOMY[best].subsectors
    .map((s) => ({ s, score: subScore.get(`${best}|${s.name}`) ?? 0 }))
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, 3);
  const sectorTags = new Set(TAXONOMY[best].subsectors.flatMap((s) => s.tags));
  const tags = [...foundTags].filter((t) => sectorTags.has(t));
  for (const t of subs[0]?.s.tags ?? []) if (!tags.includes(t)) tags.push(t);
  return {
    sector: best,
    subsectors: subs.map((x) => x.s.name),
    tags: tags.slice(0, 6),
    matched: [...matched],
    strength: bestScore,
    sectorScores,
  };
}

/** The sector of a subsector name (case-insensitive), or null. */
export function sectorOfSubsector(name: string): Sector | null {
  const n = name.trim().toLowerCase();
  return SUBSECTORS.find((s) => s.name.toLowerCase() === n)?.sector ?? null;
}

/** The canonical spelling of a subsector name (case-insensitive), or the input trimmed. */
export function canonicalSubsector(name: string): string {
  const n = name.trim().toLowerCase();
  return SUBSECTORS.find((s) => s.name.toLowerCase() === n)?.name ?? name.trim();
}

/** A tag as the data writes it: lower case, words joined by hyphens ("Open Banking" → "open-banking"). */
export function canonicalTag(tag: string): string {
  return tag
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-')
    .replace(/-+/g, '-');
}

/** The sector whose subsectors carry a tag, or null. */
export function sectorOfTag(tag: string): Sector | null {
  const t = canonicalTag(tag);
  return SUBSECTORS.find((s) => s.tags.includes(t))?.sector ?? null;
}

/** Subsector names carrying a tag. */
export function subsectorsOfTag(tag: string): string[] {
  const t = canonicalTag(tag);
  return SUBSECTORS.filter((s) => s.tags.includes(t)).map((s) => s.name);
}
