/**
 * The sandbox's data agent (the ask operation): question patterns over the venture database,
 * slot extraction, parameterised read-only SQL with a time limit.
 */
export { answerQuestion, databaseAsOf, describePatterns } from './agent.js';
export type { AgentAnswer, AgentOptions } from './agent.js';
export { PATTERNS, findEntity } from './patterns/index.js';
export type { Entity, Pattern } from './pattern.js';
export { readSlots } from './slots.js';
export type { Geo, Slots } from './slots.js';
export { readTime } from './period.js';
export type { Period, TimeSlots } from './period.js';
export { DEADLINE_FN, QUERY_DEFAULTS, runReadOnly } from './run.js';
export type { QueryLimits, QueryResult } from './run.js';
