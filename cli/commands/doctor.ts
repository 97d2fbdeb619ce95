/**
 * `vir doctor`: checks the key (my_account), the service's OpenAPI description, Temporal
 * (connect, system info, namespace) and optionally that workers poll the task queues. One
 * verdict line per check; exit code 1 when one fails.
 */
import { Connection } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';
import type { Command } from 'commander';
import { request } from 'undici';
import type { VisClient } from '../../api/client.js';
import { redactText } from '../../api/redact.js';
import { readAccount } from '../../api/read-account.js';
import type { Settings } from '../../config/settings.js';
import { serviceClient } from '../../runtime/service.js';
import type { CliContext } from '../context.js';
import { positiveIntOption } from '../options.js';

export interface CheckResult {
  name: 'key' | 'openapi' | 'temporal' | 'worker';
  ok: boolean;
  /** What was found (ok) or why it failed. */
  detail: string;
}

export interface DoctorReport {
  ok: boolean;
  checks: CheckResult[];
}

export interface DoctorOptions {
  /** Also check that workers poll VIR_TASK_QUEUE, VIR_API_TASK_QUEUE and VIR_ACCOUNT_TASK_QUEUE. */
  worker?: boolean;
  /** Time limit of each network step (ms). Default 10 000. */
  timeoutMs?: number;
}

function reason(err: unknown, secrets: readonly string[]): string {
  const message = err instanceof Error ? err.message : String(err);
  return redactText(message.split('\n')[0] ?? message, secrets);
}

/** (a) The key: my_account answers with the plan, the credits and the tools. */
export async function checkKey(settings: Settings, timeoutMs = 10_000): Promise<CheckResult> {
  const secrets = settings.visApiKey ? [settings.visApiKey] : [];
  let client: VisClient | null = null;
  try {
    client = serviceClient(settings, { timeoutMs });
    const account = readAccount(await client.call('my_account', {}));
    const tools = account.tools ?? [];
    const credits = account.balance ?? 'unknown';
    return {
      name: 'key',
      ok: true,
      detail: `plan ${account.plan ?? 'not provided by the service'}, ${credits} credits, ${tools.length} tools${tools.length ? ` (${tools.join(', ')})` : ''}`,
    };
  } catch (err) {
    return { name: 'key', ok: false, detail: reason(err, secrets) };
  } finally {
    await client?.close();
  }
}

/** (b) GET <VIS_BASE_URL>/openapi.json is OpenAPI 3.1.x with info.version 1.0.0. */
export async function checkOpenApi(settings: Settings, timeoutMs = 10_000): Promise<CheckResult> {
  const url = `${settings.visBaseUrl}/openapi.json`;
  try {
    // Every call to the service carries the key (the spec's rule 1 of authentication), this one too.
    const headers: Record<string, string> = { accept: 'application/json' };
    if (settings.visApiKey) headers.authorization = `Bearer ${settings.visApiKey}`;
    const res = await request(url, {
      method: 'GET',
      headers,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const text = await res.body.text();
    if (res.statusCode !== 200)
      return { name: 'openapi', ok: false, detail: `GET ${url} answered ${res.statusCode}` };
    let doc: { openapi?: unknown; info?: { version?: unknown } };
    try {
      doc = JSON.parse(text) as typeof doc;
    } catch {
      return { name: 'openapi', ok: false, detail: `GET ${url} did not return JSON` };
    }
    if (typeof doc.openapi !== 'string' || !/^3\.1\.\d+$/.test(doc.openapi)) {
      return {
        name: 'openapi',
        ok: false,
        detail: `expected openapi 3.1.x, got ${JSON.stringify(doc.openapi ?? null)}`,
      };
    }
    if (doc.info?.version !== '1.0.0') {
      return {
        name: 'openapi',
        ok: false,
        detail: `expected info.version 1.0.0, got ${JSON.stringify(doc.info?.version ?? null)}`,
      };
    }
    return { name: 'openapi', ok: true, detail: `openapi ${doc.openapi}, version ${doc.info.version}` };
  } catch (err) {
    const secrets = settings.visApiKey ? [settings.visApiKey] : [];
    return { name: 'openapi', ok: false, detail: `GET ${url} failed: ${reason(err, secrets)}` };
  }
}

async function withConnection<T>(
  settings: Settings,
  timeoutMs: number,
  fn: (c: Connection) => Promise<T>,
): Promise<T> {
  const connection = await Connection.connect({
    address: settings.temporalAddress,
    connectTimeout: timeoutMs,
  });
  try {
    return await connection.withDeadline(Date.now() + timeoutMs, () => fn(connection));
  } finally {
    await connection.close();
  }
}

/** (c) Temporal: connect, getSystemInfo, describeNamespace. */
export async function checkTemporal(settings: Settings, timeoutMs = 10_000): Promise<CheckResult> {
  try {
    return await withConnection(settings, timeoutMs, async (c) => {
      const info = await c.workflowService.getSystemInfo({});
      const ns = await c.workflowService.describeNamespace({ namespace: settings.temporalNamespace });
      const version = info.serverVersion || 'unknown version';
      return {
        name: 'temporal' as const,
        ok: true,
        detail: `${settings.temporalAddress}, server ${version}, namespace ${ns.namespaceInfo?.name ?? settings.temporalNamespace}`,
      };
    });
  } catch (err) {
    return {
      name: 'temporal',
      ok: false,
      detail: `${settings.temporalAddress} namespace ${settings.temporalNamespace}: ${reason(err, [])}`,
    };
  }
}

/** (d) Workers: a poller on the workflow queue, on the API activity queue and on the account workflows' queue. */
export async function checkWorker(settings: Settings, timeoutMs = 10_000): Promise<CheckResult> {
  // TASK_QUEUE_TYPE_WORKFLOW = 1, TASK_QUEUE_TYPE_ACTIVITY = 2 (the proto package is CommonJS
  // without named ESM exports, so its enum object is not imported at run time).
  const queues = [
    { name: settings.taskQueue, type: 1 as temporal.api.enums.v1.TaskQueueType, what: 'workflow' },
    { name: settings.apiTaskQueue, type: 2 as temporal.api.enums.v1.TaskQueueType, what: 'activity' },
    { name: settings.accountTaskQueue, type: 1 as temporal.api.enums.v1.TaskQueueType, what: 'account' },
  ];
  try {
    return await withConnection(settings, timeoutMs, async (c) => {
      const found: string[] = [];
      const missing: string[] = [];
      for (const q of queues) {
        const res = await c.workflowService.describeTaskQueue({
          namespace: settings.temporalNamespace,
          taskQueue: { name: q.name },
          taskQueueType: q.type,
        });
        const pollers = res.pollers?.length ?? 0;
        (pollers > 0 ? found : missing).push(
          `${q.name} (${q.what}): ${pollers} poller${pollers === 1 ? '' : 's'}`,
        );
      }
      return missing.length === 0
        ? { name: 'worker' as const, ok: true, detail: found.join(', ') }
        : {
            name: 'worker' as const,
            ok: false,
            detail: `no worker polls ${missing.join(', ')}: start one with \`vir worker\``,
          };
    });
  } catch (err) {
    return { name: 'worker', ok: false, detail: reason(err, []) };
  }
}

/**
 * Runs the checks in order and returns their verdicts.
 *
 * @example
 * const report = await runDoctor(loadSettings(), { worker: true });
 * if (!report.ok) process.exitCode = 1;
 */
export async function runDoctor(settings: Settings, options: DoctorOptions = {}): Promise<DoctorReport> {
  const t = options.timeoutMs ?? 10_000;
  const checks = [
    await checkKey(settings, t),
    await checkOpenApi(settings, t),
    await checkTemporal(settings, t),
  ];
  if (options.worker) checks.push(await checkWorker(settings, t));
  return { ok: checks.every((c) => c.ok), checks };
}

/** One verdict line per check: `ok   key      plan paid, …` or `FAIL temporal …`. */
export function formatDoctor(report: DoctorReport): string[] {
  return report.checks.map((c) => `${c.ok ? 'ok  ' : 'FAIL'} ${c.name.padEnd(8)} ${c.detail}`);
}

/** Adds `doctor` to the program. */
export function registerDoctor(program: Command, ctx: CliContext): void {
  program
    .command('doctor')
    .description('check the key, the service, Temporal and (with --worker) the workers')
    .option('--worker', 'also check that workers poll the task queues')
    .option('--json', 'print machine-readable results')
    .option('--timeout <ms>', 'time limit of each network step', positiveIntOption, 10_000)
    .action(async (opts: { worker?: boolean; json?: boolean; timeout: number }) => {
      const settings = ctx.settings();
      const report = await runDoctor(settings, { worker: opts.worker === true, timeoutMs: opts.timeout });
      if (opts.json) ctx.io.out(JSON.stringify(report, null, 2));
      else for (const line of formatDoctor(report)) ctx.io.out(line);
      if (!report.ok) ctx.exitCode = 1;
    });
}
