/**
 * The sector taxonomy of the sandbox: the spec's 8 sectors, their subsectors, tags and the
 * description keywords that identify them. The generator writes descriptions from it; the
 * finders and the data agent read a startup's market from a description with it.
 */
import type { Sector } from '../../api/enums.js';
import { SECTORS } from '../../api/enums.js';

export interface Subsector {
  name: string;
  /** Tag slugs of the subsector (startups carry 2-4 of them). */
  tags: string[];
  /** Lowercase words or phrases whose presence in a description points to the subsector. */
  keywords: string[];
  /** Noun phrases of what such a startup builds; each contains one of the keywords. */
  offerings: string[];
}

export interface SectorTaxonomy {
  sector: Sector;
  /** Lowercase words that point to the sector in general. */
  keywords: string[];
  /** How a thesis names the sector, e.g. 'AI-native software and data infrastructure'. */
  thesisPhrase: string;
  /** Typical customers, used in descriptions ("for mid-market retailers"). */
  customers: string[];
  subsectors: Subsector[];
}

const sub = (name: string, tags: string[], keywords: string[], offerings: string[]): Subsector => ({
  name,
  tags,
  keywords,
  offerings,
});

/** Subsectors, tags and keywords of each of the 8 sectors. */
export const TAXONOMY: Record<Sector, SectorTaxonomy> = {
  'Artificial Intelligence & Data': {
    sector: 'Artificial Intelligence & Data',
    keywords: ['artificial intelligence', 'ai', 'machine learning', 'data', 'llm', 'model'],
    thesisPhrase: 'AI-native software and data infrastructure',
    customers: [
      'enterprises',
      'data teams',
      'software companies',
      'banks and insurers',
      'manufacturers',
      'public agencies',
    ],
    subsectors: [
      sub(
        'Generative AI',
        ['generative-ai', 'llm', 'ai-agents', 'foundation-models'],
        ['generative', 'language model', 'llm', 'ai agent'],
        [
          'generative AI copilots',
          'large language model (LLM) tooling',
          'autonomous AI agent workflows',
          'domain-specific generative models',
        ],
      ),
      sub(
        'Machine Learning Infrastructure',
        ['mlops', 'ml-infrastructure', 'gpu-cloud', 'inference'],
        ['machine learning', 'model training', 'inference', 'gpu'],
        [
          'a machine learning platform for model training',
          'low-latency inference infrastructure',
          'GPU cloud capacity for model training',
          'machine learning observability',
        ],
      ),
      sub(
        'Data Analytics',
        ['analytics', 'business-intelligence', 'data-warehouse'],
        ['analytics', 'dashboard', 'business intelligence', 'data warehouse'],
        [
          'self-service analytics dashboards',
          'a business intelligence layer on the data warehouse',
          'real-time product analytics',
        ],
      ),
      sub(
        'Computer Vision',
        ['computer-vision', 'image-recognition', 'video-analytics'],
        ['computer vision', 'image recognition', 'video'],
        [
          'computer vision inspection software',
          'image recognition APIs',
          'video analytics for physical spaces',
        ],
      ),
      sub(
        'Data Infrastructure',
        ['data-infrastructure', 'data-pipelines', 'vector-database'],
        ['data pipeline', 'database', 'data integration', 'vector'],
        ['managed data pipelines', 'a vector database for AI applications', 'data integration connectors'],
      ),
    ],
  },
  'Commerce & Marketing': {
    sector: 'Commerce & Marketing',
    keywords: ['commerce', 'marketing', 'retail', 'shopping', 'brand', 'sales'],
    thesisPhrase: 'the next generation of commerce, retail and marketing',
    customers: [
      'online retailers',
      'consumer brands',
      'mid-market merchants',
      'wholesalers',
      'sales teams',
      'marketing agencies',
    ],
    subsectors: [
      sub(
        'E-commerce Platforms',
        ['e-commerce', 'd2c', 'storefront'],
        ['e-commerce', 'online store', 'storefront'],
        ['headless e-commerce storefronts', 'an online store builder', 'e-commerce operations software'],
      ),
      sub(
        'Marketplaces',
        ['marketplace', 'b2b-marketplace', 'resale'],
        ['marketplace', 'buyers and sellers', 'resale'],
        [
          'a B2B marketplace connecting buyers and sellers',
          'a resale marketplace for pre-owned goods',
          'a curated marketplace for independent makers',
        ],
      ),
      sub(
        'Marketing Technology',
        ['martech', 'advertising', 'customer-engagement'],
        ['marketing', 'advertising', 'campaign'],
        [
          'marketing automation',
          'AI-generated advertising campaigns',
          'a customer engagement and campaign platform',
        ],
      ),
      sub(
        'Retail Tech',
        ['retail-tech', 'point-of-sale', 'inventory'],
        ['retail', 'point of sale', 'inventory'],
        [
          'point of sale software for retail chains',
          'inventory forecasting for retail',
          'in-store retail analytics',
        ],
      ),
      sub(
        'Sales Enablement',
        ['sales-tech', 'crm', 'revenue-intelligence'],
        ['sales', 'crm', 'revenue intelligence'],
        ['a CRM for sales teams', 'revenue intelligence for sales leaders', 'sales prospecting automation'],
      ),
      sub(
        'Supply Chain & Fulfillment',
        ['logistics', 'fulfillment', 'last-mile'],
        ['fulfillment', 'supply chain', 'delivery'],
        [
          'same-day delivery and fulfillment',
          'supply chain visibility software',
          'fulfillment centres as a service',
        ],
      ),
    ],
  },
  'Consumer, Lifestyle & Services': {
    sector: 'Consumer, Lifestyle & Services',
    keywords: ['consumer', 'lifestyle', 'app', 'subscription', 'services'],
    thesisPhrase: 'consumer products and services people love',
    customers: [
      'families',
      'young professionals',
      'students',
      'travellers',
      'homeowners',
      'independent creators',
    ],
    subsectors: [
      sub(
        'Food & Beverage',
        ['foodtech', 'food-delivery', 'alternative-protein'],
        ['food', 'meal', 'restaurant'],
        ['a meal delivery service', 'plant-based food brands', 'restaurant ordering software'],
      ),
      sub(
        'Travel & Hospitality',
        ['traveltech', 'hospitality', 'booking'],
        ['travel', 'booking', 'hotel'],
        ['a travel booking app', 'hotel operations software', 'booking tools for short-term rentals'],
      ),
      sub(
        'EdTech',
        ['edtech', 'online-learning', 'upskilling'],
        ['learning', 'education', 'tutoring', 'course'],
        ['an online learning platform', 'AI tutoring for students', 'upskilling courses for employees'],
      ),
      sub(
        'Media & Entertainment',
        ['media', 'gaming', 'creator-economy', 'streaming'],
        ['gaming', 'creator', 'streaming', 'content'],
        ['tools for the creator economy', 'a mobile gaming studio', 'a streaming content platform'],
      ),
      sub(
        'PropTech & Home Services',
        ['proptech', 'home-services', 'real-estate'],
        ['real estate', 'home', 'rental'],
        ['on-demand home services', 'a rental platform for tenants', 'real estate search and home buying'],
      ),
      sub(
        'Wellness & Fitness',
        ['wellness', 'fitness', 'sleep'],
        ['fitness', 'wellness', 'workout'],
        ['a connected fitness app', 'a wellness subscription', 'personalised workout coaching'],
      ),
    ],
  },
  'Energy, Environment & Mobility': {
    sector: 'Energy, Environment & Mobility',
    keywords: ['energy', 'climate', 'mobility', 'sustainability', 'cleantech', 'decarbon'],
    thesisPhrase: 'climate, energy transition and mobility',
    customers: [
      'utilities',
      'fleet operators',
      'industrial companies',
      'cities',
      'real estate owners',
      'farmers',
    ],
    subsectors: [
      sub(
        'Renewable Energy',
        ['renewables', 'solar', 'wind'],
        ['solar', 'wind', 'renewable'],
        ['solar project development software', 'renewable energy trading', 'wind farm monitoring'],
      ),
      sub(
        'Energy Storage',
        ['energy-storage', 'batteries', 'grid'],
        ['battery', 'storage', 'grid'],
        ['grid-scale battery storage', 'battery management software', 'grid flexibility services'],
      ),
      sub(
        'Electric Mobility',
        ['e-mobility', 'ev-charging', 'fleet-electrification'],
        ['electric vehicle', 'charging', 'fleet'],
        ['EV charging networks', 'fleet electrification software', 'electric vehicle subscriptions'],
      ),
      sub(
        'Carbon & Climate',
        ['carbon-accounting', 'carbon-removal', 'climate-tech'],
        ['carbon', 'emissions', 'climate'],
        ['carbon accounting software', 'direct air carbon removal', 'emissions tracking for supply chains'],
      ),
      sub(
        'Mobility & Transport',
        ['mobility', 'micromobility', 'freight'],
        ['mobility', 'ride', 'transport', 'freight'],
        ['shared micromobility', 'ride-hailing for mid-sized cities', 'freight transport software'],
      ),
      sub(
        'AgriTech',
        ['agritech', 'precision-agriculture', 'vertical-farming'],
        ['farm', 'agriculture', 'crop'],
        [
          'precision agriculture sensors',
          'vertical farming systems',
          'crop yield analytics for farm operators',
        ],
      ),
    ],
  },
  'Finance & Blockchain': {
    sector: 'Finance & Blockchain',
    keywords: ['fintech', 'finance', 'financial', 'bank', 'money', 'blockchain'],
    thesisPhrase: 'fintech, financial infrastructure and digital assets',
    customers: [
      'small businesses',
      'banks',
      'online merchants',
      'freelancers',
      'finance teams',
      'retail investors',
    ],
    subsectors: [
      sub(
        'Payments',
        ['payments', 'cross-border', 'merchant'],
        ['payment', 'checkout', 'remittance'],
        [
          'a payment orchestration platform',
          'one-click checkout',
          'cross-border remittance',
          'instant payment rails',
        ],
      ),
      sub(
        'Banking & Lending',
        ['neobank', 'lending', 'credit'],
        ['bank', 'lending', 'credit', 'loan'],
        [
          'a digital bank',
          'embedded lending',
          'credit scoring for thin-file borrowers',
          'working-capital loan products',
        ],
      ),
      sub(
        'Insurtech',
        ['insurtech', 'embedded-insurance', 'claims'],
        ['insurance', 'claims', 'underwriting'],
        ['embedded insurance', 'AI claims automation', 'underwriting software for insurance carriers'],
      ),
      sub(
        'Wealth & Investing',
        ['wealthtech', 'investing', 'trading'],
        ['investing', 'wealth', 'trading', 'portfolio'],
        ['a retail investing app', 'wealth management software', 'automated portfolio trading'],
      ),
      sub(
        'Crypto & Web3',
        ['crypto', 'web3', 'defi', 'stablecoins'],
        ['crypto', 'blockchain', 'stablecoin', 'web3'],
        ['stablecoin payment rails', 'blockchain infrastructure', 'a crypto custody and trading platform'],
      ),
      sub(
        'Finance Operations',
        ['fintech-saas', 'accounting', 'spend-management'],
        ['accounting', 'invoice', 'spend', 'treasury'],
        ['automated accounting', 'invoice and spend management', 'treasury management software'],
      ),
    ],
  },
  'Healthcare & Life Sciences': {
    sector: 'Healthcare & Life Sciences',
    keywords: ['health', 'healthcare', 'medical', 'clinical', 'patient', 'bio'],
    thesisPhrase: 'healthcare, biotech and the life sciences',
    customers: ['hospitals', 'clinics', 'patients', 'pharma companies', 'employers', 'insurers'],
    subsectors: [
      sub(
        'Digital Health',
        ['digital-health', 'telehealth', 'remote-monitoring'],
        ['telehealth', 'patient', 'remote monitoring', 'virtual care'],
        ['virtual care for chronic patients', 'telehealth clinics', 'remote monitoring of patients at home'],
      ),
      sub(
        'Biotech',
        ['biotech', 'drug-discovery', 'therapeutics'],
        ['drug discovery', 'therapeutics', 'biotech', 'protein'],
        [
          'AI-driven drug discovery',
          'novel therapeutics for oncology',
          'protein engineering for biotech partners',
        ],
      ),
      sub(
        'Medical Devices',
        ['medtech', 'diagnostics', 'wearables'],
        ['medical device', 'diagnostic', 'wearable'],
        [
          'point-of-care diagnostic devices',
          'wearable cardiac monitors',
          'minimally invasive surgical medical devices',
        ],
      ),
      sub(
        'Healthcare IT',
        ['health-it', 'clinical-workflow', 'revenue-cycle'],
        ['clinical', 'hospital', 'health records', 'billing'],
        [
          'clinical documentation software',
          'revenue cycle and billing automation',
          'interoperable health records',
        ],
      ),
      sub(
        'Mental Health',
        ['mental-health', 'behavioral-health', 'therapy'],
        ['mental health', 'therapy', 'behavioral'],
        ['on-demand therapy', 'behavioral health programs', 'mental health support for teenagers'],
      ),
      sub(
        'Genomics',
        ['genomics', 'precision-medicine', 'sequencing'],
        ['genomic', 'sequencing', 'precision medicine'],
        ['genomic testing', 'long-read sequencing instruments', 'precision medicine analytics'],
      ),
    ],
  },
  'Industry & Hardware': {
    sector: 'Industry & Hardware',
    keywords: ['hardware', 'industrial', 'deep tech', 'manufacturing', 'physical'],
    thesisPhrase: 'deep tech, hardware and industrial transformation',
    customers: [
      'manufacturers',
      'logistics operators',
      'defense agencies',
      'construction firms',
      'chipmakers',
      'utilities',
    ],
    subsectors: [
      sub(
        'Robotics & Automation',
        ['robotics', 'automation', 'warehouse-robotics'],
        ['robot', 'automation', 'autonomous'],
        ['warehouse robots', 'industrial automation cells', 'autonomous inspection robots'],
      ),
      sub(
        'Semiconductors',
        ['semiconductors', 'chips', 'photonics'],
        ['chip', 'semiconductor', 'photonic'],
        ['AI inference chips', 'semiconductor design tools', 'photonic interconnects'],
      ),
      sub(
        'Advanced Manufacturing',
        ['manufacturing', '3d-printing', 'industrial-software'],
        ['manufacturing', 'factory', '3d printing'],
        ['factory operations software', 'industrial 3D printing', 'manufacturing quality analytics'],
      ),
      sub(
        'Aerospace & Defense',
        ['space', 'defense', 'drones'],
        ['satellite', 'drone', 'defense', 'space'],
        ['earth-observation satellites', 'autonomous drones for defense', 'space launch services'],
      ),
      sub(
        'Construction Tech',
        ['construction-tech', 'building-materials', 'contech'],
        ['construction', 'building', 'job site'],
        [
          'construction project management software',
          'low-carbon building materials',
          'job site progress tracking',
        ],
      ),
      sub(
        'IoT & Sensors',
        ['iot', 'sensors', 'edge-computing'],
        ['sensor', 'connected device', 'industrial iot'],
        ['industrial IoT sensor networks', 'connected device management', 'low-power sensor modules'],
      ),
    ],
  },
  'Software & Developer Tools': {
    sector: 'Software & Developer Tools',
    keywords: ['software', 'saas', 'developer', 'cloud', 'platform', 'b2b'],
    thesisPhrase: 'B2B software, cloud and developer tools',
    customers: [
      'software developers',
      'IT teams',
      'mid-market companies',
      'security teams',
      'HR teams',
      'legal teams',
    ],
    subsectors: [
      sub(
        'Developer Tools',
        ['devtools', 'ci-cd', 'code-review'],
        ['developer', 'code', 'software delivery'],
        [
          'AI code review for developer teams',
          'continuous software delivery pipelines',
          'internal developer portals',
        ],
      ),
      sub(
        'Cybersecurity',
        ['cybersecurity', 'identity', 'cloud-security'],
        ['security', 'identity', 'threat'],
        [
          'cloud security posture management',
          'identity and access management',
          'threat detection for security operations centres',
        ],
      ),
      sub(
        'Cloud Infrastructure',
        ['cloud', 'devops', 'observability'],
        ['cloud', 'observability', 'kubernetes', 'infrastructure'],
        [
          'observability for cloud applications',
          'kubernetes cost management',
          'infrastructure-as-code automation',
        ],
      ),
      sub(
        'Collaboration & Productivity',
        ['productivity', 'collaboration', 'future-of-work'],
        ['collaboration', 'workspace', 'productivity', 'meeting'],
        ['a collaborative workspace', 'AI meeting notes', 'productivity tools for remote teams'],
      ),
      sub(
        'HR & Workforce',
        ['hr-tech', 'payroll', 'recruiting'],
        ['hiring', 'payroll', 'recruiting', 'workforce'],
        ['global payroll', 'AI-assisted recruiting', 'workforce scheduling for frontline staff'],
      ),
      sub(
        'LegalTech & Compliance',
        ['legaltech', 'compliance', 'regtech'],
        ['legal', 'compliance', 'contract'],
        ['contract review software', 'compliance automation', 'legal research assistants'],
      ),
    ],
  },
};

/** Every subsector with its sector, in taxonomy order. */
export const SUBSECTORS: readonly (Subsector & { sector: Sector })[] = SECTORS.flatMap((sector) =>
  TAXONOMY[sector].subsectors.map((s) => ({ ...s, sector })),
);

/** Every tag of the taxonomy (unique, sorted). */
export const ALL_TAGS: readonly string[] = [...new Set(SUBSECTORS.flatMap((s) => s.tags))].sort();
