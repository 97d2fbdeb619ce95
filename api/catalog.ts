/**
 * The facts of the spec's endpoint summary that the engine decides with: each operation's
 * price in credits, its scope, the largest `limit` it takes and whether it pages with
 * `offset`. Plain data with no dependency, so workflow code can read it; `operations.ts`
 * builds the full description (schemas, plan rules) on top of it.
 */
import type { Scope } from './enums.js';

export interface OperationFacts {
  /** Credits one call costs (the spec's summary table). */
  credits: number;
  scope: Scope;
  /** Largest `limit` of the operation (absent: it takes none). */
  maxLimit?: number;
  /** Whether the operation pages with `offset`. */
  paged?: true;
  /** A repeat of the same call soon after is free (find_customers within 24 hours). */
  freeRepeat?: true;
}

export const CATALOG = {
  my_account: { credits: 0, scope: 'read' },
  ask: { credits: 1, scope: 'ask' },
  find_investors: { credits: 3, scope: 'finder', maxLimit: 50 },
  analyze_deck: { credits: 3, scope: 'finder' },
  get_deck_analysis: { credits: 0, scope: 'read' },
  find_startups_for_fund: { credits: 3, scope: 'finder', maxLimit: 30 },
  find_customers: { credits: 3, scope: 'finder', maxLimit: 50, freeRepeat: true },
  search_investors: { credits: 0, scope: 'read', maxLimit: 100, paged: true },
  get_investor: { credits: 0, scope: 'read' },
  search_startups: { credits: 0, scope: 'read', maxLimit: 100, paged: true },
  get_startup: { credits: 0, scope: 'read' },
  country_overview: { credits: 0, scope: 'read' },
} as const satisfies Record<string, OperationFacts>;

export type CatalogName = keyof typeof CATALOG;

/** Operations that cost credits. */
export type PaidOperation = {
  [N in CatalogName]: (typeof CATALOG)[N]['credits'] extends 0 ? never : N;
}[CatalogName];

/** Operations that page with `offset`. */
export type PagedOperation = {
  [N in CatalogName]: (typeof CATALOG)[N] extends { paged: true } ? N : never;
}[CatalogName];

/** The price of one call of an operation. */
export function creditsOf(operation: CatalogName): number {
  return CATALOG[operation].credits;
}

/** What asking again costs after a call the service charged but whose answer was lost. */
export function repeatCreditsOf(operation: CatalogName): number {
  const facts: OperationFacts = CATALOG[operation];
  return facts.freeRepeat ? 0 : facts.credits;
}

/**
 * How long the runner waits for an operation's answer: analyze_deck waits up to about 90 s on
 * the service's side (the spec), the data agent and the finders compute, the reads answer at once.
 */
export function answerTimeoutMsOf(operation: CatalogName): number {
  if (operation === 'analyze_deck') return 120_000;
  if (CATALOG[operation].credits > 0) return 60_000;
  return 20_000;
}

/** The largest page an operation gives (its largest `limit`). */
export function pageSizeOf(operation: PagedOperation): number {
  return CATALOG[operation].maxLimit;
}
