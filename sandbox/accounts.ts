/**
 * Accounts and API keys of the sandbox: the seeded set every test and demo uses, extra ones
 * from options or a JSON file (validated with zod), and run-time additions.
 */
import { readFileSync } from 'node:fs';
import type { DatabaseSync } from 'node:sqlite';
import { z } from 'zod';
import { ACCOUNT_TYPES, PLANS, SCOPES, SECTORS, type Scope } from '../api/index.js';
import type { Account, ApiKeyRecord, FundThesis, SandboxState } from './types.js';

/** Credits of the seeded accounts that are not meant to run out. */
export const GENEROUS_CREDITS = 100_000;

const ALL_SCOPES: Scope[] = ['read', 'ask', 'finder'];

/** The seeded keys, for docs and the start banner (the accounts themselves come from {@link seedAccounts}). */
export const SEEDED_KEYS = {
  free: 'vis_live_sandbox_free',
  startup: 'vis_live_sandbox_startup',
  vc: 'vis_live_sandbox_vc',
  provider: 'vis_live_sandbox_provider',
  org: 'vis_live_sandbox_org',
  readonly: 'vis_live_sandbox_readonly',
  broke: 'vis_live_sandbox_broke',
  revoked: 'vis_live_sandbox_revoked',
} as const;

const VC_THESIS_BASE: Omit<FundThesis, 'portfolio'> = {
  fund_name: 'Northwind Seed Fund II',
  sectors: ['Artificial Intelligence & Data', 'Software & Developer Tools', 'Finance & Blockchain'],
  stages: ['seed', 'series-a'],
  countries: ['Germany', 'France', 'United Kingdom', 'Netherlands', 'Sweden'],
  check_min_usd: 500_000,
  check_max_usd: 5_000_000,
};

/** Startup keys of the VC account's portfolio: the first startups (by key) that fit its thesis. */
function pickPortfolio(db: DatabaseSync, thesis: Omit<FundThesis, 'portfolio'>): string[] {
  const sectors = thesis.sectors.map(() => '?').join(', ');
  const countries = thesis.countries.map(() => '?').join(', ');
  const stages = thesis.stages.map(() => '?').join(', ');
  const fit = db
    .prepare(
      `SELECT key FROM startups WHERE sector IN (${sectors}) AND hq_country IN (${countries}) AND stage IN (${stages})
       ORDER BY key LIMIT 4`,
    )
    .all(...thesis.sectors, ...thesis.countries, ...thesis.stages) as { key: string }[];
  if (fit.length > 0) return fit.map((r) => r.key);
  const any = db
    .prepare(`SELECT key FROM startups WHERE sector IN (${sectors}) ORDER BY key LIMIT 4`)
    .all(...thesis.sectors) as {
    key: string;
  }[];
  return any.map((r) => r.key);
}

/**
 * The seeded accounts and keys (see docs/sandbox.md for the table). The VC account's
 * portfolio is read from the database so it names real startups.
 */
export function seedAccounts(db: DatabaseSync): { accounts: Account[]; keys: ApiKeyRecord[] } {
  const accounts: Account[] = [
    { id: 'acct_free', name: 'Pebble Robotics (free)', type: 'startup', plan: 'free', credits: 10 },
    { id: 'acct_startup', name: 'Lumen Health', type: 'startup', plan: 'paid', credits: GENEROUS_CREDITS },
    {
      id: 'acct_vc',
      name: 'Northwind Ventures',
      type: 'investor',
      plan: 'paid',
      credits: GENEROUS_CREDITS,
      thesis: { ...VC_THESIS_BASE, portfolio: pickPortfolio(db, VC_THESIS_BASE) },
    },
    {
      id: 'acct_provider',
      name: 'Brightline Partners',
      type: 'service_provider',
      plan: 'paid',
      credits: GENEROUS_CREDITS,
      organisations: [
        {
          org_key: 'brightline-legal',
          name: 'Brightline Legal',
          offering:
            'Startup law firm: financing rounds, term sheets, employee equity and IP for venture-backed companies.',
          target_regions: ['europe'],
          target_stages: ['seed', 'series-a'],
          target_sectors: [
            'Software & Developer Tools',
            'Artificial Intelligence & Data',
            'Finance & Blockchain',
          ],
          is_default: true,
        },
        {
          org_key: 'brightline-growth',
          name: 'Brightline Growth Marketing',
          offering:
            'Growth marketing agency: paid acquisition, lifecycle and brand for consumer and commerce startups.',
          target_regions: ['north america', 'uk'],
          target_stages: ['series-a', 'series-b'],
          target_sectors: ['Commerce & Marketing', 'Consumer, Lifestyle & Services'],
          is_default: false,
        },
      ],
    },
    {
      id: 'acct_org',
      name: 'Harbour Innovation Hub',
      type: 'organisation',
      plan: 'paid',
      credits: GENEROUS_CREDITS,
      organisations: [
        {
          org_key: 'harbour-accelerator',
          name: 'Harbour Accelerator',
          offering:
            'Twelve-week accelerator for pre-seed and seed teams with a demo day and investor network.',
          target_regions: ['nordics', 'dach'],
          target_stages: ['pre-seed', 'seed'],
          target_sectors: ['Energy, Environment & Mobility', 'Industry & Hardware'],
          is_default: false,
        },
        {
          org_key: 'harbour-cloud',
          name: 'Harbour Cloud Credits',
          offering:
            'Cloud infrastructure and developer tooling with startup credits and solution architects.',
          target_regions: ['europe', 'north america'],
          target_stages: ['seed', 'series-a', 'series-b'],
          target_sectors: ['Software & Developer Tools', 'Artificial Intelligence & Data'],
          is_default: false,
        },
      ],
    },
    {
      id: 'acct_readonly',
      name: 'Quarry Analytics (read-only key)',
      type: 'startup',
      plan: 'paid',
      credits: GENEROUS_CREDITS,
    },
    { id: 'acct_broke', name: 'Shoestring Labs', type: 'startup', plan: 'paid', credits: 2 },
    {
      id: 'acct_revoked',
      name: 'Former Customer Ltd',
      type: 'startup',
      plan: 'paid',
      credits: GENEROUS_CREDITS,
    },
  ];
  const keys: ApiKeyRecord[] = [
    { key: SEEDED_KEYS.free, account_id: 'acct_free', scopes: [...ALL_SCOPES], revoked: false },
    { key: SEEDED_KEYS.startup, account_id: 'acct_startup', scopes: [...ALL_SCOPES], revoked: false },
    { key: SEEDED_KEYS.vc, account_id: 'acct_vc', scopes: [...ALL_SCOPES], revoked: false },
    { key: SEEDED_KEYS.provider, account_id: 'acct_provider', scopes: [...ALL_SCOPES], revoked: false },
    { key: SEEDED_KEYS.org, account_id: 'acct_org', scopes: [...ALL_SCOPES], revoked: false },
    { key: SEEDED_KEYS.readonly, account_id: 'acct_readonly', scopes: ['read'], revoked: false },
    { key: SEEDED_KEYS.broke, account_id: 'acct_broke', scopes: [...ALL_SCOPES], revoked: false },
    { key: SEEDED_KEYS.revoked, account_id: 'acct_revoked', scopes: [...ALL_SCOPES], revoked: true },
  ];
  return { accounts, keys };
}

const nonEmpty = z.string().trim().min(1, { message: 'must be a non-empty string' });

const OrganisationSchema = z
  .object({
    org_key: nonEmpty,
    name: nonEmpty,
    offering: z.string().default(''),
    target_regions: z.array(z.string()).default([]),
    target_stages: z.array(z.string()).default([]),
    target_sectors: z
      .array(z.enum(SECTORS, { message: `must be one of: ${SECTORS.join('; ')}` }))
      .default([]),
    is_default: z.boolean().default(false),
  })
  .strict();

const FundThesisSchema = z
  .object({
    fund_name: nonEmpty,
    sectors: z.array(z.enum(SECTORS, { message: `must be one of: ${SECTORS.join('; ')}` })),
    stages: z.array(z.string()),
    countries: z.array(z.string()),
    check_min_usd: z.number().int().min(0),
    check_max_usd: z.number().int().min(0),
    portfolio: z.array(z.string()).default([]),
  })
  .strict();

/** Schema of one account (extra accounts from options, a file or addAccount). */
export const AccountSchema = z
  .object({
    id: nonEmpty,
    name: nonEmpty,
    type: z.enum(ACCOUNT_TYPES, { message: `must be one of: ${ACCOUNT_TYPES.join(', ')}` }),
    plan: z.enum(PLANS, { message: `must be one of: ${PLANS.join(', ')}` }),
    credits: z.number().int({ message: 'must be an integer' }).min(0, { message: 'must be at least 0' }),
    thesis: FundThesisSchema.optional(),
    organisations: z.array(OrganisationSchema).optional(),
  })
  .strict();

/** Schema of one API key record. */
export const ApiKeyRecordSchema = z
  .object({
    key: z
      .string()
      .min(8, { message: 'must be at least 8 characters' })
      .regex(/^\S+$/, { message: 'must not contain spaces' }),
    account_id: nonEmpty,
    scopes: z
      .array(z.enum(SCOPES, { message: `must be one of: ${SCOPES.join(', ')}` }))
      .default([...ALL_SCOPES]),
    revoked: z.boolean().default(false),
  })
  .strict();

/** Schema of an accounts file: `{ "accounts": [...], "keys": [...] }`. */
export const AccountsFileSchema = z
  .object({ accounts: z.array(AccountSchema).default([]), keys: z.array(ApiKeyRecordSchema).default([]) })
  .strict();

function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const field =
        issue.code === 'unrecognized_keys'
          ? [...issue.path.map(String), issue.keys.join(', ')].join('.')
          : issue.path.map(String).join('.') || '(root)';
      const message = issue.code === 'unrecognized_keys' ? 'unknown field' : issue.message;
      return `${field}: ${message}`;
    })
    .join('; ');
}

/**
 * Validates extra accounts and keys; throws an Error that names `source` and the field.
 * Key values never appear in messages.
 */
export function parseAccounts(input: unknown, source: string): { accounts: Account[]; keys: ApiKeyRecord[] } {
  const parsed = AccountsFileSchema.safeParse(input);
  if (!parsed.success) throw new Error(`${source}: ${describeIssues(parsed.error)}`);
  return parsed.data;
}

/**
 * Reads and validates an accounts file (JSON `{ accounts, keys }`).
 *
 * @example
 * loadAccountsFile('accounts.json'); // { accounts: [...], keys: [...] }
 * // a bad file throws e.g. "accounts file accounts.json: accounts.0.plan: must be one of: free, paid"
 */
export function loadAccountsFile(path: string): { accounts: Account[]; keys: ApiKeyRecord[] } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(
      `accounts file ${path}: cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
      {
        cause: error,
      },
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`accounts file ${path}: not valid JSON (${(error as Error).message})`, { cause: error });
  }
  return parseAccounts(json, `accounts file ${path}`);
}

/** An empty sandbox state. */
export function createSandboxState(): SandboxState {
  return {
    accounts: new Map(),
    keys: new Map(),
    freeFinderRunsUsed: new Map(),
    matchLists: new Map(),
    customerCalls: new Map(),
    rooms: new Map(),
    results: new Map(),
  };
}

/**
 * Adds accounts and keys to the state after validating them. Every key must belong to an
 * account of the state (or of this call); an account with an existing id replaces it.
 */
export function addAccounts(
  state: SandboxState,
  accounts: Account[],
  keys: ApiKeyRecord[],
  source = 'addAccount',
): void {
  const valid = parseAccounts({ accounts, keys }, source);
  const ids = new Set([...state.accounts.keys(), ...valid.accounts.map((a) => a.id)]);
  valid.keys.forEach((k, i) => {
    if (!ids.has(k.account_id))
      throw new Error(`${source}: keys.${i}.account_id: no account '${k.account_id}'`);
  });
  for (const account of valid.accounts) state.accounts.set(account.id, account);
  for (const key of valid.keys) state.keys.set(key.key, key);
}

/**
 * Adds the accounts and keys of `from` that `into` does not have yet, leaving the others as they
 * are: a persisted sandbox keeps the balances and plans it stored and gains only new accounts
 * and keys from its seeds, options and accounts file.
 *
 * @example
 * const starting = createSandboxState();
 * addAccounts(starting, seeded.accounts, seeded.keys, 'seeded accounts');
 * mergeNewAccounts(store.state, starting); // acct_vc keeps the credits the last run left
 */
export function mergeNewAccounts(into: SandboxState, from: SandboxState): void {
  for (const [id, account] of from.accounts) if (!into.accounts.has(id)) into.accounts.set(id, account);
  for (const [value, key] of from.keys) if (!into.keys.has(value)) into.keys.set(value, key);
}
