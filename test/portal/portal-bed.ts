/**
 * What the portal's tests share: a real runner (workers on the suite's Temporal) against a real
 * sandbox, a CLI context on the same settings (the one the portal keeps, and the one `vir …`
 * runs with in process), a job file of the test's own, the portal on port 0, and a small HTTP
 * client that keeps cookies and reads a page's CSRF field, as a browser does.
 */
import { writeFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, inject } from 'vitest';
import type { CliContext } from '../../cli/context.js';
import { startPortal, type PortalOptions, type RunningPortal } from '../../portal/server.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { captureContext } from '../cli/helpers.js';
import { startRunner, type RunnerHarness } from '../helpers/runner.js';
import { startTestSandbox } from '../helpers/sandbox.js';

/** A response as the tests read it. */
export interface Got {
  status: number;
  headers: Headers;
  /** The body with the white space around tags removed and runs of it made one space (see {@link flat}). */
  text: string;
  /** The body as sent. */
  raw: string;
}

/**
 * HTML with the white space around its tags removed and other runs of it made one space: what a
 * browser shows does not change, and a test can match `<dt>Records</dt><dd>3</dd>` however the
 * page's source is laid out. The roles and column labels `table()` gives every cell (tested in
 * html.test.ts) are left out too, so a test matches a row as its page wrote it.
 */
export function flat(html: string): string {
  return html
    .replace(/ role="(?:table|rowgroup|row|columnheader|rowheader|cell)"/g, '')
    .replace(/ data-label="[^"]*"/g, '')
    .replace(/>\s+/g, '>')
    .replace(/\s+</g, '<')
    .replace(/\s+/g, ' ')
    .replace(/ \/>/g, '>');
}

/** An HTTP client that keeps cookies between requests and never follows redirects. */
export class PortalClient {
  readonly cookies = new Map<string, string>();
  constructor(
    readonly base: string,
    readonly headers: Record<string, string> = {},
  ) {}

  #keep(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq > 0) this.cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
  }

  #cookieHeader(): Record<string, string> {
    if (this.cookies.size === 0) return {};
    return { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') };
  }

  async request(path: string, init: RequestInit & { headers?: Record<string, string> } = {}): Promise<Got> {
    const res = await fetch(`${this.base}${path}`, {
      ...init,
      redirect: 'manual',
      headers: { accept: 'text/html', ...this.headers, ...this.#cookieHeader(), ...init.headers },
    });
    this.#keep(res);
    const raw = await res.text();
    return { status: res.status, headers: res.headers, text: flat(raw), raw };
  }

  get(path: string, headers: Record<string, string> = {}): Promise<Got> {
    return this.request(path, { headers });
  }

  /** POSTs a form (urlencoded), as a browser submits one. */
  post(path: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<Got> {
    return this.request(path, {
      method: 'POST',
      body: new URLSearchParams(form).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    });
  }

  /** GETs a page and POSTs its form at `action` with the CSRF field the page carries. */
  async submit(pagePath: string, action: string, extra: Record<string, string> = {}): Promise<Got> {
    const page = await this.get(pagePath);
    if (page.status !== 200) throw new Error(`GET ${pagePath}: ${page.status}\n${page.text}`);
    const form = new RegExp(
      `<form method="post" action="${action.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"[\\s\\S]*?</form>`,
    ).exec(page.text);
    if (!form) throw new Error(`no form posting to ${action} in ${pagePath}:\n${page.text}`);
    return this.post(action, { csrf: csrfOf(form[0]), ...extra });
  }
}

/** The CSRF field of a page or form. */
export function csrfOf(html: string): string {
  const m = /<input type="hidden" name="csrf" value="([^"]+)">/.exec(html);
  if (!m) throw new Error(`no CSRF field in:\n${html}`);
  return m[1]!;
}

/** The machine's first non-loopback IPv4 address, or null when it has none. */
export function outsideAddress(): string | null {
  for (const addresses of Object.values(networkInterfaces())) {
    for (const a of addresses ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  return null;
}

/** The settings of the runner as a `vir` environment: the same Temporal queues, store, reports. */
export function runnerEnv(
  h: RunnerHarness,
  key: string,
  extra: Record<string, string> = {},
): NodeJS.ProcessEnv {
  const s = h.settings;
  return {
    VIS_BASE_URL: s.visBaseUrl,
    VIS_API_KEY: key,
    TEMPORAL_ADDRESS: inject('temporalAddress'),
    VIR_TASK_QUEUE: s.taskQueue,
    VIR_API_TASK_QUEUE: s.apiTaskQueue,
    VIR_ACCOUNT_TASK_QUEUE: s.accountTaskQueue,
    VIR_STORE_DIR: s.storeDir,
    VIR_REPORTS_DIR: s.reportsDir,
    VIR_DATA_DIR: join(h.dir, 'data'),
    VIR_RATE_LIMIT_PER_MINUTE: String(s.rateLimitPerMinute),
    VIR_LOG_LEVEL: 'silent',
    ...extra,
  };
}

/** What a test file of the portal works with. */
export interface PortalBed {
  sandbox: RunningSandbox;
  runner: RunnerHarness;
  /** The environment of the portal's context and of `vir …` in process. */
  env: NodeJS.ProcessEnv;
  ctx: CliContext;
  /** The test's own job file (listed by the portal besides the project's). */
  jobFile: string;
  portal: RunningPortal;
  /** A client on the portal's address. */
  client(headers?: Record<string, string>): PortalClient;
}

/**
 * Starts the bed before the file's tests and closes it after them. `jobs` is the YAML of the
 * test's job file; `env` adds settings; `portal` adds options of the portal.
 */
export function usePortalBed(options: {
  name: string;
  key: string;
  jobs: (dir: string) => string;
  env?: Record<string, string>;
  portal?: Omit<PortalOptions, 'ctx'>;
}): PortalBed {
  const bed = {} as PortalBed;
  beforeAll(async () => {
    bed.sandbox = await startTestSandbox({ rateLimitPerMinute: 10_000 });
    bed.runner = await startRunner({ baseUrl: bed.sandbox.url, apiKey: options.key, name: options.name });
    bed.env = runnerEnv(bed.runner, options.key, options.env);
    bed.ctx = captureContext(bed.env).ctx;
    bed.jobFile = join(bed.runner.dir, `${options.name}-jobs.yaml`);
    writeFileSync(bed.jobFile, options.jobs(bed.runner.dir));
    bed.portal = await startPortal({
      ctx: bed.ctx,
      port: 0,
      jobFiles: [bed.jobFile],
      liveIntervalMs: 100,
      ...options.portal,
    });
    bed.client = (headers = {}) => new PortalClient(bed.portal.url, headers);
  });
  afterAll(async () => {
    await bed.portal?.close();
    await bed.ctx?.close();
    await bed.runner?.close();
    await bed.sandbox?.close();
  });
  return bed;
}
