/**
 * Texts of generated records: startup descriptions, investor theses, teams and founders.
 */
import type { Sector } from '../../api/enums.js';
import type { Country } from './countries.js';
import type { Stage } from './market.js';
import { personName } from './names.js';
import type { Rng } from './prng.js';
import type { Subsector } from './taxonomy.js';
import { TAXONOMY } from './taxonomy.js';

/** Cosmopolitan markets where founders and partners come from everywhere. */
const MIXED = new Set([
  'United States',
  'United Kingdom',
  'Canada',
  'Australia',
  'Singapore',
  'United Arab Emirates',
  'Switzerland',
  'Netherlands',
  'Germany',
  'Hong Kong',
  'Ireland',
]);

function mixShare(country: Country): number {
  return MIXED.has(country.name) ? 0.3 : 0.08;
}

/** One or two sentences that say what the startup does; always contains a subsector keyword. */
export function startupDescription(
  rng: Rng,
  p: { name: string; sector: Sector; subsector: Subsector; city: string; foundedYear: number },
): string {
  const [first, second] = rng.sample(p.subsector.offerings, 2);
  const off1 = first ?? p.subsector.offerings[0] ?? p.subsector.name;
  const off2 = second ?? off1;
  const customer = rng.pick(TAXONOMY[p.sector].customers);
  // "for <customer>", unless the offering already says who it is for.
  const forCustomer = off1.includes(' for ') ? `, serving ${customer}` : ` for ${customer}`;
  switch (rng.int(0, 5)) {
    case 0:
      return `${p.name} builds ${off1}${forCustomer}.`;
    case 1:
      return `${p.name} offers ${off1} and ${off2} to ${customer}.`;
    case 2:
      return `${p.name} develops ${off1}${forCustomer}. Founded in ${p.city} in ${p.foundedYear}, the team also works on ${off2}.`;
    case 3:
      return `${p.name} is ${/^[AEIOU]/.test(p.city) ? 'an' : 'a'} ${p.city}-based company building ${off1}${forCustomer}.`;
    case 4:
      return `${p.name} helps ${customer} with ${off1}. Its product also covers ${off2}.`;
    default:
      return `${p.name} provides ${off1}${forCustomer}, starting with ${off2}.`;
  }
}

/** A subsector name inside a sentence: "generative AI", "IoT and sensors". */
export function themeName(name: string): string {
  return name
    .split(' ')
    .map((w) => (w === '&' ? 'and' : /^[A-Z]{2,}$/.test(w) || w === 'IoT' ? w : w.toLowerCase()))
    .join(' ');
}

/** 1-3 founders with roles, CEO first. */
export function founders(rng: Rng, country: Country, subsector: string): { name: string; role: string }[] {
  const n = rng.weightedIndex([0.25, 0.5, 0.25]) + 1;
  const science = ['Biotech', 'Genomics', 'Semiconductors', 'Machine Learning Infrastructure'].includes(
    subsector,
  );
  const roles = rng.sample(science ? ['CTO', 'CSO', 'COO'] : ['CTO', 'COO', 'CPO'], n - 1);
  const people: { name: string; role: string }[] = [];
  const used = new Set<string>();
  for (const role of ['CEO', ...roles]) {
    let name = personName(rng, country.culture, mixShare(country));
    for (let i = 0; i < 5 && used.has(name); i++) name = personName(rng, country.culture, mixShare(country));
    used.add(name);
    people.push({ name, role });
  }
  return people;
}

const TEAM_ROLES: Record<string, { lead: string; others: string[] }> = {
  VC: {
    lead: 'Managing Partner',
    others: [
      'General Partner',
      'Partner',
      'Partner',
      'Principal',
      'Associate',
      'Venture Partner',
      'Head of Platform',
      'Investment Analyst',
    ],
  },
  Angel: {
    lead: 'Angel Investor',
    others: ['Investment Analyst', 'Scout', 'Chief of Staff', 'Venture Partner', 'Co-Investor'],
  },
  'Corporate VC': {
    lead: 'Head of Corporate Venturing',
    others: [
      'Investment Director',
      'Investment Manager',
      'Investment Manager',
      'Associate',
      'Head of Portfolio Development',
    ],
  },
  Accelerator: {
    lead: 'Managing Director',
    others: ['Program Director', 'Partner', 'Head of Community', 'Investment Manager', 'Mentor Lead'],
  },
};

/** 2-6 people with roles; an angel's own name leads the team. */
export function investorTeam(
  rng: Rng,
  type: string,
  country: Country,
  angelName?: string,
): { name: string; role: string }[] {
  const roles = TEAM_ROLES[type] ?? TEAM_ROLES.VC;
  const size = rng.int(2, type === 'Angel' ? 3 : 6);
  const team: { name: string; role: string }[] = [];
  const used = new Set<string>();
  const lead = angelName ?? personName(rng, country.culture, mixShare(country));
  team.push({ name: lead, role: roles?.lead ?? 'Managing Partner' });
  used.add(lead);
  for (const role of rng.sample(roles?.others ?? [], size - 1)) {
    let name = personName(rng, country.culture, mixShare(country));
    for (let i = 0; i < 5 && used.has(name); i++) name = personName(rng, country.culture, mixShare(country));
    used.add(name);
    team.push({ name, role });
  }
  return team;
}

/** "$500K", "$2.5M", "$1B". */
export function formatUsd(usd: number): string {
  if (usd >= 1e9) return `$${trim(usd / 1e9)}B`;
  if (usd >= 1e6) return `$${trim(usd / 1e6)}M`;
  return `$${trim(usd / 1e3)}K`;
}

function trim(n: number): string {
  return n >= 100
    ? n.toFixed(0)
    : n >= 10
      ? n.toFixed(n % 1 === 0 ? 0 : 1).replace(/\.0$/, '')
      : n.toFixed(1).replace(/\.0$/, '');
}

const STAGE_LABEL: Record<Stage, string> = {
  'pre-seed': 'pre-seed',
  seed: 'seed',
  'series-a': 'Series A',
  'series-b': 'Series B',
  'series-c': 'Series C',
  'series-d-plus': 'Series D and later',
  growth: 'growth',
};

function list(items: string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

const QUALITIES = [
  'technical founding teams with an unfair insight into their market',
  'capital-efficient businesses that already show early revenue',
  'category-defining products with strong network effects',
  'founders who take on regulated, complex markets',
  'mission-driven teams with a clear path to profitability',
  'repeat founders and first-time founders with deep domain expertise',
  'products that customers adopt bottom-up and expand across teams',
];

const SUPPORT = [
  'We support our companies with hiring, go-to-market and follow-on fundraising.',
  'Our platform team helps portfolio companies with recruiting, pricing and international expansion.',
  'We reserve capital for follow-on rounds and take board seats when we lead.',
  'We invest from a single fund and stay involved from the first check to exit.',
  'We co-invest with leading funds in our network and open doors to corporate customers.',
];

/** A thesis that reads like a real one: sectors, themes, stages, geography and check size. */
export function investorThesis(
  rng: Rng,
  p: {
    name: string;
    type: string;
    sectors: Sector[];
    stages: Stage[];
    geography: string;
    checkMin: number;
    checkMax: number;
    corporate?: string;
    angelBackground?: string;
  },
): string {
  const primary = p.sectors[0] ?? 'Software & Developer Tools';
  const themes = rng.sample(
    TAXONOMY[primary].subsectors.map((s) => themeName(s.name)),
    2,
  );
  const generalist = p.sectors.length >= 5;
  const sectorPhrase = generalist ? 'technology across sectors' : TAXONOMY[primary].thesisPhrase;
  const subject =
    p.type === 'Angel'
      ? `${p.name.split(' ')[0] ?? p.name} also backs`
      : p.type === 'Corporate VC'
        ? 'It also backs'
        : 'We also back';
  const also =
    !generalist && p.sectors.length > 1 ? ` ${subject} companies in ${list(p.sectors.slice(1))}.` : '';
  const stages = list(p.stages.map((s) => STAGE_LABEL[s]));
  const checks = `${formatUsd(p.checkMin)} to ${formatUsd(p.checkMax)}`;
  const quality = rng.pick(QUALITIES);
  switch (p.type) {
    case 'Angel':
      return (
        `${p.name} is an angel investor and former ${p.angelBackground ?? 'founder'} who backs ${stages} founders in ${p.geography} building ${sectorPhrase}, ` +
        `with a focus on ${list(themes)}. Typical check: ${checks}, usually alongside a lead fund.${also}`
      );
    case 'Corporate VC':
      return (
        `${p.name} is the venture arm of ${p.corporate ?? 'its parent group'}. It invests ${checks} in ${stages} companies in ${p.geography} working on ${sectorPhrase}, ` +
        `especially ${list(themes)}, and connects them with the group's business units as customers and partners.${also}`
      );
    case 'Accelerator':
      return (
        `${p.name} runs a ${rng.pick([10, 12, 13, 16])}-week programme for ${stages} founders in ${p.geography}, investing ${checks} per company in ${sectorPhrase}. ` +
        `We look for ${quality}.${also}`
      );
    default:
      return (
        `${p.name} invests in ${stages} startups in ${p.geography} building ${sectorPhrase}, with a particular interest in ${list(themes)}. ` +
        `We write checks of ${checks} and look for ${quality}.${also} ${rng.pick(SUPPORT)}`
      );
  }
}
