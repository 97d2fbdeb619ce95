/**
 * How a run calls the service: `call`, `tryCall` and `paidCall`, their outcomes reported to the
 * run's books (run-books.ts). The rules:
 * - one call is one activity (the API activity on the rate-limited task queue, calls.ts); a paid
 *   call's activity makes one attempt, and the workflow decides whether to ask again;
 * - paid calls are reserved in the books before they are made and settled after; they go one
 *   at a time, and an attempt whose outcome is unknown is reconciled with the balance before it
 *   is asked again, so the service never charges twice without the run knowing;
 * - credits are money: a call the budget or the balance does not cover is not made.
 *
 * Workflow code: no I/O here, only decisions and commands.
 */
import { patched, sleep, type ActivityInterfaceFor } from '@temporalio/workflow';
import { creditsOf, type PaidOperation } from '../api/catalog.js';
import type { OperationName, ParamsIn } from '../api/operations.js';
import type { RunActivities } from '../activities/run.js';
import type { AccountCaps, ApiCallOutput, PaidCallAccount } from '../shared/types.js';
import {
  attemptsOfFailure,
  createCaller,
  failureMessage,
  outcomeUnknown,
  rateLimitedWait,
  runStoppingFailure,
  stopsRun,
  type Call,
  type CallHooks,
} from './calls.js';
import { ACCOUNT_LEDGER, LEDGER_BALANCE, PAID_CALLS_RECONCILED } from './patches.js';
import type { PaidCallRef, RunBooks } from './run-books.js';

/** The outcome of a paid call's reservation: refused at once (nothing called), or the call. */
export type PaidCall =
  { refused: string; result: Promise<null> } | { refused: null; result: Promise<ApiCallOutput | null> };

/**
 * Why a paid call gave the report nothing, or null when it answered: not asked (`refused`), its
 * answer lost after the service charged `charged` credits, or failed.
 */
export function paidCallProblem(refused: string | null, answered: boolean, charged: number): string | null {
  if (refused !== null) return `not asked: ${refused}`;
  if (answered) return null;
  return charged > 0
    ? `the answer was lost after the service charged ${charged} credit${charged === 1 ? '' : 's'} (see the manifest)`
    : 'the call failed (see the manifest)';
}

/** What a run's calls need: its books, its key, the account's ledger's terms, the activities. */
export interface RunCallsContext {
  books: RunBooks;
  /** The run's folder in the store (its workflow id). */
  runKey: string;
  /** Task queue of the API activities. */
  apiTaskQueue: string;
  /** The job's id: the account's ledger records what each job spent (absent: the run's key). */
  jobId?: string;
  /** The account's credit caps from the job file. */
  accountCaps?: AccountCaps;
  /** The generic activities on the jobs task queue. */
  activities: ActivityInterfaceFor<RunActivities>;
}

/** One call whose failure only makes the run partial (`what` names it in the reason). */
export type TryCall = <N extends OperationName>(
  operation: N,
  params: ParamsIn<N>,
  name: string,
  what: string,
) => Promise<ApiCallOutput | null>;

/** What the paid-call loop uses besides the run's context. */
interface PaidCallsContext extends RunCallsContext {
  rawPaidCall: Call;
  tryCall: TryCall;
}

/** The run's calls, reporting to its books. */
export function createRunCalls(ctx: RunCallsContext) {
  const { books, runKey } = ctx;
  const hooks: CallHooks = {
    onWait: (until) => books.setWait('', until),
    onAttempts: (operation, sent) => books.countAttempts(operation, sent),
  };
  const rawCall = createCaller(ctx.apiTaskQueue, hooks);
  const rawPaidCall = createCaller(ctx.apiTaskQueue, hooks, { paid: true });

  /** One call; a failure is thrown to the workflow. */
  async function call<N extends OperationName>(
    operation: N,
    params: ParamsIn<N>,
    name: string,
  ): Promise<ApiCallOutput> {
    const out = await rawCall(operation, params, runKey, name);
    books.countCall(operation, 1);
    return out;
  }

  /** One call whose failure only makes the run partial (`what` names it in the reason). */
  async function tryCall<N extends OperationName>(
    operation: N,
    params: ParamsIn<N>,
    name: string,
    what: string,
  ): Promise<ApiCallOutput | null> {
    try {
      return await call(operation, params, name);
    } catch (err) {
      if (stopsRun(err)) throw runStoppingFailure(err);
      books.partial(`${what}: ${failureMessage(err)}`);
      return null;
    }
  }

  const paid: PaidCallsContext = { ...ctx, rawPaidCall, tryCall };
  /** Paid calls of the run go one at a time, so a balance read tells which one was charged. */
  let paidQueue: Promise<unknown> = Promise.resolve();

  /**
   * A call that costs credits. Its price is reserved at once, in call order; when the run's
   * budget or the account's balance does not allow it, nothing is called and `refused` says why.
   */
  function paidCall<N extends PaidOperation>(
    operation: N,
    params: ParamsIn<N>,
    name: string,
    what: string,
  ): PaidCall {
    const cost = creditsOf(operation);
    const refused = books.reservePaid(cost);
    if (refused !== null) return { refused, result: Promise.resolve(null) };
    if (patched(PAID_CALLS_RECONCILED)) {
      const ref: PaidCallRef = { operation, name, what, cost };
      const result = paidQueue.then(() => reconciledPaidCall(paid, ref, params));
      paidQueue = result.catch(() => undefined);
      return { refused: null, result };
    }
    const result = tryCall(operation, params, name, what).then((out) => {
      books.settlePaid(name, cost, out?.charged ?? 0, out?.remaining ?? null);
      return out;
    });
    return { refused: null, result };
  }

  /** The run's caller itself: requests and daily-limit waits counted, the call not (paging counts its pages). */
  return { call, tryCall, paidCall, rawCall };
}

/** The account's balance now (my_account), or null when it cannot be read. */
async function balanceNow(ctx: PaidCallsContext, what: string): Promise<number | null> {
  const account = await ctx.tryCall('my_account', {}, `account/check-${ctx.books.callsMade}`, what);
  if (!account) return null;
  if (account.remaining !== null) return account.remaining;
  return ctx.activities.readAccountBalance({ ref: account.ref });
}

/** The reservation of a paid call's attempt in the account's ledger. */
function ledgerReservation(
  ctx: PaidCallsContext,
  name: string,
  attempt: number,
  credits: number,
): PaidCallAccount {
  return {
    reservationId: `${ctx.runKey}/${name}#${attempt}`,
    jobId: ctx.jobId ?? ctx.runKey,
    credits,
    ...(ctx.accountCaps ? { caps: ctx.accountCaps } : {}),
  };
}

/**
 * A paid call that is never charged twice without the run knowing. An attempt whose outcome is
 * unknown counts as charged until the balance, read again at once, shows otherwise; it is asked
 * again only when the budget covers another charge (a free repeat costs nothing), at most
 * `MAX_PAID_ATTEMPTS` times (the books decide: `askAgain`). Rate-limited answers (refused,
 * not charged) are waited out.
 */
async function reconciledPaidCall<N extends PaidOperation>(
  ctx: PaidCallsContext,
  call: PaidCallRef & { operation: N },
  params: ParamsIn<N>,
): Promise<ApiCallOutput | null> {
  const { books, activities } = ctx;
  const { operation, name, what } = call;
  let reserved = call.cost;
  const ledger = patched(ACCOUNT_LEDGER);
  for (let attempt = 1; ; attempt += 1) {
    const before = books.budget.balance;
    const account = ledger ? ledgerReservation(ctx, name, attempt, reserved) : undefined;
    try {
      // An answer asked again after a lost one carries what the lost ones cost (only an input:
      // the commands are the same), so its stored answer says what the account paid for it.
      const lost = books.paidCredits(name);
      const out = await ctx.rawPaidCall(operation, params, ctx.runKey, name, account, lost);
      books.countCall(operation, 1);
      books.settlePaid(name, reserved, out.charged, out.remaining);
      return out;
    } catch (err) {
      const wait = rateLimitedWait(err);
      if (wait !== null) {
        attempt -= 1;
        await sleep(wait);
        continue;
      }
      if (stopsRun(err)) {
        books.settlePaid(name, reserved, 0, null);
        throw runStoppingFailure(err);
      }
      if (!outcomeUnknown(err)) {
        books.settlePaid(name, reserved, 0, null);
        books.partial(`${what}: ${failureMessage(err)}`);
        return null;
      }
      let from = before;
      if (account && patched(LEDGER_BALANCE)) {
        from = (await activities.reservationBalance({ reservationId: account.reservationId })) ?? before;
      }
      const seen = await balanceNow(ctx, `balance check after ${what}`);
      const sent = attemptsOfFailure(err)?.sent ?? null;
      const paid = books.settleUnknownPaid(call, reserved, { from, seen }, sent);
      if (account) {
        await activities.settleAccountCredits({
          reservationId: account.reservationId,
          jobId: account.jobId,
          credits: paid,
          remaining: seen,
        });
      }
      const again = books.askAgain(call, attempt, paid, failureMessage(err));
      if (again === null) return null;
      reserved = again;
    }
  }
}
