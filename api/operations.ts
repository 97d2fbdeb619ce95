/**
 * The one description of the service's 12 operations: name, path, credits, scope, plan and
 * account-type rule and parameter schema. The sandbox, the client and the OpenAPI document are
 * all derived from this table. What comes back inside `data` is not described here: the spec
 * does not show it, and the runner reads it with the tolerant accessors of api/read.ts.
 */
import type { z } from 'zod';
import { CATALOG } from './catalog.js';
import type { AccountType, Scope } from './enums.js';
import * as P from './params.js';

/** Who may call an operation, per the spec's summary table. */
export interface PlanRule {
  /** 'any': every plan; 'paid': paid plans only; 'free-limited': free plans get a limited run. */
  plan: 'any' | 'paid' | 'free-limited';
  /** Account types allowed; undefined means every type. */
  accountTypes?: readonly AccountType[];
  /** The spec's wording, shown in docs and errors. */
  text: string;
}

export interface OperationDef<Name extends string = string, Params extends z.ZodType = z.ZodType> {
  name: Name;
  path: `/v1/${Name}`;
  credits: number;
  scope: Scope;
  rule: PlanRule;
  /** One-line description from the spec. */
  description: string;
  params: Params;
  /** Parameters that are arrays (for GET query encoding). */
  arrayParams: readonly string[];
  /** Parameters that are integers (for GET query decoding). */
  integerParams: readonly string[];
}

function op<const Name extends string, Params extends z.ZodType>(
  def: Omit<OperationDef<Name, Params>, 'path' | 'arrayParams' | 'integerParams'> &
    Partial<Pick<OperationDef<Name, Params>, 'arrayParams' | 'integerParams'>>,
): OperationDef<Name, Params> {
  return { arrayParams: [], integerParams: [], ...def, path: `/v1/${def.name}` };
}

export const OPERATIONS = {
  my_account: op({
    name: 'my_account',
    credits: CATALOG.my_account.credits,
    scope: CATALOG.my_account.scope,
    rule: { plan: 'any', text: 'any' },
    description: 'The account plan (free or paid), the credit balance and which tools the account can use.',
    params: P.MyAccountParams,
  }),
  ask: op({
    name: 'ask',
    credits: CATALOG.ask.credits,
    scope: CATALOG.ask.scope,
    rule: { plan: 'paid', text: 'paid' },
    description:
      'A data agent answers a plain-language question with the answer, the result rows and charts.',
    params: P.AskParams,
  }),
  find_investors: op({
    name: 'find_investors',
    credits: CATALOG.find_investors.credits,
    scope: CATALOG.find_investors.scope,
    rule: { plan: 'free-limited', text: 'free: one run, top 5 matches; paid: up to 50' },
    description: 'Ranks investors that fit a startup by their investment history.',
    params: P.FindInvestorsParams,
    arrayParams: ['investor_countries', 'subsectors', 'tags'],
    integerParams: ['limit'],
  }),
  analyze_deck: op({
    name: 'analyze_deck',
    credits: CATALOG.analyze_deck.credits,
    scope: CATALOG.analyze_deck.scope,
    rule: { plan: 'paid', accountTypes: ['investor'], text: 'investor (VC) accounts, paid' },
    description: 'Analyses a pitch deck (PDF or PPTX) into a data room against the fund thesis.',
    params: P.AnalyzeDeckParams,
  }),
  get_deck_analysis: op({
    name: 'get_deck_analysis',
    credits: CATALOG.get_deck_analysis.credits,
    scope: CATALOG.get_deck_analysis.scope,
    rule: { plan: 'any', text: 'any' },
    description: 'Returns the result of analyze_deck for a data room.',
    params: P.GetDeckAnalysisParams,
  }),
  find_startups_for_fund: op({
    name: 'find_startups_for_fund',
    credits: CATALOG.find_startups_for_fund.credits,
    scope: CATALOG.find_startups_for_fund.scope,
    rule: { plan: 'paid', accountTypes: ['investor'], text: 'investor (VC) accounts, paid' },
    description: 'Scores startups against the fund thesis and saves the batch to the match list.',
    params: P.FindStartupsForFundParams,
    integerParams: ['limit'],
  }),
  find_customers: op({
    name: 'find_customers',
    credits: CATALOG.find_customers.credits,
    scope: CATALOG.find_customers.scope,
    rule: {
      plan: 'paid',
      accountTypes: ['service_provider', 'organisation'],
      text: 'paid; organisations and service providers',
    },
    description:
      'Ranks startups as sales targets for an organisation; a repeat call within 24 hours is free.',
    params: P.FindCustomersParams,
    arrayParams: ['regions', 'stages'],
    integerParams: ['limit'],
  }),
  search_investors: op({
    name: 'search_investors',
    credits: CATALOG.search_investors.credits,
    scope: CATALOG.search_investors.scope,
    rule: { plan: 'any', text: 'any, within rate limits' },
    description: 'Lists investors (VCs, angels, corporate VCs), sorted by score or investments.',
    params: P.SearchInvestorsParams,
    integerParams: ['limit', 'offset'],
  }),
  get_investor: op({
    name: 'get_investor',
    credits: CATALOG.get_investor.credits,
    scope: CATALOG.get_investor.scope,
    rule: { plan: 'any', text: 'any, within rate limits' },
    description: 'An investor profile by key.',
    params: P.GetInvestorParams,
  }),
  search_startups: op({
    name: 'search_startups',
    credits: CATALOG.search_startups.credits,
    scope: CATALOG.search_startups.scope,
    rule: { plan: 'any', text: 'any, within rate limits' },
    description: 'Lists startups: name, what it does, HQ, stage and funding.',
    params: P.SearchStartupsParams,
    arrayParams: ['countries', 'stages'],
    integerParams: ['limit', 'offset'],
  }),
  get_startup: op({
    name: 'get_startup',
    credits: CATALOG.get_startup.credits,
    scope: CATALOG.get_startup.scope,
    rule: { plan: 'any', text: 'any, within rate limits' },
    description: 'A startup profile by key or exact name.',
    params: P.GetStartupParams,
  }),
  country_overview: op({
    name: 'country_overview',
    credits: CATALOG.country_overview.credits,
    scope: CATALOG.country_overview.scope,
    rule: { plan: 'any', text: 'any, within rate limits' },
    description: "A country's venture market since 2020 with country-report charts.",
    params: P.CountryOverviewParams,
  }),
} as const;

export type Operations = typeof OPERATIONS;
export type OperationName = keyof Operations;
export const OPERATION_NAMES = Object.keys(OPERATIONS) as OperationName[];

/** Input type of an operation's parameters (what a caller passes). */
export type ParamsIn<N extends OperationName> = z.input<Operations[N]['params']>;
/** Parameters after validation and defaults. */
export type ParamsOut<N extends OperationName> = z.output<Operations[N]['params']>;

export function isOperationName(name: string): name is OperationName {
  return Object.hasOwn(OPERATIONS, name);
}

/** Operations that cost nothing and so also accept GET. */
export const FREE_OPERATIONS = OPERATION_NAMES.filter((n) => OPERATIONS[n].credits === 0);
