/**
 * A synthetic investor shortlist for the renderer tests, in the service's shapes: three
 * portfolio companies, the first two with ranked investors (new and not, enriched and not) and
 * the service's charts as the sandbox sends them (a combo of deals and capital by year up to the
 * year in progress, a bar of stage keys, a country bar, a chart without rows), the third not
 * asked on a free plan. Reasons as the service writes them (a raise's figures, a list ended in
 * `, …`), a partner and a website on most enriched investors, websites on two companies. Names a list really brings: a formula
 * (`=HYPERLINK(...)`) and Chinese, both on two lists; a company name with a `/`. Its sources as
 * the activity keeps them: each company's list (S1, S2), then the profiles of the enriched rows.
 */
import type { ChartSpec } from '../../../../api/envelope.js';
import { sharedInvestors } from '../../../../jobs/investor-shortlist/changes.js';
import type {
  CompanySection,
  ShortlistReport,
  ShortlistRow,
} from '../../../../jobs/investor-shortlist/types.js';
import type { SourceRow } from '../../../../shared/types.js';

export const FORMULA_NAME = '=HYPERLINK("http://x","y")';
export const CJK_NAME = '北京投资';
export const CJK_KEY = 'inv_beijing';
export const PROBLEM = 'not asked: the free plan allows one run';
export const SLASH_COMPANY = 'Quantora Health / Diagnostics';

const INVESTORS = [
  ['Northwind Ventures', 'VC', 'Berlin', 'Germany'],
  ['Harbor Seed Partners', 'VC', 'London', 'United Kingdom'],
  [FORMULA_NAME, 'Angel network', 'Paris', 'France'],
  ['Bluefin Capital', 'Corporate VC', 'Stockholm', 'Sweden'],
  [CJK_NAME, 'VC', 'Beijing', 'China'],
  ['Atlas Growth Fund', 'Growth equity', 'New York', 'United States'],
  ['Meridian Angels', 'Angel network', 'Amsterdam', 'Netherlands'],
  ['Kestrel Fintech Fund', 'VC', 'Zurich', 'Switzerland'],
  ['Copperleaf Capital', 'Family office', null, 'Spain'],
  ['Foundry Lane', 'Accelerator', 'Dublin', 'Ireland'],
  ['Polaris Early Stage', 'VC', 'Helsinki', 'Finland'],
  ['Sable Rock Ventures', 'VC', 'Lisbon', 'Portugal'],
] as const;

/** Partners the enriched investors' profiles name. */
export const PARTNERS = ['Ana Ruiz', 'Jonas Weber', 'Priya Nair', 'Tom Okafor'];

const keyOf = (name: string): string =>
  name === CJK_NAME
    ? CJK_KEY
    : `inv_${name
        .toLowerCase()
        .replace(/[^a-z]+/g, '_')
        .replace(/^_|_$/g, '')}`;

function row(
  index: number,
  rank: number,
  fit: number,
  options: { isNew: boolean; enriched: boolean },
): ShortlistRow {
  const [name, type, city, country] = INVESTORS[index] ?? INVESTORS[0];
  return {
    rank,
    key: keyOf(name),
    name,
    fitPct: fit,
    why: [
      `HQ in ${country}, in the region of the startup; ${2 + (index % 5)} deals in startups there`,
      `${12 + index} deals in the sector since 2020 (${4 + (index % 3)} since 2024), 3 in payments infrastructure for regulated industries across Europe`,
      `led ${3 + (index % 4)} seed rounds of $1.5M–$4M in the sector since 2022, joined 5 more`,
      ...(index % 2 === 0 ? ['backed 5 look-alikes: Claimly, Parcelwise, Helio Grid, …'] : []),
    ],
    url: `https://vis.example/investors/${keyOf(name)}`,
    isNew: options.isNew,
    investorType: type,
    hqCity: city,
    hqCountry: country,
    enriched: options.enriched,
    thesis: options.enriched
      ? 'Backs technical founders building infrastructure for regulated industries, from pre-seed to series A.'
      : null,
    checkMinUsd: options.enriched ? 250_000 * (1 + (index % 3)) : null,
    checkMaxUsd: options.enriched ? 2_000_000 * (1 + (index % 2)) : null,
    recentPortfolio: options.enriched ? ['Claimly', 'Parcelwise', 'Helio Grid'] : [],
    website: options.enriched && index !== 3 ? `https://www.${keyOf(name).slice(4)}.example.com` : null,
    partner:
      options.enriched && index !== 3
        ? { name: PARTNERS[index % PARTNERS.length]!, role: index % 2 === 0 ? 'General Partner' : null }
        : null,
  };
}

/** The service's charts of a company, in its shapes (sandbox/finders/charts.ts). */
export function serviceCharts(sector: string): ChartSpec[] {
  return [
    {
      type: 'combo',
      title: `Deal activity in ${sector} by year`,
      xKey: 'year',
      series: [
        { key: 'deals', name: 'Deals', unit: 'deals', type: 'bar' },
        { key: 'capital_usd', name: 'Capital (USD)', unit: 'USD', type: 'line' },
      ],
      data: [2021, 2022, 2023, 2024, 2025, 2026].map((year, i) => ({
        year,
        deals: 40 + i * 9 - (i === 3 ? 20 : 0),
        capital_usd: (300 + i * 120) * 1e6,
      })),
      unit: 'deals',
    },
    {
      type: 'bar',
      title: `Stages of the matched investors' deals in ${sector}`,
      xKey: 'stage',
      series: [{ type: 'bar', key: 'deals', name: 'Deals' }],
      data: ['pre-seed', 'seed', 'series-a', 'series-b', 'series-c-plus'].map((stage, i) => ({
        stage,
        deals: [12, 31, 18, 6, 2][i],
      })),
      unit: 'deals',
    },
    {
      type: 'bar',
      title: 'Where the matched investors are (HQ country)',
      xKey: 'country',
      series: [{ type: 'bar', key: 'investors', name: 'Investors' }],
      data: [
        { country: 'Germany', investors: 4 },
        { country: 'United Kingdom', investors: 3 },
        { country: 'France', investors: 2 },
        { country: 'China', investors: 1 },
        { country: 'Other', investors: 2 },
      ],
      unit: 'investors',
    },
  ];
}

/** A chart the service sent without rows: left out, with a note. */
export const EMPTY_CHART: ChartSpec = {
  type: 'bar',
  title: 'Lead investors by round size',
  xKey: 'size',
  series: [{ key: 'leads', name: 'Leads' }],
  data: [],
};

function section(
  name: string,
  investors: ShortlistRow[],
  extra: Partial<CompanySection> = {},
): CompanySection {
  return {
    name,
    asked: '',
    readAs: null,
    investors,
    charts: [],
    reportUrl: null,
    charged: 1,
    problem: null,
    newCount: investors.filter((i) => i.isNew).length,
    ...extra,
  };
}

/** The report of a run after the baseline (`baseline: false`) or of the baseline itself. */
export function shortlistReport(options: { baseline?: boolean } = {}): ShortlistReport {
  const baseline = options.baseline ?? false;
  const isNew = (yes: boolean): boolean => !baseline && yes;
  const first = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map((idx, i) =>
    row(idx, i + 1, 94.5 - i * 2.3, { isNew: isNew(i === 1 || i === 6 || i === 9), enriched: i < 4 }),
  );
  const second = [4, 2, 7, 10, 11, 1].map((idx, i) =>
    row(idx, i + 1, 91 - i * 3.1, { isNew: isNew(i === 0), enriched: i < 2 }),
  );
  const companies = [
    section('Ledgerline', first, {
      website: 'ledgerline.io',
      asked: 'ledgerline.io · raising seed · investors in Europe · Finance & Blockchain',
      readAs: 'Ledgerline: reconciliation software for mid-sized banks (Finance & Blockchain, Germany)',
      charts: [...serviceCharts('Finance & Blockchain'), EMPTY_CHART],
      reportUrl: 'https://vis.example/reports/match/ledgerline',
    }),
    section(SLASH_COMPANY, second, {
      asked: 'AI triage of lab results for clinics. · raising series-a · investors in Europe',
      readAs: null,
      charts: serviceCharts('Healthcare & Life Sciences').slice(0, 2),
      reportUrl: 'javascript:alert(1)',
    }),
    section('Kitebase', [], {
      website: 'kitebase.com',
      asked: 'kitebase.com · raising pre-seed · investors in North America',
      charged: 0,
      problem: PROBLEM,
      newCount: 0,
    }),
  ];
  const lists = new Map(companies.map((c) => [c.name, c.investors]));
  const sources: SourceRow[] = [];
  const add = (
    operation: SourceRow['operation'],
    params: Record<string, unknown>,
    records: number,
    name: string,
  ) => {
    const id = `S${sources.length + 1}`;
    sources.push({
      id,
      operation,
      params,
      fetchedAt: '2026-11-16T06:00:00.000Z',
      credits: operation === 'find_investors' ? 1 : 0,
      status: 200,
      records,
      ref: `runs/run-1/${name}.json`,
    });
    return id;
  };
  const asked = companies.filter((c) => c.problem === null);
  asked.forEach(
    (c, i) =>
      (c.source = add('find_investors', { limit: 12 }, c.investors.length, `investors/company-${i + 1}`)),
  );
  asked.forEach((c, i) =>
    c.investors.forEach((r, k) => {
      r.sources = [c.source!];
      if (r.enriched)
        r.sources.push(add('get_investor', { key: r.key }, 1, `profiles/investor-${i + 1}-${k}`));
    }),
  );
  const listOf = new Map(companies.map((c) => [c.name, c.source]));
  return {
    job: { id: 'platform-raises', title: 'Portfolio raises: investor shortlist' },
    date: '2026-11-16',
    baseline,
    companies,
    shared: sharedInvestors(lists).map((x) => ({
      ...x,
      sources: x.companies.flatMap((n) => (listOf.get(n) ? [listOf.get(n)!] : [])),
    })),
    planNote: 'the free plan allows one find_investors run and shows the top 5 investors of a list',
    credits: { spent: 2, budget: 10 },
    sources,
  };
}
