/**
 * The slides of invented startups' pitch decks (none is a real company), each with the numbers
 * a deck analysis reads (ARR or revenue, growth, customers, the raise, the market size, gross
 * margin, churn or retention, the team) and a different strength: a strong seed fintech in
 * Berlin, a weak pre-revenue consumer app, a B2B SaaS whose customers churn, a climate hardware
 * startup in pilots, a health AI startup and a B2B marketplace.
 */

/** An example deck: its file name, the startup's name, the file type and the slides' lines. */
export interface ExampleDeck {
  file: string;
  startupName: string;
  kind: 'pdf' | 'pptx';
  /** What the deck is like, in a few words. */
  profile: string;
  slides: string[][];
}

/** Slides of a strong seed-stage fintech deck from Berlin (fits a European fintech thesis). */
export const LEDGERLY_SLIDES: string[][] = [
  ['Ledgerly', 'Accounting automation for European SMBs', 'Berlin, Germany'],
  ['Problem', 'Small businesses spend 20 hours a month on invoice reconciliation and spend reporting.'],
  [
    'Solution',
    'Ledgerly is a SaaS platform with an API that automates accounting, invoice matching and treasury.',
    'Launched in 2023 with 14 integrations.',
  ],
  [
    'Traction',
    'ARR of $1.8M, growing 3x YoY.',
    '240 paying customers across Germany and France.',
    'Net revenue retention 125% NRR.',
  ],
  [
    'Market',
    'Total addressable market of $14B in European SMB finance software.',
    'Competition: legacy accounting suites; we win on automation.',
  ],
  ['Business model', 'Subscription pricing per seat, 78% gross margin, CAC payback of 9 months.'],
  [
    'Team',
    'Anna Becker, CEO and co-founder, ex-Stripe, 10 years in payments.',
    'Jonas Weber, CTO and co-founder, PhD in machine learning, previously at N26.',
    '24 employees in Berlin.',
  ],
  ['The ask', 'We are raising $4M seed to expand to the Netherlands and Sweden.'],
];

/** Slides of a weak deck outside most theses: a pre-revenue consumer app in Brazil. */
export const SNACKR_SLIDES: string[][] = [
  ['Snackr', 'The fun way to order snacks'],
  ['Vision', 'A consumer app for food lovers in São Paulo, Brazil.'],
  ['Ask', 'We are raising $12M series B. We are pre-revenue.'],
];

/** A B2B SaaS with real revenue and a churn problem: scheduling for restaurants in the UK. */
export const SHIFTNOOK_SLIDES: string[][] = [
  ['Shiftnook', 'Staff scheduling software for restaurants', 'Manchester, United Kingdom'],
  ['Problem', 'Restaurant managers build rotas in spreadsheets and lose 6 hours a week to shift swaps.'],
  ['Solution', 'Shiftnook is a SaaS platform for rotas, time clocks and payroll exports, live since 2022.'],
  [
    'Traction',
    'ARR of $2.1M, growing 40% YoY.',
    '310 paying customers, mostly independent restaurants.',
    'Monthly churn of 5% and net revenue retention 88% NRR.',
  ],
  ['Market', 'Total addressable market of $6B in hospitality workforce software in Europe.'],
  ['Business model', 'Subscription per location, 71% gross margin, CAC payback of 19 months.'],
  ['Team', 'Priya Nair, CEO and co-founder, previously at Deliveroo.', '35 employees in Manchester.'],
  ['The ask', 'We are raising $8M series A to move upmarket to restaurant groups.'],
];

/** A climate hardware startup in paid pilots: thermal batteries for industrial heat. */
export const KELVINFORGE_SLIDES: string[][] = [
  [
    'Kelvinforge',
    'Thermal batteries that store renewable power as industrial heat',
    'Rotterdam, Netherlands',
  ],
  [
    'Problem',
    'Industrial heat is a fifth of global energy use and almost all of it still comes from burning gas.',
  ],
  [
    'Solution',
    'A proprietary brick storage unit charged by cheap wind and solar power, delivering steam at 400 C.',
    'Two patents granted; pilot units running since 2025.',
  ],
  [
    'Traction',
    'Revenue of $600K from 3 paid pilots with chemical plants.',
    'Letters of intent for 40 MWh of storage.',
  ],
  ['Market', 'Total addressable market of $40B in industrial process heat in Europe.'],
  ['Business model', 'Hardware sales plus heat-as-a-service contracts; 22% gross margin on pilot units.'],
  [
    'Team',
    'Dr. Maarten de Vries, CEO and co-founder, PhD in thermal engineering, ex-Shell.',
    'Elena Rossi, CTO and co-founder, 12 years in power electronics.',
    '18 employees.',
  ],
  ['The ask', 'We are raising €10M seed to build the first 10 MWh commercial unit.'],
];

/** A health AI startup with fast growth: AI triage of heart sounds for primary care in Sweden. */
export const AUSCURA_SLIDES: string[][] = [
  ['Auscura Health', 'AI triage of heart and lung sounds for primary care', 'Stockholm, Sweden'],
  ['Problem', 'Heart valve disease goes undetected in half of patients until it is severe.'],
  [
    'Solution',
    'A machine learning model that reads digital stethoscope recordings and flags murmurs in seconds.',
    'CE-marked medical device software, integrated with the main clinic record systems.',
  ],
  [
    'Traction',
    'ARR of $900K, growing 4x YoY.',
    '45 clinics in Sweden and Denmark.',
    '120,000 patients screened.',
  ],
  ['Market', 'Total addressable market of $9B in primary care diagnostics in Europe.'],
  ['Business model', 'Subscription per clinic with usage-based pricing per screening, 81% gross margin.'],
  [
    'Team',
    'Sara Lindqvist, CEO and co-founder, cardiologist, MBA from INSEAD.',
    'Erik Holm, CTO and co-founder, PhD in machine learning, previously at Spotify.',
    '16 employees.',
  ],
  ['The ask', 'We are raising $5M seed for clinical studies and a launch in Germany.'],
];

/** A B2B marketplace with a take rate: used industrial machinery parts in Poland. */
export const PARTSBARN_SLIDES: string[][] = [
  ['Partsbarn', 'The marketplace for used industrial machinery parts', 'Warsaw, Poland'],
  ['Problem', 'Factories wait weeks for spare parts while working used parts sit in other plants.'],
  ['Solution', 'A B2B marketplace with inspection, escrow payments and delivery in 48 hours.'],
  [
    'Traction',
    'Revenue of $1.2M on $9M GMV, a 13% take rate.',
    '1,800 merchants and 650 buying plants.',
    'Growing 150% YoY.',
  ],
  ['Market', 'Total addressable market of $25B in industrial spare parts in Central Europe.'],
  ['Business model', 'Commission on every order, 64% gross margin.'],
  [
    'Team',
    'Tomasz Nowak, CEO and co-founder, ex-Allegro, 8 years in marketplaces.',
    'Kasia Wójcik, COO and co-founder, former plant manager.',
    '27 employees.',
  ],
  ['The ask', 'We are raising $6M series A to expand to Germany and Czechia.'],
];

/** The example decks, with file names the way decks arrive in an inbox. */
export const EXAMPLE_DECKS: readonly ExampleDeck[] = [
  {
    file: 'ledgerly-seed-deck.pdf',
    startupName: 'Ledgerly',
    kind: 'pdf',
    profile: 'strong seed fintech in Berlin',
    slides: LEDGERLY_SLIDES,
  },
  {
    file: 'snackr-pitch.pptx',
    startupName: 'Snackr',
    kind: 'pptx',
    profile: 'weak pre-revenue consumer app',
    slides: SNACKR_SLIDES,
  },
  {
    file: 'Shiftnook Series A Deck.pdf',
    startupName: 'Shiftnook',
    kind: 'pdf',
    profile: 'B2B SaaS with a churn problem',
    slides: SHIFTNOOK_SLIDES,
  },
  {
    file: 'kelvinforge_investor_presentation.pptx',
    startupName: 'Kelvinforge',
    kind: 'pptx',
    profile: 'climate hardware in paid pilots',
    slides: KELVINFORGE_SLIDES,
  },
  {
    file: 'auscura-health-seed.pdf',
    startupName: 'Auscura Health',
    kind: 'pdf',
    profile: 'health AI with fast growth',
    slides: AUSCURA_SLIDES,
  },
  {
    file: 'partsbarn-series-a.pptx',
    startupName: 'Partsbarn',
    kind: 'pptx',
    profile: 'B2B marketplace with a take rate',
    slides: PARTSBARN_SLIDES,
  },
];
