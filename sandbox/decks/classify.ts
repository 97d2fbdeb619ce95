/**
 * Reads a deck's market and home country from its text with the sandbox taxonomy and
 * country list: keyword hits per sector and subsector, mentions of countries and cities.
 */
import { SECTORS, type Sector } from '../../api/enums.js';
import { COUNTRIES } from '../data/countries.js';
import { TAXONOMY } from '../data/taxonomy.js';

export interface DeckMarket {
  sector: Sector | null;
  subsector: string | null;
  /** Keywords found, strongest first. */
  keywords: string[];
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const hits = (text: string, word: string) =>
  (text.match(new RegExp(`\\b${escapeRe(word)}s?\\b`, 'g')) ?? []).length;

/** The sector and subsector whose keywords the deck uses most. */
export function classifyDeck(text: string): DeckMarket {
  const lower = text.toLowerCase();
  let best: { sector: Sector; subsector: string | null; score: number; keywords: string[] } | null = null;
  for (const sector of SECTORS) {
    const tax = TAXONOMY[sector];
    const sectorKeywords = tax.keywords.filter((k) => hits(lower, k) > 0);
    const sectorScore =
      tax.keywords.reduce((a, k) => a + hits(lower, k), 0) + 3 * hits(lower, sector.toLowerCase());
    let bestSub: { name: string; score: number; keywords: string[] } | null = null;
    for (const sub of tax.subsectors) {
      const words = [...sub.keywords, ...sub.tags.map((t) => t.replace(/-/g, ' '))];
      const found = [...new Set(words.filter((k) => hits(lower, k) > 0))];
      const score = words.reduce((a, k) => a + hits(lower, k), 0) * 2;
      if (score > 0 && (!bestSub || score > bestSub.score))
        bestSub = { name: sub.name, score, keywords: found };
    }
    const score = sectorScore + (bestSub?.score ?? 0);
    if (score > 0 && (!best || score > best.score)) {
      best = {
        sector,
        subsector: bestSub?.name ?? null,
        score,
        keywords: [...(bestSub?.keywords ?? []), ...sectorKeywords],
      };
    }
  }
  return best
    ? { sector: best.sector, subsector: best.subsector, keywords: best.keywords.slice(0, 8) }
    : { sector: null, subsector: null, keywords: [] };
}

/** The country the deck mentions most (by name or by one of its startup cities), or null. */
export function deckCountry(text: string): string | null {
  let best: { name: string; n: number } | null = null;
  for (const c of COUNTRIES) {
    const names = [c.name, ...c.cities.filter((city) => city !== c.name)];
    const n = names.reduce(
      (a, name) => a + (text.match(new RegExp(`\\b${escapeRe(name)}\\b`, 'g')) ?? []).length,
      0,
    );
    if (n > 0 && (!best || n > best.n)) best = { name: c.name, n };
  }
  return best?.name ?? null;
}
