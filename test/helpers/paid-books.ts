/**
 * The books a test reads from the outside to prove what a run paid: the account's balance in
 * the sandbox's own books, what the sandbox's request log says was charged, the account ledger's
 * spend of a job, and the run's manifest.
 */
import { readFileSync } from 'node:fs';
import { AccountLink, accountIdOf } from '../../activities/account.js';
import { CATALOG } from '../../api/catalog.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import type { AfterChargeFaults, SandboxRequest } from '../../sandbox/types.js';
import type { RunnerHarness } from './runner.js';

/** The account's balance in the sandbox's own books (not through the API). */
export function bookBalance(sandbox: RunningSandbox, key: string): number {
  const id = sandbox.state.keys.get(key)!.account_id;
  return sandbox.state.accounts.get(id)!.credits;
}

/** The sandbox's requests logged from `from` on (an index taken before the run). */
export function requestsSince(sandbox: RunningSandbox, from: number): SandboxRequest[] {
  return sandbox.requestLog().slice(from);
}

/**
 * The requests the service charged for, by the log alone: a paid operation answered 200, or
 * whose answer an after-charge fault replaced (the service did the work and charged).
 */
export function chargedRequests(requests: readonly SandboxRequest[]): SandboxRequest[] {
  return requests.filter((r) => {
    const price = (CATALOG as Record<string, { credits: number } | undefined>)[r.operation]?.credits ?? 0;
    if (price === 0) return false;
    return r.fault ? r.fault.startsWith('after-charge ') : r.status === 200;
  });
}

/** The credits those requests cost at the catalog's prices. */
export function creditsOfRequests(requests: readonly SandboxRequest[]): number {
  return requests.reduce(
    (sum, r) =>
      sum + ((CATALOG as Record<string, { credits: number } | undefined>)[r.operation]?.credits ?? 0),
    0,
  );
}

/** What a run's manifest says it did, as far as credits go. */
export interface CreditsManifest {
  credits: { charged: number; budget: number };
  status: 'complete' | 'partial';
  reasons: string[];
  calls: {
    byOperation: Record<string, number>;
    attempts?: { byOperation: Record<string, { attempted: number; succeeded: number; failed: number }> };
  };
}

export function readManifest(path: string): CreditsManifest {
  return JSON.parse(readFileSync(path, 'utf8')) as CreditsManifest;
}

/** What the account's ledger (one workflow per account) says a job spent this day. */
export async function ledgerSpentByJob(h: RunnerHarness, apiKey: string, jobId: string): Promise<number> {
  const link = new AccountLink({
    client: h.client,
    taskQueue: h.settings.accountTaskQueue,
    accountId: accountIdOf(h.settings.visBaseUrl, apiKey),
    perMinute: 60,
    perDay: 5000,
    caps: {},
  });
  const view = await link.view();
  return view?.spent.day.byJob[jobId] ?? 0;
}

/** What the outside saw of a run made under after-charge faults. */
export interface FaultedRun<R> {
  result: R;
  /** The account's balance before the run minus after it, in the sandbox's own books. */
  paid: number;
  /** How many after-charge faults the sandbox injected meanwhile. */
  faulted: number;
  /** The sandbox's requests meanwhile, and those the service charged for. */
  requests: SandboxRequest[];
  charged: SandboxRequest[];
}

/**
 * Runs `run` with the sandbox's after-charge faults set (cleared after it, whatever happens) and
 * reads the outside's books around it: the balance, the request log, the faults injected.
 *
 * @example
 * const r = await underAfterChargeFaults(sandbox, KEY, { dropRate: 1, operations: ['ask'], times: 1 }, 7, () =>
 *   followRun(await startJobRun(h.client, h.settings, job), QUIET));
 * expect(r.paid).toBe(creditsOfRequests(r.charged));
 */
export async function underAfterChargeFaults<R>(
  sandbox: RunningSandbox,
  key: string,
  faults: AfterChargeFaults,
  seed: number,
  run: () => Promise<R>,
): Promise<FaultedRun<R>> {
  sandbox.setFaults({ afterCharge: faults, seed });
  const before = bookBalance(sandbox, key);
  const from = sandbox.requestLog().length;
  const faultedBefore = sandbox.afterChargeFaulted();
  let result: R;
  try {
    result = await run();
  } finally {
    sandbox.setFaults({});
  }
  const requests = requestsSince(sandbox, from);
  return {
    result,
    paid: before - bookBalance(sandbox, key),
    faulted: sandbox.afterChargeFaulted() - faultedBefore,
    requests,
    charged: chargedRequests(requests),
  };
}
