/**
 * Names in the scripts of the countries they come from, so that reports meet them: a few
 * startups and an investor per script (Chinese, Japanese, Korean, Arabic, Hebrew, Hindi, Thai,
 * Greek, Cyrillic) take these names in place of their generated Latin ones, among them the
 * country's most funded startup and its investor firm of the highest score, so reports over these
 * countries show the names on their first pages. Keys, domains and websites stay (they are the
 * service's, in Latin letters); the description or thesis that named the entity names it with its
 * new name. Drawn from a stream of its own, after every other step, so no other record changes.
 */
import type { InvestorRec } from './generate-investors.js';
import type { RoundRec, StartupRec } from './generate-startups.js';
import type { Rng } from './prng.js';

/** Per country: the script, startup names and investor names it gives out. */
export const SCRIPT_NAMES: readonly {
  country: string;
  script: string;
  startups: readonly string[];
  investors: readonly string[];
}[] = [
  {
    country: 'China',
    script: 'Chinese',
    startups: ['杭州智云科技', '深圳云启数据'],
    investors: ['上海明远资本'],
  },
  {
    country: 'Japan',
    script: 'Japanese',
    startups: ['東京テクノロジー', 'さくらロボティクス'],
    investors: ['みらいキャピタル'],
  },
  {
    country: 'South Korea',
    script: 'Korean',
    startups: ['서울바이오랩', '한빛모빌리티'],
    investors: ['한강벤처스'],
  },
  {
    country: 'United Arab Emirates',
    script: 'Arabic',
    startups: ['شركة الأفق الرقمية', 'نخلة للتقنية'],
    investors: ['صندوق الخليج للاستثمار'],
  },
  { country: 'Israel', script: 'Hebrew', startups: ['אור טכנולוגיות', 'גל רפואה'], investors: ['קרן אלון'] },
  { country: 'India', script: 'Hindi', startups: ['नवाचार टेक', 'भारत पे लैब्स'], investors: ['गंगा वेंचर्स'] },
  {
    country: 'Thailand',
    script: 'Thai',
    startups: ['สยามดิจิทัล', 'กรุงเทพฟินเทค'],
    investors: ['กองทุนเจ้าพระยา'],
  },
  {
    country: 'Greece',
    script: 'Greek',
    startups: ['Αθηνά Τεχνολογίες', 'Όλυμπος Ενέργεια'],
    investors: ['Αιγαίο Κεφάλαια'],
  },
  {
    country: 'Ukraine',
    script: 'Cyrillic',
    startups: ['Київ Дата', 'Дніпро Робототехніка'],
    investors: ['Карпати Венчурс'],
  },
];

function rename<T extends { name: string; country: { name: string } }>(
  rng: Rng,
  records: T[],
  country: string,
  names: readonly string[],
  rank: (r: T) => number,
  text: (r: T) => { get: () => string; set: (s: string) => void },
): void {
  const pool = records.filter((r) => r.country.name === country);
  if (pool.length === 0) return;
  // The first name goes to the country's leader (so reports over the country show it), the
  // others to records drawn at random.
  const leader = pool.reduce((best, r) => (rank(r) > rank(best) ? r : best));
  const rest = pool.filter((r) => r !== leader);
  const picked = [leader, ...rng.sample(rest, Math.min(names.length - 1, rest.length))];
  picked.forEach((r, i) => {
    const name = names[i] as string;
    const t = text(r);
    t.set(t.get().replaceAll(r.name, name));
    r.name = name;
  });
}

/**
 * Gives the SCRIPT_NAMES to startups and investors of their countries (in place): the first
 * startup name to the country's most funded startup, the first investor name to its investor
 * firm of the highest score.
 */
export function giveScriptNames(
  rng: Rng,
  startups: StartupRec[],
  rounds: RoundRec[],
  investors: InvestorRec[],
): void {
  const raised = (s: StartupRec): number => s.rounds.reduce((sum, i) => sum + (rounds[i]?.amount ?? 0), 0);
  // Firms, not angels: an angel's name is a person's, and their team repeats it.
  const firms = investors.filter((v) => v.type !== 'Angel');
  for (const entry of SCRIPT_NAMES) {
    rename(rng, startups, entry.country, entry.startups, raised, (s) => ({
      get: () => s.description,
      set: (d) => (s.description = d),
    }));
    rename(
      rng,
      firms,
      entry.country,
      entry.investors,
      (v) => v.score,
      (v) => ({
        get: () => v.thesis,
        set: (t) => (v.thesis = t),
      }),
    );
  }
}
