/**
 * Name material for the generator: person names by culture, startup names, fund names.
 * Everything is fictional; uniqueness is enforced by the generator.
 */
import type { NameCulture } from './countries.js';
import type { Rng } from './prng.js';

const PEOPLE: Record<NameCulture, [first: string[], last: string[]]> = {
  anglo: [
    ['James', 'Emily', 'Michael', 'Sarah', 'David', 'Jessica', 'Daniel', 'Laura', 'Ryan', 'Olivia', 'Matthew', 'Hannah', 'Chris', 'Rachel', 'Andrew', 'Megan', 'Tom', 'Grace', 'Ben', 'Alice'],
    ['Smith', 'Johnson', 'Williams', 'Brown', 'Taylor', 'Anderson', 'Clarke', 'Walker', 'Hughes', 'Mitchell', 'Carter', 'Bennett', 'Turner', 'Collins', 'Foster', 'Hayes', 'Reed', 'Morgan', 'Palmer', 'Sullivan'],
  ],
  german: [
    ['Lukas', 'Anna', 'Felix', 'Lena', 'Jonas', 'Sophie', 'Maximilian', 'Laura', 'Tobias', 'Katharina', 'Florian', 'Julia', 'Moritz', 'Clara', 'Niklas', 'Johanna'],
    ['Müller', 'Schmidt', 'Schneider', 'Fischer', 'Weber', 'Wagner', 'Becker', 'Hoffmann', 'Schulz', 'Koch', 'Richter', 'Klein', 'Wolf', 'Neumann', 'Braun', 'Zimmermann'],
  ],
  french: [
    ['Louis', 'Camille', 'Hugo', 'Chloé', 'Antoine', 'Manon', 'Julien', 'Léa', 'Thomas', 'Inès', 'Mathieu', 'Claire', 'Nicolas', 'Élise', 'Pierre', 'Margaux'],
    ['Martin', 'Bernard', 'Dubois', 'Laurent', 'Moreau', 'Lefebvre', 'Girard', 'Roux', 'Fontaine', 'Mercier', 'Chevalier', 'Blanc', 'Garnier', 'Faure', 'Rousseau', 'Lambert'],
  ],
  dutch: [
    ['Daan', 'Emma', 'Sem', 'Sanne', 'Bram', 'Lotte', 'Thijs', 'Fleur', 'Jeroen', 'Anouk', 'Ruben', 'Eva', 'Pieter', 'Marloes'],
    ['de Jong', 'Jansen', 'de Vries', 'van den Berg', 'Bakker', 'Visser', 'Smit', 'Meijer', 'Mulder', 'de Boer', 'Peeters', 'Maes', 'Claes', 'Willems'],
  ],
  nordic: [
    ['Erik', 'Sofia', 'Lars', 'Ingrid', 'Anders', 'Maja', 'Mikael', 'Freja', 'Johan', 'Elin', 'Oskar', 'Sara', 'Mads', 'Kaisa', 'Henrik', 'Aino'],
    ['Andersson', 'Johansson', 'Nilsson', 'Larsen', 'Hansen', 'Nielsen', 'Virtanen', 'Korhonen', 'Lindqvist', 'Berg', 'Dahl', 'Eriksson', 'Tamm', 'Saar', 'Lindholm', 'Holm'],
  ],
  slavic: [
    ['Jakub', 'Zuzana', 'Piotr', 'Agnieszka', 'Tomasz', 'Katarzyna', 'Andrei', 'Ioana', 'Mykola', 'Olena', 'Lukas', 'Ieva', 'Bence', 'Réka', 'Ivan', 'Petra'],
    ['Nowak', 'Kowalski', 'Wiśniewski', 'Novák', 'Dvořák', 'Popescu', 'Ionescu', 'Shevchenko', 'Kovalenko', 'Kazlauskas', 'Nagy', 'Horváth', 'Petrov', 'Dimitrov', 'Zieliński', 'Svoboda'],
  ],
  spanish: [
    ['Javier', 'Lucía', 'Carlos', 'María', 'Alejandro', 'Sofía', 'Diego', 'Valentina', 'Pablo', 'Camila', 'Andrés', 'Isabel', 'Mateo', 'Paula', 'Santiago', 'Elena'],
    ['García', 'Rodríguez', 'Martínez', 'López', 'Hernández', 'González', 'Pérez', 'Sánchez', 'Ramírez', 'Torres', 'Flores', 'Rivera', 'Gómez', 'Díaz', 'Moreno', 'Castro'],
  ],
  portuguese: [
    ['João', 'Ana', 'Pedro', 'Beatriz', 'Lucas', 'Mariana', 'Rafael', 'Juliana', 'Gabriel', 'Fernanda', 'Tiago', 'Larissa', 'Bruno', 'Carolina'],
    ['Silva', 'Santos', 'Oliveira', 'Souza', 'Costa', 'Pereira', 'Almeida', 'Ferreira', 'Ribeiro', 'Carvalho', 'Gomes', 'Barbosa', 'Rocha', 'Lima'],
  ],
  italian: [
    ['Marco', 'Giulia', 'Luca', 'Francesca', 'Alessandro', 'Chiara', 'Matteo', 'Sara', 'Davide', 'Elena', 'Nikos', 'Eleni', 'Giorgos', 'Maria'],
    ['Rossi', 'Russo', 'Ferrari', 'Esposito', 'Bianchi', 'Romano', 'Colombo', 'Ricci', 'Greco', 'Conti', 'Papadopoulos', 'Georgiou', 'Nikolaou', 'Marino'],
  ],
  chinese: [
    ['Wei', 'Jing', 'Hao', 'Li', 'Yang', 'Xin', 'Jun', 'Mei', 'Lei', 'Yan', 'Chen', 'Ying', 'Tao', 'Hui', 'Kai', 'Lin'],
    ['Wang', 'Li', 'Zhang', 'Liu', 'Chen', 'Yang', 'Huang', 'Zhao', 'Wu', 'Zhou', 'Xu', 'Sun', 'Ma', 'Zhu', 'Hu', 'Lin'],
  ],
  japanese: [
    ['Haruto', 'Yui', 'Ren', 'Sakura', 'Takumi', 'Aoi', 'Kenta', 'Yuna', 'Daiki', 'Mio', 'Sho', 'Rina', 'Kaito', 'Hana'],
    ['Sato', 'Suzuki', 'Takahashi', 'Tanaka', 'Watanabe', 'Ito', 'Yamamoto', 'Nakamura', 'Kobayashi', 'Kato', 'Yoshida', 'Yamada', 'Sasaki', 'Matsumoto'],
  ],
  korean: [
    ['Min-jun', 'Seo-yeon', 'Ji-hoon', 'Ji-woo', 'Hyun-woo', 'Soo-ah', 'Dong-hyun', 'Ha-eun', 'Jae-won', 'Yu-jin', 'Sung-min', 'Eun-ji'],
    ['Kim', 'Lee', 'Park', 'Choi', 'Jung', 'Kang', 'Cho', 'Yoon', 'Jang', 'Lim', 'Han', 'Shin'],
  ],
  indian: [
    ['Arjun', 'Priya', 'Rohan', 'Ananya', 'Vikram', 'Neha', 'Rahul', 'Kavya', 'Aditya', 'Isha', 'Karan', 'Meera', 'Siddharth', 'Pooja', 'Ahmed', 'Ayesha'],
    ['Sharma', 'Patel', 'Gupta', 'Reddy', 'Iyer', 'Nair', 'Mehta', 'Agarwal', 'Rao', 'Singh', 'Kapoor', 'Menon', 'Bhat', 'Joshi', 'Khan', 'Malik'],
  ],
  hebrew: [
    ['Noa', 'Itai', 'Tamar', 'Yoav', 'Maya', 'Omer', 'Shira', 'Eitan', 'Yael', 'Amit', 'Roni', 'Gil', 'Dana', 'Nadav'],
    ['Cohen', 'Levi', 'Mizrahi', 'Peretz', 'Biton', 'Friedman', 'Avraham', 'Katz', 'Shapiro', 'Ben-David', 'Goldberg', 'Dahan', 'Azoulay', 'Segal'],
  ],
  arabic: [
    ['Omar', 'Layla', 'Ahmed', 'Fatima', 'Youssef', 'Nour', 'Khalid', 'Sara', 'Karim', 'Mariam', 'Hassan', 'Rania', 'Faisal', 'Huda'],
    ['Al-Mansouri', 'Haddad', 'Khalil', 'Nasser', 'Saleh', 'Farouk', 'Al-Harbi', 'El-Sayed', 'Aziz', 'Hamdan', 'Al-Qahtani', 'Mansour', 'Rahman', 'Benali'],
  ],
  turkish: [
    ['Emre', 'Zeynep', 'Burak', 'Elif', 'Mehmet', 'Ayşe', 'Can', 'Selin', 'Kerem', 'Deniz', 'Mert', 'Ece'],
    ['Yılmaz', 'Kaya', 'Demir', 'Şahin', 'Çelik', 'Yıldız', 'Aydın', 'Öztürk', 'Arslan', 'Doğan', 'Koç', 'Kurt'],
  ],
  african: [
    ['Chidi', 'Amara', 'Tunde', 'Ngozi', 'Kwame', 'Akosua', 'Wanjiru', 'Kamau', 'Thabo', 'Lerato', 'Emeka', 'Zanele', 'Kofi', 'Achieng'],
    ['Okafor', 'Adeyemi', 'Mensah', 'Owusu', 'Mwangi', 'Otieno', 'Ndlovu', 'Dlamini', 'Nwosu', 'Boateng', 'Kariuki', 'Naidoo', 'Balogun', 'Asante'],
  ],
  seasian: [
    ['Budi', 'Siti', 'Minh', 'Linh', 'Rizal', 'Putri', 'Arif', 'Nurul', 'Anh', 'Mai', 'Somchai', 'Ploy', 'Miguel', 'Andrea', 'Wei Ling', 'Jun Jie'],
    ['Santoso', 'Wijaya', 'Nguyen', 'Tran', 'Pham', 'Tan', 'Lim', 'Ng', 'Rahman', 'Hidayat', 'Srisuk', 'Reyes', 'Cruz', 'Goh', 'Lee', 'Halim'],
  ],
};

const CULTURES = Object.keys(PEOPLE) as NameCulture[];

/** A plausible full name; cosmopolitan hubs mix cultures. */
export function personName(rng: Rng, culture: NameCulture, mixShare = 0.15): string {
  const c = rng.chance(mixShare) ? rng.pick(CULTURES) : culture;
  const [first, last] = PEOPLE[c];
  return `${rng.pick(first)} ${rng.pick(last)}`;
}

/** Last name only (fund names such as "Hartley Brooks Capital"). */
export function lastName(rng: Rng, culture: NameCulture): string {
  return rng.pick(PEOPLE[culture][1]);
}

const ROOTS = [
  'Nova', 'Lumen', 'Quanta', 'Vertex', 'Aether', 'Helix', 'Orbit', 'Pulse', 'Zenith', 'Atlas', 'Beacon', 'Cobalt',
  'Delta', 'Ember', 'Flux', 'Granite', 'Harbor', 'Iris', 'Juniper', 'Kestrel', 'Lattice', 'Meridian', 'Nimbus', 'Onyx',
  'Prism', 'Quill', 'Radiant', 'Sable', 'Tandem', 'Umbra', 'Vela', 'Willow', 'Xylo', 'Yonder', 'Zephyr', 'Arbor',
  'Bright', 'Cinder', 'Drift', 'Echo', 'Fable', 'Glimmer', 'Hollow', 'Indigo', 'Jade', 'Kinetic', 'Lumos', 'Mosaic',
  'Nexus', 'Opal', 'Polar', 'Quest', 'Ripple', 'Solstice', 'Tidal', 'Unity', 'Vivid', 'Wren', 'Axiom', 'Blue',
  'Canopy', 'Dune', 'Ether', 'Fern', 'Gale', 'Halo', 'Ionic', 'Jolt', 'Keel', 'Loom', 'Maple', 'North',
  'Ocean', 'Pine', 'Quartz', 'River', 'Stone', 'Terra', 'Upland', 'Vector', 'Wave', 'Alto', 'Bloom', 'Cedar',
  'Dawn', 'Ever', 'Forge', 'Grove', 'Hatch', 'Ignite', 'Koala', 'Lark', 'Mint', 'Neon', 'Oak', 'Peak',
  'Rally', 'Spark', 'True', 'Vista', 'Wild', 'Amber', 'Birch', 'Coral', 'Falcon', 'Summit', 'Signal', 'Cipher',
  'Pilot', 'Anchor', 'Compass', 'Lantern', 'Mesa', 'Nectar', 'Orchid', 'Pebble', 'Raven', 'Sierra', 'Tempo', 'Verdant',
  'Lucid', 'Copper', 'Silver', 'Golden', 'Crimson', 'Azure', 'Scarlet', 'Ivory', 'Sol', 'Luna', 'Stellar', 'Astra',
];

const ENDINGS = [
  'ly', 'io', 'ify', 'hub', 'labs', 'base', 'stack', 'flow', 'wise', 'loop', 'mind', 'works', 'grid', 'path', 'sense',
  'bit', 'ware', 'scale', 'nest', 'kit', 'craft', 'point', 'line', 'field', 'shift', 'cast', 'mark', 'gate', 'lane',
  'port', 'sync', 'form', 'ai', 'ops', 'way', 'box', 'tap', 'spot', 'deck', 'yard',
];

const SYLLABLES_A = ['Ka', 'Zo', 'Vi', 'Lu', 'Mo', 'Ne', 'Ta', 'Ri', 'So', 'Fe', 'Da', 'Qui', 'Xa', 'Be', 'Ly', 'No', 'Pa', 'Ve', 'Ze', 'Ari', 'Eno', 'Ola', 'Uma', 'Ira'];
const SYLLABLES_B = ['ra', 'vo', 'li', 'ne', 'ta', 'mi', 'ro', 'sa', 'ka', 'lo', 'de', 'ni', 'va', 'ri', 'to', 'ze', 'mo', 'xi'];
const SYLLABLES_C = ['a', 'o', 'ia', 'is', 'on', 'um', 'ix', 'us', 'en', 'ex', 'ly', 'io', 'ar', 'el'];

/** Words that flavour a two-word name by sector ("Cedar Health", "Onyx Pay"). */
export const SECTOR_WORDS: Record<string, string[]> = {
  'Artificial Intelligence & Data': ['AI', 'Data', 'Intelligence', 'Neural', 'Labs', 'Analytics', 'Vision', 'Cognition'],
  'Commerce & Marketing': ['Commerce', 'Market', 'Shop', 'Retail', 'Brands', 'Cart', 'Growth', 'Trade'],
  'Consumer, Lifestyle & Services': ['Home', 'Kitchen', 'Life', 'Play', 'Studio', 'Club', 'Travel', 'Living'],
  'Energy, Environment & Mobility': ['Energy', 'Power', 'Climate', 'Mobility', 'Carbon', 'Solar', 'Motion', 'Grid'],
  'Finance & Blockchain': ['Pay', 'Finance', 'Capital', 'Ledger', 'Money', 'Bank', 'Chain', 'Credit'],
  'Healthcare & Life Sciences': ['Health', 'Bio', 'Care', 'Therapeutics', 'Med', 'Genomics', 'Clinic', 'Life Sciences'],
  'Industry & Hardware': ['Robotics', 'Systems', 'Dynamics', 'Industries', 'Space', 'Materials', 'Machines', 'Devices'],
  'Software & Developer Tools': ['Cloud', 'Software', 'Security', 'Dev', 'Code', 'Ops', 'Works', 'Stack'],
};

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** A candidate startup name (not guaranteed unique). */
export function startupNameCandidate(rng: Rng, sector: string): string {
  const style = rng.next();
  if (style < 0.38) return `${rng.pick(ROOTS)}${rng.pick(ENDINGS)}`;
  if (style < 0.62) return `${rng.pick(SYLLABLES_A)}${rng.pick(SYLLABLES_B)}${rng.pick(SYLLABLES_C)}`;
  if (style < 0.86) return `${rng.pick(ROOTS)} ${rng.pick(SECTOR_WORDS[sector] ?? ['Labs'])}`;
  return `${rng.pick(ROOTS)}${capitalize(rng.pick(ROOTS).toLowerCase())}`;
}

const FUND_SUFFIXES = ['Ventures', 'Capital', 'Partners', 'Venture Partners', 'VC', 'Investments', 'Fund', 'Ventures'];
const GROWTH_SUFFIXES = ['Growth', 'Growth Partners', 'Capital', 'Equity Partners', 'Investments'];
const CORP_WORDS = ['Telecom', 'Pharma', 'Motors', 'Energy', 'Bank', 'Insurance', 'Retail', 'Group', 'Systems', 'Industries', 'Logistics', 'Electronics', 'Chemicals', 'Media'];
const ACCELERATOR_FORMS = ['{root} Accelerator', '{city} Founders Lab', '{root} Launchpad', '{root} Startup Studio', '{root} Incubator', '{city} Tech Accelerator', '{root} Foundry'];

/** A candidate fund name for an investor type. */
export function investorNameCandidate(
  rng: Rng,
  type: 'VC' | 'Angel' | 'Corporate VC' | 'Accelerator',
  opts: { culture: NameCulture; city: string; growth: boolean },
): { name: string; corporate?: string } {
  switch (type) {
    case 'Angel':
      return { name: personName(rng, opts.culture, 0.1) };
    case 'Corporate VC': {
      const corporate = `${rng.pick(ROOTS)} ${rng.pick(CORP_WORDS)}`;
      return { name: `${corporate} ${rng.pick(['Ventures', 'Ventures', 'Venture Capital', 'Innovation Fund', 'Capital'])}`, corporate };
    }
    case 'Accelerator':
      return { name: rng.pick(ACCELERATOR_FORMS).replace('{root}', rng.pick(ROOTS)).replace('{city}', opts.city) };
    case 'VC': {
      const r = rng.next();
      const suffix = opts.growth ? rng.pick(GROWTH_SUFFIXES) : rng.pick(FUND_SUFFIXES);
      if (r < 0.55) return { name: `${rng.pick(ROOTS)} ${suffix}` };
      if (r < 0.7) return { name: `${rng.pick(ROOTS)}${capitalize(rng.pick(ROOTS).toLowerCase())} ${suffix}` };
      if (r < 0.85) return { name: `${lastName(rng, opts.culture)} ${lastName(rng, opts.culture)} ${suffix}` };
      return { name: `${opts.city} ${rng.pick(['Ventures', 'Capital', 'Seed Fund', 'Tech Fund'])}` };
    }
  }
}

/**
 * URL slug of a name: lowercase ASCII letters, digits and single dashes.
 * @example slugify('Zürich Founders Lab') === 'zurich-founders-lab'
 */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/ø/g, 'o')
    .replace(/ı/g, 'i')
    .replace(/ł/g, 'l')
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
