/**
 * What a question pattern is: a recogniser over the question's words and slots, one
 * parameterised query, and the answer sentence and chart written from the query's rows.
 */
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import type { ChartSpec } from '../result-shapes.js';
import type { Slots } from './slots.js';

/** A named investor or startup the question is about (resolved against the database). */
export interface Entity {
  kind: 'investor' | 'startup';
  key: string;
  name: string;
}

/** What patterns see besides the slots. */
export interface MatchContext {
  db: DatabaseSync;
  /** Reference date of "last N days" and "this year" (YYYY-MM-DD). */
  asOf: string;
  entity: Entity | null;
}

export interface BuiltQuery {
  sql: string;
  params: SQLInputValue[];
  columns: string[];
}

export interface Pattern {
  /** Stable id, returned as data.pattern. */
  id: string;
  /** What it answers, for the list in a refusal and the docs. */
  description: string;
  /** Example wordings (the tests ask them). */
  examples: string[];
  matches(s: Slots, ctx: MatchContext): boolean;
  query(s: Slots, ctx: MatchContext): BuiltQuery;
  answer(
    rows: Record<string, unknown>[],
    s: Slots,
    ctx: MatchContext,
  ): { answer: string; charts?: ChartSpec[] };
}

/** Tests a regular expression against the question text. */
export const has = (s: Slots, re: RegExp): boolean => re.test(s.text);

/** Words of intent shared by the patterns. */
export const W = {
  count: /\b(how many|number of|count|counts|no\. of|# of|tally)\b/,
  capital:
    /\b(capital|funding|funded|invested|investment volume|raised|raise|money|dollars|amount|volume|financing|how much)\b/,
  total: /\b(total|how much|sum|overall|in total|aggregate)\b/,
  median: /\bmedian\b/,
  average: /\b(average|mean|avg|typical)\b/,
  largest: /\b(largest|biggest|top|highest|mega|big|largest-ever)\b/,
  recent: /\b(latest|recent|newest|most recent|new|last few)\b/,
  byYear:
    /\b(by year|per year|each year|every year|yearly|annual|annually|year by year|year over year|over the years|over time|trend|trends|year-by-year)\b/,
  byQuarter: /\b((by|per|each|every) quarter|quarterly|quarter by quarter)\b/,
  byMonth: /\b((by|per|each|every) month|monthly|month by month)\b/,
  byStage:
    /\b((by|per|each|across|for each|every) (funding )?stages?|stage (mix|breakdown|split|distribution)|split by stage|breakdown by stage)\b/,
  bySector:
    /\b((by|per|each|across|for each|every) (sector|industry|industries|sectors|vertical|verticals)|sector (mix|breakdown|split)|which (sectors?|industries|industry|verticals?)|top (sectors?|industries|verticals)|what (sectors?|industries|verticals)|leading sectors?|hottest sectors?)\b/,
  byCountry:
    /\b((by|per|each|across|for each|every) (country|countries)|which countr(y|ies)|top countries|what countries|leading countries|countries (raised|had|have|with|ranked|by))\b/,
  byCity:
    /\b((by|per|each|across|every) city|which cit(y|ies)|top cities|what cities|leading cities|startup hubs?|cities (raised|had|have|with|by))\b/,
  byRegion: /\b((by|per|each|across) region|which regions?|regions (raised|had|have))\b/,
  byType: /\b((by|per|each) (investor )?type|types of investors|investor types|kinds of investors|by kind)\b/,
  byStatus:
    /\b(acquired|acquisitions?|exits?|exited|went public|ipos?|shut down|closed down|defunct|status)\b|\bclosed\b(?!\s+(a|an|the|its|their|series|seed|pre-seed|rounds?|deals?))/,
  /** "how many rounds", "number of seed deals": the counted noun is rounds. */
  countsRounds:
    /\b(how many|number of|count of|count)\s+(?:[\w&-]+\s+){0,3}?(rounds?|deals?|investments?|financings?)\b/,
  founded: /\b(founded|started|created|established|launched)\b/,
  change:
    /\b(change|changed|changes|grow|grew|growth|compare|compared|comparison|vs\.?|versus|evolve|evolved|difference|increase|increased|decrease|decreased|decline|declined|drop|dropped|rise|rose)\b/,
  investors:
    /\b(investors?|vcs?|funds|backers?|angels?|venture capital|venture firms?|firms|accelerators?|cvcs?|corporate vcs?)\b/,
  startups: /\b(startups?|start-ups?|companies|company|scaleups?|scale-ups?|unicorns?|businesses|ventures)\b/,
  rounds: /\b(rounds?|deals?|investments?|fundings?|financings?|raises?|transactions?)\b/,
  lead: /\b(lead investors?|lead vcs?|led|leads|as lead|leading rounds|lead the most|lead investor)\b/,
  most: /\b(most|top|leading|biggest|largest|highest|best|busiest|ranked|rank|ranking|main)\b/,
  active:
    /\b(active|prolific|busiest|most deals|most investments|most rounds|number of deals|deal count|number of investments)\b/,
  score: /\b(score|scores|scoring|rated|rating|ratings|best rated|highest rated|top rated|best)\b/,
  list: /\b(list|show|which|what|name|give me|find|who are|who is)\b/,
};

/** True when the question asks for deal counts rather than capital. */
export function wantsCount(s: Slots): boolean {
  if (
    has(
      s,
      /\b(number of (deals|rounds|investments)|deal count|deal counts|count of|how many|most deals|most rounds|by deals|by rounds|by number|deal volume)\b/,
    )
  )
    return true;
  if (has(s, /\b(capital|funding|money|dollars|raised|raise|invested|amount|volume)\b/)) return false;
  return has(s, /\b(deals|rounds|investments|activity|active|count)\b/);
}
