/**
 * Settings from the environment: one zod schema over the variables, one typed defaults
 * constant, validation, resolved `Settings`. A bad value is a `SettingsError` naming the
 * variable and what it expects; the API key's value never appears in a message.
 *
 * @example
 * const settings = loadSettings();            // process.env
 * const key = requireApiKey(settings);        // throws naming VIS_API_KEY when it is missing
 * console.log(describeSettings(settings));    // key shown as vis_live_…(set)
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { bucketNameProblem } from './destinations.js';

/** Log levels (pino's). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Every variable's default, as the string the environment would carry. */
export const DEFAULTS = {
  VIS_BASE_URL: 'http://127.0.0.1:8787',
  TEMPORAL_ADDRESS: '127.0.0.1:7233',
  TEMPORAL_NAMESPACE: 'default',
  VIR_TASK_QUEUE: 'vir-jobs',
  VIR_API_TASK_QUEUE: 'vir-api',
  VIR_ACCOUNT_TASK_QUEUE: 'vir-accounts',
  VIR_RATE_LIMIT_PER_MINUTE: '60',
  VIR_RATE_LIMIT_PER_DAY: '5000',
  VIR_DATA_DIR: '.data',
  VIR_HTTP_TIMEOUT_MS: '120000',
  VIR_LOG_LEVEL: 'info',
  VIR_TEMPORAL_UI_PORT: '8233',
  VIR_SANDBOX_PORT: '8787',
  VIR_DEV_SMTP_PORT: '2525',
  VIR_DEV_S3_PORT: '7070',
  VIR_PORTAL_PORT: '8790',
} as const satisfies Partial<Record<SettingName, string>>;

/** Names of the variables the settings read. */
export const SETTING_NAMES = [
  'VIS_BASE_URL',
  'VIS_PUBLIC_URL',
  'VIS_API_KEY',
  'VIS_MCP_URL',
  'TEMPORAL_ADDRESS',
  'TEMPORAL_NAMESPACE',
  'VIR_TASK_QUEUE',
  'VIR_API_TASK_QUEUE',
  'VIR_ACCOUNT_TASK_QUEUE',
  'VIR_RATE_LIMIT_PER_MINUTE',
  'VIR_RATE_LIMIT_PER_DAY',
  'VIR_CREDIT_CAP_DAY',
  'VIR_CREDIT_CAP_WEEK',
  'VIR_CREDIT_CAP_MONTH',
  'VIR_STORE_DIR',
  'VIR_STORE_URL',
  'VIR_REPORTS_DIR',
  'VIR_DESTINATION_ROOTS',
  'VIR_REPORT_NOTICE',
  'VIR_DECK_CA_FILE',
  'VIR_DATA_DIR',
  'VIR_HTTP_TIMEOUT_MS',
  'VIR_LOG_LEVEL',
  'VIR_TEMPORAL_UI_PORT',
  'VIR_SANDBOX_PORT',
  'VIR_DEV_SMTP_PORT',
  'VIR_DEV_S3_PORT',
  'VIR_PORTAL_PORT',
  'VIR_PORTAL_TOKEN',
  'VIR_PORTAL_URL',
  'VIR_WORKFLOWS_MODULE',
] as const;
export type SettingName = (typeof SETTING_NAMES)[number];

/** Variables whose value must never be shown. */
const SECRET_NAMES: ReadonlySet<SettingName> = new Set(['VIS_API_KEY', 'VIR_PORTAL_TOKEN']);

/** The shortest portal token accepted (VIR_PORTAL_TOKEN): a guess must not be practical. */
export const PORTAL_TOKEN_MIN_LENGTH = 16;

const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,254}$/;

function httpUrl(what: string) {
  return z
    .string()
    .refine(
      (s) => {
        try {
          const u = new URL(s);
          return (u.protocol === 'http:' || u.protocol === 'https:') && !u.search && !u.hash;
        } catch {
          return false;
        }
      },
      { message: `must be an http(s) URL (${what})` },
    )
    .transform((s) => s.replace(/\/+$/, ''));
}

/** The portal's public address: an http(s) URL without query or fragment (a path prefix is kept). */
function portalUrl() {
  return httpUrl("the portal's address for readers, e.g. https://reports.example.com");
}

function intAtLeast(min: number, max: number, what: string) {
  return z
    .string()
    .regex(/^\d+$/, { message: `must be ${what}` })
    .transform(Number)
    .refine((n) => Number.isSafeInteger(n) && n >= min && n <= max, { message: `must be ${what}` });
}

const positiveInt = (max = Number.MAX_SAFE_INTEGER) => intAtLeast(1, max, 'a positive integer');
const port = () => intAtLeast(0, 65535, 'a port number (0 to 65535)');
const name = (what: string) =>
  z.string().regex(NAME_RE, { message: `must be ${what} (letters, digits, . _ -)` });
const credits = () => intAtLeast(0, 1_000_000_000, 'a whole number of credits (0 or more)');
const dir = () => z.string().min(1, { message: 'must be a directory path' });

/** The schema over the environment: one entry per variable, strings in, typed values out. */
export const SettingsEnvSchema = z.object({
  VIS_BASE_URL: httpUrl('e.g. http://127.0.0.1:8787'),
  VIS_API_KEY: z.string().regex(/^\S+$/, { message: 'must be a single token without spaces' }).optional(),
  VIS_MCP_URL: httpUrl('the MCP endpoint').optional(),
  VIS_PUBLIC_URL: httpUrl("the service's public address, e.g. https://app.example.com").optional(),
  TEMPORAL_ADDRESS: z.string().regex(/^(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+):\d{1,5}$/, {
    message: 'must be host:port (e.g. 127.0.0.1:7233)',
  }),
  TEMPORAL_NAMESPACE: name('a namespace name'),
  VIR_TASK_QUEUE: name('a task queue name'),
  VIR_API_TASK_QUEUE: name('a task queue name'),
  VIR_ACCOUNT_TASK_QUEUE: name('a task queue name'),
  VIR_RATE_LIMIT_PER_MINUTE: positiveInt(1_000_000),
  VIR_RATE_LIMIT_PER_DAY: positiveInt(100_000_000),
  VIR_CREDIT_CAP_DAY: credits().optional(),
  VIR_CREDIT_CAP_WEEK: credits().optional(),
  VIR_CREDIT_CAP_MONTH: credits().optional(),
  VIR_STORE_DIR: dir().optional(),
  VIR_STORE_URL: z.string().optional(),
  VIR_REPORTS_DIR: dir().optional(),
  VIR_DESTINATION_ROOTS: z
    .string()
    .refine((s) => s.split(',').every((p) => isAbsolute(p.trim())), {
      message: 'must be absolute folders, separated by commas',
    })
    .optional(),
  VIR_REPORT_NOTICE: z
    .string()
    .trim()
    .min(1, { message: 'must not be empty (leave it unset for no notice)' })
    .max(120, { message: 'must be at most 120 characters (it is printed in every footer)' })
    // eslint-disable-next-line no-control-regex
    .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), { message: 'must be one line of text' })
    .optional(),
  VIR_DECK_CA_FILE: z
    .string()
    .min(1, { message: 'must be the path of a PEM file (leave it unset for the system CAs only)' })
    .superRefine((f, ctx) => {
      if (!existsSync(f) || !statSync(f).isFile())
        ctx.addIssue({ code: 'custom', message: 'must be an existing PEM file' });
      else if (!readFileSync(f, 'utf8').includes('-----BEGIN CERTIFICATE-----'))
        ctx.addIssue({
          code: 'custom',
          message: 'must hold at least one PEM certificate (-----BEGIN CERTIFICATE-----)',
        });
    })
    .optional(),
  VIR_DATA_DIR: dir(),
  VIR_HTTP_TIMEOUT_MS: positiveInt(86_400_000),
  VIR_LOG_LEVEL: z.enum(LOG_LEVELS, { message: `must be one of ${LOG_LEVELS.join(', ')}` }),
  VIR_TEMPORAL_UI_PORT: port(),
  VIR_SANDBOX_PORT: port(),
  VIR_DEV_SMTP_PORT: port(),
  VIR_DEV_S3_PORT: port(),
  VIR_PORTAL_PORT: port(),
  VIR_PORTAL_TOKEN: z
    .string()
    .regex(new RegExp(`^\\S{${PORTAL_TOKEN_MIN_LENGTH},}$`), {
      message: `must be at least ${PORTAL_TOKEN_MIN_LENGTH} characters without spaces (e.g. openssl rand -hex 24)`,
    })
    .optional(),
  VIR_PORTAL_URL: portalUrl().optional(),
  VIR_WORKFLOWS_MODULE: z.string().min(1, { message: 'must be a module path' }).optional(),
});

/** Resolved settings: typed, defaults applied, directories absolute. */
export interface Settings {
  /** Base URL of the service, no trailing slash (VIS_BASE_URL). */
  visBaseUrl: string;
  /**
   * The public address of the service's interactive views, for links in reports (VIS_PUBLIC_URL):
   * a view link under VIS_BASE_URL is rewritten to it. Null: links are kept only when
   * VIS_BASE_URL is a public address (never a loopback or private one).
   */
  visPublicUrl: string | null;
  /** The API key (VIS_API_KEY); read it with {@link requireApiKey}. Never log it. */
  visApiKey: string | undefined;
  /** The MCP endpoint (VIS_MCP_URL), when set. */
  visMcpUrl: string | undefined;
  temporalAddress: string;
  temporalNamespace: string;
  /** Workflow task queue (VIR_TASK_QUEUE). */
  taskQueue: string;
  /** Task queue of the rate-limited API activities (VIR_API_TASK_QUEUE). */
  apiTaskQueue: string;
  /** Task queue of the account workflows (credit ledger and pacing), polled by every worker (VIR_ACCOUNT_TASK_QUEUE). */
  accountTaskQueue: string;
  rateLimitPerMinute: number;
  rateLimitPerDay: number;
  /** The account's credit caps per UTC day, ISO week and calendar month (VIR_CREDIT_CAP_*); a job file's caps tighten them. */
  creditCaps: { day?: number; week?: number; month?: number };
  /** The claim-check store's local folder (VIR_STORE_DIR, default <VIR_DATA_DIR>/store; a file: VIR_STORE_URL's path). */
  storeDir: string;
  /** Where the claim-check store is (VIR_STORE_URL): the local folder `storeDir`, or an S3 bucket. */
  store: StoreSetting;
  /** Where runs write their files: <reportsDir>/<job>/<date>/ (VIR_REPORTS_DIR, default <VIR_DATA_DIR>/reports). */
  reportsDir: string;
  /** Absolute folders outside reportsDir a job's destination may be in (VIR_DESTINATION_ROOTS, comma-separated). */
  destinationRoots: string[];
  /** Printed in the footer of every PDF page and printed sheet the worker renders (VIR_REPORT_NOTICE); null: none. */
  reportNotice: string | null;
  /**
   * A PEM file of CA certificates the worker trusts, beside the system's, for the https hosts of
   * deck links and deck buckets with a certificate of their own (VIR_DECK_CA_FILE); null: none.
   */
  deckCaFile: string | null;
  /** Local state, outside the source tree: the embedded Temporal SQLite file, the store, the reports (VIR_DATA_DIR). */
  dataDir: string;
  httpTimeoutMs: number;
  logLevel: LogLevel;
  temporalUiPort: number;
  sandboxPort: number;
  /** Port of `vir dev`'s mail catcher (VIR_DEV_SMTP_PORT; 0: a free one). */
  devSmtpPort: number;
  /** Port of `vir dev`'s S3-compatible server (VIR_DEV_S3_PORT; 0: a free one). */
  devS3Port: number;
  /** Port of the report portal, `vir portal` and `vir dev` (VIR_PORTAL_PORT; 0: a free one). */
  portalPort: number;
  /**
   * The portal's token (VIR_PORTAL_TOKEN): what a request from another machine must carry (a
   * bearer header, or the cookie `/login` sets); null: the portal listens on loopback only.
   * A secret: never shown.
   */
  portalToken: string | null;
  /** The portal's address as readers open it (VIR_PORTAL_URL): delivered emails link to the run's page there; null: no link. */
  portalUrl: string | null;
  /**
   * The module the workers bundle as their workflow code (VIR_WORKFLOWS_MODULE, absolute); null:
   * the product's workflows (runtime/workflow-bundle.ts). Only for trying other workflow code on
   * real workers (the rolling-upgrade test); it must export every workflow the product does.
   */
  workflowsModule: string | null;
}

/**
 * Where the claim-check store is: the local folder (every worker on one shared folder), or an
 * S3 bucket and key prefix (workers on several hosts; keys and endpoint from the S3 variables).
 */
export type StoreSetting =
  | { kind: 'local'; dir: string }
  | {
      kind: 's3';
      bucket: string;
      /** Key prefix without leading or trailing slash ('' for the bucket's root). */
      prefix: string;
      /** The bucket's region (AWS_REGION, default us-east-1). */
      region: string;
      /** `s3://bucket/prefix` as given (no credentials can be in it). */
      url: string;
    };

/** A bad setting: names the variable and what it expects. Never carries a secret's value. */
export class SettingsError extends Error {
  readonly code = 'invalid_setting';
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(message);
    this.name = 'SettingsError';
  }
}

function shown(value: string, max = 60): string {
  return JSON.stringify(value.length > max ? `${value.slice(0, max)}…` : value);
}

/**
 * Reads, validates and resolves the settings. Empty variables count as unset.
 *
 * @throws SettingsError naming the first bad variable, e.g.
 *   `VIR_RATE_LIMIT_PER_MINUTE must be a positive integer, got "abc"`.
 */
export function loadSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const input: Record<string, string> = { ...DEFAULTS };
  for (const key of SETTING_NAMES) {
    const value = env[key];
    if (value !== undefined && value.trim() !== '') input[key] = value.trim();
  }
  const parsed = SettingsEnvSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const variable = String(issue.path[0] ?? 'settings');
    const raw = input[variable];
    const got = SECRET_NAMES.has(variable as SettingName) || raw === undefined ? '' : `, got ${shown(raw)}`;
    throw new SettingsError(variable, `${variable} ${issue.message}${got}`);
  }
  const v = parsed.data;
  const urlStore = parseStoreUrl(v.VIR_STORE_URL, env.AWS_REGION);
  const storeDir =
    urlStore?.kind === 'local' ? urlStore.dir : resolve(v.VIR_STORE_DIR ?? join(v.VIR_DATA_DIR, 'store'));
  return {
    visBaseUrl: v.VIS_BASE_URL,
    visPublicUrl: v.VIS_PUBLIC_URL ?? null,
    visApiKey: v.VIS_API_KEY,
    visMcpUrl: v.VIS_MCP_URL,
    temporalAddress: v.TEMPORAL_ADDRESS,
    temporalNamespace: v.TEMPORAL_NAMESPACE,
    taskQueue: v.VIR_TASK_QUEUE,
    apiTaskQueue: v.VIR_API_TASK_QUEUE,
    accountTaskQueue: v.VIR_ACCOUNT_TASK_QUEUE,
    rateLimitPerMinute: v.VIR_RATE_LIMIT_PER_MINUTE,
    rateLimitPerDay: v.VIR_RATE_LIMIT_PER_DAY,
    creditCaps: {
      ...(v.VIR_CREDIT_CAP_DAY === undefined ? {} : { day: v.VIR_CREDIT_CAP_DAY }),
      ...(v.VIR_CREDIT_CAP_WEEK === undefined ? {} : { week: v.VIR_CREDIT_CAP_WEEK }),
      ...(v.VIR_CREDIT_CAP_MONTH === undefined ? {} : { month: v.VIR_CREDIT_CAP_MONTH }),
    },
    storeDir,
    store: urlStore ?? { kind: 'local', dir: storeDir },
    reportsDir: resolve(v.VIR_REPORTS_DIR ?? join(v.VIR_DATA_DIR, 'reports')),
    destinationRoots: (v.VIR_DESTINATION_ROOTS ?? '')
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean)
      .map((p) => resolve(p)),
    reportNotice: v.VIR_REPORT_NOTICE ?? null,
    deckCaFile: v.VIR_DECK_CA_FILE ? resolve(v.VIR_DECK_CA_FILE) : null,
    dataDir: resolve(v.VIR_DATA_DIR),
    httpTimeoutMs: v.VIR_HTTP_TIMEOUT_MS,
    logLevel: v.VIR_LOG_LEVEL,
    temporalUiPort: v.VIR_TEMPORAL_UI_PORT,
    sandboxPort: v.VIR_SANDBOX_PORT,
    devSmtpPort: v.VIR_DEV_SMTP_PORT,
    devS3Port: v.VIR_DEV_S3_PORT,
    portalPort: v.VIR_PORTAL_PORT,
    portalToken: v.VIR_PORTAL_TOKEN ?? null,
    portalUrl: v.VIR_PORTAL_URL ?? null,
    workflowsModule: v.VIR_WORKFLOWS_MODULE === undefined ? null : resolve(v.VIR_WORKFLOWS_MODULE),
  };
}

/**
 * `VIR_STORE_URL`: `s3://bucket[/prefix]` (the S3 store) or `file:///folder` (the local store in
 * that folder); unset: undefined (the local folder of VIR_STORE_DIR). Anything else is a
 * SettingsError naming the variable.
 */
export function parseStoreUrl(value: string | undefined, region?: string): StoreSetting | undefined {
  if (value === undefined) return undefined;
  const bad = (why: string, echo = true): never => {
    throw new SettingsError('VIR_STORE_URL', `VIR_STORE_URL ${why}${echo ? `, got ${shown(value)}` : ''}`);
  };
  if (/^file:/i.test(value)) {
    let url: URL | null = null;
    try {
      url = new URL(value);
    } catch {
      // reported below
    }
    if (!url || url.search || url.hash || url.host) return bad('must be a file:///absolute/folder URL');
    return { kind: 'local', dir: resolve(fileURLToPath(url)) };
  }
  // Read as written (a URL parser would drop "..", lowercase nothing and accept odd forms).
  const m = /^s3:\/\/([^/?#]*)(\/[^?#]*)?$/i.exec(value);
  if (!m) return bad('must be s3://bucket/prefix or file:///folder');
  const host = m[1]!;
  if (host.includes('@'))
    bad(
      'must not hold keys: they come from VIR_STORE_S3_ACCESS_KEY_ID and VIR_STORE_S3_SECRET_ACCESS_KEY (or VIR_S3_* or AWS_*)',
      false,
    );
  if (host.includes(':')) bad('must be s3://bucket/prefix (no port: the endpoint is VIR_STORE_S3_ENDPOINT)');
  const problem = bucketNameProblem(host);
  if (problem) bad(`names the bucket "${host}", which ${problem}`);
  const prefix = (m[2] ?? '').replace(/^\/+|\/+$/g, '');
  if (prefix !== '' && prefix.split('/').some((seg) => seg === '' || seg === '.' || seg === '..'))
    bad('has a prefix with empty, "." or ".." segments');
  const r = region?.trim() || 'us-east-1';
  if (!/^[a-z0-9-]+$/.test(r))
    throw new SettingsError(
      'AWS_REGION',
      `AWS_REGION must be a region name such as "eu-central-1", got ${shown(r)}`,
    );
  return { kind: 's3', bucket: host, prefix, region: r, url: `s3://${host}${prefix ? `/${prefix}` : ''}` };
}

/**
 * The run's page in the portal (`<VIR_PORTAL_URL>/runs/<workflow id>`), for the links of what a
 * delivery sends; null when VIR_PORTAL_URL is unset, or not an http(s) URL (a worker refuses to
 * start with such a value: its settings name it).
 *
 * @example
 * portalRunLink({ VIR_PORTAL_URL: 'https://reports.example.com/' }, 'market-report-weekly-20261122-0700')
 * // 'https://reports.example.com/runs/market-report-weekly-20261122-0700'
 */
export function portalRunLink(env: NodeJS.ProcessEnv, workflowId: string): string | null {
  const raw = env.VIR_PORTAL_URL?.trim();
  if (!raw) return null;
  const parsed = portalUrl().safeParse(raw);
  return parsed.success ? `${parsed.data}/runs/${encodeURIComponent(workflowId)}` : null;
}

/** The CA certificates (PEM) VIR_DECK_CA_FILE names, read now; none when it is not set. */
export function deckTrustedCa(settings: Pick<Settings, 'deckCaFile'>): string[] {
  return settings.deckCaFile ? [readFileSync(settings.deckCaFile, 'utf8')] : [];
}

/**
 * The API key, or a SettingsError naming VIS_API_KEY when it is not set.
 *
 * @example
 * const client = new VisClient({ baseUrl: s.visBaseUrl, apiKey: requireApiKey(s) });
 */
export function requireApiKey(settings: Pick<Settings, 'visApiKey'>): string {
  if (!settings.visApiKey) {
    throw new SettingsError(
      'VIS_API_KEY',
      'VIS_API_KEY is not set: export the service key (it starts with vis_live_) before calling the service',
    );
  }
  return settings.visApiKey;
}

/** How the key is shown: its prefix and "(set)", e.g. `vis_live_…(set)`; never the key. */
export function maskApiKey(key: string | undefined): string {
  if (!key) return '(not set)';
  const prefix = /^([A-Za-z0-9]+_(?:live|test)_)/.exec(key)?.[1];
  return prefix ? `${prefix}…(set)` : '(set)';
}

/** The settings as `VARIABLE = value` pairs for display; the key is masked. */
export function describeSettings(settings: Settings): [SettingName, string][] {
  return [
    ['VIS_BASE_URL', settings.visBaseUrl],
    [
      'VIS_PUBLIC_URL',
      settings.visPublicUrl ?? '(not set: links to a loopback or private service are left out)',
    ],
    ['VIS_API_KEY', maskApiKey(settings.visApiKey)],
    ['VIS_MCP_URL', settings.visMcpUrl ?? '(not set)'],
    ['TEMPORAL_ADDRESS', settings.temporalAddress],
    ['TEMPORAL_NAMESPACE', settings.temporalNamespace],
    ['VIR_TASK_QUEUE', settings.taskQueue],
    ['VIR_API_TASK_QUEUE', settings.apiTaskQueue],
    ['VIR_ACCOUNT_TASK_QUEUE', settings.accountTaskQueue],
    ['VIR_RATE_LIMIT_PER_MINUTE', String(settings.rateLimitPerMinute)],
    ['VIR_RATE_LIMIT_PER_DAY', String(settings.rateLimitPerDay)],
    ['VIR_CREDIT_CAP_DAY', String(settings.creditCaps.day ?? '(none)')],
    ['VIR_CREDIT_CAP_WEEK', String(settings.creditCaps.week ?? '(none)')],
    ['VIR_CREDIT_CAP_MONTH', String(settings.creditCaps.month ?? '(none)')],
    ['VIR_STORE_DIR', settings.storeDir],
    ['VIR_STORE_URL', settings.store.kind === 's3' ? settings.store.url : '(local folder VIR_STORE_DIR)'],
    ['VIR_REPORTS_DIR', settings.reportsDir],
    ['VIR_DESTINATION_ROOTS', settings.destinationRoots.join(',') || '(none)'],
    ['VIR_REPORT_NOTICE', settings.reportNotice ?? '(none)'],
    ['VIR_DECK_CA_FILE', settings.deckCaFile ?? '(the system CAs only)'],
    ['VIR_DATA_DIR', settings.dataDir],
    ['VIR_HTTP_TIMEOUT_MS', String(settings.httpTimeoutMs)],
    ['VIR_LOG_LEVEL', settings.logLevel],
    ['VIR_TEMPORAL_UI_PORT', String(settings.temporalUiPort)],
    ['VIR_SANDBOX_PORT', String(settings.sandboxPort)],
    ['VIR_DEV_SMTP_PORT', String(settings.devSmtpPort)],
    ['VIR_DEV_S3_PORT', String(settings.devS3Port)],
    ['VIR_PORTAL_PORT', String(settings.portalPort)],
    ['VIR_PORTAL_TOKEN', settings.portalToken ? '(set)' : '(not set: the portal answers this machine only)'],
    ['VIR_PORTAL_URL', settings.portalUrl ?? '(not set: delivered emails carry no portal link)'],
    ['VIR_WORKFLOWS_MODULE', settings.workflowsModule ?? '(the product workflows)'],
  ];
}
