/**
 * The sandbox: a local, spec-faithful implementation of the Venture Intelligence Service.
 */
export { startSandbox } from './server.js';
export { readJsonBody, readQueryParams } from './http-params.js';
export {
  createPipeline,
  InvalidBody,
  unknownOperationMessage,
  type Pipeline,
  type PipelineDeps,
} from './pipeline.js';
export { decideAccess, allowedOperations, type AccessDecision } from './access.js';
export {
  SEEDED_KEYS,
  GENEROUS_CREDITS,
  seedAccounts,
  loadAccountsFile,
  parseAccounts,
  addAccounts,
  mergeNewAccounts,
  createSandboxState,
  AccountSchema,
  ApiKeyRecordSchema,
  AccountsFileSchema,
} from './accounts.js';
export {
  RateLimiter,
  rateLimitHeaders,
  epochSeconds,
  callsPerWindow,
  nextUtcMidnight,
  type RateLimitConfig,
  type RateLimitWindows,
  type RateLimitSnapshot,
} from './rate-limit.js';
export {
  FaultInjector,
  validateFaults,
  seededRandom,
  BURST_RESET_MS,
  type FaultAction,
  type FaultKind,
} from './faults.js';
export { successEnvelope, errorEnvelope } from './envelope.js';
export { insertStartup } from './insert-startup.js';
export {
  simulateMarketWeek,
  describeMarketWeek,
  type MarketWeek,
  type MarketWeekOptions,
  type WeekStartup,
} from './market-week.js';
export {
  SANDBOX_DEFAULTS,
  SANDBOX_STATE_MODES,
  STATE_FILE_NAME,
  validateSandboxOptions,
  resolveSandboxOptions,
} from './options.js';
export { openStateStore, StoredMap, STATE_FILE_VERSION, type StateStore } from './state-store.js';
export * from './types.js';
